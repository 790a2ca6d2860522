package ui

import "testing"

// TestProjectFileArgs: /export and /plan save read "[-f] [PATH]" alike, a
// path with spaces in quotes; a second path is refused with the command's
// own usage and how to quote.
func TestProjectFileArgs(t *testing.T) {
	for _, tc := range []struct {
		args, verb string
		force      bool
		name       string
		err        string
	}{
		{args: "", verb: "/export"},
		{args: "notes.md", verb: "/export", name: "notes.md"},
		{args: "-f notes.md", verb: "/export", force: true, name: "notes.md"},
		{args: "PLAN2.md --force", verb: "/plan save", force: true, name: "PLAN2.md"},
		{args: "a.md b.md", verb: "/plan save", err: `/plan save takes one path: /plan save [-f] [PATH]; quote a path with spaces (/plan save "my notes.md").`},
		{args: "-f a.md b.md", verb: "/export", err: `/export takes one path: /export [-f] [PATH]; quote a path with spaces (/export "my notes.md").`},
		{args: `"my notes.md"`, verb: "/export", name: "my notes.md"},
		{args: `-f 'docs/release notes.md'`, verb: "/export", force: true, name: "docs/release notes.md"},
		{args: `"new\nline.md" -f`, verb: "/plan save", force: true, name: "new\nline.md"},
		{args: `"my notes.md`, verb: "/export", err: `/export: a quote is not closed; write /export "my notes.md" for a path with spaces.`},
	} {
		force, name, err := projectFileArgs(tc.args, tc.verb)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s %q: error %v, want %q", tc.verb, tc.args, err, tc.err)
		case tc.err == "" && (err != nil || force != tc.force || name != tc.name):
			t.Errorf("%s %q: force=%v name=%q err=%v, want force=%v name=%q", tc.verb, tc.args, force, name, err, tc.force, tc.name)
		}
	}
}
