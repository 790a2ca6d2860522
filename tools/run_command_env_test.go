//go:build !windows

package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/safety"
)

// TestRunCommandGitHardening checks that a command rated safe runs with
// git's program-running settings off, even when the repository sets them,
// and that a command the user approves runs with the repository's own.
func TestRunCommandGitHardening(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := tempRoot(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	marker := filepath.Join(root, "fsmonitor-ran")
	git("config", "core.fsmonitor", "touch "+marker)

	res := run(t, Options{Root: root}, "run_command", cmdArgs("git status --short", 0))
	if res.IsError {
		t.Fatalf("git status: %s", res.Content)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("git status, rated safe, ran the repository's core.fsmonitor")
	}
	res = run(t, Options{Root: root}, "run_command", cmdArgs("git config --get core.hooksPath", 0))
	if !strings.Contains(res.Content, "/dev/null") {
		t.Errorf("a safe git command sees core.hooksPath %q, want /dev/null", res.Content)
	}
	// Writing a file needs approval: the user's configuration applies.
	res = run(t, Options{Root: root}, "run_command", cmdArgs("git config --get core.fsmonitor > out.txt; cat out.txt", 0))
	if !strings.Contains(res.Content, "touch ") {
		t.Errorf("an approved command sees core.fsmonitor %q, want the repository's own", res.Content)
	}
}

// TestUnaskedCommandsGetNoSecretVariables: a command that runs without
// asking (inspect, or contained under auto) does not see variables named
// like secrets, whatever it does with its environment; one you approved
// (workspace) does.
func TestUnaskedCommandsGetNoSecretVariables(t *testing.T) {
	t.Setenv("MY_SERVICE_TOKEN", "tok-123")
	t.Setenv("DB_PASSWORD", "pw-456")
	t.Setenv("PINCER_TEST_PLAIN", "plain-789")
	root := tempRoot(t)
	for _, tc := range []struct {
		profile safety.Profile
		secrets bool
	}{{safety.ProfileInspect, false}, {safety.ProfileContained, false}, {safety.ProfileWorkspace, true}} {
		call := decode(t, Options{Root: root}, "run_command", cmdArgs("env", 0)).(Profiled).InProfile(tc.profile)
		res, err := call.Run(context.Background())
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", tc.profile, err, res.Content)
		}
		if !strings.Contains(res.Content, "plain-789") {
			t.Errorf("%s: an ordinary variable is missing:\n%s", tc.profile, res.Content)
		}
		for _, v := range []string{"tok-123", "pw-456"} {
			if strings.Contains(res.Content, v) != tc.secrets {
				t.Errorf("%s: secret %s shown = %v, want %v", tc.profile, v, !tc.secrets, tc.secrets)
			}
		}
	}
}
