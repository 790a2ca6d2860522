package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pincer/internal/frontmatter"
	"pincer/internal/safefile"
)

// AgentDef is a kind of sub-agent the task tool can start, written by the
// person (or a project) as a Markdown file: its front matter names it and
// its tools, its body is its system prompt.
type AgentDef struct {
	Name        string
	Description string
	// Tools are the tools it may call, by name; nil means the read-only
	// default (DefaultSubAgentTools).
	Tools []string
	// Model is the model it asks for; "" means the main agent's.
	Model string
	// Prompt is the body of the file: the agent's own instructions.
	Prompt string
	// Path is the file it came from, for /agents.
	Path string
}

// AgentDir is one place agent files are read from.
type AgentDir = frontmatter.Dir

// AgentDirs are the places agent files are read from, lowest precedence
// first: the person's (agents/ beside the config file), then the
// project's .claude/agents and .pincer/agents.
func AgentDirs(configDir, root string) []AgentDir {
	return frontmatter.Dirs(configDir, root, "agents")
}

// Limits of agent files, so a huge or hostile directory cannot slow the
// start or fill the prompt.
const (
	maxAgentFiles = 100
	maxAgentFile  = 64 << 10
)

// claudeTools maps the tool names of agent files written for Claude Code
// to pincer's, so those files work unchanged.
var claudeTools = map[string]string{
	"Read": "read_file", "Grep": "grep", "Glob": "glob", "LS": "tree_view",
	"Bash": "run_command", "Edit": "edit_file", "MultiEdit": "edit_file",
	"Write": "write_file", "WebFetch": "read_web",
}

// LoadAgentDefs reads the agent files in dirs; a later directory's agent
// replaces an earlier one of the same name. A file that cannot be read or
// has no usable name is left out with a warning that names it. Tool names
// are checked later, against the tools there are (see SubAgents).
func LoadAgentDefs(dirs []AgentDir) ([]AgentDef, []string) {
	byName := map[string]AgentDef{}
	var warnings []string
	count := 0
dirs:
	for _, d := range dirs {
		entries, err := os.ReadDir(d.Path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				warnings = append(warnings, fmt.Sprintf("cannot read the agents in %s: %v", d.Path, err))
			}
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			if count++; count > maxAgentFiles {
				warnings = append(warnings, fmt.Sprintf("read only the first %d agent files; move some out of %s", maxAgentFiles, d.Path))
				break dirs
			}
			p := filepath.Join(d.Path, e.Name())
			data, err := safefile.Read(p, safefile.Options{Within: d.Within, Limit: maxAgentFile})
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("left out the agent file %s: %v", p, err))
				continue
			}
			def := parseAgent(string(data), strings.TrimSuffix(e.Name(), ".md"))
			def.Path = p
			if !validAgentName(def.Name) {
				warnings = append(warnings, fmt.Sprintf("left out the agent file %s: its name %q is not usable; a name uses letters, digits, - and _", p, def.Name))
				continue
			}
			byName[def.Name] = def
		}
	}
	out := make([]AgentDef, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b AgentDef) int { return strings.Compare(a.Name, b.Name) })
	return out, warnings
}

// parseAgent reads one agent file; fallback is the name when the front
// matter gives none (the file's name).
func parseAgent(text, fallback string) AgentDef {
	m, body := frontmatter.Parse(text)
	d := AgentDef{Name: m.Get("name"), Description: m.Get("description"), Model: m.Get("model"), Prompt: body}
	if d.Name == "" {
		d.Name = fallback
	}
	if strings.EqualFold(d.Model, "inherit") {
		d.Model = ""
	}
	// Tools listed replace the read-only default; none listed keeps it.
	for _, t := range m.List("tools") {
		if mapped, ok := claudeTools[t]; ok {
			t = mapped
		}
		if !slices.Contains(d.Tools, t) {
			d.Tools = append(d.Tools, t)
		}
	}
	return d
}

// validAgentName keeps names the model can write and a person can read.
func validAgentName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
		if !ok {
			return false
		}
	}
	return true
}
