package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeAgentFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadAgentDefs: agent files from the person's config and the
// project, the project winning a name clash; tools as a comma list, a
// YAML list or Claude Code's names; "inherit"; bad files left out with a
// warning naming them.
func TestLoadAgentDefs(t *testing.T) {
	base := t.TempDir()
	cfg, root := filepath.Join(base, "config"), filepath.Join(base, "project")
	writeAgentFile(t, filepath.Join(cfg, "agents", "reviewer.md"), "---\nname: reviewer\ndescription: the user's reviewer\n---\nUser prompt.")
	writeAgentFile(t, filepath.Join(cfg, "agents", "mine.md"), "---\ndescription: only mine\ntools: read_file, grep\nmodel: inherit\n---\nMine.")
	writeAgentFile(t, filepath.Join(root, ".pincer", "agents", "review.md"), "---\nname: reviewer\ndescription: \"the project's: reviewer\"\ntools:\n  - read_file\n  - edit_file\nmodel: big\n---\nProject prompt.\n")
	writeAgentFile(t, filepath.Join(root, ".claude", "agents", "claude.md"), "---\nname: claude-style\ndescription: written for Claude\ntools: Read, Grep, Glob, Bash, Edit, MultiEdit\n---\nClaude prompt.")
	writeAgentFile(t, filepath.Join(root, ".pincer", "agents", "bad.md"), "---\nname: bad name!\n---\nx")
	writeAgentFile(t, filepath.Join(root, ".pincer", "agents", "notes.txt"), "not an agent")
	outside := filepath.Join(base, "secret.md")
	writeAgentFile(t, outside, "---\nname: leak\n---\nsecret")
	if err := os.Symlink(outside, filepath.Join(root, ".pincer", "agents", "leak.md")); err != nil {
		t.Fatal(err)
	}
	defs, warnings := LoadAgentDefs(AgentDirs(cfg, root))
	by := map[string]AgentDef{}
	var names []string
	for _, d := range defs {
		by[d.Name] = d
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "claude-style mine reviewer" {
		t.Fatalf("agents %q", got)
	}
	if r := by["reviewer"]; r.Description != "the project's: reviewer" || r.Prompt != "Project prompt." || r.Model != "big" ||
		!slices.Equal(r.Tools, []string{"read_file", "edit_file"}) || !strings.HasSuffix(r.Path, filepath.Join(".pincer", "agents", "review.md")) {
		t.Errorf("the project's reviewer does not win: %+v", r)
	}
	if m := by["mine"]; m.Model != "" || !slices.Equal(m.Tools, []string{"read_file", "grep"}) || m.Prompt != "Mine." {
		t.Errorf("mine: %+v", m)
	}
	if c := by["claude-style"]; !slices.Equal(c.Tools, []string{"read_file", "grep", "glob", "run_command", "edit_file"}) {
		t.Errorf("Claude Code's tool names map to %v", c.Tools)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{"bad.md", "leak.md"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning about %s in %q", want, joined)
		}
	}
	if _, ok := by["leak"]; ok {
		t.Error("a link out of the project was followed")
	}
}

// TestAgentWithoutToolsIsReadOnly: no tools in the front matter means the
// read-only default, not no tools.
func TestAgentWithoutToolsIsReadOnly(t *testing.T) {
	for _, text := range []string{"---\nname: a\n---\nx", "---\nname: a\ntools:\n---\nx", "Just a prompt."} {
		if d := parseAgent(text, "a"); d.Tools != nil {
			t.Errorf("%q: tools %v, want nil (the default)", text, d.Tools)
		}
	}
}
