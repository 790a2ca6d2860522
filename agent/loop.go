package agent

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pincer/agent/llm"
	"pincer/chat"
	"pincer/internal/human"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/sandbox"
	"pincer/tools/sessiontools"
)

// DefaultMaxIterations is how many model requests with tools one prompt may
// use before the agent asks the model to wrap up.
const DefaultMaxIterations = 30

// Options configure an Agent. Model, Tools and Safety are required.
type Options struct {
	// Resources, when set, reads the MCP resources a prompt attaches as
	// @SERVER:URI.
	Resources Resources
	Model     Model
	Tools     *tools.Registry
	Safety    *safety.Classifier
	Approver  Approver // nil refuses everything that needs a yes
	System    string   // the assembled system prompt
	Root      string   // the project root; file access is judged against it
	Home      string   // the person's home directory, for the path policy
	// Own are pincer's own config, data, trust and theme locations: the
	// path policy makes writing them dangerous.
	Own safety.OwnFiles
	// MaxIterations caps the model requests with tools per prompt; 0 means
	// DefaultMaxIterations.
	MaxIterations int
	// Recorder, when set, stores each finished message at once.
	Recorder Recorder
	// Budget configures context compression; the zero value turns it off.
	Budget Budget
	// Recall, when set (auto_recall), is asked for notes from earlier
	// sessions about each prompt; they go to the model as a system message
	// before the prompt for that turn only, and a Recalled event shows
	// them.
	Recall Recaller
	Now    func() time.Time
	// Approvals is the starting approval mode: with safety.ApprovalsAuto,
	// confirm-tier commands that run inside a sandbox run without asking.
	Approvals safety.ApprovalMode
	// Checkpoints, when set, records the project's files around every
	// turn, so a turn can be rewound.
	Checkpoints Checkpointer
	// DynamicTools, when set, returns tools that come and go while the
	// agent lives (those of MCP servers that became ready); it is asked at
	// every request and every call, and its tools follow the registry's.
	DynamicTools func() []tools.Tool
	// Hooks, when set, runs the person's hook commands (see hooks.go).
	Hooks Hooks
	// Mode is the starting mode; "" is ModeAsk.
	Mode Mode
	// SubAgents, when set, offers the task tool, which hands a job to a
	// sub-agent (see subagent.go).
	SubAgents *SubAgents
	// Diagnostics, when set, adds the language servers' errors to the
	// result of each call that changed files (see diagnostics.go).
	Diagnostics Diagnostics
	// Check, when set, runs after a turn that changed files; its
	// failures go back to the model (see check.go).
	Check *CheckOptions
	// Profile is how the tools are offered (see profile.go); "" chooses
	// by Budget.ContextWindow.
	Profile Profile
	// ProfileAuto says Profile was chosen from the window at the start
	// (prompt_profile auto): a smaller window learned later (from the
	// server, or a refusal) switches the agent to the compact profile,
	// with CompactSystem as its system prompt when set.
	ProfileAuto   bool
	CompactSystem string
	// Price, when set, gives the cost of each request beside its tokens.
	Price Pricer
	// Window, when set, asks the model's server for the model's context
	// window (model "" is the client's); the agent asks before each turn
	// and budgets for what it learns (see Budget.CapWindow).
	Window func(ctx context.Context, model string) llm.Window
	// CountTokens, when set, counts tokens with the model's own
	// tokenizer (llama.cpp's and vLLM's /tokenize): before the model's
	// first request the estimate is calibrated with it (see calibrate).
	CountTokens func(ctx context.Context, text string) (int, bool)
	// TextToolsMemory, when set, remembers per model that its calls are
	// written as text, across processes and sessions (see texttools.go).
	TextToolsMemory TextToolsMemory
	// Learned is what the server reported when the agent was made (the
	// composition root asks before assembling the prompt), so the window
	// is right from the start, before the first turn asks again.
	Learned llm.Window
}

// Model is what the loop needs of the model client: one completion,
// streamed, its events sent to sink as they arrive (see llm.Event).
// llm.Client is the real one; tests script their own.
type Model interface {
	Complete(ctx context.Context, req llm.Request, sink func(Event)) (llm.Reply, error)
}

// Checkpointer records the project's files at the start and the end of
// each turn. The agent calls it from the goroutine that runs the turn.
type Checkpointer interface {
	// TurnStarted is called once the turn's prompt is stored, with its
	// sequence number. It may record in the background; the agent calls
	// the returned wait before the turn's first tool that may change
	// something runs, shows its note (files left out of the checkpoint,
	// say) when there is one, and goes on without a checkpoint (saying
	// so) when wait returns an error.
	TurnStarted(ctx context.Context, seq uint64) (wait func() (note string, err error))
	// TurnEnded is called when the turn ends, however it ends.
	TurnEnded(seq uint64)
}

// Recorder stores finished messages, one at a time, as soon as they are
// complete, so a crash loses at most the message in flight, and the summary
// that replaces older messages after compression.
type Recorder interface {
	// Record stores m and returns its sequence number in the session.
	Record(m Message) (uint64, error)
	// RecordSummary stores the summary of the messages up to and including
	// sequence number through.
	RecordSummary(summary string, through uint64) error
}

// Result sums up one Run.
type Result struct {
	Text       string // the final answer
	Iterations int    // model requests made
	Usage      Usage  // summed over the requests
	// StopReason is "answer", "max_iterations", "cancelled" or "error".
	StopReason string
	// Planned is set when the answer was given in plan mode: Text is the plan.
	Planned bool
	// Check is how the last check of the turn went: "passed", "failed",
	// or "" when none ran.
	Check string
}

// Agent is one conversation with the model and its tools. Run must not be
// called again before the previous Run returned.
type Agent struct {
	opts       Options
	classifier *safety.Classifier
	history    []Message
	usedIDs    map[string]bool
	summary    summaryState
	lastPrompt int         // prompt tokens the server reported for the last request
	lastSent   int         // messages in history when that request was built
	recallNote string      // auto recall's notes for the turn in progress
	turnModel  string      // the model this turn asks for ("" = the client's)
	callSeq    int         // the last key given to a tool call (see callKeys)
	auto       atomic.Bool // approvals are auto (the screen may switch it while a turn runs)
	repairNote string      // what Restore repaired, said once at the next request
	// fitSaid is what fitting the last request to the window said: the
	// same cut made again for the next request is not said again.
	fitSaid string
	// turnWait waits for the turn's checkpoint; nil once waited for (or
	// with no checkpoints).
	turnWait func() (string, error)
	// Hooks' state: whether SessionStart ran, what it and the prompt's
	// UserPromptSubmit hooks added, and why a hook ended the turn.
	hookStarted    bool
	sessionContext string
	promptContext  string
	hookHalt       string
	// mode holds the Mode; the screen may switch it while a turn runs.
	mode atomic.Value
	// strict classifies without the person's rules: what plan mode lets
	// run. It is made when plan mode first needs it (about half a
	// millisecond), not with every agent.
	strict func() (*safety.Classifier, error)
	subs   *subSetup // the task tool and the agent definitions; nil without
	role   *subRole  // set when this agent is itself a sub-agent
	// loaded names the deferred tools the model asked for: they are sent
	// in full from then on.
	loaded map[string]bool
	// The window learned from the server (0: none) and where it came
	// from; the screen reads them while a turn runs.
	learned    atomic.Int64
	windowFrom atomic.Value
	// windowShown: WindowKnown was sent; windowTold: the small-window
	// notice was given; textCallsTold: the notice about tool calls
	// written as text was.
	windowShown, windowTold, textCallsTold bool
	// ratios calibrate estimates per model (see calibrate).
	ratios map[string]float64
	// server is the window the server last reported.
	server llm.Window
	// tt says, per model, whether the server refused tools of its own
	// (the model has none, or the server was started without its
	// tool-call parser): the tools are then described in the prompt and
	// the model's calls read from its text (llm.Request.TextTools).
	tt textToolsState
	// compacted is set once a small window learned mid-session switched
	// the profile to compact (see fitProfile); the screen may read it.
	compacted atomic.Bool
	// refusedWindow is the window the server named when it refused a
	// request as too long (see afterRefusal); 0 until then.
	refusedWindow int
}

// New checks the options and returns an agent with an empty history.
func New(o Options) (*Agent, error) {
	switch {
	case o.Model == nil:
		return nil, errors.New("agent: no model")
	case o.Tools == nil:
		return nil, errors.New("agent: no tool registry")
	case o.Safety == nil:
		return nil, errors.New("agent: no safety classifier")
	}
	if err := o.Budget.check(o.Window != nil || o.Learned.Tokens > 0); err != nil {
		return nil, err
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = DefaultMaxIterations
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Root != "" {
		if real, err := filepath.EvalSymlinks(o.Root); err == nil {
			o.Root = real
		}
	}
	o.Own = resolveOwn(o.Own)
	a := &Agent{opts: o, classifier: o.Safety, usedIDs: map[string]bool{}}
	a.strict = sync.OnceValues(func() (*safety.Classifier, error) {
		if o.Safety != nil {
			return o.Safety.Strict(), nil // the built-in judgement, with the same view of the disk
		}
		return safety.NewClassifier(safety.Rules{})
	})
	if o.Learned.Tokens > 0 {
		tokens, from := WindowFor(o.Budget, o.Learned)
		a.learned.Store(int64(tokens))
		a.windowFrom.Store(from)
		a.server = o.Learned
	}
	a.auto.Store(o.Approvals == safety.ApprovalsAuto)
	a.SetMode(o.Mode)
	if err := a.setupSubAgents(); err != nil {
		return nil, fmt.Errorf("agent: set up sub-agents: %w", err)
	}
	return a, nil
}

// SetApprovals switches the approval mode, also while a turn runs.
func (a *Agent) SetApprovals(m safety.ApprovalMode) { a.auto.Store(m == safety.ApprovalsAuto) }

// Approvals is the approval mode in effect.
func (a *Agent) Approvals() safety.ApprovalMode {
	if a.role != nil {
		return a.role.approvals()
	}
	if a.auto.Load() {
		return safety.ApprovalsAuto
	}
	return safety.ApprovalsAsk
}

// sandboxed is a call that may run inside the sandbox.
type sandboxed interface{ Sandboxed() bool }

// contained reports whether call runs inside a working sandbox.
func contained(call tools.Call) bool {
	s, ok := call.(sandboxed)
	return ok && s.Sandboxed()
}

// History returns a copy of the conversation so far (without the system
// prompt).
func (a *Agent) History() []Message { return append([]Message(nil), a.history...) }

// Restore replaces the conversation, for a resumed session: the full
// history (for display and search, and what is sent after the summary),
// and the summary of the messages up to sequence number through.
func (a *Agent) Restore(history []Message, summary string, through uint64) {
	a.history = append([]Message(nil), history...)
	for i, m := range a.history {
		a.history[i].ToolCalls = append([]ToolCall(nil), m.ToolCalls...) // named below without touching the caller's
	}
	if n := nameCalls(a.history); n > 0 {
		a.repairNote = fmt.Sprintf("Gave %d tool calls without a name in this session's history the name %s, so the server accepts the history.", n, unnamedCall)
	}
	damaged := 0
	for _, m := range a.history {
		if m.Kind == chat.KindDamaged {
			damaged++
		}
	}
	if damaged > 0 {
		a.repairNote = strings.TrimSpace(a.repairNote + fmt.Sprintf(" Left out %d messages of this session that could not be read (damaged on disk).", damaged))
	}
	a.summary = summaryState{text: summary, through: through}
	if summary == "" {
		a.summary = summaryState{}
	}
	a.usedIDs = map[string]bool{}
	a.loaded = nil
	for _, m := range a.history {
		for _, c := range m.ToolCalls {
			a.usedIDs[c.ID] = true
			// A tool the conversation called is offered in full again, so
			// the history never names a tool the request leaves out.
			if c.Name != LoadToolsName {
				a.load(c.Name)
			}
		}
	}
	a.lastPrompt, a.lastSent = 0, 0
	a.hookStarted, a.sessionContext = false, ""
}

// Classifier is the safety classifier in use, including rules added during
// the session.
func (a *Agent) Classifier() *safety.Classifier { return a.classifier }

// Run sends the person's prompt and works until the model answers without
// calling tools, the iteration limit is reached, or ctx ends. Events go to
// sink as they happen.
func (a *Agent) Run(ctx context.Context, prompt string, sink func(Event)) (Result, error) {
	return a.RunMessage(ctx, Message{Role: RoleUser, Content: prompt}, sink)
}

// RunMessage is Run with a prepared user message (a scheduled task, say).
func (a *Agent) RunMessage(ctx context.Context, user Message, sink func(Event)) (Result, error) {
	return a.RunTurn(ctx, user, TurnOptions{}, sink)
}

// TurnOptions change one turn only.
type TurnOptions struct {
	// Model, when set, answers this turn instead of the client's model (a
	// custom command's front matter asks for it).
	Model string
	// Composed says the prompt was made from more than the person typed:
	// a custom command's file and what its "!" lines printed. Typed is
	// then the part the person typed (the command's arguments). A
	// resource mention outside Typed is asked about before it is read,
	// since a file or a command's output chose it, not the person.
	Composed bool
	Typed    string
}

// RunTurn is RunMessage with options for this turn only.
func (a *Agent) RunTurn(ctx context.Context, user Message, o TurnOptions, sink func(Event)) (Result, error) {
	if sink == nil {
		sink = func(Event) {}
	}
	a.turnModel = o.Model
	defer func() { a.turnModel = "" }()
	user.Role = RoleUser
	var res Result
	a.learnWindow(ctx, sink)
	a.calibrateByCount(ctx)
	if err := a.checkFits(user); err != nil {
		// Refused before anything is stored or sent.
		res.StopReason = "error"
		return res, err
	}
	if err := a.beforeTurn(ctx, user, sink); err != nil {
		res.StopReason = "blocked"
		return res, err
	}
	defer func() { a.promptContext, a.hookHalt = "", "" }()
	if a.opts.Recall != nil && user.Kind == "" {
		if notes := a.opts.Recall.Recall(user.Content, a.inContext(user.Content)); len(notes) > 0 {
			a.recallNote = RecallText(notes)
			sink(Recalled{Notes: notes, Text: a.recallNote})
		}
		defer func() { a.recallNote = "" }()
	}
	if user.Kind == "" || user.Kind == KindTask {
		user.Content = a.attachMentions(ctx, user.Content, typedResources(o), sink)
		// Attached files count too: check again before anything is stored.
		if err := a.checkFits(user); err != nil {
			res.StopReason = "error"
			return res, err
		}
	}
	stored, err := a.add(user, sink)
	if err != nil {
		res.StopReason = "error"
		return res, err
	}
	if cp := a.opts.Checkpoints; cp != nil && stored.Seq > 0 {
		a.turnWait = cp.TurnStarted(ctx, stored.Seq)
		defer func() {
			a.turnWait = nil
			cp.TurnEnded(stored.Seq)
		}()
	}
	stopContinues := 0
	reprobed := false // the window was asked again after the first request
	var check checkState
	for iter := 1; ; iter++ {
		final := iter > a.opts.MaxIterations
		if final {
			if _, err := a.add(Message{Role: RoleUser, Kind: KindLimit, Content: limitPrompt(a.opts.MaxIterations)}, sink); err != nil {
				res.StopReason = "error"
				return res, err
			}
			sink(Notice{Text: fmt.Sprintf("Reached the limit of %d iterations; asking the model to sum up.", a.opts.MaxIterations)})
		}
		if err := a.compressIfNeeded(ctx, sink); err != nil {
			res.StopReason = "error"
			if ctx.Err() != nil {
				res.StopReason = "cancelled"
				return res, ctx.Err()
			}
			return res, err
		}
		res.Planned = a.Mode() == ModePlan
		req, err := a.request(final, sink)
		if err != nil {
			res.StopReason = "error"
			return res, err
		}
		req, keys, reply, err := a.send(ctx, req, final, withoutUsage(sink))
		res.Iterations = iter
		if reply.Usage = a.account(req, reply); reply.Usage != (Usage{}) {
			sink(reply.Usage)
		}
		res.Usage = res.Usage.Plus(reply.Usage)
		if err == nil && reply.Usage.PromptTokens > 0 && !reply.Usage.Estimated {
			a.calibrate(req, reply.Usage.PromptTokens)
		}
		if err == nil && a.server.Assumed && !reprobed {
			// The window was only Ollama's default before the model was
			// loaded; the request just loaded it, so ask again now, once,
			// not at the next turn: Ollama cuts a prompt longer than its
			// window without a word, and the window may well be smaller.
			reprobed = true
			a.learnWindow(ctx, sink)
		}
		if err != nil {
			if reply.Content != "" || reply.Reasoning != "" {
				// The request's own error is the one to report, even when
				// the partial answer cannot be saved either.
				_, _ = a.add(Message{Role: RoleAssistant, Kind: KindInterrupted, Content: reply.Content, Reasoning: reply.Reasoning, ReasoningField: reply.ReasoningField}, sink)
			}
			res.Text = reply.Content
			res.StopReason = "error"
			if ctx.Err() != nil {
				res.StopReason = "cancelled"
				return res, ctx.Err()
			}
			return res, err
		}
		if reply.Usage.PromptTokens > 0 && !reply.Usage.Estimated {
			a.lastPrompt, a.lastSent = reply.Usage.PromptTokens, len(a.history)
		}
		msg := Message{
			Role:           RoleAssistant,
			Content:        reply.Content,
			Reasoning:      reply.Reasoning,
			ReasoningField: reply.ReasoningField,
			ToolCalls:      a.uniqueIDs(reply.ToolCalls),
		}
		nameCalls([]Message{msg}) // a nameless call would poison the session
		if reply.Usage != (Usage{}) {
			u := reply.Usage
			msg.Usage = &u
		}
		msg, err = a.add(msg, sink)
		if err != nil {
			res.Text, res.StopReason = msg.Content, "error"
			return res, err
		}
		callKeys := keys.assign(reply.ToolCalls)
		sink(AssistantMessage{Message: msg, FinishReason: reply.FinishReason, Calls: callKeys})
		if !a.textCallsTold && !a.textToolsOn() && slices.ContainsFunc(msg.ToolCalls, func(c ToolCall) bool { return c.FromText }) {
			a.textCallsTold = true
			sink(Notice{Text: "The model wrote its tool calls as text and pincer read them as calls; they are checked and approved like any other. Starting the server with its tool-call parser avoids this (llama.cpp: --jinja; vLLM: --enable-auto-tool-choice --tool-call-parser)."})
		}
		if reply.DroppedCalls > 0 {
			sink(Notice{Text: fmt.Sprintf("The model asked for %d more tool calls in one answer than pincer runs (%d); those were refused, and it was told.", reply.DroppedCalls, llm.MaxToolCalls)})
		}
		res.Text = msg.Content
		if len(msg.ToolCalls) == 0 {
			if !final {
				again, err := a.runCheck(ctx, &check, sink)
				if err != nil {
					res.StopReason = "error"
					if ctx.Err() != nil {
						res.StopReason = "cancelled"
					}
					return res, err
				}
				if again {
					continue
				}
				again, err = a.stopHook(ctx, &stopContinues, sink)
				if err != nil {
					res.StopReason = "error"
					return res, err
				}
				if again {
					continue
				}
			}
			res.StopReason = "answer"
			res.Check = check.result
			if final {
				res.StopReason = "max_iterations"
			}
			return res, nil
		}
		for i, call := range msg.ToolCalls {
			var r tools.Result
			summary := "" // what the call's ToolStarted said, if it started
			switch {
			case ctx.Err() != nil:
				r = tools.Result{Content: Cancelled, IsError: true}
			case final:
				r = tools.Result{Content: "Not run: the iteration limit was reached, so tools are no longer available. Answer with a summary instead.", IsError: true}
			case a.hookHalt != "":
				r = tools.Result{Content: "Not run: a hook of the user ended the turn.", IsError: true}
			case call.Unreadable != "":
				r = tools.Result{Content: "Not run: " + call.Unreadable, IsError: true}
			case call.Oversize > 0:
				r = tools.Result{Content: oversizeRefusal(call, reply.ArgsLimit), IsError: true}
				sink(Notice{Text: fmt.Sprintf("Refused %s: its arguments were %s, over the limit of %s (tool_args_max_kb).", call.Name, human.Bytes(int64(call.Oversize)), human.Bytes(int64(reply.ArgsLimit)))})
			default:
				callSink := withCall(sink, callKeys[i])
				r = a.runCall(ctx, call, func(ev Event) {
					if s, ok := ev.(ToolStarted); ok && s.ID == call.ID {
						if call.FromText {
							s.Summary += fromTextMark
							ev = s
						}
						summary = s.Summary
					}
					callSink(ev)
				})
			}
			if summary == "" {
				summary = a.callSummary(call)
				if call.FromText {
					summary += fromTextMark
				}
			}
			if i == len(msg.ToolCalls)-1 && reply.DroppedCalls > 0 {
				r.Content += fmt.Sprintf("\n\n(Besides these %d calls, %d more in the same answer were refused and not run: pincer runs at most %d tool calls per answer. Call the rest again, at most %d at a time.)",
					len(msg.ToolCalls), reply.DroppedCalls, llm.MaxToolCalls, llm.MaxToolCalls)
			}
			r = a.diagnose(ctx, call, callKeys[i], r, sink)
			check.noteChange(call, r)
			steps, subUsage := a.takeSteps(call.ID)
			_, saveErr := a.add(Message{Role: RoleTool, ToolCallID: call.ID, ToolName: call.Name, Content: r.Content, IsError: r.IsError, Touched: r.Touched, Steps: steps, Usage: subUsage}, sink)
			// The tool ran, saved or not: show what it did.
			sink(ToolResult{Call: callKeys[i], ID: call.ID, Name: call.Name, Summary: summary, Content: r.Content, IsError: r.IsError, Touched: r.Touched})
			reportTodos(call, r.IsError || saveErr != nil, sink)
			if saveErr != nil {
				res.StopReason = "error"
				return res, saveErr
			}
		}
		if ctx.Err() != nil {
			res.StopReason = "cancelled"
			return res, ctx.Err()
		}
		if halt := a.takeHalt(); halt != "" {
			sink(Notice{Text: "A hook ended the turn: " + halt})
			res.StopReason = "hook"
			return res, nil
		}
		if final {
			res.StopReason = "max_iterations"
			return res, nil
		}
	}
}

// fromTextMark ends the card of a call the model wrote as text.
const fromTextMark = " (recovered from text)"

// send sends req and returns the answer. Two refusals are handled on the
// way: a model or server that takes no tools is asked again with them
// described in the prompt (and the session goes on so, see
// llm.Request.TextTools), and a request the server finds too
// long for the window is compressed and sent once more; a second refusal
// is one clear error. It returns the request as last sent and the keys of
// its calls.
func (a *Agent) send(ctx context.Context, req llm.Request, final bool, sink func(Event)) (llm.Request, *callKeys, llm.Reply, error) {
	refused := false
	for {
		keys := a.newCallKeys()
		reply, err := a.opts.Model.Complete(ctx, req, keys.watch(sink))
		if err == nil && len(req.Tools) > 0 && !req.TextTools {
			a.nativeToolsTaken()
		}
		if err == nil || ctx.Err() != nil || reply.Content != "" || reply.Reasoning != "" {
			return req, keys, reply, err
		}
		switch {
		case llm.ToolsUnsupported(err) && len(req.Tools) > 0 && !req.TextTools:
			// Once, for the rest of the session: every request with
			// tools would fail the same way. The model can still call
			// them, written as text.
			a.setTextTools(TextToolsNoCalling, sink)
			sink(Notice{Text: "The model has no tool calling of its own (its server says so), so pincer describes the tools in the prompt and reads the model's calls from its text; they are checked and approved like any other. A model made for tool calling does this more reliably." + a.rememberedFor()})
			req.TextTools, req.ToolChoice = true, ""
		case llm.NativeToolsRefused(err) && len(req.Tools) > 0 && !req.TextTools:
			// Once, for the rest of the session, as above.
			a.setTextTools(TextToolsNoParser, sink)
			sink(Notice{Text: "The model server takes no tool definitions (it was started without its tool-call parser), so pincer describes the tools in the prompt and reads the model's calls from its text; they are checked and approved like any other. Starting the server with its parser is more reliable (vLLM: --enable-auto-tool-choice --tool-call-parser NAME; llama.cpp: --jinja)." + a.rememberedFor()})
			req.TextTools, req.ToolChoice = true, ""
		case llm.ContextTooLong(err) && !refused:
			refused = true
			next, ferr := a.afterRefusal(ctx, req, err, final, sink)
			if ferr != nil {
				return req, keys, reply, ferr
			}
			req = next
		case llm.ContextTooLong(err):
			return req, keys, reply, errWindowRefused(a.contextWindow(), err)
		default:
			return req, keys, reply, err
		}
	}
}

// oversizeRefusal is what the model is told of a call whose arguments
// passed the limit.
func oversizeRefusal(call ToolCall, limit int) string {
	return fmt.Sprintf("Not run: the arguments of this %s call were %s, over pincer's limit of %s for one call; they were not read. "+
		"Send less in one call: write a large file in parts (write_file a first part, then edit_file to add the rest), "+
		"or produce it with a command.", call.Name, human.Bytes(int64(call.Oversize)), human.Bytes(int64(limit)))
}

func limitPrompt(n int) string {
	return fmt.Sprintf("You have used all %d tool iterations allowed for this request, so tools are no longer available. "+
		"Do not call any tool. Reply with a short summary: what you did, what is finished, what is left to do, and the next step you would take.", n)
}

// ErrNotSaved is matched by the error a turn ends with when a message could
// not be stored in the session (a full disk, say). The turn stops at once,
// so the session never holds a later message without an earlier one.
var ErrNotSaved = errors.New("could not save the conversation")

// add stamps and stores a message and returns it as stored. When the
// recorder fails, the message is kept neither in the session nor in the
// history (so the two agree), and the error wraps ErrNotSaved.
func (a *Agent) add(m Message, sink func(Event)) (Message, error) {
	if m.Time.IsZero() {
		m.Time = a.opts.Now()
	}
	if a.opts.Recorder != nil {
		seq, err := a.opts.Recorder.Record(m)
		if err != nil {
			return m, notSaved(err)
		}
		m.Seq = seq
	}
	a.history = append(a.history, m)
	return m, nil
}

// notSaved explains a failed save in one sentence with the fix.
func notSaved(err error) error {
	return fmt.Errorf("%w to the session, so the turn stopped here (%w); free some disk space or fix the store, then go on", ErrNotSaved, err)
}

// request builds what is sent: the system prompt, the summary of older
// messages if there is one, and the messages after it, repaired so that a
// strict server accepts them and cut down if they would not fit the
// window. final withholds tools.
func (a *Agent) request(final bool, sink func(Event)) (llm.Request, error) {
	msgs, notes := fitToWindow(a.requestMessages(), a.budgetWindow(), a.toolsTokens())
	said := strings.Join(notes, "\n")
	if said == a.fitSaid {
		notes = nil
	} else {
		a.fitSaid = said
	}
	if a.repairNote != "" {
		notes = append([]string{a.repairNote}, notes...)
		a.repairNote = ""
	}
	for _, n := range notes {
		sink(Notice{Text: n})
	}
	if err := tooBigFor(msgs, a.budgetWindow(), a.toolsTokens(), a.contextWindow(), a.ratio(), a.windowFix); err != nil {
		return llm.Request{}, err
	}
	req := llm.Request{Messages: msgs, Model: a.turnModel}
	o := a.offer()
	req.Tools = o.Specs
	for _, t := range o.Deferred {
		// By name: a call the model writes as text to one is read as a
		// call, as a native call to it is (see runCall).
		req.Deferred = append(req.Deferred, llm.ToolSpec{Name: t.Name()})
	}
	req.TextTools = a.textToolsOn()
	if n := a.textToolsNotice(); n != "" {
		sink(Notice{Text: n})
	}
	if final {
		req.ToolChoice = "none"
	}
	return req, nil
}

// requestMessages are the messages of the next request: the system
// messages, then what came after the summary, beginning with a question;
// the reasoning only of the turns that called tools, as the client sends
// it, so that what is counted against the window is what is sent.
func (a *Agent) requestMessages() []Message {
	msgs := a.systemMessages(true)
	start := a.summaryStart()
	rest := make([]Message, 0, len(a.history)-start+1)
	for _, m := range a.history[start:] {
		if sent(m) {
			rest = append(rest, m)
		}
	}
	if len(rest) > 0 && rest[0].Role != RoleUser {
		// Compression cut inside a turn: its question was summarised, but
		// an answer is not sent without it.
		if q := lastUser(a.history, start); q >= 0 {
			rest = append([]Message{a.history[q]}, rest...)
		}
	}
	return llm.ReasoningOfToolTurns(append(msgs, wellFormed(rest)...))
}

// systemMessages are the system messages a request begins with: the
// system prompt, the plan-mode prompt, the summary (withSummary), the
// task list, recalled notes and hook context.
func (a *Agent) systemMessages(withSummary bool) []Message {
	msgs := make([]Message, 0, 6)
	if system := a.system(); system != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: system})
	}
	if a.Mode() == ModePlan {
		msgs = append(msgs, Message{Role: RoleSystem, Content: planPrompt})
	}
	if withSummary && a.summary.text != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Kind: KindSummary, Content: summaryPreamble + a.summary.text})
	}
	if note := a.todoNote(); note != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: note})
	}
	if a.recallNote != "" {
		// With the leading system messages, where every server's chat
		// template accepts one.
		msgs = append(msgs, Message{Role: RoleSystem, Content: a.recallNote})
	}
	if note := a.hookNote(); note != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: note})
	}
	return msgs
}

// wellFormed returns msgs as a strict server accepts them: every tool call
// answered right after its assistant message (a call left unanswered by a
// crash gets a result saying so), no tool message that answers nothing, and
// no empty assistant message.
func wellFormed(msgs []Message) []Message {
	out := make([]Message, 0, len(msgs))
	var open []ToolCall
	closeOpen := func() {
		for _, c := range open {
			out = append(out, Message{Role: RoleTool, ToolCallID: c.ID, ToolName: c.Name, IsError: true,
				Content: "No result: pincer stopped before this call finished."})
		}
		open = nil
	}
	for _, m := range msgs {
		if len(m.ToolCalls) > 0 {
			m.ToolCalls = append([]ToolCall(nil), m.ToolCalls...)
			nameCalls([]Message{m})
		}
		if m.Role == RoleTool {
			k := -1
			for i, c := range open {
				if c.ID == m.ToolCallID {
					k = i
				}
			}
			if k < 0 {
				continue
			}
			// Answer in the order the calls were made.
			for _, c := range open[:k] {
				out = append(out, Message{Role: RoleTool, ToolCallID: c.ID, ToolName: c.Name, IsError: true,
					Content: "No result: pincer stopped before this call finished."})
			}
			open = open[k+1:]
			out = append(out, m)
			continue
		}
		closeOpen()
		if m.Role == RoleAssistant && m.Content == "" && len(m.ToolCalls) == 0 {
			continue
		}
		out = append(out, m)
		if m.Role == RoleAssistant {
			open = append([]ToolCall(nil), m.ToolCalls...)
		}
	}
	closeOpen()
	return out
}

// uniqueIDs gives every call an id not used before in the conversation:
// some servers reuse ids across turns (or send none), and strict servers
// reject a history where one id answers two calls. Arguments sent as ""
// become "{}", which is what they mean.
func (a *Agent) uniqueIDs(calls []ToolCall) []ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]ToolCall, len(calls))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = "call"
		}
		if a.usedIDs[id] || c.ID == "" {
			base := id
			for n := 2; ; n++ {
				if cand := fmt.Sprintf("%s_%d", base, n); !a.usedIDs[cand] {
					id = cand
					break
				}
			}
		}
		a.usedIDs[id] = true
		out[i] = c
		out[i].ID = id
		if strings.TrimSpace(c.Arguments) == "" {
			out[i].Arguments = "{}" // a call without parameters, sent as ""
		}
	}
	return out
}

// callSummary is the one line that says what a call does, as its
// ToolStarted would: its name when its arguments do not decode.
func (a *Agent) callSummary(tc ToolCall) string {
	if tool, ok := a.lookup(tc.Name); ok {
		if call, err := tool.Decode(tc.Arguments); err == nil {
			return call.Summary()
		}
	}
	if tc.Name == "" {
		return unnamedCall
	}
	return tc.Name
}

// runCall checks, approves and runs one tool call, returning what the model
// will read.
func (a *Agent) runCall(ctx context.Context, tc ToolCall, sink func(Event)) (r tools.Result) {
	if tc.Name == "" || tc.Name == unnamedCall {
		return tools.Result{Content: "The tool call had no name, so nothing was run. Call one of: " + strings.Join(a.toolNames(), ", ") + ".", IsError: true}
	}
	if tc.Name == LoadToolsName {
		return a.loadTools(tc.Arguments)
	}
	tool, ok := a.lookup(tc.Name)
	if !ok {
		return tools.Result{Content: fmt.Sprintf("There is no tool named %q. Call one of: %s.", tc.Name, strings.Join(a.toolNames(), ", ")), IsError: true}
	}
	if a.isDeferred(tc.Name) {
		// Offered in full from now on. Arguments that decode run as any
		// call does (judged, asked about); others get the schema back.
		a.load(tc.Name)
		if _, err := tool.Decode(tc.Arguments); err != nil {
			return tools.Result{Content: fmt.Sprintf("%s was not loaded, so its arguments were not valid (%v) and it was not run. Here is its definition; it is loaded now, so call it again.\n\n%s", tc.Name, err, schemaText(tool)), IsError: true}
		}
	}
	plan := a.Mode() == ModePlan
	if plan && !inPlan(tc.Name) {
		return tools.Result{Content: a.planRefusal(tc.Name, nil), IsError: true}
	}
	pre, blocked := a.preToolUse(ctx, &tc, sink)
	if blocked != nil {
		return *blocked
	}
	sink = pre.watch(sink)
	defer func() { r = a.postToolUse(ctx, tc, pre, r, sink) }()
	call, err := tool.Decode(tc.Arguments)
	if err != nil {
		return tools.Result{Content: fmt.Sprintf("The arguments for %s were not valid, so it was not run: %v", tc.Name, err), IsError: true}
	}
	if plan {
		if why := a.planRefusal(tc.Name, call); why != "" {
			return tools.Result{Content: why, IsError: true}
		}
	}
	if t, ok := call.(*taskCall); ok && a.subs != nil {
		return a.runTask(ctx, tc, t, sink)
	}
	acc := call.Access()
	v := a.judge(acc)
	fetch, _ := call.(tools.Fetcher)
	var addrs []netip.Addr
	if acc.URL != "" && fetch != nil {
		addrs, _ = fetch.Lookup(ctx) // a host that does not resolve is judged by its name; the fetch then fails
		v = worse(v, a.classifier.Web(safety.WebAccess{URL: acc.URL, Addrs: addrs}))
	}
	v = pre.tighten(v)
	if v.Denied {
		text := fmt.Sprintf("Blocked by the user's deny rule %q; it was not run. Do not try to get around the rule; ask the user if it is needed.", v.Rule)
		sink(Notice{Text: fmt.Sprintf("Blocked %s (deny rule %q).", call.Summary(), v.Rule)})
		return tools.Result{Content: text, IsError: true}
	}
	if why := a.restricted(acc, v); why != "" {
		return tools.Result{Content: why, IsError: true}
	}
	if mp, ok := call.(multiPlanner); ok {
		return a.runEdits(ctx, tc, call, mp, v, pre.ask, sink)
	}
	if p, ok := call.(tools.Planner); ok {
		return a.runEdit(ctx, tc, call, p, v, pre.ask, sink)
	}
	action := tool.Mutates() && acc.Command == "" && len(acc.Writes) == 0 && acc.MCP == nil
	if action && v.Tier < safety.Confirm {
		// A tool that changes something other than files or the shell
		// (scheduling a task) asks once, like an ordinary command.
		v.Tier = safety.Confirm
		// The dialog shows what the call does (its summary); the reason
		// says why it asks, without repeating that text.
		v.Reasons = append(v.Reasons, tc.Name+" changes something outside the project files, so it asks first")
	}
	asked := pre.ask || !safety.RunsUnasked(v, a.Approvals(), acc.Command != "" && contained(call))
	if asked {
		ap := Approval{
			Kind: ApprovePath, CallID: tc.ID, Tool: tc.Name, Summary: call.Summary(),
			Dir: acc.Dir, Paths: append(append([]string(nil), acc.Reads...), acc.Writes...),
			Tier: v.Tier, Reasons: v.Reasons, HookAsked: pre.ask, Secret: v.Secret,
		}
		switch {
		case acc.Command != "":
			ap.Kind, ap.Command = ApproveCommand, acc.Command
			ap.SuggestedRule = safety.SuggestRule(acc.Command)
		case acc.URL != "":
			ap.Kind, ap.URL = ApproveWeb, acc.URL
			ap.SuggestedRule = safety.SuggestWebRule(acc.URL)
		case acc.MCP != nil:
			ap.Kind, ap.Summary, ap.MCP = ApproveAction, mcpQuestion(acc.MCP), acc.MCP
			ap.SuggestedRule = acc.MCP.Name
		case action, acc.Beyond != "":
			ap.Kind = ApproveAction
		}
		if _, ok := call.(sessiontools.Scheduler); ok {
			ap.Schedule = true
		}
		d := ask(ctx, a.opts.Approver, ap)
		if !d.Allow {
			return tools.Result{Content: refusal(d), IsError: true}
		}
		if d.AllowRule != "" {
			a.allow(d.AllowRule, sink)
		}
	}
	if fetch != nil {
		call = fetch.Grant(webGrant(a.classifier, v, addrs))
	}
	// The jail holds the command to what it was judged to do.
	profile := safety.ProfileFor(v, asked)
	if pc, ok := call.(tools.Profiled); ok {
		call = pc.InProfile(profile)
	}
	if tool.Mutates() {
		a.awaitCheckpoint(sink)
	}
	sink(ToolStarted{ID: tc.ID, Name: tc.Name, Summary: call.Summary()})
	r, err = call.Run(ctx)
	if err == nil && len(r.SandboxBlocked) > 0 && !plan {
		r, err = a.afterBlocked(ctx, tc, call, v, profile, r, sink)
	}
	if err != nil {
		if ctx.Err() != nil {
			r.IsError = true
			if r.Content == "" {
				r.Content = Cancelled
			} else {
				r.Content += "\n\n(" + Cancelled + " while it ran.)"
			}
			return r
		}
		return tools.Result{Content: fmt.Sprintf("%s failed: %v", tc.Name, err), IsError: true}
	}
	return r
}

// afterBlocked handles a command the jail stopped. One that ran unasked
// tried to do more than it was judged to (a "safe" command that writes):
// it is judged again as a command that changes things, so it runs again
// only in the jail that verdict gets — unasked in the contained jail
// under auto approvals, else after a normal approval, in the workspace
// jail — and never outside the jail without a yes. One the person
// approved may be let out of the jail (leaveSandbox).
func (a *Agent) afterBlocked(ctx context.Context, tc ToolCall, call tools.Call, v safety.Verdict, profile safety.Profile, r tools.Result, sink func(Event)) (tools.Result, error) {
	pc, ok := call.(tools.Profiled)
	if !ok || profile == safety.ProfileWorkspace {
		return a.leaveSandbox(ctx, tc, call, v, r, sink)
	}
	what := strings.Join(r.SandboxBlocked, "; ")
	judged := "rated as only reading"
	if profile == safety.ProfileContained {
		judged = "run unasked by auto approvals, which allow changes to the project only"
	}
	again := v
	again.Tier = max(v.Tier, safety.Confirm)
	again.Reasons = append([]string{fmt.Sprintf("%s: %s, it tried %s", call.Summary(), judged, what)}, v.Reasons...)
	next := safety.ProfileWorkspace
	if profile == safety.ProfileInspect && safety.RunsUnasked(again, a.Approvals(), contained(call)) {
		next = safety.ProfileContained
	} else {
		acc := call.Access()
		d := ask(ctx, a.opts.Approver, Approval{
			Kind: ApproveCommand, CallID: tc.ID, Tool: tc.Name, Summary: call.Summary(), Command: acc.Command, Dir: acc.Dir,
			Tier: again.Tier, Reasons: again.Reasons, SuggestedRule: safety.SuggestRule(acc.Command),
		})
		if !d.Allow {
			r.Content = refusedBlocked(judged, r.SandboxBlocked) + commentOf(d) + "\n\n" + r.Content
			return r, nil
		}
	}
	sink(Notice{Text: fmt.Sprintf("%s tried %s; running it again in the %s jail.", call.Summary(), what, next)})
	rerun := pc.InProfile(next)
	out, err := rerun.Run(ctx)
	if err == nil && len(out.SandboxBlocked) > 0 {
		out, err = a.afterBlocked(ctx, tc, rerun, again, next, out, sink)
	}
	out.Content = fmt.Sprintf("(This command was %s, and it tried %s; it ran again in the %s jail.)\n", judged, what, next) + out.Content
	return out, err
}

// refusedBlocked tells the model what the jail stopped, in a command
// judged as judged says, that the user then did not allow: a read the
// jail hid is told as one (the command saw nothing there), a change as
// a change (nothing outside changed), anything else (the network, a mix)
// as both.
func refusedBlocked(judged string, blocked []string) string {
	what := strings.Join(blocked, "; ")
	const denied = "; the user was asked and did not allow it."
	switch {
	case len(blocked) > 0 && !slices.ContainsFunc(blocked, func(b string) bool { return !sandbox.IsRead(b) }):
		return fmt.Sprintf("This command was %s, and it tried to read what the jail hides: %s. The read was hidden by the sandbox, so the command saw nothing there and nothing changed. "+
			"It needs the user's approval to read that", judged, what) + denied
	case len(blocked) > 0 && !slices.ContainsFunc(blocked, func(b string) bool { return !sandbox.IsChange(b) }):
		return fmt.Sprintf("This command was %s, and it tried to change something: %s. The jail stopped it, so nothing outside it changed. "+
			"It needs the user's approval to make that change", judged, what) + denied
	}
	return fmt.Sprintf("This command was %s, and it tried more than that: %s. The jail stopped it, so nothing outside it changed and nothing hidden was read. "+
		"It needs the user's approval for that", judged, what) + denied
}

// commentOf is what the person said with a decision, for the model.
func commentOf(d Decision) string {
	if d.Comment == "" {
		return ""
	}
	return " The user said: " + d.Comment
}

// leaveSandbox asks whether a command the sandbox blocked may run again
// outside it — its own decision, asked even when the command itself was
// approved or ran unasked: once for a confirm-tier command, twice for a
// dangerous one. Without a yes the model keeps the blocked result, which
// says what the sandbox refused.
func (a *Agent) leaveSandbox(ctx context.Context, tc ToolCall, call tools.Call, v safety.Verdict, r tools.Result, sink func(Event)) (tools.Result, error) {
	u, ok := call.(tools.Unsandboxed)
	if !ok {
		return r, nil
	}
	acc := call.Access()
	d := ask(ctx, a.opts.Approver, Approval{
		Kind: ApproveUnsandboxed, CallID: tc.ID, Tool: tc.Name, Summary: call.Summary(),
		Command: acc.Command, Dir: acc.Dir, Tier: max(v.Tier, safety.Confirm),
		Reasons: append(append([]string(nil), r.SandboxBlocked...), v.Reasons...),
	})
	if !d.Allow {
		if d.Comment != "" {
			r.Content += "\n\nThe user chose not to run it outside the sandbox and said: " + d.Comment
		}
		return r, nil
	}
	sink(Notice{Text: "Running outside the sandbox, as you allowed: " + call.Summary()})
	out, err := u.Unsandboxed().Run(ctx)
	out.Content = "(The sandbox blocked the first run; the user let it run again outside the sandbox.)\n" + out.Content
	return out, err
}

// runEdit plans a file change, has the person review it, and applies what
// they accepted. Every edit is reviewed: at least the confirm tier.
func (a *Agent) runEdit(ctx context.Context, tc ToolCall, call tools.Call, p tools.Planner, v safety.Verdict, hookAsked bool, sink func(Event)) tools.Result {
	ch, err := p.Plan(ctx)
	if err != nil {
		return tools.Result{Content: err.Error(), IsError: true}
	}
	if err := tools.CheckWritable(ch); err != nil {
		// Nobody is asked to review an edit that cannot land.
		return tools.Result{Content: err.Error() + "; the edit was not applied.", IsError: true}
	}
	if d := a.opts.Diagnostics; d != nil {
		d.Before(ch.Path, ch.Before) // the server reads it while the person reviews
	}
	tier := max(v.Tier, safety.Confirm)
	d := ask(ctx, a.opts.Approver, Approval{
		Kind: ApproveEdit, CallID: tc.ID, Tool: tc.Name, Summary: call.Summary(),
		Paths: []string{ch.Path}, Change: ch, Tier: tier, Reasons: v.Reasons, HookAsked: hookAsked,
		PathAsked: v.Tier > safety.Safe,
	})
	if !d.Allow {
		return tools.Result{Content: refusal(d), IsError: true}
	}
	content := ch.After
	if d.Content != nil {
		content = d.Content
	}
	a.awaitCheckpoint(sink)
	sink(ToolStarted{ID: tc.ID, Name: tc.Name, Summary: call.Summary()})
	if err := tools.ApplyContext(ctx, ch, content); err != nil {
		return tools.Result{Content: err.Error(), IsError: true}
	}
	r := tools.AppliedResult(ch, content)
	if d.Note != "" {
		r.Content += "\n\n" + d.Note
	}
	if d.Comment != "" {
		r.Content += "\n\nThe user said: " + d.Comment
	}
	return r
}

// awaitCheckpoint waits, once per turn, until the files are recorded as
// they were before the turn changes any.
func (a *Agent) awaitCheckpoint(sink func(Event)) {
	wait := a.turnWait
	if wait == nil {
		return
	}
	a.turnWait = nil
	note, err := wait()
	if err != nil {
		sink(Notice{Text: fmt.Sprintf("Could not record the files before this turn changed them (%v); this turn cannot be rewound.", err)})
		return
	}
	if note != "" {
		sink(Notice{Text: note})
	}
}

// allow adds a session rule chosen in an approval dialog.
func (a *Agent) allow(rule string, sink func(Event)) {
	c, err := a.classifier.WithAllow(rule)
	if err != nil {
		sink(Notice{Text: fmt.Sprintf("Could not add the rule %q: %v", rule, err)})
		return
	}
	a.classifier = c
	sink(Notice{Text: fmt.Sprintf("Allowed for this session: %s", rule)})
}

// judge asks the safety policy about everything a call would touch; the
// verdict is the worst of the parts.
func (a *Agent) judge(acc tools.Access) safety.Verdict {
	v := safety.Verdict{Tier: safety.Safe}
	if m := acc.MCP; m != nil {
		v = worse(v, a.classifier.MCP(safety.MCPCall{Name: m.Name, Server: m.Server, Tool: m.Tool, ReadOnly: m.ReadOnly, Trusted: m.Trusted}))
	}
	if acc.Command != "" {
		v = worse(v, a.classifier.Classify(acc.Command))
	}
	for _, p := range acc.Reads {
		v = worse(v, a.classifier.Path(safety.PathAccess{Root: a.opts.Root, Home: a.opts.Home, Own: a.opts.Own, Path: resolve(p)}))
	}
	for _, p := range acc.Writes {
		v = worse(v, a.classifier.Path(safety.PathAccess{Root: a.opts.Root, Home: a.opts.Home, Own: a.opts.Own, Path: resolve(p), Write: true}))
	}
	if acc.Beyond != "" {
		// Across the project's boundary, where no path says so: asked,
		// like a read outside the project.
		v = worse(v, safety.Verdict{Tier: safety.Confirm, Reasons: []string{acc.Beyond}})
	}
	return v
}

// webGrant is what a fetch may reach once approved: the addresses that
// are not public among those it was judged by, only when the person
// approved the dangerous tier (twice); and its redirects to other hosts
// judged by the same rules, a deny rule or a private address stopping them.
func webGrant(cls *safety.Classifier, v safety.Verdict, addrs []netip.Addr) tools.WebGrant {
	var g tools.WebGrant
	if v.Tier >= safety.Dangerous {
		for _, ip := range addrs {
			if !safety.PublicAddr(ip) {
				g.Private = append(g.Private, ip)
			}
		}
	}
	g.Redirect = func(u string) string {
		rv := cls.Web(safety.WebAccess{URL: u})
		switch {
		case rv.Denied:
			return fmt.Sprintf("the user's deny rule %q refuses it", rv.Rule)
		case rv.Tier >= safety.Dangerous && len(rv.Reasons) > 0:
			return rv.Reasons[0]
		case rv.Tier >= safety.Dangerous:
			return "it is dangerous"
		}
		return ""
	}
	return g
}

func worse(a, b safety.Verdict) safety.Verdict {
	out := safety.Verdict{Tier: max(a.Tier, b.Tier), Denied: a.Denied || b.Denied, Secret: a.Secret || b.Secret}
	out.Reasons = append(append(out.Reasons, a.Reasons...), b.Reasons...)
	out.Rule = a.Rule
	if b.Denied || out.Rule == "" {
		out.Rule = b.Rule
	}
	if a.Denied && !b.Denied {
		out.Rule = a.Rule
	}
	return out
}

// resolve follows symbolic links in the longest existing prefix of p, so the
// path policy judges where a write would really land.
func resolve(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func (a *Agent) toolNames() []string {
	var names []string
	for _, t := range a.toolList() {
		names = append(names, t.Name())
	}
	sort.Strings(names)
	return names
}

// HomeDir is the person's home directory, or "" when it cannot be known.
func HomeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// SetApprover sets who answers approval questions; the screen sets itself
// once it runs. It must not be called while Run is running.
func (a *Agent) SetApprover(ap Approver) { a.opts.Approver = ap }

// SetRecorder sets where finished messages are stored, for a session
// switched to while the screen is open. It must not be called while Run is
// running.
func (a *Agent) SetRecorder(r Recorder) { a.opts.Recorder = r }

// toolList is the registry's tools followed by the dynamic ones, leaving
// out any whose name is already taken, and in plan mode those it does not
// offer.
func (a *Agent) toolList() []tools.Tool {
	list := a.opts.Tools.List()
	if a.subs != nil {
		list = append(list, a.subs.tool)
	}
	if a.Mode() == ModePlan {
		return slices.DeleteFunc(list, func(t tools.Tool) bool { return !inPlan(t.Name()) })
	}
	if a.opts.DynamicTools == nil {
		return list
	}
	seen := make(map[string]bool, len(list))
	for _, t := range list {
		seen[t.Name()] = true
	}
	for _, t := range a.opts.DynamicTools() {
		if !seen[t.Name()] {
			seen[t.Name()] = true
			list = append(list, t)
		}
	}
	return list
}

// lookup finds a tool by name among the registry's and the dynamic ones.
func (a *Agent) lookup(name string) (tools.Tool, bool) {
	if t, ok := a.opts.Tools.Get(name); ok {
		return t, true
	}
	if a.subs != nil && name == TaskToolName {
		return a.subs.tool, true
	}
	if a.opts.DynamicTools != nil {
		for _, t := range a.opts.DynamicTools() {
			if t.Name() == name {
				return t, true
			}
		}
	}
	return nil, false
}

// mcpQuestion is the question about an MCP call in one text: the tool
// and its server on the first line, then the arguments exactly as sent.
// (Front ends that can, show Approval.MCP's parts apart.)
func mcpQuestion(m *tools.MCPUse) string {
	return fmt.Sprintf("tool %s of the MCP server %s, with the arguments:\n%s", m.Tool, m.Server, m.Arguments)
}

// inContext returns a test of whether a text is already in what the model
// is given (the summary, the messages after it and the prompt), so recall
// does not give it twice: an earlier session's same question, say. Whitespace is compared loosely, as snippets are on one
// line.
func (a *Agent) inContext(prompt string) func(string) bool {
	var ctx string
	built := false
	return func(text string) bool {
		if !built {
			var b strings.Builder
			b.WriteString(strings.Join(strings.Fields(prompt), " "))
			b.WriteString("\n")
			b.WriteString(strings.Join(strings.Fields(a.summary.text), " "))
			for _, m := range a.history[a.summaryStart():] {
				b.WriteString("\n")
				b.WriteString(strings.Join(strings.Fields(m.Content), " "))
			}
			ctx, built = b.String(), true
		}
		text = strings.TrimSuffix(strings.TrimPrefix(text, "…"), "…")
		return strings.Contains(ctx, strings.TrimSpace(text))
	}
}
