package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestHooksOfAnUntrustedProjectAreLeftOut: a cloned repository's hooks
// are programs it chose; until the person trusts it they are dropped, with
// a warning that says how to trust, and the user's own hooks stay.
func TestHooksOfAnUntrustedProjectAreLeftOut(t *testing.T) {
	for _, distrust := range []bool{true, false} {
		w := newWorld(t)
		w.writeUser(t, `{"hooks": {"Stop": [{"hooks": [{"command": "mine"}]}]}}`)
		w.writeProject(t, `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "theirs"}]}]}}`)
		c, s, err := Load(LoadOptions{ProjectRoot: w.root, Getenv: w.env.get, DistrustProject: distrust})
		if err != nil {
			t.Fatal(err)
		}
		_, projectKept := c.Hooks["PreToolUse"]
		if projectKept == distrust {
			t.Errorf("distrust=%v: project hooks kept = %v (%v)", distrust, projectKept, c.Hooks)
		}
		if got := c.Hooks["Stop"]; len(got) != 1 || got[0].Hooks[0].Command != "mine" || got[0].From.Kind != FromUserFile {
			t.Errorf("distrust=%v: the user's hooks are %+v", distrust, got)
		}
		warned := strings.Contains(strings.Join(s.Warnings, "\n"), "sets hooks, commands the project chose to run around every turn; they do not run until you trust this project with 'pincer trust'")
		if warned != distrust || slices.Contains(s.Ignored, "hooks") != distrust {
			t.Errorf("distrust=%v: warnings %q, ignored %v", distrust, s.Warnings, s.Ignored)
		}
		for _, w := range s.Warnings {
			if strings.Contains(w, "which decide where your API key goes") {
				t.Errorf("the warning about settings names the hooks too: %q", w)
			}
		}
		if !distrust && !slices.Contains(s.ProjectSensitive(), "hooks") {
			t.Errorf("ProjectSensitive %v lacks hooks, so pincer trust would not show them", s.ProjectSensitive())
		}
	}
}

// TestHookValidation: each mistake is one sentence that names the place
// in the hooks, where it was written and the fix.
func TestHookValidation(t *testing.T) {
	tests := []struct {
		name, hooks string
		kind        error
		contains    []string
	}{
		{"misspelt event", `{"PreToolUs": [{"hooks": [{"command": "x"}]}]}`, ErrInvalidValue,
			[]string{`hooks has the event "PreToolUs" (from ~/.config/pincer/config.json), which pincer does not know (did you mean "PreToolUse"?)`, "use one of SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop"}},
		{"bad matcher", `{"PreToolUse": [{"matcher": "run_(command", "hooks": [{"command": "x"}]}]}`, ErrInvalidValue,
			[]string{`hooks.PreToolUse[0].matcher "run_(command" (from ~/.config/pincer/config.json) is not a regular expression`, `or "*" for every tool`}},
		{"no hooks", `{"Stop": [{"matcher": ""}]}`, ErrMissing,
			[]string{`hooks.Stop[0] (from ~/.config/pincer/config.json) has no hooks; add {"type": "command", "command": "..."}`}},
		{"empty command", `{"Stop": [{"hooks": [{"type": "command", "command": " "}]}]}`, ErrMissing,
			[]string{`hooks.Stop[0].hooks[0].command is empty (from ~/.config/pincer/config.json); give the shell command to run`}},
		{"other type", `{"Stop": [{"hooks": [{"type": "prompt", "command": "x"}]}]}`, ErrInvalidValue,
			[]string{`hooks.Stop[0].hooks[0].type is "prompt"`, `write "type": "command"`}},
		{"timeout too long", `{"UserPromptSubmit": [{"hooks": [{"command": "x", "timeout": 7200}]}]}`, ErrInvalidValue,
			[]string{`hooks.UserPromptSubmit[0].hooks[0].timeout is 7200`, "from 1 to 3600, or leave it out for 60"}},
		{"negative timeout", `{"UserPromptSubmit": [{"hooks": [{"command": "x", "timeout": -1}]}]}`, ErrInvalidValue,
			[]string{`timeout is -1`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.writeUser(t, `{"hooks": `+tt.hooks+`}`)
			_, _, err := w.load(Overrides{})
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("err = %v, want a config error", err)
			}
			found := false
			for _, p := range cerr.Problems {
				if p.Field != "hooks" || !errors.Is(p, tt.kind) {
					continue
				}
				found = true
				for _, c := range tt.contains {
					if !strings.Contains(p.Message, c) {
						t.Errorf("message %q lacks %q", p.Message, c)
					}
				}
			}
			if !found {
				t.Errorf("no %v problem on hooks in %v", tt.kind, err)
			}
		})
	}
}

// TestHookValidationAcceptsClaudeCodeSettings: the shape Claude Code's
// settings use loads as it is.
func TestHookValidationAcceptsClaudeCodeSettings(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"hooks": {
		"PreToolUse": [{"matcher": "run_command|write_file", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}],
		"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "gofmt -l ."}]}],
		"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "date"}]}],
		"SessionStart": [{"matcher": "startup", "hooks": [{"command": "git status -s"}]}],
		"Stop": [{"hooks": [{"command": "true"}]}]}}`)
	c, _ := w.mustLoad(t, Overrides{})
	if len(c.Hooks) != 5 {
		t.Fatalf("hooks %v", c.Hooks)
	}
}
