package safety

import "strings"

// Removing what others depend on from a registry or a release page cannot
// be undone: a version number, once unpublished or yanked, is not given
// back, and users' builds break. These handlers add that to the handlers
// of the package managers and the GitHub CLI.

// npmCodeOptions are npm's options that choose code it runs: the shell of
// package scripts, a config file (which may set that shell), the options
// every node a script starts gets (--require), the shell of npm exec.
var npmCodeOptions = []string{"script-shell", "userconfig", "globalconfig", "node-options", "shell"}

// npmCodeOption reports which of npmCodeOptions opt ("--name") names,
// spelled whole or shortened to at least three letters, as npm accepts.
func npmCodeOption(opt string) (string, bool) {
	name, ok := strings.CutPrefix(opt, "--")
	if !ok || len(name) < 3 {
		return "", false
	}
	for _, o := range npmCodeOptions {
		if strings.HasPrefix(o, name) {
			return o, true
		}
	}
	return "", false
}

// hNpm handles npm: unpublish is dangerous.
func hNpm(p *part, name string, args []field) {
	if op, _ := firstOperand(args); op.s == "unpublish" {
		p.raise(Dangerous, "removes a published package version from the registry for good")
	}
	// --script-shell names the program every package script runs with;
	// npm takes any unambiguous start of an option's name for it.
	for i, a := range args {
		opt, val, hasVal := strings.Cut(a.s, "=")
		what, ok := npmCodeOption(opt)
		if !ok {
			continue
		}
		if !hasVal && i+1 < len(args) {
			val = args[i+1].s
		}
		if what == "script-shell" {
			p.raiseSticky(Confirm, "runs package scripts with "+display(val)+" ("+display(opt)+")")
			p.nestedCommand(field{s: val, taint: a.taint}, scriptOpts{program: true})
			continue
		}
		p.raiseSticky(Confirm, display(a.s)+": --"+what+" chooses code npm or its scripts run")
	}
	subcommands(npmSpec)(p, name, args)
}

// hCargo handles cargo: yanking a published crate version is dangerous
// (cargo yank --undo brings it back).
func hCargo(p *part, name string, args []field) {
	if op, _ := firstOperand(args); op.s == "yank" && !hasWord(args, "--undo") {
		p.raise(Dangerous, "yanks a published crate version: builds that need it break")
	}
	subcommands(cargoSpec)(p, name, args)
}

// hGem handles gem: yanking a published gem is dangerous.
func hGem(p *part, name string, args []field) {
	if op, _ := firstOperand(args); op.s == "yank" {
		p.raise(Dangerous, "removes a published gem version from the registry for good")
	}
	subcommands(gemSpec)(p, name, args)
}

// hGitHub handles gh: deleting releases and their assets, and API calls
// with the DELETE method, are dangerous.
func hGitHub(p *part, name string, args []field) {
	var ops []string
	for _, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			ops = append(ops, a.s)
		}
	}
	if len(ops) > 1 && ops[0] == "release" && (ops[1] == "delete" || ops[1] == "delete-asset") {
		p.raise(Dangerous, "deletes a release or its files for good")
	}
	if len(ops) > 0 && ops[0] == "api" {
		for i, a := range args {
			m := ""
			switch {
			case (a.s == "-X" || a.s == "--method") && i+1 < len(args):
				m = args[i+1].s
			case strings.HasPrefix(a.s, "--method="):
				m = strings.TrimPrefix(a.s, "--method=")
			case strings.HasPrefix(a.s, "-X") && len(a.s) > 2:
				m = a.s[2:]
			}
			if strings.EqualFold(m, "DELETE") {
				p.raise(Dangerous, "deletes GitHub data through the API")
			}
		}
	}
	hGh(p, name, args)
}

// hGsutil handles gsutil: listing and reading are safe, removing buckets
// or every object under a prefix is dangerous, copying up checks what is
// sent.
func hGsutil(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "hopu", posix: true})
	ops := args[ps.rest:]
	if len(ops) == 0 {
		return
	}
	rest := getopt(ops[1:], optSpec{shortArg: "hpIL"})
	switch ops[0].s {
	case "ls", "cat", "du", "stat", "version", "help", "hash", "config":
		return
	case "rb":
		p.raise(Dangerous, "deletes a storage bucket")
	case "rm":
		if rest.has("ra", 0) {
			p.raise(Dangerous, "deletes every object under a prefix, or every version")
		}
	case "cp", "mv", "rsync":
		if len(rest.operands) > 1 && strings.HasPrefix(rest.operands[len(rest.operands)-1].s, "gs://") {
			for _, src := range rest.operands[:len(rest.operands)-1] {
				if !strings.Contains(src.s, "://") {
					p.uploads(src.s)
				}
			}
		}
		if ops[0].s == "rsync" && rest.has("d", 0) {
			p.raise(Dangerous, "deletes what the source lacks")
		}
	}
	p.raise(Confirm, "changes cloud storage")
}

// hFsutil handles fsutil: queries are safe; deleting the change journal or
// zeroing file data destroys records and data.
func hFsutil(p *part, name string, args []field) {
	words := strings.ToLower(joinFields(args))
	switch {
	case strings.Contains(words, "deletejournal") || strings.Contains(words, "setzerodata"):
		p.raise(Dangerous, "deletes the file system's change journal or zeroes file data")
	case strings.HasPrefix(words, "fsinfo") || strings.Contains(words, "query") || strings.HasPrefix(words, "volume diskfree"):
	default:
		p.raise(Confirm, "changes file system settings")
	}
}
