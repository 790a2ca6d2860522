package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"pincer/config"
)

// TestDescribeHooks: /hooks lists the hooks by event in the order they
// run, each with its matcher, timeout and where it came from, and says
// when a project's hooks wait for trust.
func TestDescribeHooks(t *testing.T) {
	root := t.TempDir()
	p := &project{root: root, cfg: config.Config{Hooks: map[string][]config.HookMatcher{
		"Stop": {{Hooks: []config.HookCommand{{Command: "make check"}}, From: config.Source{Kind: config.FromProjectFile, Name: filepath.Join(root, ".pincer.json")}}},
		"PreToolUse": {
			{Matcher: "run_command", Hooks: []config.HookCommand{{Command: "./guard.sh", Timeout: 5}}, From: config.Source{Kind: config.FromUserFile, Name: "/etc/pincer.json"}},
			{Hooks: []config.HookCommand{{Command: "./log.sh"}}, From: config.Source{Kind: config.FromProjectFile, Name: filepath.Join(root, ".pincer.json")}},
		},
	}}}
	want := "Hooks, in the order they run:\n" +
		"PreToolUse\n" +
		"  • ./guard.sh\n    matcher run_command · timeout 5s · from user file /etc/pincer.json\n" +
		"  • ./log.sh\n    matcher * · timeout 60s · from project .pincer.json\n" +
		"Stop\n" +
		"  • make check\n    timeout 60s · from project .pincer.json"
	if got := describeHooks(p); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	p.cfg.Hooks = nil
	p.srcs.Ignored = []string{"hooks"}
	got := describeHooks(p)
	for _, w := range []string{"No hooks are configured", "they do not run until you trust this project with 'pincer trust'"} {
		if !strings.Contains(got, w) {
			t.Errorf("%q lacks %q", got, w)
		}
	}
}
