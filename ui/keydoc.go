package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"pincer/ui/complete"
	"pincer/ui/diffview"
	"pincer/ui/transcript"
	"pincer/ui/tree"
)

// keyDocSections are the tables of docs/keys.md that are written from the
// key maps, so that the page and the program cannot disagree: each lies
// between "<!-- keys:NAME -->" and "<!-- /keys -->". A row's keys are the
// binding's; its words are the binding's help, or the longer text the page
// gives it (withDoc).
func keyDocSections() map[string][]key.Binding {
	k := defaultKeys()
	tk, rk, ck := transcript.DefaultKeyMap(), tree.DefaultKeyMap(), complete.DefaultKeyMap()
	ak, ek, dk := defaultApprovalKeys(), defaultEditKeys(), diffview.DefaultKeyMap()
	return map[string][]key.Binding{
		"input": {
			withDoc(k.Send, "send the prompt; while the agent is still working it waits in a queue and goes when the turn ends"),
			withDoc(k.Newline, "a new line (use `Ctrl+J` if your terminal does not report `Shift+Enter`)"),
			withDoc(k.History, "on the first (last) line: the previous (next) prompt you sent; elsewhere: move between lines"),
			withDoc(k.Cancel, "stop the running turn: the model stops, and a running command is killed with everything it started; prompts queued behind it go back into the input and wait for `Enter`"),
			withDoc(k.Quit, "stop the running turn; when idle, clear the input; on an empty input, press it twice within 2 seconds to quit"),
			key.NewBinding(key.WithKeys("@"), key.WithHelp("@", "complete a file name: the path goes into your prompt as `@path`, and the file's content is [attached](#attaching-files) to it")),
			key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "at the start of the input: complete a [command](#slash-commands)")),
			withDoc(k.Help, "in an empty input: show the keys"),
		},
		"screen": {
			withDoc(k.Focus, "focus the next pane: input, transcript, tree"),
			withDoc(k.Mode, "change the [mode](#modes): ask → accept edits → plan → ask"),
			withDoc(k.ToggleTree, "show or hide the project tree (also `/tree`); in a window narrower than 90 columns, where the tree is never shown, it says so"),
			key.NewBinding(key.WithKeys(append(k.PageUp.Keys(), k.PageDown.Keys()...)...), key.WithHelp("", "scroll the transcript (with the tree focused: move the tree's selection a page)")),
			withDoc(k.Copy, "copy the focused message to the clipboard"),
			withDoc(k.CopyCode, "copy the first code block of the focused answer"),
			withDoc(k.Cancel, "while a turn runs: stop it; otherwise, in the transcript or the tree: back to the input (in the transcript, the first `Esc` leaves the focused entry)"),
		},
		"transcript": {tk.LineUp, tk.LineDown, tk.PageUp, tk.PageDown, tk.Top, tk.Bottom, tk.PrevEntry, tk.NextEntry, tk.Toggle, tk.Unfocus},
		"tree":       flatten(rk.FullHelp()),
		"completion": {ck.Up, ck.Down, ck.PageUp, ck.PageDown, ck.Accept, ck.Close},
		"approval":   {ak.Allow, ak.Always, ak.Deny, ak.Comment, ak.Scroll},
		"edit": {
			ek.Accept, ek.Reject, ek.Comment, ek.AcceptAll,
			withDoc(dk.NextHunk, "the next hunk"),
			withDoc(dk.PrevHunk, "the previous hunk"),
			withDoc(dk.Toggle, "drop or keep the current hunk"),
			withDoc(dk.AcceptAll, "keep every hunk"),
			withDoc(dk.RejectAll, "drop every hunk"),
			withDoc(dk.Up, "scroll a line up"),
			withDoc(dk.Down, "scroll a line down"),
			withDoc(dk.PageUp, "scroll a page up"),
			withDoc(dk.PageDown, "scroll a page down"),
			withDoc(dk.Top, "the top"),
			withDoc(dk.Bottom, "the bottom"),
			withDoc(dk.Layout, "unified or side-by-side layout"),
			withDoc(dk.Wrap, "wrap long lines, or cut them"),
			ek.Full,
		},
	}
}

// withDoc is b with the words the keys page gives it.
func withDoc(b key.Binding, doc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, doc))
}

// RewriteKeyDoc returns the keys page md with its generated tables written
// afresh from the key maps; go generate ./docs runs it, and a test fails
// when the page on disk differs from what it returns.
func RewriteKeyDoc(md string) (string, error) {
	sections := keyDocSections()
	var out strings.Builder
	rest := md
	for {
		i := strings.Index(rest, "<!-- keys:")
		if i < 0 {
			out.WriteString(rest)
			return out.String(), nil
		}
		j := strings.Index(rest[i:], " -->")
		if j < 0 {
			return "", fmt.Errorf("keys page: unterminated marker at %q", rest[i:min(len(rest), i+30)])
		}
		name := rest[i+len("<!-- keys:") : i+j]
		bindings, ok := sections[name]
		if !ok {
			return "", fmt.Errorf("keys page: no key map named %q", name)
		}
		end := strings.Index(rest[i:], "<!-- /keys -->")
		if end < 0 {
			return "", fmt.Errorf("keys page: the table %q has no end marker", name)
		}
		out.WriteString(rest[:i+j+len(" -->")])
		out.WriteString("\n| key | does |\n| --- | --- |\n")
		for _, b := range bindings {
			fmt.Fprintf(&out, "| %s | %s |\n", docKeys(b.Keys()), b.Help().Desc)
		}
		rest = rest[i+end:]
	}
}

// docKeys writes a binding's keys for the page: "`↑`, `Ctrl+P` or `Shift+Tab`".
func docKeys(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = "`" + docKey(k) + "`"
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// docKey writes one key the way the page does: arrows as arrows, names
// capitalised, modifiers joined with +.
func docKey(k string) string {
	named := map[string]string{
		"up": "↑", "down": "↓", "left": "←", "right": "→",
		"pgup": "PgUp", "pgdown": "PgDn", "home": "Home", "end": "End",
		"enter": "Enter", "esc": "Esc", "tab": "Tab", "space": "Space",
	}
	parts := strings.Split(k, "+")
	for i, p := range parts {
		switch {
		case named[p] != "":
			parts[i] = named[p]
		case i < len(parts)-1 || len(p) > 1:
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		case len(parts) > 1:
			parts[i] = strings.ToUpper(p)
		}
	}
	return strings.Join(parts, "+")
}
