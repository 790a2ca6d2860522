package hooks

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkRunNoMatch is what a tool call costs when hooks are configured
// but none matches it.
func BenchmarkRunNoMatch(b *testing.B) {
	r, _ := New([]Hook{{Event: PreToolUse, Matcher: "write_file|edit_file", Command: "true"}}, Options{Dir: b.TempDir(), Env: os.Environ()})
	in := Input{Event: PreToolUse, ToolName: "run_command", ToolInput: json.RawMessage(`{"command":"ls"}`)}
	for b.Loop() {
		r.Run(context.Background(), in)
	}
}

// BenchmarkRunOneHook is what one matching hook adds to a tool call:
// starting sh, writing the event, reading the answer.
func BenchmarkRunOneHook(b *testing.B) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		b.Skip("no sh")
	}
	r, _ := New([]Hook{{Event: PreToolUse, Command: `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`}}, Options{Dir: b.TempDir(), Env: os.Environ()})
	in := Input{Event: PreToolUse, ToolName: "run_command", ToolInput: json.RawMessage(`{"command":"ls"}`)}
	for b.Loop() {
		if out := r.Run(context.Background(), in); out.Permission != PermissionAsk {
			b.Fatalf("outcome %+v", out)
		}
	}
}
