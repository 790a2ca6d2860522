package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/checkpoint"
	"pincer/rewind"
	"pincer/tools"
)

// TestRewindDialog: the preview lists what changes, marks files changed
// outside pincer, asks a second y before overwriting them, and cancels
// on Esc.
func TestRewindDialog(t *testing.T) {
	files := func(outside bool) []rewindFile {
		return []rewindFile{
			{change: checkpoint.Change{Path: "edit.txt", Kind: checkpoint.Modified}, outside: outside,
				diff: &tools.Change{Path: "edit.txt", Rel: "edit.txt", Before: []byte("now\n"), After: []byte("then\n")}},
			{change: checkpoint.Change{Path: "new.txt", Kind: checkpoint.Removed}},
		}
	}
	for _, tc := range []struct {
		name    string
		outside []string
		keys    []string
		done    []bool
		shows   []string
	}{
		{"plain", nil, []string{"y"}, []bool{true}, []string{"~ edit.txt", "- new.txt", "y rewind"}},
		{"outside changes take two", []string{"edit.txt"}, []string{"y", "y"}, []bool{false, true},
			[]string{"changed outside pincer", "would be overwritten"}},
		{"esc cancels", []string{"edit.txt"}, []string{"esc"}, []bool{true}, nil},
		{"n cancels", nil, []string{"n"}, []bool{true}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 100, 34)
			plan := rewind.Plan{Turn: rewind.Turn{N: 2, Prompt: "do it"}, Mode: rewind.Both, Outside: tc.outside, Dropped: 3}
			d := &rewindDialog{app: a, plan: plan, files: files(len(tc.outside) > 0), opened: time.Now().Add(-time.Second)}
			d.pick(0)
			view := d.View(100, 34, a.styles)
			for _, want := range append([]string{"Rewind to #2 do it", "3 messages"}, tc.shows...) {
				if !strings.Contains(view, want) {
					t.Errorf("the preview lacks %q:\n%s", want, view)
				}
			}
			for i, k := range tc.keys {
				key := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
				if k == "esc" {
					key = tea.KeyPressMsg{Code: tea.KeyEscape}
				}
				done, _ := d.Update(key)
				if done != tc.done[i] {
					t.Errorf("key %d %q: done %v, want %v", i, k, done, tc.done[i])
				}
			}
		})
	}
}

// TestRewindDialogIgnoresEarlyKeys: a key still held from the picker
// cannot rewind the moment the preview opens.
func TestRewindDialogIgnoresEarlyKeys(t *testing.T) {
	a := newTestApp(t, 100, 34)
	d := &rewindDialog{app: a, plan: rewind.Plan{Mode: rewind.ConversationOnly}, opened: time.Now()}
	if done, _ := d.Update(tea.KeyPressMsg{Code: 'y', Text: "y"}); done {
		t.Error("a y right after opening rewound")
	}
}

// TestRewindPreviewSaysRemoved: a file the rewind deletes is shown as
// removed, not as emptied.
func TestRewindPreviewSaysRemoved(t *testing.T) {
	a := newTestApp(t, 100, 34)
	files := []rewindFile{{change: checkpoint.Change{Path: "new.txt", Kind: checkpoint.Removed},
		diff: &tools.Change{Path: "new.txt", Rel: "new.txt", Before: []byte("made\n"), Removed: true}}}
	d := &rewindDialog{app: a, plan: rewind.Plan{Turn: rewind.Turn{N: 1}, Mode: rewind.CodeOnly}, files: files}
	d.pick(0)
	view := d.View(100, 34, a.styles)
	if !strings.Contains(view, "file removed") || strings.Contains(view, "emptied") {
		t.Errorf("the preview of a removed file:\n%s", view)
	}
}

// TestCustomCommandsKeepBuiltinNames: a custom command named like a
// built-in one does not replace it; others join the list.
func TestCustomCommandsKeepBuiltinNames(t *testing.T) {
	a := newTestApp(t, 100, 30)
	custom := []Command{
		PromptCommand(CustomCommand{Name: "help", Help: "mine"}),
		PromptCommand(CustomCommand{Name: "review", Args: "FILE", Help: "review a file"}),
	}
	a2 := New(Options{Agent: a.agent, Root: a.opts.Root, Theme: a.theme, Commands: custom})
	var helps, reviews int
	for _, c := range a2.cmdList {
		switch {
		case c.Name == "help" && c.Help == "mine":
			helps++
		case c.Name == "review":
			reviews++
		}
	}
	if helps != 0 || reviews != 1 {
		t.Errorf("custom help kept %d times, review %d times; want 0 and 1", helps, reviews)
	}
}

// TestCustomCommandHelpIsSanitised: a project's command description can
// hold escape sequences; the help screen shows them as pictures.
func TestCustomCommandHelpIsSanitised(t *testing.T) {
	a := newTestApp(t, 120, 60) // tall enough for the whole help
	a2 := New(Options{Agent: a.agent, Root: a.opts.Root, Theme: a.theme,
		Commands: []Command{PromptCommand(CustomCommand{Name: "evil", Help: "looks fine\x1b]52;c;aGk=\x07"})}})
	a2.Update(tea.WindowSizeMsg{Width: 120, Height: 60})
	a2.showHelp = true
	view := a2.View().Content
	if strings.Contains(view, "\x1b]52") || !strings.Contains(view, "␛]52") {
		t.Errorf("the help screen passes the description's escape through")
	}
}

// TestRewindFilesLineAgrees: the preview's line about files agrees in
// number with how many there are.
func TestRewindFilesLineAgrees(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "Files: 1 file goes back to how it was when the turn started (1 removed)."},
		{2, "Files: 2 files go back to how they were when the turn started (1 removed)."},
	} {
		if got := filesBack(tc.n, "1 removed"); got != tc.want {
			t.Errorf("filesBack(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
