package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"pincer/agent"
	"pincer/config"
	"pincer/hooks"
)

// configuredHooks lists the hooks of the configuration in the order they
// run: by event, and within an event the user's before the project's, as
// the files list them.
func configuredHooks(p *project) []hooks.Hook {
	var out []hooks.Hook
	for _, e := range hooks.Events() {
		for _, m := range p.cfg.Hooks[string(e)] {
			for _, h := range m.Hooks {
				out = append(out, hooks.Hook{
					Event:   e,
					Matcher: m.Matcher,
					Command: h.Command,
					Timeout: time.Duration(h.Timeout) * time.Second,
					From:    hookSource(m.From, p.root),
				})
			}
		}
	}
	return out
}

// hookSource names the file a hook came from, the way /hooks and notices
// show it.
func hookSource(s config.Source, root string) string {
	switch s.Kind {
	case config.FromProjectFile:
		if rel, err := filepath.Rel(root, s.Name); err == nil && !strings.HasPrefix(rel, "..") {
			return "project " + rel
		}
		return "project " + s.Name
	case config.FromUserFile:
		if home := agent.HomeDir(); home != "" {
			if rel, err := filepath.Rel(home, s.Name); err == nil && !strings.HasPrefix(rel, "..") {
				return "user file ~/" + filepath.ToSlash(rel)
			}
		}
		return "user file " + s.Name
	}
	return s.String()
}

// hookRunner is the agent's Hooks for the configured hooks, or nil when
// there are none. session names the session in use (it may change while
// the screen is open). Hooks get the person's environment less the API
// key variables (drop), as commands and MCP servers do: a hook often
// runs on what the model wrote.
func hookRunner(p *project, drop []string, session func() string) (agent.Hooks, error) {
	list := configuredHooks(p)
	if len(list) == 0 {
		return nil, nil
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, k)
	})
	r, err := hooks.New(list, hooks.Options{Dir: p.root, Env: env, Session: session})
	if err != nil {
		return nil, usageError(err)
	}
	return r, nil
}

// describeHooks is what /hooks shows: the configured hooks by event, each
// with its matcher, timeout and the file it came from, and a word on a
// project's hooks left out until the project is trusted.
func describeHooks(p *project) string {
	list := configuredHooks(p)
	var b strings.Builder
	if len(list) == 0 {
		b.WriteString("No hooks are configured. Add them under \"hooks\" in ~/.config/pincer/config.json or the project's .pincer.json; see docs/hooks.md.")
	} else {
		b.WriteString("Hooks, in the order they run:")
	}
	var last hooks.Event
	for _, h := range list {
		if h.Event != last {
			b.WriteString("\n" + string(h.Event))
			last = h.Event
		}
		matcher := h.Matcher
		if matcher == "" {
			matcher = "*"
		}
		timeout := h.Timeout
		if timeout == 0 {
			timeout = hooks.DefaultTimeout
		}
		fmt.Fprintf(&b, "\n  • %s\n    ", h.Command)
		if h.Event == hooks.PreToolUse || h.Event == hooks.PostToolUse || h.Event == hooks.SessionStart {
			fmt.Fprintf(&b, "matcher %s · ", matcher)
		}
		fmt.Fprintf(&b, "timeout %ds · from %s", int(timeout.Seconds()), h.From)
	}
	if slices.Contains(p.srcs.Ignored, "hooks") {
		b.WriteString("\nThe project's .pincer.json sets hooks too; they do not run until you trust this project with 'pincer trust'.")
	}
	return b.String()
}

// hookScripts are the files in the project that the hooks' commands name
// (./scripts/format.sh, "$PINCER_PROJECT_DIR"/hooks/x.py, lint.sh after
// sh): every word of a command that, with the project directory variables
// put in, names an existing regular file inside root. Symbolic links are
// resolved, so the file itself is what is kept.
func hookScripts(list []hooks.Hook, root string) []string {
	if root == "" {
		return nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, h := range list {
		for _, w := range strings.FieldsFunc(h.Command, func(r rune) bool { return strings.ContainsRune(" \t\n;|&()<>", r) }) {
			w = strings.Trim(w, `"'`)
			for _, v := range []string{"PINCER_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} {
				w = strings.ReplaceAll(w, "${"+v+"}", root)
				w = strings.ReplaceAll(w, "$"+v, root)
			}
			w = strings.ReplaceAll(w, `"`, "")
			w = strings.ReplaceAll(w, "'", "")
			if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "$") {
				continue
			}
			if !filepath.IsAbs(w) {
				w = filepath.Join(root, w)
			}
			real, err := filepath.EvalSymlinks(w)
			if err != nil {
				continue
			}
			info, err := os.Stat(real)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
				continue
			}
			if !slices.Contains(out, real) {
				out = append(out, real)
			}
		}
	}
	return out
}
