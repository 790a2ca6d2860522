package safety

import (
	"encoding/base64"
	"strings"
	"unicode/utf16"
)

// hShell handles sh, bash, zsh and the other POSIX-like shells.
func hShell(p *part, name string, args []field) {
	cmdMode, stdinMode := false, false
	i := 0
options:
	for i < len(args) {
		s := args[i].s
		switch {
		case s == "--" || s == "-":
			i++
			if s == "-" {
				stdinMode = true
			}
			break options
		case s == "--rcfile" || s == "--init-file":
			p.raise(Confirm, "runs a start-up file")
			i += 2
		case strings.HasPrefix(s, "--"):
			i++
		case len(s) > 1 && (s[0] == '-' || s[0] == '+') && !args[i].dynamic():
			letters := s[1:]
			if s[0] == '-' && strings.Contains(letters, "c") {
				cmdMode = true
			}
			if s[0] == '-' && strings.Contains(letters, "s") {
				stdinMode = true
			}
			i++
			if strings.ContainsAny(letters, "oO") {
				i++
			}
		default:
			break options
		}
	}
	rest := args[min(i, len(args)):]
	if !cmdMode && len(rest) == 0 && p.stdin.present {
		p.out = stream{present: true, shell: true}
	}
	if p.netRedirect() {
		p.raise(Dangerous, "connects a shell to a network socket (a remote shell)")
	}
	switch {
	case cmdMode:
		if len(rest) == 0 {
			return
		}
		o := scriptOpts{stdin: p.stdin}
		if !anyUnknown(rest[1:]) {
			// bash -c 'code' name a b: $0 is name, $1 is a.
			o.hasPos = true
			o.positional = []string{name}
			if len(rest) > 1 {
				o.positional = words(rest[1:])
			}
		}
		p.nestedCommand(rest[0], o)
	case stdinMode || len(rest) == 0:
		p.nestedStdin(name, scriptOpts{})
	default:
		p.scriptFile(rest[0], name)
	}
}

// scriptFile handles a program running a script file: ordinary scripts
// need approval; a script this command downloaded or a stream of another
// command is judged by where it came from.
func (p *part) scriptFile(f field, lang string) {
	l := p.w.resolve(f.s)
	switch {
	case f.taint&taintDownload != 0 || p.w.sh.downloaded[l.path]:
		p.raiseSticky(Dangerous, "runs a script downloaded from the network")
	case f.taint&taintDecoded != 0:
		p.raiseSticky(Dangerous, "runs a script that is decoded at run time")
	case l.path == "/dev/stdin" || l.path == "/dev/fd/0" || l.path == "/proc/self/fd/0":
		if !p.stdin.present {
			p.raiseSticky(Dangerous, "runs commands read from standard input, which pincer cannot read")
		}
		p.nestedStdin(lang, scriptOpts{})
	case f.proc:
		p.raiseSticky(Dangerous, "runs a script produced by another command, which pincer cannot read")
	default:
		p.raise(Confirm, "runs the script "+display(f.s))
		p.writtenScript(l.path, lang)
	}
}

// writtenScript classifies a script this command wrote earlier (echo … >
// x.sh; bash x.sh) as the code it holds. A script whose text is not known
// is code only known at run time, as if piped into the interpreter.
func (p *part) writtenScript(path, lang string) bool {
	text, ok := p.w.sh.wrote[path]
	if !ok {
		return false
	}
	if lang == "" && strings.HasPrefix(text, "#!") {
		first, _, _ := strings.Cut(text, "\n")
		for name, spec := range interps {
			if strings.Contains(first, name) {
				lang = spec.lang
				break
			}
		}
	}
	if _, isInterp := langInterp(lang); isInterp {
		if strings.TrimSpace(strings.ReplaceAll(text, unknownMark, "")) == "" {
			p.raiseSticky(Dangerous, "runs "+langName(lang)+" code written at run time, which pincer cannot read")
			return true
		}
		if strings.Contains(text, unknownMark) {
			p.raiseSticky(Confirm, "runs "+langName(lang)+" code with parts only known at run time")
		}
		p.interpCode(lang, field{s: text})
		return true
	}
	if lang == "PowerShell" {
		p.powerShellCode(field{s: text})
		return true
	}
	p.nestedCommand(field{s: text}, scriptOpts{})
	return true
}

// langInterp reports whether lang is one of the interpreters' languages.
func langInterp(lang string) (interp, bool) {
	for _, spec := range interps {
		if spec.lang == lang && lang != "" {
			return spec, true
		}
	}
	return interp{}, false
}

func hEval(p *part, name string, args []field) {
	if len(args) == 0 {
		return
	}
	code := field{s: joinFields(args), taint: fieldsTaint(args)}
	for _, a := range args {
		code.proc = code.proc || a.proc
	}
	p.nestedCommand(code, scriptOpts{shareScope: true, stdin: p.stdin})
}

func hSource(p *part, name string, args []field) {
	if len(args) == 0 {
		return
	}
	f := args[0]
	if f.s == "-" {
		p.nestedStdin("shell", scriptOpts{shareScope: true})
		return
	}
	p.scriptFile(f, "shell")
}

func hAlias(p *part, name string, args []field) {
	for _, a := range args {
		k, v, ok := strings.Cut(a.s, "=")
		if !ok || k == "" {
			continue
		}
		p.w.sc.aliases[k] = v
		// An alias runs its text when used; classify it as if it ran.
		p.nestedCommand(field{s: v, taint: a.taint}, scriptOpts{shareScope: true})
	}
}

func hTrap(p *part, name string, args []field) {
	if len(args) < 2 || strings.HasPrefix(args[0].s, "-") {
		return
	}
	p.nestedCommand(args[0], scriptOpts{shareScope: true})
}

func hCd(p *part, name string, args []field) {
	ps := getopt(args, optSpec{})
	dir := "~"
	if len(ps.operands) > 0 {
		dir = ps.operands[0].s
	}
	switch {
	case dir == "-" || strings.Contains(dir, unknownMark) || len(ps.operands) > 1:
		p.w.cwd = "?"
	default:
		l := placePath(dir, p.w.cwd)
		if l.path == "." {
			p.w.cwd = ""
		} else {
			p.w.cwd = l.path
		}
	}
}

func hUmask(p *part, name string, args []field) {
	ps := getopt(args, optSpec{})
	if len(ps.operands) == 0 {
		return
	}
	m := ps.operands[0].s
	if isOctal(m) {
		if last := m[len(m)-1]; last != '2' && last != '3' && last != '6' && last != '7' {
			p.raise(Confirm, "makes new files writable by everyone")
		}
		return
	}
	if strings.Contains(m, "o=") || strings.Contains(m, "w") {
		p.raise(Confirm, "changes the permissions new files get")
	}
}

// hBuiltinFlag handles builtins that are harmless except for one flag
// that runs or loads something (complete -C, bind -x, enable -f, hash -p).
func hBuiltinFlag(flags string, why string) handler {
	return func(p *part, name string, args []field) {
		for _, a := range args {
			if len(a.s) > 1 && a.s[0] == '-' && strings.ContainsAny(a.s[1:], flags) {
				p.raise(Confirm, why)
				return
			}
		}
	}
}

// hHistory handles the history builtin: clearing it, deleting entries,
// overwriting the history file or adding made-up entries covers tracks.
func hHistory(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "-") && strings.ContainsAny(a.s, "cdws") {
			p.raise(Dangerous, "clears, rewrites or forges the shell history")
			return
		}
		if strings.HasPrefix(a.s, "-") && strings.ContainsAny(a.s, "anr") {
			p.raise(Confirm, "changes the shell history")
			return
		}
	}
}

// hPSReadLineOption handles Set-PSReadLineOption: saving nothing, saving
// elsewhere or filtering what is saved hides the PowerShell history.
func hPSReadLineOption(p *part, name string, args []field) {
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = strings.ToLower(args[i+1].s)
		}
		switch {
		case psParam(a.s, "historysavestyle", 8) && next == "savenothing",
			psParam(a.s, "historysavepath", 8),
			psParam(a.s, "addtohistoryhandler", 3),
			psParam(a.s, "maximumhistorycount", 3) && (next == "0" || next == "1"):
			p.raise(Dangerous, "stops PowerShell from keeping its command history")
			return
		}
	}
	p.raise(Confirm, "changes PowerShell's line editor settings")
}

func hFc(p *part, name string, args []field) {
	for _, a := range args {
		if a.s == "-l" {
			return
		}
	}
	p.raise(Confirm, "runs commands again from the shell history")
}

// hCmdExe handles cmd /c "…".
func hCmdExe(p *part, name string, args []field) {
	for i, a := range args {
		if isWinSwitch(a.s, "c") || isWinSwitch(a.s, "k") || isWinSwitch(a.s, "r") {
			rest := args[i+1:]
			if len(rest) == 0 {
				return
			}
			p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{})
			return
		}
	}
	p.nestedStdin("cmd", scriptOpts{})
}

// hPowerShell handles powershell and pwsh with -Command, -EncodedCommand or -File.
func hPowerShell(p *part, name string, args []field) {
	for i := 0; i < len(args); i++ {
		s := strings.ToLower(args[i].s)
		if !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "/") {
			rest := args[i:]
			p.powerShellCode(field{s: joinFields(rest), taint: fieldsTaint(rest)})
			return
		}
		flag := strings.TrimLeft(s, "-/")
		if j := strings.IndexByte(flag, ':'); j >= 0 {
			flag = flag[:j]
		}
		switch {
		case flag == "e" || flag == "ec" || (len(flag) >= 2 && flag[1] == 'n' && strings.HasPrefix("encodedcommand", flag)):
			if i+1 >= len(args) {
				return
			}
			code, ok := decodePowerShell(args[i+1].s)
			if !ok {
				p.raise(Dangerous, "runs an encoded command pincer cannot read")
				return
			}
			p.raise(Confirm, "runs an encoded PowerShell command")
			p.powerShellCode(field{s: code})
			return
		case flag != "" && strings.HasPrefix("command", flag) || flag == "cwa" || strings.HasPrefix("commandwithargs", flag) && len(flag) > 7:
			rest := args[i+1:]
			if len(rest) == 0 || rest[0].s == "-" {
				p.nestedStdin("PowerShell", scriptOpts{})
				return
			}
			p.powerShellCode(field{s: joinFields(rest), taint: fieldsTaint(rest)})
			return
		case flag != "" && strings.HasPrefix("file", flag):
			if i+1 < len(args) {
				p.scriptFile(args[i+1], "PowerShell")
			}
			return
		case flag == "ep" || (len(flag) >= 2 && flag[1] == 'x' && strings.HasPrefix("executionpolicy", flag)):
			if i+1 < len(args) {
				switch strings.ToLower(args[i+1].s) {
				case "bypass", "unrestricted":
					p.raise(Dangerous, "turns off PowerShell's script checks ("+args[i+1].s+")")
				}
			}
			i++
		case
			flag == "w" || strings.HasPrefix("windowstyle", flag) && len(flag) > 1,
			strings.HasPrefix("version", flag) && flag != "", flag == "wd" || strings.HasPrefix("workingdirectory", flag) && len(flag) > 2,
			strings.HasPrefix("inputformat", flag) && flag != "", strings.HasPrefix("outputformat", flag) && len(flag) > 1,
			strings.HasPrefix("configurationname", flag) && len(flag) > 2, strings.HasPrefix("settingsfile", flag) && len(flag) > 1,
			strings.HasPrefix("custompipename", flag) && len(flag) > 2:
			i++
		}
	}
	p.nestedStdin("PowerShell", scriptOpts{})
}

func decodePowerShell(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// powerShellCode classifies PowerShell source: as shell words (cmdlet
// names are in the program table) and by the cmdlets it mentions.
func (p *part) powerShellCode(code field) {
	p.raise(Confirm, "runs PowerShell code")
	p.codeRules("powershell", code.s)
	p.nestedCommand(code, scriptOpts{})
}
