package safety

import "strings"

// wrapper returns a handler for programs that run the command that
// follows their options (nice, nohup, timeout, stdbuf, …): the wrapper
// itself is harmless and the command is classified as the next level.
// operands is the number of operands before the command (timeout's duration).
func wrapper(spec optSpec, operands int) handler {
	spec.posix = true
	return func(p *part, name string, args []field) {
		ps := getopt(args, spec)
		rest := args[ps.rest:]
		if len(rest) > 0 && rest[0].s == "--" {
			rest = rest[1:]
		}
		if len(rest) < operands {
			return
		}
		p.run(rest[operands:])
	}
}

func hSudo(p *part, name string, args []field) {
	p.raise(Dangerous, "runs as another user (usually root)")
	spec := optSpec{shortArg: "ugCDprtTUR", longArg: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "chroot", "host"}, posix: true}
	switch name {
	case "doas":
		spec = optSpec{shortArg: "uC", posix: true}
	case "pkexec", "run0":
		spec = optSpec{longArg: []string{"user", "description", "slice", "property", "unit", "setenv", "chdir", "nice", "machine"}, shortArg: "uD", posix: true}
	}
	ps := getopt(args, spec)
	rest := args[ps.rest:]
	if name == "sudoedit" || ps.has("e", 0, "edit") {
		p.writes(rest)
		return
	}
	if ps.has("l", 0, "list") || ps.has("vkK", 0, "validate", "reset-timestamp", "remove-timestamp") {
		return
	}
	if len(rest) > 0 && (ps.has("si", 0, "shell", "login")) {
		p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{stdin: p.stdin})
		return
	}
	if len(rest) == 0 && ps.has("si", 0, "shell", "login") {
		return
	}
	p.run(rest)
}

func hSu(p *part, name string, args []field) {
	p.raise(Dangerous, "runs as another user (usually root)")
	ps := getopt(args, optSpec{shortArg: "csgGuw", longArg: []string{"command", "session-command", "shell", "group", "supp-group", "user", "whitelist-environment"}})
	for _, code := range ps.values("c", "command", "session-command") {
		p.nestedCommand(field{s: code}, scriptOpts{})
	}
	if name == "runuser" {
		if i := indexOf(args, "--"); i >= 0 && i+1 < len(args) && !ps.has("c", 0, "command") {
			p.run(args[i+1:])
		}
	}
}

func hChroot(p *part, name string, args []field) {
	p.raise(Dangerous, "runs a command inside another root directory (needs root)")
	ps := getopt(args, optSpec{longArg: []string{"userspec", "groups"}, posix: true})
	if len(ps.operands) > 1 {
		p.run(ps.operands[1:])
	}
}

func indexOf(args []field, s string) int {
	for i, a := range args {
		if a.s == s {
			return i
		}
	}
	return -1
}

func hEnv(p *part, name string, args []field) {
	i := 0
	for i < len(args) {
		s := args[i].s
		switch {
		case s == "--":
			i++
			goto command
		case s == "-u" || s == "--unset" || s == "-C" || s == "--chdir":
			i += 2
		case s == "-S" || s == "--split-string" || strings.HasPrefix(s, "--split-string=") || (strings.HasPrefix(s, "-S") && len(s) > 2):
			str := ""
			switch {
			case s == "-S" || s == "--split-string":
				if i+1 < len(args) {
					str = args[i+1].s
				}
				i += 2
			case strings.HasPrefix(s, "--split-string="):
				str = strings.TrimPrefix(s, "--split-string=")
				i++
			default:
				str = s[2:]
				i++
			}
			var fs []field
			for _, w := range strings.Fields(str) {
				fs = append(fs, field{s: w})
			}
			p.run(append(fs, args[min(i, len(args)):]...))
			return
		case strings.HasPrefix(s, "-") && !strings.Contains(s, "="):
			i++
		case strings.Contains(s, "=") && !strings.HasPrefix(s, "=") && !args[i].split:
			k, v, _ := strings.Cut(s, "=")
			p.envAssign(k, v)
			i++
		default:
			goto command
		}
	}
command:
	if i >= len(args) {
		p.raise(Confirm, "prints every environment variable, which often hold secrets")
		return
	}
	p.run(args[i:])
}

func hCommand(p *part, name string, args []field) {
	ps := getopt(args, optSpec{posix: true})
	if ps.has("vV", 0) {
		return
	}
	p.run(args[ps.rest:])
}

func hExec(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "a", posix: true})
	p.run(args[ps.rest:])
}

func hNice(p *part, name string, args []field) {
	i := 0
	for i < len(args) {
		s := args[i].s
		switch {
		case s == "-n" || s == "--adjustment":
			i += 2
		case strings.HasPrefix(s, "-n") || strings.HasPrefix(s, "--adjustment=") || (len(s) > 1 && s[0] == '-' && isDigits(strings.TrimLeft(s[1:], "-+"))):
			i++
		case s == "--":
			i++
			p.run(args[i:])
			return
		default:
			p.run(args[i:])
			return
		}
	}
}

func hTime(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "of", longArg: []string{"output", "format"}, posix: true})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.run(args[ps.rest:])
}

func hStrace(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "oepPsuSIbEaXU", longArg: []string{"output", "expr", "attach", "trace-path", "string-limit", "user", "summary-sort-by", "env", "columns", "const-print-style", "decode-fds"}, posix: true})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.raise(Confirm, "traces a program")
	p.run(args[ps.rest:])
}

func hFlock(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "wEc", longArg: []string{"timeout", "conflict-exit-code", "command"}, posix: true})
	rest := args[ps.rest:]
	for _, code := range ps.values("c", "command") {
		p.nestedCommand(field{s: code}, scriptOpts{})
	}
	if len(rest) < 2 {
		return
	}
	if rest[1].s == "-c" || rest[1].s == "--command" {
		if len(rest) > 2 {
			p.nestedCommand(rest[2], scriptOpts{})
		}
		return
	}
	p.run(rest[1:])
}

func hWatch(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "nq", longArg: []string{"interval", "equexit"}, posix: true})
	rest := args[ps.rest:]
	if len(rest) == 0 {
		return
	}
	if ps.has("x", 3, "exec") {
		p.run(rest)
		return
	}
	p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{})
}

func hXargs(p *part, name string, args []field) {
	spec := optSpec{shortArg: "adEILnPs", longArg: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var", "max-lines"}, posix: true}
	ps := getopt(args, spec)
	repl := ""
	for _, o := range ps.opts {
		switch {
		case o.name == "I":
			repl = o.val
		case o.name == "i" || (o.long && strings.HasPrefix(o.name, "replace")):
			repl = "{}"
			if o.val != "" {
				repl = o.val
			}
		}
	}
	cmd := args[ps.rest:]
	if len(cmd) == 0 {
		p.out = stream{present: true, taint: p.stdin.taint}
		return
	}
	// The items xargs reads: known when its input is literal text, else one
	// unknown item that may be several words.
	items := []string{unknownMark}
	if p.stdin.exact && !strings.Contains(p.stdin.literal, unknownMark) {
		if repl != "" {
			items = strings.Split(strings.TrimRight(p.stdin.literal, "\n"), "\n")
		} else {
			items = []string{strings.Join(strings.Fields(p.stdin.literal), " ")}
		}
	}
	for i, item := range items {
		if i == 4 {
			break
		}
		var argv []field
		for _, f := range cmd {
			if repl != "" && strings.Contains(f.s, repl) {
				f = field{s: strings.ReplaceAll(f.s, repl, item), taint: f.taint | p.stdin.taint}
			}
			argv = append(argv, f)
		}
		if repl == "" {
			if item == unknownMark {
				argv = append(argv, field{s: unknownMark, split: true, taint: p.stdin.taint})
			} else {
				for _, w := range strings.Fields(item) {
					argv = append(argv, field{s: w})
				}
			}
		}
		p.runBulk(argv)
	}
}

func hParallel(p *part, name string, args []field) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		switch args[i].s {
		case "-j", "-P", "-S", "--jobs", "-a", "--arg-file", "--colsep", "-d", "--delimiter", "-E", "-I", "-n", "-N", "--max-args", "--sshlogin", "--workdir", "--tmpdir", "--results", "--joblog", "--timeout", "--delay", "--halt":
			i += 2
		default:
			i++
		}
	}
	i = min(i, len(args))
	j := i
	for j < len(args) && !strings.HasPrefix(args[j].s, ":::") {
		j++
	}
	cmd := args[i:j]
	if len(cmd) == 0 {
		p.raise(Confirm, "runs commands read from its input")
		return
	}
	if len(cmd) == 1 && strings.ContainsAny(cmd[0].s, " ;|&") {
		p.nestedCommand(cmd[0], scriptOpts{bulk: true})
		return
	}
	var argv []field
	for _, f := range cmd {
		if strings.Contains(f.s, "{") {
			f = field{s: unknownMark, taint: f.taint}
		}
		argv = append(argv, f)
	}
	p.runBulk(append(argv, field{s: unknownMark, split: true}))
}

func hBusybox(p *part, name string, args []field) {
	if len(args) == 0 || strings.HasPrefix(args[0].s, "-") {
		return
	}
	p.run(args)
}

func hScript(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "cEIOBTm", longArg: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"}})
	for _, code := range ps.values("c", "command") {
		p.nestedCommand(field{s: code}, scriptOpts{})
	}
	p.writes(ps.operands)
	p.raise(Confirm, "records a terminal session")
}

func hSshpass(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "pfdP", posix: true})
	p.run(args[ps.rest:])
}

// hDebugger handles gdb and lldb: --args (gdb) or -- (lldb) names the
// program it runs.
func hDebugger(p *part, name string, args []field) {
	p.raise(Confirm, "runs a program under a debugger")
	for i, a := range args {
		if a.s == "--args" || a.s == "--" {
			p.run(args[i+1:])
			return
		}
	}
}
