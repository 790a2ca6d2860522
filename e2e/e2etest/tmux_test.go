package e2etest

import (
	"os/exec"
	"testing"
)

func TestTmuxMissingFailsUnderCI(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/tmux", nil }
	notFound := func(string) (string, error) { return "", exec.ErrNotFound }
	env := func(ci string) func(string) string {
		return func(k string) string {
			if k == "CI" {
				return ci
			}
			return ""
		}
	}
	cases := []struct {
		name     string
		ci       string
		look     func(string) (string, error)
		skip     bool
		wantFail bool
	}{
		{"installed", "", found, false, false},
		{"installed under CI", "true", found, false, false},
		{"missing on a developer machine", "", notFound, true, false},
		{"missing under CI", "true", notFound, true, true},
	}
	for _, tc := range cases {
		why, fail := tmuxMissing(env(tc.ci), tc.look)
		if (why != "") != tc.skip || fail != tc.wantFail {
			t.Errorf("%s: tmuxMissing = %q, %v; want missing=%v fail=%v", tc.name, why, fail, tc.skip, tc.wantFail)
		}
	}
}
