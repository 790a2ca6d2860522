package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/agent"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestProjectHashCoversCommandsAndAgents: what a project's trust records
// covers its commands' "!" lines and its agent files, so adding or
// changing one asks again; a command that is only a prompt does not.
func TestProjectHashCoversCommandsAndAgents(t *testing.T) {
	root := t.TempDir()
	if h := projectHash(root); h != "" {
		t.Fatalf("an empty project has a hash: %q", h)
	}
	writeFile(t, filepath.Join(root, ".pincer.json"), `{"model": "m"}`)
	base := projectHash(root)
	writeFile(t, filepath.Join(root, ".claude", "commands", "plain.md"), "Just a prompt.\n")
	if h := projectHash(root); h != base {
		t.Error("a command without shell lines changed the hash (the project's trust would be lost for nothing)")
	}
	writeFile(t, filepath.Join(root, ".claude", "commands", "run.md"), "!git log\n")
	withCmd := projectHash(root)
	if withCmd == base {
		t.Error("a command with a shell line did not change the hash")
	}
	writeFile(t, filepath.Join(root, ".claude", "commands", "run.md"), "!git status\n")
	if projectHash(root) == withCmd {
		t.Error("changing a command's shell line did not change the hash")
	}
	withCmd = projectHash(root)
	writeFile(t, filepath.Join(root, ".pincer", "agents", "fixer.md"), "---\nname: fixer\ndescription: fixes\ntools: Bash\n---\nFix things.\n")
	if projectHash(root) == withCmd {
		t.Error("an agent file did not change the hash")
	}
	only := t.TempDir()
	writeFile(t, filepath.Join(only, ".pincer", "commands", "x.md"), "Run !`id` now.\n")
	if projectHash(only) == "" {
		t.Error("a project with only a shell command has nothing to trust")
	}
}

// TestTrustedAgents: until the project is trusted its agent files are not
// offered, and a warning names them and pincer trust; the person's own
// agents are always offered.
func TestTrustedAgents(t *testing.T) {
	root := t.TempDir()
	defs := []agent.AgentDef{
		{Name: "mine", Path: filepath.Join(t.TempDir(), "agents", "mine.md")},
		{Name: "theirs", Path: filepath.Join(root, ".pincer", "agents", "theirs.md")},
	}
	p := &project{root: root}
	kept, warnings := p.trustedAgents(defs, nil)
	if len(kept) != 1 || kept[0].Name != "mine" {
		t.Errorf("untrusted: kept %+v", kept)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "theirs") || !strings.Contains(warnings[0], "pincer trust") {
		t.Errorf("untrusted: warnings %q", warnings)
	}
	p.trusted = true
	if kept, warnings := p.trustedAgents(defs, nil); len(kept) != 2 || len(warnings) != 0 {
		t.Errorf("trusted: kept %+v, warnings %q", kept, warnings)
	}
}
