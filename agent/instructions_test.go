package agent

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pincer/agent/prompts"
	"pincer/tools"
	"pincer/tools/todo"
)

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInstructionPrecedence(t *testing.T) {
	cases := []struct {
		name        string
		userAgent   string // "" means no file
		userSkills  string
		project     map[string]string
		wantAgent   []string
		noAgent     []string
		wantSkills  []string
		wantProject []string
		wantWarning string
	}{
		{name: "defaults only", wantAgent: []string{"DEFAULT AGENT"}, wantSkills: []string{"DEFAULT SKILLS"}},
		{name: "user file extends by default", userAgent: "Always answer in French.",
			wantAgent: []string{"DEFAULT AGENT", "Always answer in French."}},
		{name: "user file replaces with front matter", userAgent: "---\nmode: replace\n---\nOnly this.",
			wantAgent: []string{"Only this."}, noAgent: []string{"DEFAULT AGENT", "mode:"}},
		{name: "explicit extend", userSkills: "---\nmode: extend  # keep the defaults\n---\n## Deploy\n1. run make deploy",
			wantSkills: []string{"DEFAULT SKILLS", "## Deploy"}},
		{name: "bad mode warns and extends", userAgent: "---\nmode: overwrite\n---\nX", wantAgent: []string{"DEFAULT AGENT", "X"}, wantWarning: "overwrite"},
		{name: "project files in order", project: map[string]string{"CLAUDE.md": "claude rules", "AGENTS.md": "agents rules", "AGENT.md": "agent rules"},
			wantProject: []string{"AGENT.md", "AGENTS.md", "CLAUDE.md"}},
		{name: "empty project file skipped", project: map[string]string{"AGENTS.md": "  \n"}, wantProject: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			user, root := t.TempDir(), t.TempDir()
			if tc.userAgent != "" {
				writeFile(t, user, "AGENT.md", tc.userAgent)
			}
			if tc.userSkills != "" {
				writeFile(t, user, "SKILLS.md", tc.userSkills)
			}
			for n, c := range tc.project {
				writeFile(t, root, n, c)
			}
			in, err := LoadInstructions("DEFAULT AGENT", "DEFAULT SKILLS", user, root)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.wantAgent {
				if !strings.Contains(in.Agent, w) {
					t.Errorf("agent text %q lacks %q", in.Agent, w)
				}
			}
			for _, w := range tc.noAgent {
				if strings.Contains(in.Agent, w) {
					t.Errorf("agent text %q has %q", in.Agent, w)
				}
			}
			for _, w := range tc.wantSkills {
				if !strings.Contains(in.Skills, w) {
					t.Errorf("skills text %q lacks %q", in.Skills, w)
				}
			}
			var names []string
			for _, f := range in.Project {
				names = append(names, f.Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.wantProject, ",") {
				t.Errorf("project files %v, want %v", names, tc.wantProject)
			}
			if tc.wantWarning != "" && !strings.Contains(strings.Join(in.Warnings, "\n"), tc.wantWarning) {
				t.Errorf("warnings %v lack %q", in.Warnings, tc.wantWarning)
			}
		})
	}
}

func TestProjectFilesAreCapped(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "AGENTS.md", strings.Repeat("é", MaxProjectFile)) // 2 bytes each
	in, err := LoadInstructions("a", "s", t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	c := in.Project[0].Content
	if len(c) > MaxProjectFile+200 || !strings.Contains(c, "AGENTS.md was cut here") {
		t.Errorf("capped content is %d bytes; note present: %v", len(c), strings.Contains(c, "cut here"))
	}
	if !strings.HasPrefix(c, "éé") || strings.Contains(c, "\uFFFD") {
		t.Error("the cut split a character")
	}
}

func TestSystemPromptAssembly(t *testing.T) {
	env := Environment{OS: "windows", Shell: `C:\Program Files\PowerShell\7\pwsh.exe`, Root: `C:\work\x`, Date: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	p := SystemPrompt(PromptParts{Agent: "Intro\n\n## Environment\n\n{{.Env}}\n", Skills: "# Tools\n...", Project: []ProjectFile{{Name: "AGENTS.md", Content: "use tabs"}}, Env: env})
	for _, want := range []string{"Windows", "PowerShell syntax", `C:\work\x`, "Monday, 30 November 2026", "# Tools", "Project instructions from AGENTS.md", "use tabs"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "{{.Env}}") {
		t.Error("the placeholder was not filled")
	}
	linux := SystemPrompt(PromptParts{Agent: "no placeholder", Env: Environment{OS: "linux", Shell: "/bin/bash", Root: "/w"}})
	if !strings.Contains(linux, "Linux") || !strings.Contains(linux, "/bin/bash") || strings.Contains(linux, "PowerShell") {
		t.Errorf("linux prompt:\n%s", linux)
	}
}

// TestDefaultSkillsMatchTheTools checks SKILLS.md against the registry: every
// tool it names exists, and every built-in tool is explained in it.
func TestDefaultSkillsMatchTheTools(t *testing.T) {
	// main adds todo_write to the built-ins always.
	reg, err := tools.NewRegistry(append(tools.Builtins(tools.Options{Root: t.TempDir()}), todo.Tool())...)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range reg.Names() {
		names[n] = true
	}
	// The agent's own tools are added by main when the store is open;
	// the task tool by the agent itself.
	for _, n := range []string{"recall", "schedule_task", "remember", TaskToolName, LoadToolsName} {
		names[n] = true
	}
	// Argument names look like tool names; they may be mentioned too.
	args := map[string]bool{}
	for _, tool := range reg.List() {
		props, _ := tool.Parameters()["properties"].(map[string]any)
		for a := range props {
			args[a] = true
		}
	}
	mentioned := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z]+(?:_[a-z]+)+)`").FindAllStringSubmatch(prompts.SkillsMD, -1) {
		mentioned[m[1]] = true
		if !names[m[1]] && !args[m[1]] {
			t.Errorf("SKILLS.md names %q, which is neither a tool nor a tool's argument", m[1])
		}
	}
	// Each bullet of the tools section explains a tool that exists.
	for _, m := range regexp.MustCompile("(?m)^- `([a-z_]+)`").FindAllStringSubmatch(prompts.SkillsMD, -1) {
		if !names[m[1]] {
			t.Errorf("SKILLS.md explains %q as a tool, but there is no such tool", m[1])
		}
	}
	for _, n := range reg.Names() {
		if !mentioned[n] && !strings.Contains(prompts.SkillsMD, "`"+n+"`") {
			t.Errorf("SKILLS.md does not explain the tool %q", n)
		}
	}
	if len(Skills(prompts.SkillsMD)) < 3 {
		t.Errorf("the default SKILLS.md has %d composite skills", len(Skills(prompts.SkillsMD)))
	}
}

func TestSkillsList(t *testing.T) {
	text := "# Tools\n## not a skill\n# Skills\n\n## Fix failing tests\n1. Run them.\n2. Read.\n## Explain code\n\nFind the entry point.\n# Other\n## nope\n"
	got := Skills(text)
	if len(got) != 2 || got[0].Name != "Fix failing tests" || got[0].Summary != "Run them." || got[1].Summary != "Find the entry point." {
		t.Errorf("Skills() = %+v", got)
	}
}

func TestAllSkillsIncludeTheProjects(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "SKILLS.md"), []byte("# Skills\n\n## Release\n\n1. Tag the version.\n\n## Fix a bug\n\nOur way.\n"), 0o644)
	in, err := LoadInstructions("# Agent", "# Skills\n\n## Fix a bug\n\nThe default way.\n\n## Review\n\nRead the diff.\n", user, root)
	if err != nil {
		t.Fatal(err)
	}
	got := in.AllSkills()
	var names []string
	for _, s := range got {
		names = append(names, s.Name+": "+s.Summary)
	}
	want := []string{"Review: Read the diff.", "Release: Tag the version.", "Fix a bug: Our way."}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("skills %q, want %q", names, want)
	}
}
