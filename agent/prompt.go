package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Environment holds the facts about where pincer runs that the model must
// not guess: it decides between `ls` and `dir`, bash and PowerShell.
type Environment struct {
	OS      string // e.g. "linux", "darwin", "windows"
	Shell   string // the shell run_command uses, e.g. "/bin/bash"
	Root    string // the project root
	Date    time.Time
	GitRepo bool
}

// DetectEnvironment computes the environment facts for a project root.
func DetectEnvironment(root, shell string, now time.Time) Environment {
	_, err := os.Stat(filepath.Join(root, ".git"))
	return Environment{OS: runtime.GOOS, Shell: shell, Root: root, Date: now, GitRepo: err == nil}
}

// Describe renders the facts as the lines the system prompt shows.
func (e Environment) Describe() string {
	osName := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[e.OS]
	if osName == "" {
		osName = e.OS
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- Operating system: %s (%s/%s)\n", osName, e.OS, runtime.GOARCH)
	shell := e.Shell
	if shell == "" {
		shell = "unknown"
	}
	fmt.Fprintf(&b, "- Shell used by run_command: %s", shell)
	if e.OS == "windows" && strings.Contains(strings.ToLower(shell), "powershell") {
		b.WriteString(" (PowerShell syntax: `Get-ChildItem`, `;` between commands)")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- Project root (the working directory of every tool): %s\n", e.Root)
	if e.GitRepo {
		b.WriteString("- The project is a git repository.\n")
	}
	if !e.Date.IsZero() {
		fmt.Fprintf(&b, "- Today's date: %s\n", e.Date.Format("Monday, 2 January 2006"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// PromptParts are the pieces of the system prompt.
type PromptParts struct {
	Agent   string // AGENT.md: character and rules; "{{.Env}}" receives Env
	Skills  string // SKILLS.md: how to use the tools, composite skills
	Project []ProjectFile
	Env     Environment
}

// ProjectFile is one instruction file found in the project (AGENTS.md and
// the like), already capped.
type ProjectFile struct {
	Name    string
	Content string
}

// SystemPrompt assembles the system prompt from its parts.
func SystemPrompt(p PromptParts) string {
	env := p.Env.Describe()
	agentText := p.Agent
	if strings.Contains(agentText, "{{.Env}}") {
		agentText = strings.ReplaceAll(agentText, "{{.Env}}", env)
	} else {
		agentText += "\n\n## Environment\n\n" + env
	}
	parts := []string{strings.TrimSpace(agentText)}
	if s := strings.TrimSpace(p.Skills); s != "" {
		parts = append(parts, s)
	}
	for _, f := range p.Project {
		parts = append(parts, fmt.Sprintf("# Project instructions from %s\n\n%s", f.Name, strings.TrimSpace(f.Content)))
	}
	return strings.Join(parts, "\n\n")
}
