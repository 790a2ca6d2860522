package safety

import "strings"

// Removing what others depend on from a registry or a release page cannot
// be undone: a version number, once unpublished or yanked, is not given
// back, and users' builds break. These handlers add that to the handlers
// of the package managers and the GitHub CLI.

// hNpm handles npm: unpublish is dangerous.
func hNpm(p *part, name string, args []field) {
	if op, _ := firstOperand(args); op.s == "unpublish" {
		p.raise(Dangerous, "removes a published package version from the registry for good")
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
