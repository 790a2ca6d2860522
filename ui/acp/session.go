package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/todo"
)

// session is one open session of the editor: the conversation, the turn
// in progress, and the tool calls the editor has been told about.
type session struct {
	srv  *server
	id   string // as the editor names it
	conv *Conversation

	mu     sync.Mutex
	cancel context.CancelFunc // ends the turn in progress; nil when idle
	calls  map[string]*call   // the tool calls of this session, by pincer's key
	byID   map[string]string  // the server's id of a call → pincer's key
	synth  int                // keys made for calls the agent gave none (a sub-agent's)

	// streamMu orders the model's text through its guards: the answer
	// and the reasoning, each made inert (inert.go) before it is sent.
	streamMu sync.Mutex
	answer   imageGuard
	thought  imageGuard
}

// call is what the editor was told about one tool call.
type call struct {
	key    string
	name   string
	title  string
	kind   string
	locs   []toolCallLocation
	change *tools.Change // an edit's planned change, for its diff
	// started is set once the call runs; a call refused before that is
	// titled at its end with the summary the agent gives it.
	started bool

	// made is, for a call pincer made to ask a question about (nothing
	// else reports on it), what it is remembered by until answered.
	made string
}

func newSession(srv *server) *session {
	return &session{srv: srv, calls: map[string]*call{}, byID: map[string]string{}}
}

// busy reports a turn in progress.
func (s *session) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancel != nil
}

// cancelTurn ends the turn in progress, if any: the model's request and
// the running tool stop, a question waiting for an answer is refused, and
// the prompt is answered with the cancelled stop reason.
func (s *session) cancelTurn() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// close is called when the editor is done with the session.
func (s *session) close() {
	s.cancelTurn()
	if s.conv != nil && s.conv.Close != nil {
		s.conv.Close()
	}
}

// update sends one session/update. The titles of tool calls and the
// entries of a plan are the model's words too, made inert like its answer.
func (s *session) update(u any) {
	switch v := u.(type) {
	case toolCall:
		v.Title = inert(v.Title)
		u = v
	case planUpdate:
		entries := make([]planEntry, len(v.Entries))
		for i, e := range v.Entries {
			e.Content = inert(e.Content)
			entries[i] = e
		}
		v.Entries = entries
		u = v
	}
	s.srv.conn.notify("session/update", sessionNotification{SessionID: s.id, Update: u})
}

// notice tells the person something that is not the model's answer: as a
// notice where the editor shows them, else as a line of the agent's
// message.
func (s *session) notice(msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return
	}
	if s.srv.capabilities().notices() {
		s.update(noticeUpdate{SessionUpdate: "notice", Severity: "info", Title: msg})
		return
	}
	s.stream(false, "\n\n_pincer: "+escapeMarkdown(msg)+"_\n\n")
}

// say sends pincer's own answer (to a slash command) as the agent's
// message. It goes through the answer's guard like the model's words, so
// the guard reads the message as the editor does.
func (s *session) say(msg string) {
	s.stream(false, msg)
}

// prompt runs one prompt turn and answers with why it stopped.
func (s *session) prompt(ctx context.Context, blocks []contentBlock) (any, error) {
	prompt, err := promptText(blocks, s.conv.Root)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.cancel != nil {
		s.mu.Unlock()
		return nil, &rpcError{Code: codeInvalidRequest, Message: "a prompt is already running in this session; wait for it or cancel it (session/cancel) first"}
	}
	ctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	s.mu.Unlock()
	defer func() {
		s.endStreams()
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}()
	if name, args, ok := slashCommand(prompt); ok {
		if stop, handled, err := s.command(ctx, name, args); handled {
			return s.stopped(ctx, stop, err)
		}
	}
	return s.run(ctx, agent.Message{Role: agent.RoleUser, Content: prompt}, agent.TurnOptions{})
}

// run runs one turn of the agent.
func (s *session) run(ctx context.Context, user agent.Message, o agent.TurnOptions) (any, error) {
	res, err := s.conv.Agent.RunTurn(ctx, user, o, s.event)
	stop := stopEndTurn
	if res.StopReason == "max_iterations" {
		stop = stopMaxTurns
	}
	if err != nil && s.conv.Explain != nil && ctx.Err() == nil {
		err = s.conv.Explain(err)
	}
	return s.stopped(ctx, stop, err)
}

// stopped is the answer to a prompt: cancelled whenever the editor
// cancelled it, whatever the turn ended with, else the error or the stop
// reason.
func (s *session) stopped(ctx context.Context, stop string, err error) (any, error) {
	if ctx.Err() != nil {
		return promptResponse{StopReason: stopCancelled}, nil
	}
	if err != nil {
		if errors.Is(err, agent.ErrNotSaved) {
			return nil, &rpcError{Code: codeInternalError, Message: "pincer could not save this session, so it stopped: " + err.Error()}
		}
		return nil, &rpcError{Code: codeInternalError, Message: err.Error()}
	}
	return promptResponse{StopReason: stop}, nil
}

// event turns one of the agent's events into session updates.
func (s *session) event(ev agent.Event) {
	switch ev.(type) {
	case agent.TextDelta, agent.ReasoningDelta, agent.Retrying:
	default:
		s.cutStreams()
	}
	switch e := ev.(type) {
	case agent.TextDelta:
		s.stream(false, e.Text)
	case agent.ReasoningDelta:
		s.stream(true, e.Text)
	case agent.ToolCallDelta:
		s.streaming(e)
	case agent.AssistantMessage:
		for i, tc := range e.Message.ToolCalls {
			if i < len(e.Calls) {
				s.requested(e.Calls[i], tc)
			}
		}
	case agent.ToolStarted:
		s.started(e.Call, e.ID, e.Summary)
	case agent.ToolResult:
		s.finished(e, "")
	case agent.TodoList:
		s.update(plan(e.Items))
	case agent.SubEvent:
		s.subEvent(e)
	case agent.Notice:
		s.notice(e.Text)
	case agent.Compressed:
		s.notice(fmt.Sprintf("Summarised %d older messages to keep the conversation within the model's context window.", e.Messages))
	case agent.Recalled:
		if len(e.Notes) > 0 {
			s.notice(fmt.Sprintf("Reminded the model of %d note(s) from earlier sessions of this project.", len(e.Notes)))
		}
	case agent.Checked:
		s.checked(e)
	case agent.Diagnosed:
		for _, n := range e.Report.Notices {
			s.notice(n)
		}
	case agent.Retrying:
		s.srv.logf("pincer: the model server failed (%v); asking again in %s", e.Err, e.Wait.Round(1e8))
	}
}

// stream sends the next piece of the model's answer, or of its
// reasoning, made inert; a piece of the other is cut off first, since
// the editor shows them apart.
func (s *session) stream(reasoning bool, t string) {
	if t == "" {
		return
	}
	s.streamMu.Lock()
	defer s.streamMu.Unlock()
	g, other, kind, otherKind := &s.answer, &s.thought, "agent_message_chunk", "agent_thought_chunk"
	if reasoning {
		g, other, kind, otherKind = &s.thought, &s.answer, otherKind, kind
	}
	s.send(otherKind, other.write("", guardCut))
	s.send(kind, g.write(t, guardMore))
}

// cutStreams sends what the guards hold back, before anything else is
// shown between the model's words.
func (s *session) cutStreams() {
	s.streamMu.Lock()
	defer s.streamMu.Unlock()
	s.send("agent_message_chunk", s.answer.write("", guardCut))
	s.send("agent_thought_chunk", s.thought.write("", guardCut))
}

// endStreams sends what the guards hold back at the end of a turn, and
// readies them for the next.
func (s *session) endStreams() {
	s.streamMu.Lock()
	defer s.streamMu.Unlock()
	s.send("agent_message_chunk", s.answer.write("", guardEnd))
	s.send("agent_thought_chunk", s.thought.write("", guardEnd))
}

func (s *session) send(kind, t string) {
	if t != "" {
		s.update(contentChunk{SessionUpdate: kind, Content: text(t)})
	}
}

// checked shows a run of the project's check after a turn that changed
// files as a call of its own, with what it printed.
func (s *session) checked(e agent.Checked) {
	key := s.nextKey("check")
	title := oneLine(fmt.Sprintf("check: %s (round %d of %d)", e.Command, e.Round, e.Rounds), 160)
	status := statusCompleted
	if !e.Passed {
		status = statusFailed
	}
	u := toolCall{SessionUpdate: "tool_call", ToolCallID: key, Title: title, Kind: "execute", Status: status}
	if strings.TrimSpace(e.Output) != "" {
		u.Content = []toolCallContent{textContent(fenced(e.Output, ""))}
	}
	s.update(u)
}

// plan is the plan update for a task list.
func plan(items []todo.Item) planUpdate {
	u := planUpdate{SessionUpdate: "plan", Entries: []planEntry{}}
	for _, it := range items {
		status := "pending"
		switch it.Status {
		case todo.InProgress:
			status = "in_progress"
		case todo.Completed:
			status = "completed"
		}
		u.Entries = append(u.Entries, planEntry{Content: it.Content, Priority: "medium", Status: status})
	}
	return u
}

// sendPlan sends the task list a loaded session left, if it has one.
func (s *session) sendPlan(history []agent.Message) {
	if items := agent.Todos(history); len(items) > 0 {
		s.update(plan(items))
	}
}

// The session modes an editor offers: pincer's modes, and auto approvals.
const (
	modeAsk         = "ask"
	modeAcceptEdits = "accept-edits"
	modePlan        = "plan"
	modeAuto        = "auto"
)

// modes is the session's mode state for session/new and session/load.
func (s *session) modes() *sessionModeState {
	a := s.conv.Agent
	if a.Approvals() == safety.ApprovalsAuto && a.Mode() != agent.ModePlan {
		// Auto approvals (approvals: auto in the config) are the auto mode,
		// which applies edits unreviewed too.
		a.SetMode(agent.ModeAcceptEdits)
	}
	return &sessionModeState{
		CurrentModeID: s.currentMode(),
		AvailableModes: []sessionMode{
			{ID: modeAsk, Name: "Ask", Description: "Every edit is shown for review, and commands that change things ask first (dangerous ones twice)."},
			{ID: modeAcceptEdits, Name: "Accept edits", Description: "Edits are applied without review (their diffs still shown); commands still ask, dangerous ones twice."},
			{ID: modePlan, Name: "Plan", Description: "Read-only tools: the model researches and answers with a plan; nothing is changed."},
			{ID: modeAuto, Name: "Auto", Description: "Edits are applied without review, and ordinary commands run without asking inside the sandbox (where it can jail them); dangerous commands still ask twice, and leaving the sandbox always asks."},
		},
	}
}

// currentMode is the mode in effect, as the editor names it.
func (s *session) currentMode() string {
	a := s.conv.Agent
	switch {
	case a.Mode() == agent.ModePlan:
		return modePlan
	case a.Approvals() == safety.ApprovalsAuto:
		return modeAuto
	case a.Mode() == agent.ModeAcceptEdits:
		return modeAcceptEdits
	}
	return modeAsk
}

// setMode switches the mode, also while a turn runs; tell sends the
// editor the new mode (when pincer, not the editor, changed it).
func (s *session) setMode(id string, tell bool) error {
	a := s.conv.Agent
	switch id {
	case modeAsk:
		a.SetMode(agent.ModeAsk)
		a.SetApprovals(safety.ApprovalsAsk)
	case modeAcceptEdits:
		a.SetMode(agent.ModeAcceptEdits)
		a.SetApprovals(safety.ApprovalsAsk)
	case modePlan:
		a.SetMode(agent.ModePlan)
		a.SetApprovals(safety.ApprovalsAsk)
	case modeAuto:
		a.SetMode(agent.ModeAcceptEdits)
		a.SetApprovals(safety.ApprovalsAuto)
	default:
		return invalidParams("unknown mode %q; the modes are ask, accept-edits, plan and auto", human.OneLine(id, 60))
	}
	if tell {
		s.update(modeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: id})
	}
	return nil
}

// escapeMarkdown keeps text pincer frames in markdown from being read as
// markdown.
func escapeMarkdown(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "#", `\#`)
	return r.Replace(s)
}
