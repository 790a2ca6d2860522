package ui

import "testing"

// TestProjectFileArgs: /export and /plan save read "[-f] [PATH]" alike;
// a second path is refused with the command's own usage.
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
		{args: "a.md b.md", verb: "/plan save", err: "/plan save takes one path: /plan save [-f] [PATH]."},
		{args: "-f a.md b.md", verb: "/export", err: "/export takes one path: /export [-f] [PATH]."},
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
