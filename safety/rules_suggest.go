package safety

import "strings"

// SuggestRule returns the allow rule that "always allow for this session"
// would save for a command that needs one approval: the program, its
// subcommand for tools that have them (or the script an interpreter runs),
// then "*". For example "go test ./pkg/..." gives "go test *" and
// "npm run build" gives "npm run *". The rule is checked to make the
// command safe when added. It returns "" when the command is safe already,
// dangerous (no rule lowers that), does not parse, or is too complex to
// generalise: several commands that need different rules, a program only
// known at run time, or a one-liner passed to an interpreter.
func SuggestRule(command string) string {
	c, err := NewClassifier(Rules{})
	if err != nil {
		return ""
	}
	return c.suggest(command)
}

func (c *Classifier) suggest(command string) string {
	sh := newShared(c)
	sh.record = true
	w := &walker{sh: sh, sc: newScope(), src: command}
	f, err := parseScript(command)
	if err != nil {
		return ""
	}
	w.sc.collect(f, command)
	w.stmts(f.Stmts, stream{})
	if sh.acc.top != Confirm {
		return ""
	}
	rule := ""
	for _, p := range sh.finished {
		if p.tier() != Confirm || len(p.levels) == 0 {
			continue
		}
		level := len(p.levels) - 1
		for _, r := range p.raises {
			if r.tier != Confirm {
				continue
			}
			if r.level == levelSticky {
				return ""
			}
			if r.level >= 0 && r.level < level {
				level = r.level
			}
		}
		pat := patternFor(p.levels[level])
		if pat == "" || (rule != "" && pat != rule) {
			return ""
		}
		rule = pat
	}
	if rule == "" {
		return ""
	}
	with, err := c.WithAllow(rule)
	if err != nil || with.Classify(command).Tier != Safe {
		return ""
	}
	return rule
}

// patternFor generalises one command line into a rule.
func patternFor(argv []field) string {
	if len(argv) == 0 || !argv[0].known() {
		return ""
	}
	prog := progName(argv[0].s)
	if len(argv) == 1 {
		return checkedRule(prog) // exactly this program with no arguments
	}
	words := []string{prog}
	if ruleKind(prog) != "" {
		if !argv[1].known() || strings.HasPrefix(argv[1].s, "-") || strings.ContainsAny(argv[1].s, "*?") {
			return ""
		}
		words = append(words, argv[1].s)
	}
	return checkedRule(strings.Join(words, " ") + " *")
}

func checkedRule(rule string) string {
	if _, err := compilePattern("allow", rule); err != nil {
		return ""
	}
	return rule
}

// ruleKind says which second word belongs in a suggested rule: the
// subcommand of a multi-command tool or the script of an interpreter.
func ruleKind(prog string) string {
	switch prog {
	case "git", "go", "npm", "yarn", "pnpm", "bun", "deno", "cargo", "rustup", "docker", "podman", "kubectl", "oc",
		"helm", "pip", "pip3", "pipx", "uv", "poetry", "pipenv", "pdm", "hatch", "conda", "brew", "apt", "apt-get",
		"dnf", "yum", "gh", "terraform", "tofu", "make", "gmake", "just", "task", "bundle", "gem", "dotnet", "mvn",
		"gradle", "gradlew", "aws", "gcloud", "az", "systemctl", "service", "mise", "asdf", "composer":
		return "subcommand"
	case "python", "python3", "python2", "pypy", "pypy3", "node", "nodejs", "ruby", "perl", "php", "lua", "sh",
		"bash", "zsh", "dash", "ksh", "fish", "pwsh", "powershell", "rscript", "julia", "java", "osascript":
		return "script"
	}
	return ""
}
