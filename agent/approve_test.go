package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/safety"
)

// TestAskRevealsLookAlikeNames checks that a command whose words are drawn
// like others they are not (a Cyrillic і in gіt, full-width letters, a
// no-break space) reaches every front end with a reason that says so by
// code point, and that ordinary text in another script does not.
func TestAskRevealsLookAlikeNames(t *testing.T) {
	cases := []struct {
		cmd  string
		want string // "" for no warning
	}{
		{"g\u0456t status", "“g\u0456t” is not “git”: it is g⟨U+0456⟩t"},
		{"\uff47\uff49\uff54 push", "it is ⟨U+FF47⟩⟨U+FF49⟩⟨U+FF54⟩"},
		{"ls\u00a0-la", "it is ls⟨U+00A0⟩-la"},
		{"/usr/bin/\u0441url x", "it is /usr/bin/⟨U+0441⟩url"},
		{"git status", ""},
		{"echo 'привет мир'", ""},
		{"git commit -m 'исправлена ошибка'", ""},
	}
	for _, tc := range cases {
		t.Run(tc.cmd, func(t *testing.T) {
			given := []string{"the classifier's reason"}
			var asked []Approval
			ask(context.Background(), ApproverFunc(func(_ context.Context, a Approval) (Decision, error) {
				asked = append(asked, a)
				return Decision{Allow: true}, nil
			}), Approval{Kind: ApproveCommand, Command: tc.cmd, Tier: safety.Dangerous, Reasons: given[:1:1]})
			if len(asked) != 2 {
				t.Fatalf("asked %d times, want both steps", len(asked))
			}
			for _, a := range asked {
				got := strings.Join(a.Reasons, "\n")
				if !strings.HasPrefix(got, "the classifier's reason") {
					t.Errorf("step %d lost the classifier's reasons: %q", a.Step, a.Reasons)
				}
				if tc.want == "" && strings.Contains(got, "” is not “") {
					t.Errorf("an ordinary command is flagged: %q", a.Reasons)
				}
				if tc.want != "" && !strings.Contains(got, tc.want) {
					t.Errorf("step %d reasons %q lack %q", a.Step, a.Reasons, tc.want)
				}
			}
		})
	}
}

// TestAcceptEditsOnlyAnswersProjectEdits checks what the accept-edits mode
// answers unasked, for every front end: an edit of the project's own
// files, and nothing whose path needs a yes of its own, nothing dangerous,
// nothing a hook asked, no command.
func TestAcceptEditsOnlyAnswersProjectEdits(t *testing.T) {
	edit := Approval{Kind: ApproveEdit, Tier: safety.Confirm}
	with := func(f func(*Approval)) Approval { a := edit; f(&a); return a }
	for _, tc := range []struct {
		name string
		a    Approval
		mode Mode
		want bool
	}{
		{"a project edit", edit, ModeAcceptEdits, true},
		{"a project edit, asking", edit, ModeAsk, false},
		{"outside the project", with(func(a *Approval) { a.PathAsked = true }), ModeAcceptEdits, false},
		{"dangerous", with(func(a *Approval) { a.Tier = safety.Dangerous }), ModeAcceptEdits, false},
		{"a hook asked", with(func(a *Approval) { a.HookAsked = true }), ModeAcceptEdits, false},
		{"a command", with(func(a *Approval) { a.Kind = ApproveCommand }), ModeAcceptEdits, false},
		{"a fetch", with(func(a *Approval) { a.Kind = ApproveWeb }), ModeAcceptEdits, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.AnsweredUnasked(tc.mode); got != tc.want {
				t.Errorf("AnsweredUnasked = %v, want %v", got, tc.want)
			}
		})
	}
}
