package safety

import (
	"path"
	"strings"
)

// Data that must not leave the machine unasked is tracked like downloaded
// code: a command that reads a secret, the home directory or the whole
// project marks what it prints, and a network tool that receives marked
// text (on its input, or in an argument through a substitution) is
// Dangerous. The bits sit high so that they never meet the others.
const (
	taintSecret taint = 1 << 6 // secrets, system files, private files of the home directory
	taintBulk   taint = 1 << 7 // the home directory, the root or the whole project
)

// exfilLoc names what a path holds when sending it off the machine is
// dangerous: secrets, the home or root directory, hidden files of the home
// directory, system files. Public keys (*.pub) hold nothing secret.
func exfilLoc(l loc) (taint, string) {
	l = windowsHome(l)
	if why := secretLoc(l); why != "" {
		return taintSecret, why
	}
	p := l.path
	switch {
	case p == "~":
		return taintBulk, "the home directory"
	case p == "/":
		return taintBulk, "the root directory"
	case strings.HasSuffix(p, ".pub"):
		return 0, ""
	case strings.HasPrefix(p, "~/.") && !strings.HasPrefix(p, "~/.."):
		return taintSecret, "private files of the home directory"
	case under(p, "/etc") || under(p, "/proc") || under(p, "/var/log") || under(p, "/root") || under(p, "/private/etc"):
		return taintSecret, "system files"
	}
	return 0, ""
}

// projectRoot reports a path that stands for the whole project (., ./, *).
func projectRoot(l loc, glob bool) bool {
	return l.path == "." || (glob && path.Dir(l.path) == "." && globAll(l.path))
}

// archivers print or send every file under the paths they are given.
var archivers = map[string]bool{
	"tar": true, "gtar": true, "bsdtar": true, "zip": true, "7z": true, "7za": true, "cpio": true, "pax": true, "rar": true,
	"jar": true, "rsync": true, "scp": true, "find": true,
}

// netSinks are programs that send what they read, or their arguments, to
// another machine.
var netSinks = map[string]bool{
	"curl": true, "wget": true, "wget2": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "ssh": true,
	"sftp": true, "telnet": true, "ftp": true, "tftp": true, "dig": true, "nslookup": true, "host": true, "ping": true,
	"ping6": true, "whois": true, "traceroute": true, "mtr": true, "http": true, "https": true, "xh": true, "aria2c": true,
	"fetch": true, "axel": true, "lwp-request": true, "openssl": true, "mail": true, "mailx": true, "sendmail": true,
	"mutt": true, "msmtp": true, "s3cmd": true, "rclone": true, "gsutil": true, "aws": true, "gcloud": true, "az": true,
	"gh": true, "invoke-webrequest": true, "iwr": true, "invoke-restmethod": true, "irm": true, "scp": true,
}

// leaks marks what this command prints when it reads something that must
// not leave the machine, and raises when it sends such data away.
func (p *part) leaks(argv []field) {
	if len(argv) == 0 {
		return
	}
	var src taint
	var what string
	for _, lv := range p.levels {
		if t, why := secretProgram(progName(lv[0].s), lv[1:], len(p.levels) == 1); t != 0 {
			src |= t
			what = why
		}
	}
	archiver := false
	for _, lv := range p.levels {
		archiver = archiver || archivers[progName(lv[0].s)]
	}
	for _, f := range argv[1:] {
		if f.dynamic() || !mayLeak(f.s) {
			continue
		}
		s := strings.TrimPrefix(f.s, "@")
		l := p.w.resolve(s)
		if t := p.w.sh.leaked[l.path]; t != 0 {
			src |= t
			what = display(s) + " (written from " + leakWhat(t) + " earlier in the command)"
		} else if t, why := exfilLoc(l); t != 0 {
			src |= t
			what = display(s) + " (" + why + ")"
		} else if archiver && projectRoot(l, f.glob) {
			src |= taintBulk
			what = "the whole project"
		}
	}
	p.out.taint |= src
	if src != 0 {
		// tar czf /tmp/p.tgz . writes the project into /tmp/p.tgz.
		for _, path := range p.wrote {
			p.w.sh.leaked[path] |= src
		}
		if progName(argv[0].s) == "zip" {
			// zip names its archive first, and the handler does not write it.
			if op, _ := firstOperand(argv[1:]); op.s != "" && op.s != "-" {
				p.w.sh.leaked[p.w.resolve(op.s).path] |= src
			}
		}
	}
	sent := p.stdin.taint
	for _, lv := range p.levels {
		for _, f := range lv[1:] {
			sent |= f.taint
		}
	}
	sink := p.netRedirect()
	for _, lv := range p.levels {
		sink = sink || netSinks[progName(lv[0].s)]
	}
	if !sink {
		return
	}
	switch progName(argv[0].s) {
	case "find", "fd", "xargs", "parallel":
		// What they find or read becomes the arguments of the command
		// they run: find ~/.ssh -exec curl -T {} …, xargs -a ~/.netrc curl.
		sent |= src
	}
	if p.netRedirect() {
		sent |= src
	}
	switch {
	case sent&taintSecret != 0:
		p.raiseSticky(Dangerous, "sends secrets or private files to another machine")
	case sent&taintBulk != 0:
		p.raiseSticky(Dangerous, "sends the home directory or the whole project to another machine")
	case src != 0 && p.netRedirect():
		p.raiseSticky(Dangerous, "sends "+what+" to another machine")
	}
}

// secretPrograms are the programs secretProgram knows.
var secretPrograms = map[string]bool{
	"env": true, "printenv": true, "set": true, "gpg": true, "gpg2": true, "security": true, "gh": true, "git": true,
	"aws": true, "gcloud": true, "az": true, "kubectl": true, "oc": true, "op": true, "pass": true, "gopass": true,
	"vault": true, "bw": true, "lpass": true,
}

// mayLeak is a cheap first look at an argument: only a word that can name
// a path outside the current directory, a hidden file, a secret-looking
// file or a Windows path is placed and checked.
func mayLeak(s string) bool {
	if s == "" || s[0] == '-' && !strings.Contains(s, "=") {
		return false
	}
	if strings.ContainsAny(s, "~/.%\\*") {
		return true
	}
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "id_") || strings.HasPrefix(l, "credentials") || strings.HasPrefix(l, "secret") ||
		strings.HasPrefix(l, "@") || isHistoryFile(l) || credentialFiles[l] || l == "htpasswd"
}

// secretProgram reports commands whose output is secret: dumps of the
// environment, exported private keys, tokens and passwords printed by
// credential tools; and whole-project archives (git archive, git bundle).
func secretProgram(name string, args []field, alone bool) (taint, string) {
	if !secretPrograms[name] {
		return 0, ""
	}
	ops := make([]string, 0, len(args))
	for _, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			ops = append(ops, a.s)
		}
	}
	two := strings.Join(ops[:min(2, len(ops))], " ")
	has := func(flags ...string) bool {
		for _, a := range args {
			for _, f := range flags {
				if a.s == f || strings.HasPrefix(a.s, f+"=") {
					return true
				}
			}
		}
		return false
	}
	switch name {
	case "env", "printenv":
		if alone && len(ops) == 0 {
			return taintSecret, "the environment"
		}
	case "set":
		if len(args) == 0 {
			return taintSecret, "the shell variables"
		}
	case "gpg", "gpg2":
		if has("--export-secret-keys", "--export-secret-subkeys") {
			return taintSecret, "private keys"
		}
	case "security":
		if strings.HasPrefix(two, "find-") && has("-w", "-g") {
			return taintSecret, "a keychain password"
		}
	case "gh":
		if two == "auth token" || (two == "auth status" && has("-t", "--show-token")) {
			return taintSecret, "a GitHub token"
		}
	case "git":
		switch {
		case two == "credential fill":
			return taintSecret, "git credentials"
		case len(ops) > 0 && (ops[0] == "archive" || ops[0] == "bundle"):
			return taintBulk, "the whole project"
		}
	case "aws":
		if two == "configure get" || two == "configure export-credentials" || two == "sts get-session-token" || (len(ops) > 1 && ops[1] == "get-login-password") {
			return taintSecret, "cloud credentials"
		}
	case "gcloud":
		if strings.Contains(strings.Join(ops, " "), "print-access-token") || strings.Contains(strings.Join(ops, " "), "print-identity-token") {
			return taintSecret, "a cloud token"
		}
	case "az":
		if two == "account get-access-token" {
			return taintSecret, "a cloud token"
		}
	case "kubectl", "oc":
		if (two == "config view" && has("--raw")) || (len(ops) > 1 && ops[0] == "get" && strings.HasPrefix(ops[1], "secret")) {
			return taintSecret, "cluster credentials"
		}
	case "op", "pass", "gopass", "vault", "bw", "lpass":
		if len(ops) > 0 {
			switch ops[0] {
			case "read", "show", "get", "item", "kv", "cat":
				return taintSecret, "a stored password"
			}
		}
	}
	return 0, ""
}

// keepWrites remembers what a redirection wrote: files filled with secrets
// or the whole project (tar cz . > /tmp/p.tgz), so that sending them later
// counts, and the text of files written out in the command (a Makefile
// from a here-document), so that running them later is judged by it.
func (w *walker) keepWrites(written []string, out stream) {
	for _, path := range written {
		if t := out.taint & (taintSecret | taintBulk); t != 0 {
			w.sh.leaked[path] |= t
		}
		text := unknownMark
		if out.exact {
			text = out.literal
		}
		if len(w.sh.wrote[path])+len(text) <= maxWritten {
			w.sh.wrote[path] += text
		} else {
			w.sh.wrote[path] = unknownMark
		}
	}
}

// maxWritten caps the text kept per file written in one command.
const maxWritten = 64 << 10

func leakWhat(t taint) string {
	if t&taintSecret != 0 {
		return "secrets or private files"
	}
	return "the home directory or the whole project"
}

// windowsHome reads a Windows spelling of a path in the home directory
// ("%USERPROFILE%\.ssh\id_rsa", $HOME\.aws) as ~/….
func windowsHome(l loc) loc {
	if !strings.Contains(l.path, `\`) && !strings.HasPrefix(l.path, "%") {
		return l
	}
	p := strings.ReplaceAll(l.path, `\`, "/")
	lower := strings.ToLower(p)
	for _, home := range []string{"%userprofile%", "%homedrive%%homepath%", "%homepath%", "$env:userprofile", "$home"} {
		if strings.HasPrefix(lower, home) {
			p = "~" + p[len(home):]
			break
		}
	}
	return placePath(p, "")
}
