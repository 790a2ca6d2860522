// Package headless is pincer without a screen: `pincer run` streams the
// answer to standard output and tool activity to standard error, or prints
// one JSON object per line for scripts, and answers approval questions from
// its flags instead of asking.
package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/lsp"
	"pincer/tools/todo"
)

// Exit codes of `pincer run`.
const (
	ExitOK      = 0 // the model answered
	ExitFailure = 1 // the model or a tool failed, or the run was cut short
	ExitUsage   = 2 // bad flags or config
	// ExitBrokenPipe: whoever read the output went away (pincer run … |
	// head -1). It is the status a shell reports for any program stopped
	// by a closed pipe (128 + SIGPIPE), so pipelines behave as usual.
	ExitBrokenPipe = 141
)

// Policy is what the flags allow without asking.
type Policy struct {
	// Yes approves what needs one approval: confirm-tier commands and
	// file access, and edits (applied without review).
	Yes bool
	// ApproveAll approves everything, dangerous commands included.
	ApproveAll bool
	// AllowSchedule approves creating scheduled tasks, which neither Yes
	// nor ApproveAll does: a task runs again later, unattended, in a
	// place a one-off run may never see again.
	AllowSchedule bool
}

// Approver answers approvals from the policy and reports each refusal on
// errOut, with the flag that would have allowed it.
func (p Policy) Approver(errOut io.Writer) agent.Approver {
	var mu sync.Mutex
	return agent.ApproverFunc(func(_ context.Context, a agent.Approval) (agent.Decision, error) {
		if a.Kind == agent.ApproveUnsandboxed {
			// --yes and --dangerously-approve-all approve inside the
			// sandbox only; leaving it takes --sandbox off.
			if a.Step == 1 {
				mu.Lock()
				fmt.Fprintf(errOut, "blocked by the sandbox: %s (%s); pass --sandbox off to run commands outside it\n", safetext.LineOf(a.Summary), safetext.LineOf(strings.Join(a.Reasons, "; ")))
				mu.Unlock()
			}
			return agent.Decision{}, nil
		}
		if a.Schedule {
			if !p.AllowSchedule && a.Step == 1 {
				mu.Lock()
				fmt.Fprintf(errOut, "refused %s: creating a scheduled task lets prompts run later without you, which --yes does not approve; pass --allow-schedule to allow it\n", safetext.LineOf(a.Summary))
				mu.Unlock()
			}
			return agent.Decision{Allow: p.AllowSchedule}, nil
		}
		// A read of a secret is not covered by --yes: the file tools run
		// outside the jail, which hides secrets from approved commands.
		allow := p.ApproveAll || (p.Yes && a.Tier < safety.Dangerous && !a.Secret)
		if !allow && a.Step == 1 {
			flag := "--yes"
			if a.Tier >= safety.Dangerous || a.Secret {
				flag = "--dangerously-approve-all"
			}
			what := safetext.LineOf(a.Summary)
			if a.MCP != nil {
				what = mcpWhat(a.MCP)
			}
			if a.Kind == agent.ApproveEdit && a.Change != nil {
				what = "edit of " + safetext.LineOf(a.Change.Rel)
			}
			if a.Agent != "" {
				what += " asked by " + safetext.LineOf(a.Agent)
			}
			reason := ""
			if len(a.Reasons) > 0 {
				reason = ": " + safetext.LineOf(strings.Join(a.Reasons, "; "))
			}
			need := "it needs your approval (rated " + a.Tier.String() + reason + ")"
			if a.Secret && a.Tier < safety.Dangerous {
				need = "it needs your approval (rated " + a.Tier.String() + reason + "; --yes does not cover reading a secret)"
			}
			mu.Lock()
			fmt.Fprintf(errOut, "refused %s: %s; pass %s to allow it\n", what, need, flag)
			mu.Unlock()
		}
		return agent.Decision{Allow: allow}, nil
	})
}

// Printer turns agent events into output. It is safe for use by one agent
// run at a time.
//
// Foreign text (the model's, a tool's, a server's) follows pincer's one
// sanitising policy (package safetext) wherever a person reads it: the
// activity lines on errOut always, the answer on out when out is a
// terminal. An answer piped to a file or a program stays byte for byte what
// the model wrote, and JSON lines are exact JSON.
type Printer struct {
	out, err io.Writer // both guarded: the first write error stops output
	broken   brokenOutput
	// rawErr is standard error unguarded, for saying that the output
	// failed after the guard stopped writing.
	rawErr io.Writer
	json   bool
	// cleanOut sanitises the answer: out is a terminal.
	cleanOut bool
	col      int  // column of the answer on the terminal, for tab stops
	heldCR   bool // a "\r" that ended a delta, until the next shows whether "\n" follows
	enc      *json.Encoder
	subUsage agent.Usage // summed over the sub-agents of the run
	lastByte byte        // last byte of answer text written to out
	wrote    bool
	session  sessionRef
	// started holds the tool calls whose tool_start line was printed and
	// whose tool_result was not yet (see startOf).
	started map[string]bool
}

type sessionRef struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// SetSession names the session the run is recorded in, for the result line.
func (p *Printer) SetSession(id, name string) { p.session = sessionRef{id, name} }

// NewPrinter writes the answer to out and activity to errOut, or JSON lines
// to out when asJSON is set.
//
// When a write to either fails, nothing more is written and the function
// given to OnBroken is called once so the run can be stopped. When the
// reader went away (a broken pipe) Finish returns ExitBrokenPipe without a
// word; any other failure (a full disk, a closed descriptor) loses output
// the person expected, so Finish says so and returns ExitFailure.
func NewPrinter(out, errOut io.Writer, asJSON bool) *Printer {
	p := &Printer{json: asJSON, cleanOut: !asJSON && IsTerminal(out), rawErr: errOut}
	p.out = &guarded{w: out, b: &p.broken}
	p.err = &guarded{w: errOut, b: &p.broken}
	if asJSON {
		var w io.Writer = p.out
		if IsTerminal(out) {
			// Exact JSON still, with control and bidi characters in
			// strings escaped as \u sequences, so a terminal obeys none.
			// Each line ends whole, so nothing is held back.
			w = safetext.NewJSONWriter(p.out)
		}
		p.enc = json.NewEncoder(w)
		p.enc.SetEscapeHTML(false)
	}
	return p
}

// OnBroken sets what to do when the output breaks, typically cancel the
// run: nobody reads what the model does from then on.
func (p *Printer) OnBroken(f func(error)) {
	p.broken.mu.Lock()
	p.broken.then = f
	p.broken.mu.Unlock()
}

// Stderr is the printer's activity stream, guarded like its output, for
// others that report there (the approver).
func (p *Printer) Stderr() io.Writer { return p.err }

// brokenOutput records the first write error of a printer's streams.
type brokenOutput struct {
	mu   sync.Mutex
	err  error
	then func(error)
}

func (b *brokenOutput) error() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// readerLeft reports whether a write failed because nobody reads any more:
// the quiet end of pincer run … | head -1.
func readerLeft(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)
}

func (b *brokenOutput) failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err != nil
}

func (b *brokenOutput) fail(err error) {
	b.mu.Lock()
	first := b.err == nil
	if first {
		b.err = err
	}
	then := b.then
	b.mu.Unlock()
	if first && then != nil {
		then(err)
	}
}

// guarded drops writes once any stream of the printer failed, so a closed
// pipe ends output instead of producing an error per line.
type guarded struct {
	w io.Writer
	b *brokenOutput
}

func (g *guarded) Write(p []byte) (int, error) {
	if g.b.failed() {
		return len(p), nil
	}
	if _, err := g.w.Write(p); err != nil {
		g.b.fail(err)
	}
	return len(p), nil
}

// Event prints one agent event.
func (p *Printer) Event(ev agent.Event) {
	if p.json {
		p.jsonEvent(ev)
		return
	}
	switch e := ev.(type) {
	case agent.TextDelta:
		if e.Text != "" {
			p.writeAnswer(e.Text)
			p.lastByte = e.Text[len(e.Text)-1]
			p.wrote = true
		}
	case agent.AssistantMessage:
		p.endLine()
	case agent.ToolStarted:
		p.startOf("", ev)
		fmt.Fprintf(p.err, "▸ %s\n", safetext.LineOf(e.Summary))
	case agent.ToolResult:
		if p.startOf("", ev) != nil && e.Summary != "" {
			// Refused before it started: say what it was, as a started
			// call's line does.
			fmt.Fprintf(p.err, "▸ %s\n", safetext.LineOf(e.Summary))
		}
		mark := "✓"
		if e.IsError {
			mark = "✗"
		}
		fmt.Fprintf(p.err, "  %s %s\n", mark, safetext.LineOf(firstLine(e.Content, 120)))
	case agent.Retrying:
		fmt.Fprintf(p.err, "retrying in %s (attempt %d failed: %s)\n", e.Wait.Round(100*time.Millisecond), e.Attempt, safetext.LineOf(fmt.Sprint(e.Err)))
	case agent.Checked:
		verdict := "passed"
		if !e.Passed {
			verdict = "failed"
		}
		fmt.Fprintf(p.err, "check %s (round %d of %d): %s\n", safetext.LineOf(e.Command), e.Round, e.Rounds, verdict)
		if !e.Passed {
			for _, l := range strings.Split(strings.TrimSpace(e.Output), "\n") {
				fmt.Fprintf(p.err, "  %s\n", safetext.LineOf(l))
			}
		}
	case agent.Diagnosed:
		fmt.Fprintf(p.err, "    %s: %s\n", safetext.LineOf(strings.Join(e.Report.Servers, ", ")), safetext.LineOf(e.Report.Label()))
	case agent.Notice:
		fmt.Fprintf(p.err, "note: %s\n", safetext.LineOf(e.Text))
	case agent.Recalled:
		fmt.Fprintf(p.err, "note: %s\n", safetext.LineOf(agent.RecallSummary(e.Notes, time.Now())))
	case agent.Compressed:
		fmt.Fprintf(p.err, "note: compressed %d older messages into a summary (about %d → %d tokens)\n", e.Messages, e.Before, e.After)
	case agent.TodoList:
		p.todos(e.Items)
	case agent.SubEvent:
		p.subEvent(e)
	}
}

// todos prints the task list on the activity stream: a heading with the
// progress, then one line per item with a mark that reads without colour.
func (p *Printer) todos(items []todo.Item) {
	if len(items) == 0 {
		fmt.Fprintln(p.err, "tasks: cleared")
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tasks: %s\n", todo.Count(items))
	for _, it := range items {
		fmt.Fprintf(&b, "  %s %s\n", todoMark(it.Status), safetext.LineOf(it.Content))
	}
	io.WriteString(p.err, b.String())
}

// todoMark is an item's mark in plain text.
func todoMark(s todo.Status) string {
	switch s {
	case todo.Completed:
		return "[x]"
	case todo.InProgress:
		return "[>]"
	}
	return "[ ]"
}

// writeAnswer writes a piece of the answer, sanitised for a terminal. A
// "\r" at the end of a piece waits for the next, so a "\r\n" split
// between two pieces is still a line break.
func (p *Printer) writeAnswer(s string) {
	if !p.cleanOut {
		io.WriteString(p.out, s)
		return
	}
	var b []byte
	if p.heldCR {
		s = "\r" + s
		p.heldCR = false
	}
	if strings.HasSuffix(s, "\r") {
		s, p.heldCR = s[:len(s)-1], true
	}
	b, p.col = safetext.Append(b, s, p.col, safetext.Text)
	p.out.Write(b)
}

// endLine ends the answer text with a newline so the next output starts on
// its own line.
func (p *Printer) endLine() {
	if p.heldCR {
		io.WriteString(p.out, "␍")
		p.heldCR = false
	}
	p.col = 0
	if p.wrote && p.lastByte != '\n' {
		io.WriteString(p.out, "\n")
	}
	p.wrote = false
	p.lastByte = 0
}

// The JSON lines, one type each; "type" comes first so a reader can
// dispatch on it at a glance.
type (
	textLine struct {
		Type  string `json:"type"`
		Delta string `json:"delta"`
	}
	callLine struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments any    `json:"arguments"`
	}
	assistantLine struct {
		Type         string     `json:"type"`
		Content      string     `json:"content"`
		Reasoning    string     `json:"reasoning"`
		ToolCalls    []callLine `json:"tool_calls"`
		FinishReason string     `json:"finish_reason"`
	}
	toolStartLine struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Name    string `json:"name"`
		Summary string `json:"summary"`
	}
	toolResultLine struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Name    string `json:"name"`
		Content string `json:"content"`
		IsError bool   `json:"is_error"`
	}
	usageLine struct {
		Type string `json:"type"`
		usageJSON
	}
	retryLine struct {
		Type    string `json:"type"`
		Attempt int    `json:"attempt"`
		WaitMS  int64  `json:"wait_ms"`
		Error   string `json:"error"`
	}
	messageLine struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	checkLine struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Round   int    `json:"round"`
		Rounds  int    `json:"rounds"`
		Passed  bool   `json:"passed"`
		Output  string `json:"output"`
	}
	diagnosticsLine struct {
		Type     string     `json:"type"`
		ID       string     `json:"id"`
		Errors   int        `json:"errors"`
		Warnings int        `json:"warnings"`
		New      int        `json:"new"`
		Total    int        `json:"total"`
		Items    []lsp.Item `json:"items"`
	}
	compressedLine struct {
		Type         string `json:"type"`
		Messages     int    `json:"messages"`
		TokensBefore int    `json:"tokens_before"`
		TokensAfter  int    `json:"tokens_after"`
		Summary      string `json:"summary"`
	}
	todoLine struct {
		Type      string      `json:"type"`
		Items     []todo.Item `json:"items"`
		Completed int         `json:"completed"`
		Total     int         `json:"total"`
	}
	windowLine struct {
		Type   string `json:"type"`
		Tokens int    `json:"tokens"`
		Source string `json:"source"`
	}
	recallLine struct {
		Type  string               `json:"type"`
		Notes []agent.RecalledNote `json:"notes"`
		Text  string               `json:"text"`
	}
	resultLine struct {
		Type       string    `json:"type"`
		Content    string    `json:"content"`
		StopReason string    `json:"stop_reason"`
		Iterations int       `json:"iterations"`
		IsError    bool      `json:"is_error"`
		Usage      usageJSON `json:"usage"`
		// SubUsage sums the tokens of the sub-agents (task calls), which
		// Usage leaves out.
		SubUsage *usageJSON  `json:"sub_usage,omitempty"`
		Session  *sessionRef `json:"session,omitempty"`
	}
)

// usageJSON is token usage as the lines print it: with the server's total,
// which the conversation's own JSON form (stored and exported) leaves out.
type usageJSON struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	// Estimated is set when pincer estimated the counts (characters over
	// four) because the server sent none.
	Estimated bool `json:"estimated,omitempty"`
	// Cost is in dollars, where the model's price is known.
	Cost float64 `json:"cost,omitempty"`
}

func usageOf(u agent.Usage) usageJSON {
	return usageJSON{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens,
		ReasoningTokens: u.ReasoningTokens, CachedTokens: u.CachedTokens, Estimated: u.Estimated, Cost: u.Cost}
}

func (p *Printer) jsonEvent(ev agent.Event) {
	if s, ok := ev.(agent.SubEvent); ok {
		p.subEvent(s)
		return
	}
	if start := p.startOf("", ev); start != nil {
		p.line(start)
	}
	if l := lineOf(ev); l != nil {
		p.line(l)
	}
}

// startOf pairs tool_start and tool_result lines: it returns the
// tool_start line a tool result needs first because its call never
// started (it was refused, or could not run), or nil. parent is the task
// call of a sub-agent's event, "" for the main agent's.
func (p *Printer) startOf(parent string, ev agent.Event) any {
	switch e := ev.(type) {
	case agent.ToolStarted:
		if p.started == nil {
			p.started = map[string]bool{}
		}
		p.started[parent+"\x00"+e.ID] = true
	case agent.ToolResult:
		key := parent + "\x00" + e.ID
		started := p.started[key]
		delete(p.started, key)
		if !started {
			return toolStartLine{"tool_start", e.ID, e.Name, e.Summary}
		}
	}
	return nil
}

// lineOf is the JSON line of an event, or nil for one not printed.
func lineOf(ev agent.Event) any {
	switch e := ev.(type) {
	case agent.TextDelta:
		return textLine{"text", e.Text}
	case agent.ReasoningDelta:
		return textLine{"reasoning", e.Text}
	case agent.AssistantMessage:
		calls := make([]callLine, 0, len(e.Message.ToolCalls))
		for _, c := range e.Message.ToolCalls {
			calls = append(calls, callLine{c.ID, c.Name, parsedArgs(c.Arguments)})
		}
		return assistantLine{"assistant", e.Message.Content, e.Message.Reasoning, calls, e.FinishReason}
	case agent.ToolStarted:
		return toolStartLine{"tool_start", e.ID, e.Name, e.Summary}
	case agent.ToolResult:
		return toolResultLine{"tool_result", e.ID, e.Name, e.Content, e.IsError}
	case agent.Usage:
		return usageLine{"usage", usageOf(e)}
	case agent.Retrying:
		return retryLine{"retry", e.Attempt, e.Wait.Milliseconds(), e.Err.Error()}
	case agent.Notice:
		return messageLine{"notice", e.Text}
	case agent.Recalled:
		return recallLine{"recall", e.Notes, e.Text}
	case agent.Checked:
		return checkLine{"check", e.Command, e.Round, e.Rounds, e.Passed, e.Output}
	case agent.Diagnosed:
		items := e.Report.Items
		if items == nil {
			items = []lsp.Item{}
		}
		return diagnosticsLine{"diagnostics", e.ID, e.Report.Errors, e.Report.Warnings, e.Report.New, e.Report.Total, items}
	case agent.Compressed:
		return compressedLine{"compressed", e.Messages, e.Before, e.After, e.Summary}
	case agent.WindowKnown:
		return windowLine{"window", e.Tokens, e.Source}
	case agent.TodoList:
		items := e.Items
		if items == nil {
			items = []todo.Item{}
		}
		return todoLine{"todo", items, todo.Count(items).Completed, len(items)}
	}
	return nil
}

// parsedArgs is the arguments as a JSON value when they parse, else the
// raw text.
func parsedArgs(args string) any {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err == nil {
		return v
	}
	return args
}

func (p *Printer) line(v any) {
	_ = p.enc.Encode(v)
}

// Finish prints the end of a run and returns the exit code.
func (p *Printer) Finish(res agent.Result, err error) int {
	if werr := p.broken.error(); werr != nil {
		if readerLeft(werr) {
			return ExitBrokenPipe
		}
		// Straight to stderr: when stderr is what failed, this fails too.
		fmt.Fprintf(p.rawErr, "pincer: could not write the output (%s); the run was stopped — check where the output goes (a full disk, a closed descriptor)\n", werr)
		return ExitFailure
	}
	code := ExitOK
	msg := ""
	switch {
	case errors.Is(err, context.Canceled):
		code, msg = ExitFailure, "interrupted"
	case err != nil:
		code, msg = ExitFailure, err.Error()
	case res.StopReason == "max_iterations":
		code = ExitFailure
		msg = fmt.Sprintf("stopped at the iteration limit (%d requests); the answer above says what is left", res.Iterations)
	}
	if p.json {
		if err != nil {
			p.line(messageLine{"error", msg})
		}
		var sess *sessionRef
		if p.session.ID != "" {
			sess = &p.session
		}
		var sub *usageJSON
		if p.subUsage != (agent.Usage{}) {
			u := usageOf(p.subUsage)
			sub = &u
		}
		p.line(resultLine{"result", res.Text, res.StopReason, res.Iterations, code != ExitOK, usageOf(res.Usage), sub, sess})
		return code
	}
	p.endLine()
	if msg != "" {
		fmt.Fprintf(p.err, "pincer: %s\n", safetext.LineOf(msg))
	}
	return code
}

func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len([]rune(s)) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	return s
}

// IsTerminal reports whether w is a terminal (a character device), where
// foreign text must not reach unsanitised.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// mcpWhat names a refused MCP call on one line: the tool, its server and
// its arguments as compact JSON (at most 200 bytes), rather than the
// dialog's indented JSON with its line breaks shown as symbols.
func mcpWhat(m *tools.MCPUse) string {
	args := strings.TrimSpace(m.Arguments)
	var b bytes.Buffer
	if json.Compact(&b, []byte(args)) == nil {
		args = b.String()
	}
	args = safetext.LineOf(args)
	if len(args) > 200 {
		args = strings.ToValidUTF8(args[:200], "") + "…"
	}
	return "tool " + safetext.LineOf(m.Tool) + " of the MCP server " + safetext.LineOf(m.Server) + " with the arguments " + args
}
