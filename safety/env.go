package safety

import (
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
		return
	}
	for _, v := range p.w.valueAlts(a.Value) {
		p.envAssign(a.Name.Value, v)
	}
}

// envAssign checks one variable a command sets for itself or its children.
func (p *part) envAssign(name, value string) {
	switch {
	case commandVar(name):
		cmd := strings.TrimLeft(value, "|")
		cmd = strings.ReplaceAll(cmd, "%s", "FILE")
		if strings.Contains(cmd, unknownMark) {
			p.raiseSticky(Confirm, "sets "+name+", a command run later, to text only known at run time")
		}
		if strings.TrimSpace(cmd) != "" {
			p.w.script(asSource(cmd), scriptOpts{})
		}
	case codeVar(name):
		p.raiseSticky(Confirm, "sets "+name+", which changes what code runs")
	case toolEnvVar(name):
		p.toolEnv(name, value)
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
