package safety

import (
	"strconv"
	"strings"
)

// gitHardening is the git configuration a command rated Safe runs with.
// A safe command runs without anyone looking at it, so git must not run a
// program from configuration the command line did not show: a
// repository's core.fsmonitor and hooks, a bare repository found inside
// the project (whose config is in the tree, written by whoever wrote the
// tree), and the ext:: transport. Settings given on the command line win
// over every configuration file, and git reads them from GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>.
//
// None of these changes what a read shows: fsmonitor only speeds up
// status, read-only commands run no hooks, and a bare repository can still
// be named with --git-dir (which needs approval).
var gitHardening = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"safe.bareRepository", "explicit"},
	{"protocol.ext.allow", "never"},
}

// SafeEnv returns the environment entries to add when running a command
// that the built-in rules rate Safe: git configuration that turns off the
// settings that run programs (see gitHardening). It judges with the
// engine that finds dangers, without the closed list's proof, which needs
// a view of the disk SafeEnv does not have: so every command the agent's
// classifier proves safe (git grep over a clean tree, too) gets it, and
// so does an approved one the engine finds nothing against, for which
// the hardening changes nothing it needs. base is the environment
// the command would otherwise get; configuration already passed through
// GIT_CONFIG_COUNT there is kept, and the hardening is numbered after it,
// so it wins. For any other command SafeEnv returns nil: a command the user
// approved, or allowed with a rule, runs with their configuration (hooks
// included) as they expect.
func SafeEnv(command string, base []string) []string {
	c, err := NewClassifier(Rules{})
	if err != nil {
		return nil
	}
	c.engineOnly = true
	return envFor(c.Classify(command), base)
}

// envFor is SafeEnv for a verdict.
func envFor(v Verdict, base []string) []string {
	if v.Tier != Safe || v.Denied {
		return nil
	}
	start := 0
	for _, kv := range base {
		if n, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			if i, err := strconv.Atoi(n); err == nil && i > 0 && i < 1<<16 {
				start = i
			}
		}
	}
	out := make([]string, 0, 1+2*len(gitHardening))
	for i, kv := range gitHardening {
		n := strconv.Itoa(start + i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(start+len(gitHardening)))
}
