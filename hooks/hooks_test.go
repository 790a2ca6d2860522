package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

func TestMatching(t *testing.T) {
	hooks := []Hook{
		{Event: PreToolUse, Matcher: "run_command|write_file", Command: "a"},
		{Event: PreToolUse, Matcher: "", Command: "b"},
		{Event: PreToolUse, Matcher: "*", Command: "c"},
		{Event: PreToolUse, Matcher: "read_.*", Command: "d"},
		{Event: PostToolUse, Matcher: "run_command", Command: "e"},
		{Event: Stop, Matcher: "never", Command: "f"},
		{Event: SessionStart, Matcher: "resume", Command: "g"},
	}
	r, err := New(hooks, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		event  Event
		target string
		want   string
	}{
		{PreToolUse, "run_command", "abc"},
		{PreToolUse, "write_file", "abc"},
		{PreToolUse, "run_command_remote", "bc"}, // the whole name must match
		{PreToolUse, "my_run_command", "bc"},
		{PreToolUse, "read_file", "bcd"},
		{PostToolUse, "run_command", "e"},
		{PostToolUse, "read_file", ""},
		{Stop, "", "f"}, // matchers do not apply to Stop
		{SessionStart, "startup", ""},
		{SessionStart, "resume", "g"},
		{UserPromptSubmit, "", ""},
	}
	for _, tt := range tests {
		var got string
		for _, h := range r.Matching(tt.event, tt.target) {
			got += h.Command
		}
		if got != tt.want {
			t.Errorf("%s %q: matched %q, want %q", tt.event, tt.target, got, tt.want)
		}
	}
	if _, err := New([]Hook{{Event: PreToolUse, Matcher: "(", Command: "x", From: "f.json"}}, Options{}); err == nil || !strings.Contains(err.Error(), "f.json") {
		t.Errorf("bad matcher: %v", err)
	}
}

func TestInterpret(t *testing.T) {
	pre := Hook{Event: PreToolUse, Command: "check"}
	tests := []struct {
		name string
		hook Hook
		res  result
		want Outcome
		// notice, when set, must be in the only notice.
		notice string
	}{
		{name: "exit 0, no output", hook: pre, res: result{code: 0}},
		{name: "exit 0, plain text on a tool event is not context", hook: pre, res: result{code: 0, stdout: "checked\n"}},
		{name: "exit 0, plain text is a prompt's context", hook: Hook{Event: UserPromptSubmit}, res: result{code: 0, stdout: " today is Monday \n"},
			want: Outcome{Context: "today is Monday"}},
		{name: "exit 0, plain text is a session's context", hook: Hook{Event: SessionStart}, res: result{code: 0, stdout: "branch main"},
			want: Outcome{Context: "branch main"}},
		{name: "exit 2 blocks with standard error", hook: pre, res: result{code: 2, stderr: "no rm here\n", stdout: `{"decision":"approve"}`},
			want: Outcome{Block: true, Reason: "no rm here"}},
		{name: "exit 2 without a reason", hook: pre, res: result{code: 2},
			want: Outcome{Block: true, Reason: "no reason given (the hook exited with status 2 and wrote nothing to standard error)"}},
		{name: "exit 2 cannot block a session start", hook: Hook{Event: SessionStart, Command: "s"}, res: result{code: 2, stderr: "nope"},
			notice: "a session start cannot be blocked"},
		{name: "exit 1 is a notice", hook: pre, res: result{code: 1, stderr: "oops"},
			notice: `The PreToolUse hook "check" failed with exit status 1: oops; the turn goes on.`},
		{name: "not found", hook: pre, res: result{code: 127, stderr: "sh: 1: check: not found"},
			notice: "exit status 127 (the command was not found; check its path): sh: 1: check: not found"},
		{name: "timeout", hook: pre, res: result{timedOut: true, timeout: 3 * time.Second},
			notice: "did not finish within 3s and was stopped; the turn goes on without it."},
		{name: "cancelled says nothing", hook: pre, res: result{cancelled: true}},
		{name: "bad JSON", hook: pre, res: result{code: 0, stdout: `{"decision": `},
			notice: "printed JSON that pincer cannot read"},
		{name: "two JSON values", hook: pre, res: result{code: 0, stdout: `{} {}`},
			notice: "more than one JSON value"},
		{name: "decision block", hook: Hook{Event: PostToolUse}, res: result{code: 0, stdout: `{"decision":"block","reason":"lint failed"}`},
			want: Outcome{Block: true, Reason: "lint failed"}},
		{name: "continue false", hook: Hook{Event: PostToolUse}, res: result{code: 0, stdout: `{"continue":false,"stopReason":"build broke"}`},
			want: Outcome{Stop: true, StopReason: "build broke"}},
		{name: "continue true changes nothing", hook: Hook{Event: PostToolUse}, res: result{code: 0, stdout: `{"continue":true}`}},
		{name: "additionalContext of a prompt", hook: Hook{Event: UserPromptSubmit}, res: result{code: 0, stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ticket ABC-1"}}`},
			want: Outcome{Context: "ticket ABC-1"}},
		{name: "additionalContext after a tool", hook: Hook{Event: PostToolUse}, res: result{code: 0, stdout: `{"hookSpecificOutput":{"additionalContext":"3 lint warnings"}}`},
			want: Outcome{Context: "3 lint warnings"}},
		{name: "additionalContext for another event", hook: Hook{Event: PostToolUse, Command: "x"}, res: result{code: 0, stdout: `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`},
			notice: `answered for "Stop" though it ran for PostToolUse`},
		{name: "deny", hook: pre, res: result{code: 0, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on main"}}`},
			want: Outcome{Block: true, Reason: "not on main", Permission: PermissionDeny, PermissionReason: "not on main"}},
		{name: "ask", hook: pre, res: result{code: 0, stdout: `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"touches prod"}}`},
			want: Outcome{Permission: PermissionAsk, PermissionReason: "touches prod"}},
		{name: "allow", hook: pre, res: result{code: 0, stdout: `{"hookSpecificOutput":{"permissionDecision":"allow"}}`},
			want: Outcome{Permission: PermissionAllow}},
		{name: "unknown permission", hook: pre, res: result{code: 0, stdout: `{"hookSpecificOutput":{"permissionDecision":"yolo"}}`},
			notice: `"permissionDecision": "yolo"`},
		{name: "updatedInput", hook: pre, res: result{code: 0, stdout: `{"hookSpecificOutput":{"permissionDecision":"ask","updatedInput":{"command":"ls -la"}}}`},
			want: Outcome{Permission: PermissionAsk, UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)}},
		{name: "updatedInput not an object", hook: pre, res: result{code: 0, stdout: `{"hookSpecificOutput":{"updatedInput":"rm -rf /"}}`},
			notice: "not a JSON object"},
		{name: "updatedInput only for PreToolUse", hook: Hook{Event: PostToolUse}, res: result{code: 0, stdout: `{"hookSpecificOutput":{"updatedInput":{"command":"x"}}}`}},
		{name: "systemMessage", hook: pre, res: result{code: 0, stdout: `{"systemMessage":"formatted 2 files"}`},
			notice: "says: formatted 2 files"},
		{name: "block at session start", hook: Hook{Event: SessionStart}, res: result{code: 0, stdout: `{"decision":"block","reason":"r"}`},
			notice: "a session start cannot be blocked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := interpret(tt.hook, tt.res)
			notices := got.Notices
			got.Notices = nil
			if string(got.UpdatedInput) != string(tt.want.UpdatedInput) {
				t.Errorf("updatedInput %s, want %s", got.UpdatedInput, tt.want.UpdatedInput)
			}
			got.UpdatedInput, tt.want.UpdatedInput = nil, nil
			if !equalOutcome(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			switch {
			case tt.notice == "" && len(notices) > 0:
				t.Errorf("unexpected notices %q", notices)
			case tt.notice != "" && (len(notices) != 1 || !strings.Contains(notices[0], tt.notice)):
				t.Errorf("notices %q, want one holding %q", notices, tt.notice)
			}
		})
	}
}

func equalOutcome(a, b Outcome) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestPayload: the JSON on a hook's standard input has the common fields
// and those of its event, under Claude Code's names.
func TestPayload(t *testing.T) {
	tests := []struct {
		in   Input
		want string
	}{
		{Input{Event: PreToolUse, SessionID: "s1", Cwd: "/p", ToolName: "run_command", ToolInput: json.RawMessage(`{"command":"ls"}`)},
			`{"cwd":"/p","hook_event_name":"PreToolUse","session_id":"s1","tool_input":{"command":"ls"},"tool_name":"run_command"}`},
		{Input{Event: PostToolUse, ToolName: "t", ToolInput: json.RawMessage(`{}`), ToolResponse: json.RawMessage(`{"content":"ok","is_error":false}`)},
			`{"cwd":"","hook_event_name":"PostToolUse","session_id":"","tool_input":{},"tool_name":"t","tool_response":{"content":"ok","is_error":false}}`},
		{Input{Event: UserPromptSubmit, Prompt: "hi"}, `{"cwd":"","hook_event_name":"UserPromptSubmit","prompt":"hi","session_id":""}`},
		{Input{Event: Stop}, `{"cwd":"","hook_event_name":"Stop","session_id":"","stop_hook_active":false}`},
		{Input{Event: SessionStart, Source: "resume"}, `{"cwd":"","hook_event_name":"SessionStart","session_id":"","source":"resume"}`},
		{Input{Event: PreToolUse, ToolName: "t", ToolInput: json.RawMessage(`not json`)},
			`{"cwd":"","hook_event_name":"PreToolUse","session_id":"","tool_input":{},"tool_name":"t"}`},
	}
	for _, tt := range tests {
		got, err := tt.in.payload()
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: %s (%v)\nwant %s", tt.in.Event, got, err, tt.want)
		}
	}
}

func needSh(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("hooks run with sh")
	}
}

// TestRunPassesTheEventAndTheProject: a real hook reads the event on
// standard input, runs in the project directory with PINCER_PROJECT_DIR
// and CLAUDE_PROJECT_DIR, and a later PreToolUse hook sees the input an
// earlier one changed.
func TestRunPassesTheEventAndTheProject(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	r, err := New([]Hook{
		{Event: PreToolUse, Command: `cat > first.json; echo "$PINCER_PROJECT_DIR|$CLAUDE_PROJECT_DIR|$(pwd)" > env.txt; echo '{"hookSpecificOutput":{"updatedInput":{"command":"ls -la"}}}'`},
		{Event: PreToolUse, Command: `cat > ` + log},
	}, Options{Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	out := r.Run(context.Background(), Input{Event: PreToolUse, SessionID: "s", Cwd: dir, ToolName: "run_command", ToolInput: json.RawMessage(`{"command":"ls"}`)})
	if len(out.Notices) > 0 || out.Ran != 2 {
		t.Fatalf("outcome %+v", out)
	}
	if string(out.UpdatedInput) != `{"command":"ls -la"}` || !strings.Contains(out.UpdatedBy, "cat > first.json") {
		t.Errorf("updated %s by %s", out.UpdatedInput, out.UpdatedBy)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "first.json"))
	if !strings.Contains(string(first), `"tool_input":{"command":"ls"}`) {
		t.Errorf("first hook read %s", first)
	}
	second, _ := os.ReadFile(log)
	if !strings.Contains(string(second), `"tool_input":{"command":"ls -la"}`) {
		t.Errorf("second hook read %s, want the changed input", second)
	}
	env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	real, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(string(env)); got != dir+"|"+dir+"|"+real && got != dir+"|"+dir+"|"+dir {
		t.Errorf("env %q", got)
	}
}

// TestRunNamesTheSessionAndTheProject: an input that names no session
// and no directory is told the session Options.Session names at the time
// of the run (the screen may switch sessions) and the project directory.
func TestRunNamesTheSessionAndTheProject(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	current := "first"
	r, err := New([]Hook{{Event: Stop, Command: `cat >> seen.json; echo >> seen.json`}},
		Options{Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}, Session: func() string { return current }})
	if err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background(), Input{Event: Stop})
	current = "second"
	r.Run(context.Background(), Input{Event: Stop})
	r.Run(context.Background(), Input{Event: Stop, SessionID: "given", Cwd: "/elsewhere"})
	seen, _ := os.ReadFile(filepath.Join(dir, "seen.json"))
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(seen)), "\n") {
		var p struct {
			Session string `json:"session_id"`
			Cwd     string `json:"cwd"`
		}
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, p.Session+" "+p.Cwd)
	}
	want := []string{"first " + dir, "second " + dir, "given /elsewhere"}
	if !slices.Equal(got, want) {
		t.Errorf("hooks were told %q, want %q", got, want)
	}
}

// TestRunStopsAtTheFirstBlock: once a hook blocks, later hooks of the
// event do not run.
func TestRunStopsAtTheFirstBlock(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	r, _ := New([]Hook{
		{Event: PreToolUse, Command: `echo "rm is not allowed" >&2; exit 2`},
		{Event: PreToolUse, Command: `touch ran`},
	}, Options{Dir: dir, Env: os.Environ()})
	out := r.Run(context.Background(), Input{Event: PreToolUse, ToolName: "run_command"})
	if !out.Block || out.Reason != "rm is not allowed" || out.Ran != 1 {
		t.Errorf("outcome %+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the second hook ran after the first blocked")
	}
}

// TestPermissionsOnlyTighten: with several PreToolUse hooks, the strictest
// answer wins whatever the order, so a later allow cannot cancel an
// earlier ask (or deny), and the reason kept is the strictest one's.
func TestPermissionsOnlyTighten(t *testing.T) {
	needSh(t)
	answer := func(decision, reason string) string {
		return `echo '{"hookSpecificOutput":{"permissionDecision":"` + decision + `","permissionDecisionReason":"` + reason + `"}}'`
	}
	for _, tc := range []struct {
		name       string
		decisions  [][2]string
		want       Permission
		wantReason string
		ran        int // a deny blocks, and the hooks after it do not run
	}{
		{"ask then allow", [][2]string{{"ask", "touches prod"}, {"allow", "fine"}}, PermissionAsk, "touches prod", 2},
		{"allow then ask", [][2]string{{"allow", "fine"}, {"ask", "touches prod"}}, PermissionAsk, "touches prod", 2},
		{"ask, allow, allow", [][2]string{{"ask", "first"}, {"allow", "a"}, {"allow", "b"}}, PermissionAsk, "first", 3},
		{"ask then deny", [][2]string{{"ask", "first"}, {"deny", "never"}}, PermissionDeny, "never", 2},
		{"deny then ask", [][2]string{{"deny", "never"}, {"ask", "later"}}, PermissionDeny, "never", 1},
		{"allow, then nothing", [][2]string{{"allow", "ok"}, {"", ""}}, PermissionAllow, "ok", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hs []Hook
			for _, d := range tc.decisions {
				cmd := "true"
				if d[0] != "" {
					cmd = answer(d[0], d[1])
				}
				hs = append(hs, Hook{Event: PreToolUse, Command: cmd})
			}
			r, err := New(hs, Options{Dir: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}})
			if err != nil {
				t.Fatal(err)
			}
			out := r.Run(context.Background(), Input{Event: PreToolUse, ToolName: "run_command", ToolInput: json.RawMessage(`{"command":"ls"}`)})
			if out.Ran != tc.ran || out.Permission != tc.want || out.PermissionReason != tc.wantReason {
				t.Errorf("ran %d, permission %q (%q); want %d, %q (%q)", out.Ran, out.Permission, out.PermissionReason, tc.ran, tc.want, tc.wantReason)
			}
		})
	}
}

// TestTimeoutKillsTheGroup: a hook that hangs, with a child of its own,
// is stopped at its timeout — the child too — and the run goes on with a
// notice.
func TestTimeoutKillsTheGroup(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	r, _ := New([]Hook{{Event: Stop, Command: `sleep 30 & echo $! > child.pid; wait`, Timeout: 300 * time.Millisecond}}, Options{Dir: dir, Env: os.Environ()})
	start := time.Now()
	out := r.Run(context.Background(), Input{Event: Stop})
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("took %s", took)
	}
	if len(out.Notices) != 1 || !strings.Contains(out.Notices[0], "did not finish within 300ms and was stopped") {
		t.Fatalf("notices %q", out.Notices)
	}
	data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(5 * time.Second)
	// A killed child is a zombie until the machine's init reaps it, which
	// can take seconds: that counts as gone.
	for agenttest.Alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the hook's child %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCancelStopsTheHookQuietly: a cancelled turn stops its hook and says
// nothing about it.
func TestCancelStopsTheHookQuietly(t *testing.T) {
	needSh(t)
	r, _ := New([]Hook{{Event: Stop, Command: `sleep 30`}}, Options{Dir: t.TempDir(), Env: os.Environ()})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	out := r.Run(ctx, Input{Event: Stop})
	if len(out.Notices) != 0 || out.Block {
		t.Errorf("outcome %+v", out)
	}
}

// TestNotFoundIsANotice: a hook whose program does not exist is a
// notice, never a block.
func TestNotFoundIsANotice(t *testing.T) {
	needSh(t)
	r, _ := New([]Hook{{Event: UserPromptSubmit, Command: `./no-such-hook.sh`}}, Options{Dir: t.TempDir(), Env: os.Environ()})
	out := r.Run(context.Background(), Input{Event: UserPromptSubmit, Prompt: "x"})
	if out.Block || len(out.Notices) != 1 || !strings.Contains(out.Notices[0], "exit status 127") {
		t.Errorf("outcome %+v", out)
	}
}

// TestCappedKeepsTheStart: what a hook prints is kept up to maxOutput,
// however it arrives.
func TestCappedKeepsTheStart(t *testing.T) {
	var c capped
	chunk := bytes.Repeat([]byte("a"), 4096)
	for i := 0; i < 300; i++ { // 1.2 MB
		if n, err := c.Write(chunk); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v; want all taken", n, err)
		}
	}
	if c.buf.Len() != maxOutput {
		t.Errorf("kept %d bytes, want %d", c.buf.Len(), maxOutput)
	}
}

// TestOutputIsCapped: a hook that prints without end cannot fill memory.
func TestOutputIsCapped(t *testing.T) {
	needSh(t)
	r, _ := New([]Hook{{Event: UserPromptSubmit, Command: `head -c 1000000 /dev/zero | tr '\0' a`}}, Options{Dir: t.TempDir(), Env: os.Environ()})
	out := r.Run(context.Background(), Input{Event: UserPromptSubmit})
	if len(out.Context) > maxContext+100 || !strings.Contains(out.Context, "more bytes cut") {
		t.Errorf("context of %d bytes", len(out.Context))
	}
}
