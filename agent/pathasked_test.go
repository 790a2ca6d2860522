package agent

import (
	"os"
	"path/filepath"
	"testing"

	"pincer/agent/agenttest"
)

// TestEditsSayWhenTheirPathNeedsAYes checks that an edit's question says
// when its path needs a yes of its own (outside the project, a secret,
// inside .git/), so accepting edits, which means the project's files, never
// answers it.
func TestEditsSayWhenTheirPathNeedsAYes(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "other", "main.go")
	if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		want bool
	}{
		{"a project file", "notes.txt", false},
		{"a new project file", "sub/new.go", false},
		{"another project's file", outside, true},
		{"a secret-looking file", ".env", true},
		{"inside .git", ".git/info/exclude", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 5,
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: args(map[string]any{"path": c.path, "content": "x\n"})}),
				agenttest.Text("done", 5))
			if err := os.MkdirAll(filepath.Join(h.root, ".git", "info"), 0o755); err != nil {
				t.Fatal(err)
			}
			h.answer = func(Approval) Decision { return Decision{} }
			if _, err := h.run("write it"); err != nil {
				t.Fatal(err)
			}
			var edits []Approval
			for _, q := range h.asked {
				if q.Kind == ApproveEdit {
					edits = append(edits, q)
				}
			}
			if len(edits) != 1 {
				t.Fatalf("asked %+v, want one edit", h.asked)
			}
			if edits[0].PathAsked != c.want {
				t.Errorf("PathAsked = %v, want %v (tier %v, reasons %q)", edits[0].PathAsked, c.want, edits[0].Tier, edits[0].Reasons)
			}
		})
	}
}

// TestSecretReadsAreMarked checks that a read of a secret (by name, or a
// file holding a private key) is marked Secret in its question, so a
// blanket yes does not answer it, and that other reads are not.
func TestSecretReadsAreMarked(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(outside, []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		want bool
	}{
		{"an env file", ".env", true},
		{"a key under an innocent name", "deploy", true},
		{"a file outside the project", outside, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 5,
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: args(map[string]any{"path": c.path})}),
				agenttest.Text("done", 5))
			h.write(".env", "TOKEN=x\n")
			h.write("deploy", "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----\n")
			h.agent.classifier = h.agent.classifier.WithFiles(&diskView{}) // as the composition root gives it
			h.answer = func(Approval) Decision { return Decision{} }
			if _, err := h.run("read it"); err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != 1 {
				t.Fatalf("asked %+v, want one question", h.asked)
			}
			if h.asked[0].Secret != c.want {
				t.Errorf("Secret = %v, want %v (%q)", h.asked[0].Secret, c.want, h.asked[0].Reasons)
			}
		})
	}
}
