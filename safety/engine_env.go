package safety

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assignment checks NAME=value before a command or on its own.
func (p *part) assignment(a *syntax.Assign) {
	if a.Name == nil || a.Naked {
		return
	}
	if a.Value == nil {
		if a.Array != nil && (commandVar(a.Name.Value) || codeVar(a.Name.Value)) {
			p.raiseSticky(Confirm, "sets "+a.Name.Value+", which changes what code runs")
		}
		if a.Array == nil && historyVar(a.Name.Value, "") {
			p.raiseSticky(Dangerous, "sets "+a.Name.Value+" to nothing, which stops the shell history from being kept")
		}
		return
	}
	for _, v := range p.w.valueAlts(a.Value) {
		p.envAssign(a.Name.Value, v)
	}
}

// envAssign checks one variable a command sets for itself or its children.
func (p *part) envAssign(name, value string) {
	switch {
	case historyVar(name, value):
		p.raiseSticky(Dangerous, "sets "+name+", which stops the shell history from being kept")
	case commandVar(name):
		if name == "PROMPT_COMMAND" {
			p.raiseSticky(Dangerous, "sets PROMPT_COMMAND, a command every interactive shell then runs")
		}
		cmd := strings.TrimLeft(value, "|")
		cmd = strings.ReplaceAll(cmd, "%s", "FILE")
		if strings.Contains(cmd, unknownMark) {
			p.raiseSticky(Confirm, "sets "+name+", a command run later, to text only known at run time")
		}
		if strings.TrimSpace(cmd) != "" {
			p.w.script(asSource(cmd), scriptOpts{})
		}
	case injectionVar(name, value):
		p.raiseSticky(Dangerous, "sets "+name+", which makes programs load or run other code")
	case codeVar(name):
		p.raiseSticky(Confirm, "sets "+name+", which changes what code runs")
	case toolEnvVar(name):
		p.toolEnv(name, value)
	default:
		p.envLoads(name, value)
	}
}

// commandVar lists variables whose value is a command some program runs.
func commandVar(name string) bool {
	switch name {
	case "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "BAT_PAGER", "DELTA_PAGER",
		"LESSOPEN", "LESSCLOSE", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
		"SVN_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS",
		"SSH_ASKPASS", "SUDO_ASKPASS", "PROMPT_COMMAND", "BROWSER", "FZF_DEFAULT_COMMAND",
		"RSYNC_RSH", "CVS_RSH", "GIT_PROXY_COMMAND", "TAR_OPTIONS":
		return true
	}
	return false
}

// codeVar lists variables that change which code a program loads or runs.
func codeVar(name string) bool {
	switch name {
	case "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH",
		"DYLD_FRAMEWORK_PATH", "PATH", "BASH_ENV", "ENV", "ZDOTDIR", "PYTHONPATH", "PYTHONSTARTUP",
		"PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT",
		"RUBYLIB", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_PARAMETERS",
		"GIT_CONFIG_COUNT", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
		"JDK_JAVA_OPTIONS", "IFS", "SHELLOPTS", "BASHOPTS", "GCONV_PATH", "RUSTC_WRAPPER",
		"CARGO_BUILD_RUSTC_WRAPPER", "LD_BIND_NOW", "MAKEFLAGS", "NPM_CONFIG_SCRIPT_SHELL",
		"npm_config_script_shell":
		return true
	}
	return strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") ||
		strings.HasPrefix(name, "BASH_FUNC_")
}

// injectionVar reports a variable that makes the dynamic loader or an
// interpreter load code of the setter's choosing into every program that
// starts: LD_PRELOAD and friends, start-up files (BASH_ENV, PYTHONSTARTUP)
// and interpreter options that preload a module.
func injectionVar(name, value string) bool {
	switch name {
	case "LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "GCONV_PATH", "BASH_ENV", "PYTHONSTARTUP", "PERL5OPT",
		"RUBYOPT", "ZDOTDIR":
		return true
	case "ENV":
		// sh runs the file $ENV names; ENV=production is an ordinary setting.
		return strings.ContainsAny(value, "/~.$") || strings.Contains(value, unknownMark)
	case "NODE_OPTIONS":
		return optionIn(value, "-r", "--require", "--import", "--loader", "--experimental-loader")
	case "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS":
		return optionIn(value, "-javaagent", "-agentlib", "-agentpath", "-XX:OnError", "-XX:OnOutOfMemoryError", "-Xbootclasspath")
	}
	return strings.HasPrefix(name, "DYLD_")
}

// optionIn reports whether an option string holds one of the options,
// alone, with =value or with :value.
func optionIn(value string, opts ...string) bool {
	if strings.Contains(value, unknownMark) {
		return true
	}
	for _, w := range strings.Fields(value) {
		for _, o := range opts {
			if w == o || strings.HasPrefix(w, o+"=") || strings.HasPrefix(w, o+":") || (len(o) == 2 && strings.HasPrefix(w, o) && len(w) > 2) {
				return true
			}
		}
	}
	return false
}

// historyVar reports a setting that stops the shell from keeping its
// history: another history file, a size too small to hold anything, or a
// pattern that ignores every command.
func historyVar(name, value string) bool {
	switch name {
	case "HISTFILE":
		return true
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		return err != nil || (n >= 0 && n < 100)
	case "HISTIGNORE", "HISTORY_IGNORE":
		for _, pat := range strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == '|' || r == '(' || r == ')' }) {
			if strings.Trim(pat, "*?") == "" {
				return true
			}
		}
	}
	return false
}

// hUnsetHistory handles unset for what it does to the shell history.
// unsetsHistory raises for unset HISTFILE (and the sizes): the shell stops
// saving its history.
func (p *part) unsetsHistory(args []field) {
	for _, a := range args {
		if a.s == "HISTFILE" || a.s == "HISTSIZE" || a.s == "HISTFILESIZE" || a.s == "SAVEHIST" {
			p.raise(Dangerous, "unsets "+a.s+", which stops the shell history from being kept")
			return
		}
	}
}

// historyOff raises for set +o history, which stops the shell keeping its
// history.
func (p *part) historyOff(args []field) {
	for i, a := range args {
		if a.s == "+o" && i+1 < len(args) && args[i+1].s == "history" {
			p.raise(Dangerous, "stops the shell history from being kept")
			return
		}
	}
}
