package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"pincer/ui/complete"
	"pincer/ui/transcript"
	"pincer/ui/tree"
)

// keyDocSections are the tables of docs/keys.md that are written from the
// key maps, so that the page and the program cannot disagree: each lies
// between "<!-- keys:NAME -->" and "<!-- /keys -->".
func keyDocSections() map[string][]key.Binding {
	tk, rk, ck := transcript.DefaultKeyMap(), tree.DefaultKeyMap(), complete.DefaultKeyMap()
	return map[string][]key.Binding{
		"transcript": {tk.LineUp, tk.LineDown, tk.PageUp, tk.PageDown, tk.Top, tk.Bottom, tk.PrevEntry, tk.NextEntry, tk.Toggle, tk.Unfocus},
		"tree":       flatten(rk.FullHelp()),
		"completion": {ck.Up, ck.Down, ck.PageUp, ck.PageDown, ck.Accept, ck.Close},
	}
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
