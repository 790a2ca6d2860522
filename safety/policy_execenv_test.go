package safety

import (
	"strings"
	"testing"
)

func TestSafeEnv(t *testing.T) {
	got := SafeEnv("git status", []string{"HOME=/home/u"})
	want := "GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=false GIT_CONFIG_KEY_1=core.hooksPath GIT_CONFIG_VALUE_1=/dev/null " +
		"GIT_CONFIG_KEY_2=safe.bareRepository GIT_CONFIG_VALUE_2=explicit GIT_CONFIG_KEY_3=protocol.ext.allow GIT_CONFIG_VALUE_3=never GIT_CONFIG_COUNT=4"
	if strings.Join(got, " ") != want {
		t.Errorf("SafeEnv(git status) = %q\nwant %q", got, want)
	}
	// The user's own command-line configuration is kept and numbered first.
	got = SafeEnv("git log", []string{"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=a.b", "GIT_CONFIG_VALUE_0=c"})
	if len(got) == 0 || got[0] != "GIT_CONFIG_KEY_2=core.fsmonitor" || got[len(got)-1] != "GIT_CONFIG_COUNT=6" {
		t.Errorf("SafeEnv after two settings of the user = %q", got)
	}
	// Commands whose proof needs the disk still run hardened.
	for _, cmd := range []string{"git grep foo", "find . -name '*.go' -exec git log -1 -- {} \\;"} {
		if got := SafeEnv(cmd, nil); len(got) == 0 {
			t.Errorf("SafeEnv(%q) is empty; a safe git read must run hardened", cmd)
		}
	}
	for _, cmd := range []string{"git commit -m x", "git push", "rm -rf x", "go test ./...", "ls > out.txt"} {
		if got := SafeEnv(cmd, nil); got != nil {
			t.Errorf("SafeEnv(%q) = %q; a command that asks runs with the user's configuration", cmd, got)
		}
	}
}
