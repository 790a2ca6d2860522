package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// answer is the JSON object a hook may print on standard output. Fields
// are pointers or raw so that "not given" differs from a zero value.
type answer struct {
	Continue       *bool           `json:"continue"`
	StopReason     string          `json:"stopReason"`
	Decision       string          `json:"decision"`
	Reason         string          `json:"reason"`
	SystemMessage  string          `json:"systemMessage"`
	SuppressOutput bool            `json:"suppressOutput"`
	Specific       *specificAnswer `json:"hookSpecificOutput"`
}

// specificAnswer is hookSpecificOutput.
type specificAnswer struct {
	HookEventName            string          `json:"hookEventName"`
	AdditionalContext        string          `json:"additionalContext"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
}

// interpret turns how one hook ended into its Outcome: exit 0 is fine (with
// optional JSON, or plain text as context for UserPromptSubmit and
// SessionStart), exit 2 blocks with standard error as the reason, any
// other ending is a notice and nothing else.
func interpret(h Hook, res result) Outcome {
	var out Outcome
	notice := func(format string, args ...any) {
		out.Notices = append(out.Notices, fmt.Sprintf("The %s hook %s ", h.Event, describe(h))+fmt.Sprintf(format, args...))
	}
	stderr := strings.TrimSpace(res.stderr)
	switch {
	case res.cancelled:
		return out
	case res.timedOut:
		notice("did not finish within %s and was stopped; the turn goes on without it.", res.timeout)
		return out
	case res.startErr != nil:
		notice("could not start (%v); the turn goes on without it.", res.startErr)
		return out
	case res.code == 2:
		if h.Event == SessionStart {
			notice("exited with status 2%s; a session start cannot be blocked, so it goes on.", said(stderr))
			return out
		}
		out.Block = true
		out.Reason = stderr
		if out.Reason == "" {
			out.Reason = "no reason given (the hook exited with status 2 and wrote nothing to standard error)"
		}
		return out
	case res.code != 0:
		hint := ""
		if res.code == 127 {
			hint = " (the command was not found; check its path)"
		}
		notice("failed with exit status %d%s%s; the turn goes on.", res.code, hint, said(stderr))
		return out
	}
	stdout := strings.TrimSpace(res.stdout)
	if !strings.HasPrefix(stdout, "{") {
		if stdout != "" && (h.Event == UserPromptSubmit || h.Event == SessionStart) {
			out.Context = stdout
		}
		return out
	}
	var a answer
	dec := json.NewDecoder(bytes.NewReader([]byte(stdout)))
	if err := dec.Decode(&a); err != nil || dec.More() {
		if err == nil {
			err = fmt.Errorf("more than one JSON value")
		}
		notice("printed JSON that pincer cannot read (%v); its answer is ignored.", err)
		return out
	}
	if a.SystemMessage != "" {
		notice("says: %s", a.SystemMessage)
	}
	if a.Continue != nil && !*a.Continue {
		out.Stop = true
		out.StopReason = a.StopReason
		if out.StopReason == "" {
			out.StopReason = "a hook ended the turn without giving a reason"
		}
	}
	switch a.Decision {
	case "":
	case "block":
		out.Block = true
		out.Reason = a.Reason
		if out.Reason == "" {
			out.Reason = "no reason given"
		}
	case "approve":
		// The old spelling of a PreToolUse "allow".
		if h.Event == PreToolUse {
			out.Permission, out.PermissionReason = PermissionAllow, a.Reason
		}
	default:
		notice("answered \"decision\": %q, which pincer does not know (only \"block\"); it is ignored.", a.Decision)
	}
	if s := a.Specific; s != nil {
		if s.HookEventName != "" && s.HookEventName != string(h.Event) {
			notice("answered for %q though it ran for %s; the hookSpecificOutput is ignored.", s.HookEventName, h.Event)
			return out
		}
		switch h.Event {
		case UserPromptSubmit, SessionStart, PostToolUse:
			out.Context = strings.TrimSpace(s.AdditionalContext)
		}
		if h.Event == PreToolUse {
			out.readPermission(s, notice)
		}
	}
	if out.Block && h.Event == SessionStart {
		notice("asked to block%s; a session start cannot be blocked, so it goes on.", said(out.Reason))
		out.Block, out.Reason = false, ""
	}
	return out
}

// readPermission reads a PreToolUse hook's permissionDecision and
// updatedInput into out.
func (out *Outcome) readPermission(s *specificAnswer, notice func(string, ...any)) {
	switch p := Permission(s.PermissionDecision); p {
	case PermissionNone:
	case PermissionDeny:
		out.Permission, out.PermissionReason = p, s.PermissionDecisionReason
		out.Block = true
		out.Reason = s.PermissionDecisionReason
		if out.Reason == "" {
			out.Reason = "no reason given"
		}
	case PermissionAsk, PermissionAllow:
		out.Permission, out.PermissionReason = p, s.PermissionDecisionReason
	default:
		notice("answered \"permissionDecision\": %q; pincer knows \"deny\", \"ask\" and \"allow\", so it is ignored.", s.PermissionDecision)
	}
	if len(s.UpdatedInput) > 0 && string(s.UpdatedInput) != "null" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(s.UpdatedInput, &obj); err != nil {
			notice("answered an \"updatedInput\" that is not a JSON object; the tool's input is left as it was.")
			return
		}
		out.UpdatedInput = s.UpdatedInput
	}
}

// said quotes a hook's standard error at the end of a sentence, or says
// nothing when it wrote none.
func said(stderr string) string {
	if stderr == "" {
		return ""
	}
	return ": " + capText(stderr, 2000)
}

// capText cuts s to at most n bytes (at a rune boundary), saying so.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (%d more bytes cut)", len(s)-cut)
}
