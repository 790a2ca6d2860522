package safety

import (
	"path"
	"strings"
)

// download records a file a downloader writes, so that running it later
// in the same command counts as running downloaded code.
func (p *part) download(target string) {
	switch target {
	case "", "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		p.out = stream{present: true, taint: taintDownload}
		return
	}
	l := p.w.resolve(target)
	p.w.sh.downloaded[l.path] = true
	p.writes([]field{{s: target}})
}

// urlBase is the file name a downloader picks for a URL.
func urlBase(u string) string {
	u, _, _ = strings.Cut(u, "?")
	u, _, _ = strings.Cut(u, "#")
	b := path.Base(u)
	if b == "." || b == "/" || strings.Contains(b, ":") {
		return "index.html"
	}
	return b
}

// uploads raises for a local file sent to another machine.
func (p *part) uploads(file string) {
	file = strings.TrimPrefix(strings.TrimPrefix(file, "@"), "<")
	l := p.w.resolve(file)
	if t := p.w.sh.leaked[l.path]; t != 0 {
		p.raise(Dangerous, "sends "+display(file)+", written from "+leakWhat(t)+" earlier in the command, to another machine")
	} else if _, why := exfilLoc(l); why != "" {
		p.raise(Dangerous, "sends "+display(file)+" ("+why+") to another machine")
	} else if projectRoot(l, strings.ContainsAny(file, "*")) {
		p.raise(Dangerous, "sends the whole project to another machine")
	} else {
		p.raise(Confirm, "uploads "+display(file))
	}
}

func hCurl(p *part, name string, args []field) {
	ps := getopt(args, optSpec{
		shortArg: "oTdFHuXAebcEKrwyYzmxUQCPtD",
		longArg: []string{"output", "upload-file", "data", "data-binary", "data-raw", "data-ascii", "data-urlencode", "form", "form-string",
			"header", "user", "request", "user-agent", "referer", "cookie", "cookie-jar", "cert", "config", "range", "write-out",
			"speed-time", "speed-limit", "time-cond", "max-time", "proxy", "proxy-user", "quote", "continue-at", "ftp-port",
			"telnet-option", "dump-header", "output-dir", "url", "connect-timeout", "retry", "retry-delay", "retry-max-time",
			"cacert", "capath", "key", "resolve", "connect-to", "json", "variable", "expand-url", "trace", "trace-ascii", "stderr", "etag-save", "hsts", "alt-svc"},
	})
	p.raise(Confirm, "fetches from the network")
	var urls []string
	for _, o := range ps.operands {
		urls = append(urls, o.s)
	}
	urls = append(urls, ps.values("", "url")...)
	outputs := ps.values("o", "output")
	if len(outputs) == 0 && !ps.has("O", 0, "remote-name", "remote-name-all") {
		p.out = stream{present: true, taint: taintDownload}
	}
	dir := ""
	if d, ok := ps.value("", 0, "output-dir"); ok {
		dir = d + "/"
	}
	for _, o := range outputs {
		p.download(o)
	}
	if ps.has("O", 0, "remote-name", "remote-name-all") {
		for _, u := range urls {
			p.download(dir + urlBase(u))
		}
	}
	for _, f := range append(ps.values("Dc", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "etag-save", "hsts", "alt-svc"), ps.values("", "output-dir")...) {
		if f != "-" && f != "" {
			p.writes([]field{{s: f}})
		}
	}
	for _, f := range ps.values("T", "upload-file") {
		p.uploads(f)
	}
	for _, d := range ps.values("d", "data", "data-binary", "data-ascii", "data-urlencode", "json") {
		if i := strings.IndexByte(d, '@'); i >= 0 && (i == 0 || d[i-1] == '=') {
			p.uploads(d[i:])
		}
	}
	for _, d := range ps.values("", "data-urlencode") {
		// name@file sends the file's content.
		if i := strings.IndexByte(d, '@'); i > 0 && !strings.Contains(d[:i], "=") {
			p.uploads(d[i:])
		}
	}
	for _, f := range ps.values("F", "form") {
		if _, v, ok := strings.Cut(f, "="); ok && (strings.HasPrefix(v, "@") || strings.HasPrefix(v, "<")) {
			v, _, _ = strings.Cut(v, ";")
			p.uploads(v)
		}
	}
	if ps.has("K", 3, "config") {
		p.raise(Confirm, "reads options from a file")
	}
}

func hWget(p *part, name string, args []field) {
	ps := getopt(args, optSpec{
		shortArg: "OoaPieUtTwQABDIXlRD",
		longArg: []string{"output-document", "output-file", "append-output", "directory-prefix", "input-file", "execute", "user-agent",
			"tries", "timeout", "wait", "quota", "accept", "reject", "domains", "include-directories", "exclude-directories", "level",
			"post-data", "post-file", "header", "user", "password", "body-file", "method", "body-data", "load-cookies", "save-cookies", "use-askpass"},
	})
	p.raise(Confirm, "fetches from the network")
	dir := ""
	if d, ok := ps.value("P", 3, "directory-prefix"); ok {
		dir = d + "/"
	}
	if outs := ps.values("O", "output-document"); len(outs) > 0 {
		for _, o := range outs {
			p.download(o)
		}
	} else {
		for _, u := range ps.operands {
			p.download(dir + urlBase(u.s))
		}
	}
	for _, f := range ps.values("oa", "output-file", "append-output", "save-cookies") {
		p.writes([]field{{s: f}})
	}
	for _, f := range ps.values("", "post-file", "body-file") {
		p.uploads(f)
	}
	if ps.has("e", 3, "execute", "use-askpass") {
		p.raise(Confirm, "runs wget start-up commands")
	}
}

// hFetcher handles other downloaders (aria2c, fetch, httpie, lwp-download…):
// they print or save what they fetch.
func hFetcher(p *part, name string, args []field) {
	p.raise(Confirm, "fetches from the network")
	ps := getopt(args, optSpec{shortArg: "odO", longArg: []string{"output", "dir", "out", "outfile"}})
	saved := false
	for _, o := range ps.values("oO", "output", "out", "outfile") {
		p.download(o)
		saved = true
	}
	if !saved {
		p.out = stream{present: true, taint: taintDownload}
	}
}

// hPSFetcher handles Invoke-WebRequest and friends: -OutFile saves,
// otherwise the content is the cmdlet's output.
func hPSFetcher(p *part, name string, args []field) {
	p.raise(Confirm, "fetches from the network")
	saved := false
	for i, a := range args {
		switch {
		case psParam(a.s, "outfile", 2) || psParam(a.s, "destination", 2):
			if k, v, ok := strings.Cut(a.s, ":"); ok && k != "" && v != "" {
				p.download(v)
			} else if i+1 < len(args) {
				p.download(args[i+1].s)
			}
			saved = true
		case psParam(a.s, "infile", 2):
			if i+1 < len(args) {
				p.uploads(args[i+1].s)
			}
		}
	}
	if !saved {
		p.out = stream{present: true, taint: taintDownload}
	}
}

func hSSH(p *part, name string, args []field) {
	p.shellToNetwork()
	spec := optSpec{shortArg: "BbcDEeFIiJLlmOoPpQRSWw", posix: true}
	ps := getopt(args, spec)
	ops := args[ps.rest:]
	// Like OpenSSH, read options again after the host name (ssh host -p 22
	// cmd), unless -- ended them.
	if len(ops) > 1 && (ps.rest == 0 || args[ps.rest-1].s != "--") {
		more := getopt(ops[1:], spec)
		ps.opts = append(ps.opts, more.opts...)
		ops = append([]field{ops[0]}, ops[1+more.rest:]...)
	}
	for _, o := range ps.values("o") {
		p.sshOption(o)
	}
	if ps.has("F", 0) {
		p.raise(Confirm, "reads SSH options from a file")
	}
	p.out = stream{present: true, taint: taintDownload}
	if len(ops) < 2 {
		if !ps.has("Vv", 0) || len(ops) > 0 {
			p.raise(Confirm, "opens a session on another machine")
		}
		if len(ops) > 0 && p.stdin.present && !ps.has("NWs", 0) {
			// ssh host <<EOF … EOF: the remote shell runs what it reads.
			p.nestedStdin("the remote shell", scriptOpts{})
		}
		return
	}
	rest := ops[1:]
	p.raise(Confirm, "runs commands on another machine")
	if ps.has("s", 0) {
		return // a subsystem (sftp), not a command
	}
	p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{stdin: p.stdin})
}

// sshOption checks -o Key=Value for options that run local commands.
func (p *part) sshOption(o string) {
	k, v, ok := strings.Cut(o, "=")
	if !ok {
		k, v, _ = strings.Cut(o, " ")
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand", "permitlocalcommand":
		p.raise(Confirm, "runs a command through the SSH option "+strings.TrimSpace(k))
		p.nestedCommand(field{s: v}, scriptOpts{})
	}
}

func hScp(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "cFiJloPSDX"})
	for _, o := range ps.values("o") {
		p.sshOption(o)
	}
	if ps.has("S", 0) {
		p.raise(Confirm, "runs another program to connect")
	}
	p.raise(Confirm, "copies files between machines")
	ops := ps.operands
	if len(ops) < 2 {
		return
	}
	dest := ops[len(ops)-1]
	remoteDest := isRemote(dest.s)
	for _, src := range ops[:len(ops)-1] {
		if remoteDest && !isRemote(src.s) {
			p.uploads(src.s)
		}
	}
	if !remoteDest {
		p.writes([]field{dest})
	}
}

// isRemote reports an scp/rsync operand of the form host:path.
func isRemote(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 || isWindowsPath(s) {
		return false
	}
	return !strings.Contains(s[:i], "/")
}

func hRsync(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "eTfBM", longArg: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "temp-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir", "suffix", "chmod", "chown", "usermap", "groupmap", "timeout", "contimeout", "port", "log-file", "log-file-format", "password-file", "bwlimit", "max-size", "min-size", "partial-dir", "out-format", "info", "debug", "compress-choice", "checksum-choice", "remote-option", "sockopts", "outbuf", "stop-after", "stop-at", "write-batch", "read-batch", "protocol", "iconv", "address"}})
	p.raise(Confirm, "copies files")
	if e, ok := ps.value("e", 3, "rsh"); ok {
		p.raise(Confirm, "runs "+display(e)+" to connect")
		p.nestedCommand(field{s: e}, scriptOpts{})
	}
	deletes := false
	for _, o := range ps.opts {
		if o.long && strings.HasPrefix(o.name, "del") || o.long && (o.name == "remove-source-files" || o.name == "prune-empty-dirs") {
			p.raise(Confirm, "deletes files")
			deletes = true
		}
	}
	ops := ps.operands
	if len(ops) < 2 {
		return
	}
	dest := ops[len(ops)-1]
	if l := p.w.resolve(dest.s); deletes && (l.path == "~" || l.path == "/" || l.path == "." || sensitiveLoc(l) != "") {
		p.raise(Dangerous, "deletes everything in "+display(dest.s)+" that the source lacks")
	}
	remoteDest := isRemote(dest.s) || strings.HasPrefix(dest.s, "rsync://")
	for _, src := range ops[:len(ops)-1] {
		if remoteDest && !isRemote(src.s) {
			l := p.w.resolve(src.s)
			if _, why := exfilLoc(l); why != "" {
				p.raise(Dangerous, "sends "+display(src.s)+" ("+why+") to another machine")
			} else if projectRoot(l, src.glob) {
				p.raise(Dangerous, "sends the whole project to another machine")
			}
		}
	}
	if !remoteDest {
		p.writes([]field{dest})
	}
}

// shellToNetwork raises when a network tool is fed the output of a shell
// that runs what it reads: cat fifo | sh -i | nc host port.
func (p *part) shellToNetwork() {
	if p.stdin.shell {
		p.raise(Dangerous, "sends a shell's output over the network (a remote shell)")
	}
}

func hNetcat(p *part, name string, args []field) {
	p.shellToNetwork()
	p.raise(Confirm, "opens a network connection")
	for _, a := range args {
		if a.s == "-e" || a.s == "-c" || strings.HasPrefix(a.s, "--exec") || strings.HasPrefix(a.s, "--sh-exec") || strings.HasPrefix(a.s, "--lua-exec") ||
			(strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "ec") && len(a.s) <= 4) {
			p.raise(Dangerous, "connects a program to the network (a remote shell)")
		}
	}
	p.out = stream{present: true, taint: taintDownload}
}

func hSocat(p *part, name string, args []field) {
	p.shellToNetwork()
	p.raise(Confirm, "opens a network connection")
	for _, a := range args {
		l := strings.ToLower(a.s)
		if strings.Contains(l, "exec:") || strings.Contains(l, "system:") {
			p.raise(Dangerous, "connects a program to the network (a remote shell)")
		}
	}
	p.out = stream{present: true, taint: taintDownload}
}

func hRemoteSession(p *part, name string, args []field) {
	p.shellToNetwork()
	p.raise(Confirm, "opens a session on another machine")
	if p.stdin.exact && (name == "sftp" || name == "ftp") {
		// A batch fed on standard input: put and mput send local files.
		for _, line := range strings.Split(p.stdin.literal, "\n") {
			f := strings.Fields(line)
			if len(f) > 1 && (f[0] == "put" || f[0] == "mput" || f[0] == "reput") {
				for _, file := range f[1:] {
					if !strings.HasPrefix(file, "-") {
						p.uploads(file)
					}
				}
			}
		}
	}
	p.out = stream{present: true, taint: taintDownload}
}
