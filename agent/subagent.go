package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"pincer/agent/llm"
	"pincer/chat"
	"pincer/safety"
	"pincer/tools"
)

// TaskToolName is the tool through which the model hands a job to a
// sub-agent.
const TaskToolName = "task"

// kindJob marks the job a sub-agent is given; it is never stored.
const kindJob = "job"

// DefaultSubIterations is how many model requests a sub-agent may make
// before it is asked to report what it has.
const DefaultSubIterations = 15

// DefaultSubAgentTools are the tools of a sub-agent whose definition lists
// none: those that only read. Its commands run only when the safety policy
// rates them safe; anything else is refused without asking anybody.
var DefaultSubAgentTools = []string{"tree_view", "read_file", "grep", "glob", "recall", "run_command"}

// Limits of what the task tool's description says about the agents, so a
// project's agent files cannot fill the main agent's requests.
const (
	maxListedAgents   = 30
	maxAgentDescRunes = 200
	maxStepArgs       = 300
)

// SubAgents configure the task tool. Set Options.SubAgents to offer it;
// sub-agents themselves are never offered it.
type SubAgents struct {
	// Agents are the person's and the project's agent definitions.
	Agents []AgentDef
	// MaxIterations caps a sub-agent's model requests; 0 means
	// DefaultSubIterations.
	MaxIterations int
	// Context ends every sub-agent's system prompt: the environment and
	// the project's instructions.
	Context string
	// MaxOutput caps the report the main agent reads; 0 means
	// tools.DefaultMaxOutput.
	MaxOutput int
	// Warnings are problems met while loading the agent files, reported
	// with those found when the agent checks them (see SubAgentNotes).
	Warnings []string
}

// subSetup is what an agent made from Options.SubAgents keeps: the
// definitions that passed the checks, the task tool, and what was wrong
// with the others.
type subSetup struct {
	opts  SubAgents
	defs  []AgentDef
	tool  tools.Tool
	notes []string
	steps map[string]*stepLog // by task call id, until the result is stored
}

// subRole marks an agent that is itself a sub-agent.
type subRole struct {
	// safeOnly refuses, unasked, every command the safety policy does not
	// rate safe (the read-only default agent).
	safeOnly bool
	// parent is the agent that started it, whose approval mode it
	// follows while it runs (the person may switch /auto meanwhile).
	parent *Agent
}

// approvals is a sub-agent's approval mode: always ask for the read-only
// default, else whatever the main agent's mode is now.
func (r *subRole) approvals() safety.ApprovalMode {
	if r.safeOnly {
		return safety.ApprovalsAsk
	}
	return r.parent.Approvals()
}

// setupSubAgents checks the agent definitions against the tools there are
// and builds the task tool. A definition naming a tool that does not exist
// is left out with a note: its file says what it may do, and running it
// with fewer tools than it names would be a surprise.
func (a *Agent) setupSubAgents() error {
	so := a.opts.SubAgents
	if so == nil {
		return nil
	}
	s := &subSetup{opts: *so, notes: append([]string(nil), so.Warnings...), steps: map[string]*stepLog{}}
	if s.opts.MaxIterations <= 0 {
		s.opts.MaxIterations = DefaultSubIterations
	}
	if s.opts.MaxOutput <= 0 {
		s.opts.MaxOutput = tools.DefaultMaxOutput
	}
	known := a.opts.Tools.Names()
	for _, d := range so.Agents {
		var bad []string
		for _, t := range d.Tools {
			switch {
			case t == TaskToolName:
				bad = append(bad, fmt.Sprintf("%q (a sub-agent cannot start sub-agents)", t))
			case strings.HasPrefix(t, "mcp__"): // offered once its server is ready
			case !slices.Contains(known, t):
				bad = append(bad, fmt.Sprintf("%q", t))
			}
		}
		if len(bad) > 0 {
			s.notes = append(s.notes, fmt.Sprintf("left out the agent %s (%s): it names the unknown tool %s; the tools are %s",
				d.Name, d.Path, strings.Join(bad, ", "), strings.Join(known, ", ")))
			continue
		}
		s.defs = append(s.defs, d)
	}
	t, err := taskTool(s.defs)
	if err != nil {
		return err
	}
	s.tool = t
	a.subs = s
	return nil
}

// SubAgentNotes are the problems found with the agent files, each one
// sentence, for the person to read once.
func (a *Agent) SubAgentNotes() []string {
	if a.subs == nil {
		return nil
	}
	return append([]string(nil), a.subs.notes...)
}

// SubAgentDefs are the agent definitions the task tool offers.
func (a *Agent) SubAgentDefs() []AgentDef {
	if a.subs == nil {
		return nil
	}
	return append([]AgentDef(nil), a.subs.defs...)
}

// taskArgs are the task tool's arguments.
type taskArgs struct {
	Description string `json:"description" jsonschema_description:"A short label of the job (3 to 8 words), shown to the person, e.g. 'find where sessions are saved'."`
	Prompt      string `json:"prompt" jsonschema_description:"The whole job for the sub-agent: the goal, what you already know, where to look, and what its report must contain. It sees nothing of this conversation."`
	Agent       string `json:"agent,omitempty" jsonschema_description:"The name of one of the agents listed in this tool's description; leave it out for the default read-only agent."`
}

// taskCall is one decoded task call. The agent runs it itself (runTask):
// it needs the approver, the safety policy and the event sink.
type taskCall struct{ args taskArgs }

// Summary is "task DESCRIPTION", and the agent's name when one is named.
func (c *taskCall) Summary() string {
	s := TaskToolName + " " + oneLine(c.args.Description, 80)
	if c.args.Agent != "" {
		s += " (" + c.args.Agent + ")"
	}
	return s
}

func (c *taskCall) Access() tools.Access { return tools.Access{} }
func (c *taskCall) Run(context.Context) (tools.Result, error) {
	return tools.Result{}, errors.New("a task call runs through its agent, not on its own")
}

// taskTool builds the task tool, its description listing defs.
func taskTool(defs []AgentDef) (tools.Tool, error) {
	var b strings.Builder
	b.WriteString("Hand a self-contained job to a sub-agent. It works in a context of its own, with its own tools, and answers with one report, " +
		"which becomes this call's result: nothing else of its work reaches you. Use it for work that would fill this conversation with " +
		"material you need not keep: searching the codebase for something, reading many files to answer one question, summarising a module. " +
		"It does not see this conversation, so put everything it needs in prompt. By default it can only read (tree_view, read_file, grep, glob, recall, " +
		"and commands that only read); it cannot start sub-agents, and the person approves its edits and commands as they approve yours. " +
		"Task calls run one after another, never in parallel. For one file read or one search, call that tool yourself instead.")
	if len(defs) > 0 {
		b.WriteString("\n\nAgents you can name in agent (leave it out for the default):")
		for i, d := range defs {
			if i == maxListedAgents {
				fmt.Fprintf(&b, "\n- … and %d more", len(defs)-i)
				break
			}
			desc := oneLine(d.Description, maxAgentDescRunes)
			if desc == "" {
				desc = "(no description)"
			}
			fmt.Fprintf(&b, "\n- %s: %s", d.Name, desc)
		}
	}
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	return tools.New(tools.Spec[taskArgs]{
		Name:        TaskToolName,
		Description: b.String(),
		Example:     taskArgs{Description: "find the session store", Prompt: "Find where sessions are written to disk and report the file, the function and how a message is keyed."},
		Check: func(t *taskArgs) error {
			switch {
			case strings.TrimSpace(t.Description) == "":
				return errors.New("description is empty; give a short label of the job")
			case strings.TrimSpace(t.Prompt) == "":
				return errors.New("prompt is empty; give the whole job")
			case t.Agent != "" && !slices.Contains(names, t.Agent):
				if len(names) == 0 {
					return fmt.Errorf("there is no agent %q; there are no named agents, so leave agent out", t.Agent)
				}
				return fmt.Errorf("there is no agent %q; the agents are %s, or leave agent out", t.Agent, strings.Join(names, ", "))
			}
			return nil
		},
		Bind: func(t taskArgs) tools.Call { return &taskCall{args: t} },
	})
}

// oneLine makes foreign text fit one line of the model's tool list: no
// control or format characters, spaces collapsed, at most max runes.
func oneLine(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			space = b.Len() > 0
			continue
		}
		if n >= max {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// runTask starts a sub-agent for one task call and returns its report as
// the call's result. The sub-agent runs with ctx, so cancelling the turn
// cancels it; its tool calls are judged by the same safety policy and
// asked of the same approver as the main agent's.
func (a *Agent) runTask(ctx context.Context, tc ToolCall, t *taskCall, sink func(Event)) tools.Result {
	var def AgentDef // the default: read-only
	if t.args.Agent != "" {
		for _, d := range a.subs.defs {
			if d.Name == t.args.Agent {
				def = d
			}
		}
	}
	sub, mutates, err := a.newSubAgent(def, t.args.Description)
	if err != nil {
		return tools.Result{Content: fmt.Sprintf("The sub-agent could not start: %v", err), IsError: true}
	}
	if mutates {
		a.awaitCheckpoint(sink)
	}
	sink(ToolStarted{ID: tc.ID, Name: tc.Name, Summary: t.Summary()})
	steps := &stepLog{}
	// The job is the model's text, not the person's: its @words attach
	// nothing.
	job := Message{Role: RoleUser, Kind: kindJob, Content: t.args.Prompt}
	res, runErr := sub.RunMessage(ctx, job, func(ev Event) {
		steps.see(ev)
		sink(SubEvent{ID: tc.ID, Agent: def.Name, Event: ev})
	})
	a.classifier = sub.classifier // rules the person added in its dialogs
	a.subs.steps[tc.ID] = steps
	r := tools.Result{Content: res.Text, Touched: steps.touched}
	switch {
	case runErr != nil && ctx.Err() != nil:
		r.IsError, r.Content = true, Cancelled
	case runErr != nil:
		r.IsError = true
		r.Content = fmt.Sprintf("The sub-agent failed: %v", runErr)
		if res.Text != "" {
			r.Content += "\n\nIts last answer:\n" + res.Text
		}
	case strings.TrimSpace(res.Text) == "":
		r.IsError, r.Content = true, "The sub-agent finished without a report."
	case res.StopReason == "max_iterations":
		r.Content += fmt.Sprintf("\n\n(The sub-agent used all %d of its model requests; this report may be incomplete.)", a.subs.opts.MaxIterations)
	}
	r.Content = tools.CapText(r.Content, a.subs.opts.MaxOutput)
	return r
}

// takeSteps returns, once, the steps of the task call id and the tokens
// its sub-agent used, for storing with its result: the session's token
// totals then include what sub-agents spent.
func (a *Agent) takeSteps(id string) ([]SubStep, *Usage) {
	if a.subs == nil || a.subs.steps[id] == nil {
		return nil, nil
	}
	l := a.subs.steps[id]
	delete(a.subs.steps, id)
	if l.usage == (Usage{}) {
		return l.steps, nil
	}
	u := l.usage
	return l.steps, &u
}

// newSubAgent makes the agent that runs def, sharing this agent's model,
// safety policy (with the rules added so far), approver, path policy and
// context budget, with a fresh history, its own system prompt and only
// def's tools. mutates says whether any of them can change something.
func (a *Agent) newSubAgent(def AgentDef, description string) (*Agent, bool, error) {
	readOnly := def.Tools == nil
	names := def.Tools
	if names == nil {
		names = DefaultSubAgentTools
	}
	var list []tools.Tool
	var mcpNames []string
	mutates := false
	for _, n := range names {
		if strings.HasPrefix(n, "mcp__") {
			mcpNames = append(mcpNames, n)
			mutates = true // judged per call; the checkpoint is cheap to wait for
			continue
		}
		t, ok := a.opts.Tools.Get(n)
		if !ok {
			continue // recall without a store
		}
		list = append(list, t)
		mutates = mutates || (t.Mutates() && !(readOnly && n == "run_command"))
	}
	reg, err := tools.NewRegistry(list...)
	if err != nil {
		return nil, false, err
	}
	var dynamic func() []tools.Tool
	if len(mcpNames) > 0 && a.opts.DynamicTools != nil {
		all := a.opts.DynamicTools
		dynamic = func() []tools.Tool {
			var out []tools.Tool
			for _, t := range all() {
				if slices.Contains(mcpNames, t.Name()) {
					out = append(out, t)
				}
			}
			return out
		}
	}
	var model Model = a.opts.Model
	if def.Model != "" {
		model = namedModel{Model: model, name: def.Model}
	}
	label := "sub-agent"
	if def.Name != "" {
		label = "sub-agent " + def.Name
	}
	label += " (" + oneLine(description, 80) + ")"
	var ap Approver
	if parent := a.opts.Approver; parent != nil {
		ap = ApproverFunc(func(ctx context.Context, q Approval) (Decision, error) {
			q.Agent = label
			// The sub-agent's call ids are its own (call_0 again and
			// again on some servers): the screen must not take them for
			// the main agent's.
			q.CallID = ""
			return parent.Approve(ctx, q)
		})
	}
	sub, err := New(Options{
		Model:         model,
		Tools:         reg,
		Safety:        a.classifier,
		Approver:      ap,
		System:        subSystemPrompt(def, readOnly, a.subs.opts.Context),
		Root:          a.opts.Root,
		Home:          a.opts.Home,
		Own:           a.opts.Own,
		MaxIterations: a.subs.opts.MaxIterations,
		Budget:        Budget{ContextWindow: a.contextWindow(), CompressAt: a.opts.Budget.CompressAt, KeepRecent: a.opts.Budget.KeepRecent},
		Profile:       a.Profile(),
		Price:         a.opts.Price,
		Now:           a.opts.Now,
		DynamicTools:  dynamic,
		// The parent's hooks: a PreToolUse hook that blocks a call blocks
		// it whoever makes it. (The mode follows the parent's, see Mode.)
		Hooks:           a.opts.Hooks,
		Diagnostics:     a.opts.Diagnostics,
		TextToolsMemory: a.opts.TextToolsMemory,
	})
	if err != nil {
		return nil, false, err
	}
	// What the parent learned of its models' tool calling holds for the
	// sub-agent too, and was said already.
	sub.tt = a.tt.clone()
	sub.role = &subRole{safeOnly: readOnly, parent: a}
	return sub, mutates, nil
}

// subSystemPrompt is a sub-agent's system prompt: what a sub-agent is and
// must deliver, then the definition's own instructions, then the context
// (environment, project instructions).
func subSystemPrompt(def AgentDef, readOnly bool, context string) string {
	var b strings.Builder
	b.WriteString("You are a sub-agent of pincer, a coding assistant. The main agent handed you one self-contained job; " +
		"you cannot see its conversation and cannot ask the person anything, so work from the job as given.\n\n" +
		"- Use your tools to find facts; do not guess. Read only what the job needs.\n")
	if readOnly {
		b.WriteString("- You may only read. Commands run only when they merely read (ls, cat, grep, git log, …); anything else is refused, so do not try to change files.\n")
	}
	b.WriteString("- When you are done, answer without calling a tool. That answer is your final report, and the only part of your work the main agent sees: " +
		"make it complete and self-contained — what you found, with file paths and line numbers, what you did, and what is still uncertain.")
	if p := strings.TrimSpace(def.Prompt); p != "" {
		fmt.Fprintf(&b, "\n\n# Your role: %s\n\n%s", def.Name, p)
	}
	if c := strings.TrimSpace(context); c != "" {
		b.WriteString("\n\n" + c)
	}
	return b.String()
}

// restricted says why a sub-agent may not make a call at all, or "": the
// read-only default agent runs only the commands the policy rates safe.
func (a *Agent) restricted(acc tools.Access, v safety.Verdict) string {
	if a.role == nil || !a.role.safeOnly || acc.Command == "" || v.Tier == safety.Safe {
		return ""
	}
	why := ""
	if len(v.Reasons) > 0 {
		why = " (" + strings.Join(v.Reasons, "; ") + ")"
	}
	return fmt.Sprintf("Not run: this sub-agent may only read, and this command is rated %s%s. Say in your report what you would run instead.", v.Tier, why)
}

// namedModel asks for another model than the main agent's, on the same
// server (an agent file's model).
type namedModel struct {
	Model
	name string
}

func (m namedModel) Complete(ctx context.Context, req llm.Request, sink func(Event)) (llm.Reply, error) {
	req.Model = m.name
	return m.Model.Complete(ctx, req, sink)
}

// stepLog follows a sub-agent's events and keeps its tool calls as steps,
// and the files its calls touched.
type stepLog struct {
	steps   []SubStep
	keys    []string // the sub-agent's key of each step
	touched []chat.Touch
	usage   Usage
}

func (l *stepLog) see(ev Event) {
	switch e := ev.(type) {
	case AssistantMessage:
		for i, c := range e.Message.ToolCalls {
			key := c.ID
			if i < len(e.Calls) {
				key = e.Calls[i]
			}
			args := c.Arguments
			if len(args) > maxStepArgs {
				cut := maxStepArgs
				for cut > 0 && !utf8.RuneStart(args[cut]) {
					cut--
				}
				args = args[:cut]
			}
			l.steps = append(l.steps, SubStep{Tool: c.Name, Args: args})
			l.keys = append(l.keys, key)
		}
	case ToolStarted:
		if i := l.find(e.Call); i >= 0 {
			l.steps[i].Summary = e.Summary
		}
	case ToolResult:
		if i := l.find(e.Call); i >= 0 {
			l.steps[i].IsError = e.IsError
		}
		l.touched = append(l.touched, e.Touched...)
	case Usage:
		l.usage = l.usage.Plus(e)
	}
}

func (l *stepLog) find(key string) int {
	for i := len(l.keys) - 1; i >= 0; i-- {
		if l.keys[i] == key {
			return i
		}
	}
	return -1
}

// SubAgentContext is what ends every sub-agent's system prompt: the
// environment facts and the project's instructions, as the main agent
// gets them.
func SubAgentContext(env Environment, project []ProjectFile) string {
	return SystemPrompt(PromptParts{Env: env, Project: project}) // with no agent text: just those
}
