package config

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// HookEvents are the moments a hook may run at, in the order a turn meets
// them; the names are those Claude Code uses, so settings carry over.
func HookEvents() []string {
	return []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}
}

// MaxHookTimeout is the longest a hook may be given, in seconds.
const MaxHookTimeout = 3600

// HookMatcher is one entry of an event's list: the hooks to run when the
// matcher fits the tool name (PreToolUse, PostToolUse) or the start source
// (SessionStart: "startup" or "resume").
type HookMatcher struct {
	Matcher string        `json:"matcher,omitempty" jsonschema_description:"A regular expression the whole tool name must match, such as \"run_command|write_file\"; empty or \"*\" matches every tool. Ignored by UserPromptSubmit and Stop."`
	Hooks   []HookCommand `json:"hooks" jsonschema_description:"The commands to run, in order."`
	// From is the file this entry was read from; Load fills it so /hooks
	// can say where each hook came from.
	From Source `json:"-"`
}

// HookCommand is one command a hook runs.
type HookCommand struct {
	Type    string `json:"type,omitempty" jsonschema:"enum=command" jsonschema_description:"Always \"command\" (the default)."`
	Command string `json:"command" jsonschema_description:"The shell command, run with sh -c in the project directory, with the event as JSON on standard input."`
	Timeout int    `json:"timeout,omitempty" jsonschema:"minimum=0,maximum=3600" jsonschema_description:"Seconds before the command is stopped (default 60)."`
}

// tagHooks records in every entry of hooks the file it came from.
func tagHooks(hooks map[string][]HookMatcher, src Source) {
	for event, list := range hooks {
		for i := range list {
			list[i].From = src
		}
		hooks[event] = list
	}
}

// mergeHooks appends the entries of a higher layer to those of the lower
// ones: hooks from every file run, the user's first.
func mergeHooks(lower, higher map[string][]HookMatcher) map[string][]HookMatcher {
	out := make(map[string][]HookMatcher, len(lower)+len(higher))
	for event, list := range lower {
		out[event] = append([]HookMatcher(nil), list...)
	}
	for event, list := range higher {
		out[event] = append(out[event], list...)
	}
	return out
}

// validateHooks adds a problem for every event name, matcher, command or
// timeout that cannot work, naming the place and the fix.
func (ld *loader) validateHooks(c Config, fields map[string]Source, bad badFunc) {
	events := make([]string, 0, len(c.Hooks))
	for e := range c.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	for _, event := range events {
		list := c.Hooks[event]
		known := false
		for _, e := range HookEvents() {
			known = known || e == event
		}
		if !known {
			hint := ""
			lower := make([]string, 0, len(HookEvents()))
			for _, e := range HookEvents() {
				lower = append(lower, strings.ToLower(e))
			}
			if s := suggest(event, lower); s != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", HookEvents()[slices.Index(lower, s)])
			}
			src := fields["hooks"]
			if len(list) > 0 {
				src = list[0].From
			}
			bad(ErrInvalidValue, "hooks", fmt.Sprintf("%q", event), fmt.Sprintf("hooks has the event %q%s, which pincer does not know%s; use one of %s",
				event, ld.from(src), hint, strings.Join(HookEvents(), ", ")))
			continue
		}
		for i, m := range list {
			where := fmt.Sprintf("hooks.%s[%d]", event, i)
			if m.Matcher != "" && m.Matcher != "*" {
				if _, err := regexp.Compile(m.Matcher); err != nil {
					bad(ErrInvalidValue, "hooks", fmt.Sprintf("%q", m.Matcher), fmt.Sprintf("%s.matcher %q%s is not a regular expression (%v); write one such as \"run_command|write_file\", or \"*\" for every tool",
						where, m.Matcher, ld.from(m.From), err))
				}
			}
			if len(m.Hooks) == 0 {
				bad(ErrMissing, "hooks", "[]", fmt.Sprintf("%s%s has no hooks; add {\"type\": \"command\", \"command\": \"...\"} to its \"hooks\" list, or remove the entry", where, ld.from(m.From)))
			}
			for j, h := range m.Hooks {
				at := fmt.Sprintf("%s.hooks[%d]", where, j)
				if h.Type != "" && h.Type != "command" {
					bad(ErrInvalidValue, "hooks", fmt.Sprintf("%q", h.Type), fmt.Sprintf("%s.type is %q%s; pincer runs only \"command\" hooks, so write \"type\": \"command\"", at, h.Type, ld.from(m.From)))
				}
				if strings.TrimSpace(h.Command) == "" {
					bad(ErrMissing, "hooks", `""`, fmt.Sprintf("%s.command is empty%s; give the shell command to run, such as \"./scripts/check.sh\"", at, ld.from(m.From)))
				}
				if h.Timeout < 0 || h.Timeout > MaxHookTimeout {
					bad(ErrInvalidValue, "hooks", fmt.Sprint(h.Timeout), fmt.Sprintf("%s.timeout is %d%s; give a number of seconds from 1 to %d, or leave it out for 60", at, h.Timeout, ld.from(m.From), MaxHookTimeout))
				}
			}
		}
	}
}
