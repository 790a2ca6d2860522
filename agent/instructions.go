package agent

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"pincer/internal/safefile"
)

// MaxProjectFile caps each project instruction file in the system prompt;
// a longer file is cut with a note, so one huge file cannot crowd out the
// conversation.
const MaxProjectFile = 20000

// projectInstructionFiles are the files read from the project root, in
// order: pincer's own names, then the conventions other tools use.
func projectInstructionFiles() []string {
	return []string{"AGENT.md", "SKILLS.md", "AGENTS.md", "CLAUDE.md"}
}

// Instructions are the texts the system prompt is assembled from, and
// where each came from.
type Instructions struct {
	Agent, Skills string
	// Sources says where the agent and skills texts came from, e.g.
	// "built in", "built in + ~/.config/pincer/SKILLS.md".
	AgentSource, SkillsSource string
	Project                   []ProjectFile
	Warnings                  []string
}

// LoadInstructions reads the person's AGENT.md and SKILLS.md from userDir
// (which replace or extend the defaults, see mergeUserFile) and the
// project's instruction files from root.
func LoadInstructions(defaultAgent, defaultSkills, userDir, root string) (Instructions, error) {
	var in Instructions
	var err error
	in.Agent, in.AgentSource, err = mergeUserFile(defaultAgent, filepath.Join(userDir, "AGENT.md"), &in.Warnings)
	if err != nil {
		return in, err
	}
	in.Skills, in.SkillsSource, err = mergeUserFile(defaultSkills, filepath.Join(userDir, "SKILLS.md"), &in.Warnings)
	if err != nil {
		return in, err
	}
	for _, name := range projectInstructionFiles() {
		data, err := safefile.Read(filepath.Join(root, name), safefile.Options{Within: root, Name: name})
		var refused *safefile.Error
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.As(err, &refused):
			in.Warnings = append(in.Warnings, refused.Sentence("pincer ignored it"))
			continue
		case err != nil:
			in.Warnings = append(in.Warnings, fmt.Sprintf("could not read %s (%v); pincer ignored it — fix its permissions or remove it", name, err))
			continue
		}
		text := string(data)
		if len(text) > MaxProjectFile {
			cut := MaxProjectFile
			for cut > 0 && (text[cut]&0xC0) == 0x80 {
				cut--
			}
			text = text[:cut] + fmt.Sprintf("\n\n[%s was cut here: it has %d bytes and only the first %d are included.]", name, len(data), cut)
		}
		if strings.TrimSpace(text) != "" {
			in.Project = append(in.Project, ProjectFile{Name: name, Content: text})
		}
	}
	return in, nil
}

// mergeUserFile combines a default text with the person's file of the same
// name. The file extends the default (appended after it) unless it starts
// with front matter that says otherwise:
//
//	---
//	mode: replace
//	---
func mergeUserFile(def, path string, warnings *[]string) (text, source string, err error) {
	data, err := safefile.Read(path, safefile.Options{})
	if errors.Is(err, fs.ErrNotExist) {
		return def, "built in", nil
	}
	var refused *safefile.Error
	if errors.As(err, &refused) {
		return "", "", errors.New(refused.Sentence(""))
	}
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w; fix its permissions or remove it", path, err)
	}
	mode, body, problem := frontMatter(string(data))
	if problem != "" {
		*warnings = append(*warnings, fmt.Sprintf("%s: %s", path, problem))
	}
	if mode == "replace" {
		return body, path, nil
	}
	return strings.TrimRight(def, "\n") + "\n\n" + strings.TrimSpace(body) + "\n", "built in + " + path, nil
}

// frontMatter reads an optional "---" block at the top of a file. The only
// key is mode: extend (the default) or replace.
func frontMatter(s string) (mode, body, problem string) {
	mode = "extend"
	if !strings.HasPrefix(s, "---\n") && !strings.HasPrefix(s, "---\r\n") {
		return mode, s, ""
	}
	rest := s[strings.Index(s, "\n")+1:]
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return mode, s, "the front matter is not closed with a --- line; the file is used as is"
	}
	head := rest[:end]
	body = rest[end+4:]
	body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
	sc := bufio.NewScanner(strings.NewReader(head))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, _ := strings.Cut(line, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if i := strings.Index(v, "#"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		switch {
		case k == "mode" && (v == "replace" || v == "extend"):
			mode = v
		case k == "mode":
			problem = fmt.Sprintf("mode %q is not known; use replace or extend (extend is used)", v)
		default:
			problem = fmt.Sprintf("front matter key %q is not known; the only key is mode", k)
		}
	}
	return mode, body, problem
}

// Skill is one composite skill: a named multi-step workflow.
type Skill struct {
	Name    string
	Summary string // its first step or sentence
}

// Skills lists the composite skills of a SKILLS.md text: the "## "
// headings under its "# Skills" section.
func Skills(text string) []Skill {
	var out []Skill
	inSkills := false
	var cur *Skill
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "# "):
			inSkills = strings.EqualFold(strings.TrimSpace(t[2:]), "skills")
			cur = nil
		case inSkills && strings.HasPrefix(t, "## "):
			out = append(out, Skill{Name: strings.TrimSpace(t[3:])})
			cur = &out[len(out)-1]
		case cur != nil && cur.Summary == "" && t != "":
			cur.Summary = strings.TrimLeft(t, "0123456789.-* ")
		}
	}
	return out
}

// AllSkills lists every composite skill the system prompt carries: those
// of the built-in and personal SKILLS.md, then those of the project's
// SKILLS.md (which replace a skill of the same name).
func (in Instructions) AllSkills() []Skill {
	all := Skills(in.Skills)
	for _, f := range in.Project {
		if f.Name != "SKILLS.md" {
			continue
		}
		for _, s := range Skills(f.Content) {
			kept := all[:0]
			for _, o := range all {
				if !strings.EqualFold(o.Name, s.Name) {
					kept = append(kept, o)
				}
			}
			all = append(kept, s)
		}
	}
	return all
}
