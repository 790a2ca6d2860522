package protocols

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/ui/acp/acptest"
)

// acpRun is `pincer acp` running in a sandbox, driven by a test client that
// validates every line pincer writes against the official ACP schema.
type acpRun struct {
	t      *testing.T
	c      *acptest.Client
	v      *acptest.Validator
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	ctx    context.Context
}

// startACP starts `pincer acp` in s and initializes the connection with
// the capabilities caps (nil: the defaults, no file system).
func startACP(t *testing.T, s *e2etest.Sandbox, caps map[string]any, args ...string) *acpRun {
	t.Helper()
	v, err := acptest.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(e2etest.Binary(t), append([]string{"acp"}, args...)...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &acpRun{t: t, v: v, cmd: cmd, stdin: stdin, stderr: &syncBuffer{}}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), acptest.Timeout)
	r.ctx = ctx
	r.c = acptest.NewClient(v, stdout, stdin)
	t.Cleanup(func() {
		cancel()
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("pincer acp did not end when its input closed")
		}
		for _, e := range r.c.Errors() {
			t.Errorf("a message pincer sent is not valid ACP: %s", e)
		}
		if t.Failed() {
			t.Logf("pincer's standard error:\n%s", r.stderr.String())
		}
	})
	if caps == nil {
		caps = map[string]any{}
	}
	var init struct {
		ProtocolVersion   int `json:"protocolVersion"`
		AgentCapabilities struct {
			LoadSession bool `json:"loadSession"`
		} `json:"agentCapabilities"`
	}
	if err := r.c.Call(ctx, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, &init); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, r.stderr)
	}
	if init.ProtocolVersion != 1 || !init.AgentCapabilities.LoadSession {
		t.Fatalf("initialize answered %+v", init)
	}
	return r
}

// newSession opens a session in dir and returns its id.
func (r *acpRun) newSession(dir string) string {
	r.t.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
		Modes     struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	if err := r.c.Call(r.ctx, "session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}, &res); err != nil {
		r.t.Fatalf("session/new: %v\nstderr:\n%s", err, r.stderr)
	}
	if res.SessionID == "" || res.Modes.CurrentModeID != "ask" {
		r.t.Fatalf("session/new answered %+v", res)
	}
	return res.SessionID
}

// prompt sends one prompt and returns its stop reason.
func (r *acpRun) prompt(id, text string) string {
	r.t.Helper()
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := r.c.Call(r.ctx, "session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": text}}}, &res); err != nil {
		r.t.Fatalf("session/prompt %q: %v\nstderr:\n%s", text, err, r.stderr)
	}
	return res.StopReason
}

// toolMessages are the tool results a model request carried.
func toolMessages(req agenttest.Request) []string {
	var out []string
	msgs, _ := req.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" {
			s, _ := mm["content"].(string)
			out = append(out, s)
		}
	}
	return out
}

// optionNames are the labels of a permission request's options.
func optionNames(p acptest.PermissionRequest) []string {
	var out []string
	for _, o := range p.Options {
		out = append(out, o.Kind+":"+o.Name)
	}
	return out
}

func optionOf(p acptest.PermissionRequest, kind string) string {
	for _, o := range p.Options {
		if o.Kind == kind {
			return o.OptionID
		}
	}
	return ""
}

// TestACPPromptTurns drives `pincer acp` as an editor would, through two
// prompt turns: in the first the person rejects the command the model
// wants to run, and the model is told "User cancelled the operation"; in
// the second they allow an edit, which lands as the editor's buffer write
// (the editor offers fs/write_text_file) and shows as a diff. Then a
// dangerous command asks twice, and the second question is labelled with
// the command and offers no "always". Every line pincer writes is
// validated against the official ACP schema.
func TestACPPromptTurns(t *testing.T) {
	t.Parallel()
	editArgs, _ := json.Marshal(map[string]string{"path": "notes.txt", "old_text": "milk", "new_text": "oat milk"})
	srv := agenttest.New(
		agenttest.Tools("I will create it.", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"touch made-by-model"}`}),
		agenttest.Text("Understood, I did not run it.", 6),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "edit_file", Arguments: string(editArgs)}),
		agenttest.Text("Changed the note.", 6),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "run_command", Arguments: `{"command":"rm -rf build"}`}),
		agenttest.Text("Removed build.", 6),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	s.Write("build/out.o", "object")

	// The editor holds notes.txt open with an unsaved change: the model
	// must read and edit that text, and the edit must reach the buffer.
	buffers := map[string]string{filepath.Join(s.Dir, "notes.txt"): "remember the milk\nand the bread (unsaved)\n"}
	var writes []string
	r := startACP(t, s, map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}})
	r.c.ReadFile = func(path string) (string, error) {
		if text, ok := buffers[path]; ok {
			return text, nil
		}
		data, err := os.ReadFile(path)
		return string(data), err
	}
	r.c.WriteFile = func(path, content string) error {
		writes = append(writes, path)
		buffers[path] = content
		return nil
	}
	var asked []acptest.PermissionRequest
	answers := []string{"reject", "allow", "allow", "run-it"}
	r.c.Permission = func(p acptest.PermissionRequest) string {
		asked = append(asked, p)
		switch answers[len(asked)-1] {
		case "reject":
			return optionOf(p, "reject_once")
		case "allow":
			return optionOf(p, "allow_once")
		case "run-it":
			for _, o := range p.Options {
				if strings.HasSuffix(o.Name, "yes, run it") {
					return o.OptionID
				}
			}
		}
		return ""
	}
	id := r.newSession(s.Dir)

	// Turn 1: the command is rejected.
	if stop := r.prompt(id, "create a file"); stop != "end_turn" {
		t.Fatalf("turn 1 stopped with %q", stop)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made-by-model")); err == nil {
		t.Error("the rejected command ran")
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !slices.Contains(toolMessages(reqs[1]), "User cancelled the operation") {
		t.Fatalf("the model was not told the command was refused: %q", toolMessages(reqs[len(reqs)-1]))
	}
	if len(asked) != 1 || asked[0].ToolCall.Kind != "execute" || !strings.Contains(string(asked[0].Raw), "touch made-by-model") {
		t.Fatalf("the first question: %s", asked[0].Raw)
	}

	// Turn 2: the edit is allowed and goes to the editor's buffer.
	if stop := r.prompt(id, "say oat milk"); stop != "end_turn" {
		t.Fatalf("turn 2 stopped with %q", stop)
	}
	want := "remember the oat milk\nand the bread (unsaved)\n"
	if got := buffers[filepath.Join(s.Dir, "notes.txt")]; got != want || len(writes) != 1 {
		t.Errorf("the editor's buffer holds %q after %d writes, want %q", got, len(writes), want)
	}
	if data, _ := os.ReadFile(filepath.Join(s.Dir, "notes.txt")); string(data) != "remember the milk\n" {
		t.Errorf("pincer wrote the disk under the editor's buffer: %q", data)
	}
	if p := asked[1]; p.ToolCall.Kind != "edit" || !strings.Contains(string(p.Raw), `"type":"diff"`) || !strings.Contains(string(p.Raw), "(unsaved)") {
		t.Errorf("the edit's question shows no diff of the editor's text: %s", p.Raw)
	}

	// Turn 3: a dangerous command asks twice.
	if stop := r.prompt(id, "clean the build"); stop != "end_turn" {
		t.Fatalf("turn 3 stopped with %q", stop)
	}
	if len(asked) != 4 {
		t.Fatalf("the dangerous command was asked %d times, want 2", len(asked)-2)
	}
	first, second := asked[2], asked[3]
	for _, p := range []acptest.PermissionRequest{first, second} {
		if optionOf(p, "allow_always") != "" {
			t.Errorf("a dangerous command is offered %q", optionNames(p))
		}
	}
	if second.ToolCall.ToolCallID != first.ToolCall.ToolCallID || optionOf(second, "allow_once") == optionOf(first, "allow_once") {
		t.Errorf("the second step must be the same call with a yes of its own: %q then %q", optionNames(first), optionNames(second))
	}
	if yes := second.Options[len(second.Options)-1]; yes.Kind != "allow_once" || yes.Name != "rm -rf build — yes, run it" || second.Options[0].Kind != "reject_once" {
		t.Errorf("the second step offers %q", optionNames(second))
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "build")); !os.IsNotExist(err) {
		t.Errorf("build still exists after two yeses: %v", err)
	}

	updates := r.c.Updates()
	if got := acptest.Text(updates, "agent_message_chunk"); !strings.Contains(got, "Understood, I did not run it.") || !strings.Contains(got, "Changed the note.") {
		t.Errorf("the answers did not stream: %q", got)
	}
	kinds := map[string]bool{}
	var finished []acptest.Update
	for _, u := range updates {
		kinds[u.SessionUpdate] = true
		if u.SessionUpdate == "tool_call_update" && (u.Status == "completed" || u.Status == "failed") {
			finished = append(finished, u)
		}
	}
	for _, k := range []string{"agent_message_chunk", "tool_call", "tool_call_update", "available_commands_update"} {
		if !kinds[k] {
			t.Errorf("no %s update", k)
		}
	}
	if len(finished) != 3 || finished[0].Status != "failed" || !strings.Contains(string(finished[0].Raw), "User cancelled the operation") ||
		finished[1].Status != "completed" || !strings.Contains(string(finished[1].Raw), `"type":"diff"`) {
		t.Errorf("the calls ended as %+v", finished)
	}
	t.Logf("validated: %s", strings.Join(r.v.Checked(), ", "))
}

// TestACPCancel cancels a turn while the answer streams and while a
// question waits for the person: each prompt ends with the cancelled stop
// reason, nothing runs, and the connection goes on working.
func TestACPCancel(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a long answer that keeps streaming. ", 400)
	srv := agenttest.New(
		agenttest.Reply{Body: agenttest.TextBody(long, 20, 10, 10), Piece: 200, Delay: 30 * time.Millisecond},
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"touch should-not-exist"}`}),
		agenttest.Text("after the cancel", 4),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	r := startACP(t, s, nil)
	id := r.newSession(s.Dir)

	// Mid-stream.
	start := time.Now()
	p := r.c.Start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "tell me a long story"}}})
	if _, err := r.c.WaitFor(r.ctx, "the answer to stream", func(m acptest.Message) bool {
		return m.Method == "session/update" && strings.Contains(string(m.Params), "agent_message_chunk")
	}); err != nil {
		t.Fatal(err)
	}
	r.c.Notify("session/cancel", map[string]any{"sessionId": id})
	m, err := r.c.Wait(r.ctx, p)
	if err != nil || m.Error != nil || !strings.Contains(string(m.Result), `"cancelled"`) {
		t.Fatalf("the cancelled prompt answered %s %+v (%v)", m.Result, m.Error, err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("the cancel took %s", el)
	}

	// Mid-permission: the editor cancels the turn, then answers the open
	// question with the cancelled outcome, as ACP asks of it.
	asked := make(chan string, 1)
	r.c.Permission = func(p acptest.PermissionRequest) string {
		asked <- p.ToolCall.ToolCallID
		r.c.Notify("session/cancel", map[string]any{"sessionId": id})
		time.Sleep(100 * time.Millisecond)
		return ""
	}
	stop := r.prompt(id, "make a file")
	if stop != "cancelled" {
		t.Errorf("cancelled during a question: stop reason %q", stop)
	}
	call := <-asked
	if _, err := os.Stat(filepath.Join(s.Dir, "should-not-exist")); err == nil {
		t.Error("the command ran after the cancel")
	}
	var ended bool
	for _, u := range r.c.Updates() {
		if u.ToolCallID == call && u.Status == "failed" {
			ended = true
		}
	}
	if !ended {
		t.Error("the cancelled call was not marked failed")
	}

	// The connection works on.
	r.c.Permission = nil
	if stop := r.prompt(id, "are you there?"); stop != "end_turn" {
		t.Errorf("after the cancels a prompt stopped with %q", stop)
	}
	if got := acptest.Text(r.c.Updates(), "agent_message_chunk"); !strings.Contains(got, "after the cancel") {
		t.Errorf("no answer after the cancels: %q", got)
	}
}

// TestACPLoadsAScreenSession makes a named session on the screen (in tmux),
// then has an editor load it: the conversation is replayed, and a prompt
// in the editor carries on from it.
func TestACPLoadsAScreenSession(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("Let me look.", agenttest.Call{ID: "call_1", Name: "run_command", Arguments: `{"command":"ls"}`}),
		agenttest.Text("There is notes.txt here.", 6),
		agenttest.Text("Yes, I remember notes.txt.", 6),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	ts := e2etest.NewTmuxScreen(t, s, 100, 30, "-s", "from-screen")
	ts.WaitFor("the screen to open", "Ask pincer", "from-screen")
	ts.Keys("what is in this project?", "Enter")
	ts.WaitFor("the answer", "There is notes.txt here.", "idle")
	ts.Keys("C-c")
	ts.Keys("C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")

	r := startACP(t, s, nil)
	var listed struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			Title     string `json:"title"`
		} `json:"sessions"`
	}
	if err := r.c.Call(r.ctx, "session/list", map[string]any{"cwd": s.Dir}, &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed.Sessions) != 1 || listed.Sessions[0].Title != "from-screen" {
		t.Fatalf("session/list: %+v", listed)
	}
	if err := r.c.Call(r.ctx, "session/load", map[string]any{"sessionId": "from-screen", "cwd": s.Dir, "mcpServers": []any{}}, nil); err != nil {
		t.Fatal(err)
	}
	updates := r.c.Updates()
	if got := acptest.Text(updates, "user_message_chunk"); got != "what is in this project?" {
		t.Errorf("the replayed prompt: %q", got)
	}
	if got := acptest.Text(updates, "agent_message_chunk"); !strings.Contains(got, "There is notes.txt here.") {
		t.Errorf("the replayed answer: %q", got)
	}
	var replayedCall bool
	for _, u := range updates {
		if u.SessionID != "from-screen" {
			t.Errorf("an update for session %q", u.SessionID)
		}
		if u.SessionUpdate == "tool_call" && u.Kind == "execute" && strings.Contains(u.Title, "ls") {
			replayedCall = true
		}
	}
	if !replayedCall {
		t.Error("the screen's tool call was not replayed")
	}
	if stop := r.prompt("from-screen", "do you remember?"); stop != "end_turn" {
		t.Fatalf("prompt in the loaded session: %q", stop)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if users := e2etest.UserContents(last); len(users) < 2 || !strings.Contains(users[0], "what is in this project?") {
		t.Errorf("the loaded session's prompt did not carry the screen's conversation: %q", users)
	}
	r.stdin.Close()
	r.cmd.Wait()
	if n := len(s.Exported("from-screen").Messages); n < 6 {
		t.Errorf("the session holds %d messages after the editor's turn, want at least 6", n)
	}
}

// TestACPMalformedInput sends what is not a valid message: each gets a
// JSON-RPC error on standard output, pincer keeps running, and nothing
// but messages is written there.
func TestACPMalformedInput(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 2))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	r := startACP(t, s, nil)
	for _, line := range []string{
		`{not json`,
		`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"session/new"}`,
		`{"jsonrpc":"1.0","id":7,"method":"session/new","params":{}}`,
		`{"jsonrpc":"2.0","id":8,"method":"session/new","params":{"cwd":"relative","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}`,
		`{"jsonrpc":"2.0","id":10,"method":"no/such/method","params":{}}`,
		`"just a string"`,
	} {
		r.c.Send(line)
	}
	errs := 0
	if _, err := r.c.WaitFor(r.ctx, "an error answer to each bad line", func(m acptest.Message) bool {
		if m.Error != nil {
			errs++
		}
		return errs == 8
	}); err != nil {
		t.Fatalf("%v: %d error answers to 8 bad lines", err, errs)
	}
	codes := map[int]int{}
	for _, m := range r.c.Lines() {
		if m.Error != nil {
			codes[m.Error.Code]++
		}
	}
	if codes[-32700] != 1 || codes[-32600] != 4 || codes[-32602] != 1 || codes[-32002] != 1 || codes[-32601] != 1 {
		t.Errorf("error codes %v, want one parse error, four invalid requests, one invalid params, one not found, one unknown method", codes)
	}
	// Still working.
	if id := r.newSession(s.Dir); id == "" {
		t.Error("no session after the bad lines")
	}
}

// syncBuffer collects what a process writes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestACPWithTheSDKClient drives `pincer acp` with a client no one on the
// project wrote: the official ACP TypeScript SDK's, which parses every
// message with its own schemas. Three prompt turns complete: a command
// rejected, an edit allowed into the editor's buffer, a dangerous command
// allowed in two steps.
func TestACPWithTheSDKClient(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("installs the SDK with npm; go test without -short (or .ci/run) runs it")
	}
	script := acptest.InstallSDK(t)
	editArgs, _ := json.Marshal(map[string]string{"path": "notes.txt", "old_text": "milk", "new_text": "oat milk"})
	srv := agenttest.New(
		agenttest.Tools("I will create it.", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"touch made-by-model"}`}),
		agenttest.Text("Understood, I did not run it.", 6),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "edit_file", Arguments: string(editArgs)}),
		agenttest.Text("Changed the note.", 6),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "run_command", Arguments: `{"command":"rm -rf build"}`}),
		agenttest.Text("Removed build.", 6),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	s.Write("build/out.o", "object")
	notes := filepath.Join(s.Dir, "notes.txt")
	plan, _ := json.Marshal(map[string]any{
		"prompts": []string{"create a file", "say oat milk", "clean the build"},
		"answers": []string{"reject", "allow", "allow", "run-it"},
		"buffers": map[string]string{notes: "remember the milk\nunsaved line\n"},
	})
	cmd := exec.Command("node", script, e2etest.Binary(t), s.Dir, string(plan))
	cmd.Dir, cmd.Env = s.Dir, s.Env
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the SDK client: %v\nstderr:\n%s", err, stderr.String())
	}
	var got struct {
		StopReasons []string
		Permissions []struct {
			Title   string
			Kind    string
			Answer  string
			Options []struct{ ID, Name, Kind string }
		}
		Updates map[string]int
		Writes  []string
		Errors  []string
		Text    string
		Buffers map[string]string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the SDK client's report: %v\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	if len(got.Errors) > 0 {
		t.Errorf("the SDK client reported: %q", got.Errors)
	}
	if !slices.Equal(got.StopReasons, []string{"end_turn", "end_turn", "end_turn"}) {
		t.Errorf("stop reasons %q", got.StopReasons)
	}
	if len(got.Permissions) != 4 {
		t.Fatalf("%d permission requests, want 4: %+v", len(got.Permissions), got.Permissions)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made-by-model")); err == nil {
		t.Error("the rejected command ran")
	}
	if reqs := srv.Requests(); len(reqs) < 2 || !slices.Contains(toolMessages(reqs[1]), "User cancelled the operation") {
		t.Error("the model was not told the command was refused")
	}
	if got.Buffers[notes] != "remember the oat milk\nunsaved line\n" || len(got.Writes) != 1 {
		t.Errorf("the editor's buffer after the edit: %q (%d writes)", got.Buffers[notes], len(got.Writes))
	}
	second := got.Permissions[3]
	if second.Options[0].Kind != "reject_once" || second.Options[1].Name != "rm -rf build — yes, run it" {
		t.Errorf("the second step of the dangerous command offers %+v", second.Options)
	}
	for _, p := range got.Permissions[2:] {
		for _, o := range p.Options {
			if o.Kind == "allow_always" {
				t.Errorf("a dangerous command is offered %q", o.Name)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "build")); !os.IsNotExist(err) {
		t.Error("build is still there after two yeses")
	}
	if got.Updates["tool_call"] != 3 || got.Updates["agent_message_chunk"] == 0 || got.Updates["available_commands_update"] != 1 {
		t.Errorf("updates %v", got.Updates)
	}
	if !strings.Contains(got.Text, "Understood, I did not run it.") || !strings.Contains(got.Text, "Removed build.") {
		t.Errorf("the answers the SDK client read: %q", got.Text)
	}
}

// TestACPUndo: /undo in an editor shows what it restores, asks, and takes
// the last turn back — its file and its messages; /redo brings them back.
func TestACPUndo(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"new.txt","content":"hello\n"}`}),
		agenttest.Text("Wrote it.", 4),
	)
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 2))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("keep.txt", "kept\n")
	r := startACP(t, s, nil)
	var asked []acptest.PermissionRequest
	r.c.Permission = func(p acptest.PermissionRequest) string {
		asked = append(asked, p)
		return optionOf(p, "allow_once")
	}
	id := r.newSession(s.Dir)
	if stop := r.prompt(id, "write new.txt please"); stop != "end_turn" {
		t.Fatalf("turn: %q", stop)
	}
	newFile := filepath.Join(s.Dir, "new.txt")
	if _, err := os.Stat(newFile); err != nil {
		t.Fatalf("the edit did not land: %v", err)
	}
	if stop := r.prompt(id, "/undo"); stop != "end_turn" {
		t.Fatalf("/undo: %q", stop)
	}
	if len(asked) != 2 {
		t.Fatalf("%d questions, want the edit's and the undo's", len(asked))
	}
	undo := asked[1]
	if !strings.Contains(undo.ToolCall.Title, "Undo turn #1") || !strings.Contains(string(undo.Raw), `"type":"diff"`) || !strings.Contains(string(undo.Raw), newFile) {
		t.Errorf("the undo's question: %s", undo.Raw)
	}
	if _, err := os.Stat(newFile); !os.IsNotExist(err) {
		t.Errorf("new.txt is still there after /undo: %v", err)
	}
	if got := acptest.Text(r.c.Updates(), "agent_message_chunk"); !strings.Contains(got, "Undone turn #1") {
		t.Errorf("no word of the undo: %q", got)
	}
	r.prompt(id, "what did you do?")
	reqs := srv.Requests()
	for _, u := range e2etest.UserContents(reqs[len(reqs)-1]) {
		if strings.Contains(u, "write new.txt please") {
			t.Errorf("the undone prompt is still sent to the model")
		}
	}
	// The question turn made nothing to undo; /redo takes the undo back
	// only while nothing changed, so it refuses now and says why.
	r.prompt(id, "/redo")
	if got := acptest.Text(r.c.Updates(), "agent_message_chunk"); !strings.Contains(got, "Could not redo") {
		t.Errorf("/redo after a new turn: %q", got)
	}
}
