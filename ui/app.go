// Package ui is pincer's full-screen program: the conversation streams into
// a scrollable transcript, the project tree sits in a side pane, an input
// box waits below, and a status line says what is going on. Dialogs (an
// approval, a diff to review) open on top of it, one at a time.
//
// The agent runs on its own goroutine (started through a tea.Cmd) and
// reports through a bridge that batches its events to about 30 a second;
// Update never blocks and never starts goroutines of its own.
package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/chat"
	"pincer/rewind"
	"pincer/safety"
	"pincer/session"
	"pincer/themes"
	"pincer/tools/mcp"
	"pincer/ui/complete"
	"pincer/ui/termscreen"
	"pincer/ui/todolist"
	"pincer/ui/transcript"
	"pincer/ui/tree"
	"pincer/ui/watch"
)

// Options are what the screen needs from main.
type Options struct {
	Agent *agent.Agent
	Root  string // the project directory
	// Watcher reports changes on disk to the directories open in the tree;
	// nil watches nothing (the tree then refreshes after tools only).
	Watcher *watch.Watcher
	Theme   themes.Theme
	// AutoTheme follows the terminal's background: Theme is used until the
	// terminal answers, then the dark or light theme.
	AutoTheme bool
	Model     string // the model's name, for the status line
	Session   string // the session's name or id, for the status line
	// History is a resumed session's messages, shown in the transcript.
	History []agent.Message
	// Usage is the tokens the session had used before this run.
	Usage agent.Usage
	// Prompt, when set, is sent as soon as the screen opens.
	Prompt string
	// Commands are extra slash commands.
	Commands []Command
	// ReloadCommands, when set, reads the extra commands again (the
	// person's own command files may change while pincer runs); it is
	// called off the event loop when the / list opens and for a command
	// not known, and its warnings are shown once each.
	ReloadCommands func() ([]Command, []string)
	// Store and SessionID are the session store and the session in use,
	// for /sessions, /new, /rename and /export.
	Store     *session.Store
	SessionID string
	// Private makes the sessions started from the screen (/new) private
	// too, as pincer --private made the first: never indexed or recalled.
	Private bool
	// OnSession is told when the screen switches to another session, so
	// main can print the right resume hint at the end.
	OnSession func(id string)
	// Client lists the server's models and switches between them (/model).
	Client ModelClient
	// ThemeDir holds the user's theme files (NAME.json), for /theme.
	ThemeDir string
	// SchedulerInterval is how often due tasks are looked for, and how soon
	// a failed one runs again (scheduler_interval); 0 runs no tasks.
	SchedulerInterval time.Duration
	// Skills are the composite skills of the prompt, for /skills.
	Skills []agent.Skill
	// Notices are shown in the transcript when the screen opens (config
	// warnings, for example, which would otherwise scroll away).
	Notices []string
	// ExplainError turns a failed turn's error into one sentence with the
	// fix (what pincer run says too); nil shows errors as they are.
	ExplainError func(error) error
	// Sandbox is how commands are contained, for the status line and /auto.
	Sandbox SandboxStatus
	// Rewinder returns the rewinder of a session, for /rewind, /undo and
	// /redo; nil when there is no session store.
	Rewinder func(sessionID string) *rewind.Rewinder
	// Alerts, when set, are notices from work in the background (an MCP
	// server that failed), shown as they come; foreign parts must already
	// be sanitised.
	Alerts <-chan string
	// AskServers, when set, is handed the screen's way of asking the
	// person what an MCP server wants to know (a dialog), and nil when
	// the screen closes; the composition root passes it to the servers.
	AskServers func(mcp.Elicitor)
	// OpenURL opens a page in the person's browser, for a server that
	// asks for one to be visited; nil means it cannot be done here.
	OpenURL func(string) error
}

// SandboxStatus is how commands are contained, as the screen shows it.
type SandboxStatus struct {
	Mode    string // workspace, read-only or off
	Active  bool   // commands really run in the sandbox
	Jailed  bool   // the full jail (namespaces) holds them: auto may run changes unasked
	Network bool   // sandboxed commands may use the network
	Note    string // one sentence on what is (not) contained
}

// ModelClient is what /model needs of the model client.
type ModelClient interface {
	Models(ctx context.Context) ([]string, error)
	SetModel(name string)
}

// state is what the agent is doing, for the status line.
type state int

const (
	stateIdle state = iota
	stateThinking
	stateStreaming
	stateTool
	stateWaiting
)

// focusArea is which part of the screen gets the keys.
type focusArea int

const (
	focusInput focusArea = iota
	focusTranscript
	focusTree
)

// App is the root model.
type App struct {
	opts   Options
	agent  *agent.Agent
	bridge *bridge
	theme  themes.Theme
	styles themes.Styles
	keys   keyMap
	help   help.Model

	transcript transcript.Model
	tree       tree.Model
	todos      todolist.Model // the model's task list (todo_write)
	input      textarea.Model
	files      complete.Model
	commands   complete.Model
	fileItems  []complete.Item
	fileIndex  *complete.Index // fileItems prepared for ranking, off the loop
	token      complete.Token

	width, height int
	focus         focusArea
	treeShown     bool // the person's choice; the pane also hides when narrow
	showHelp      bool
	helpTop       int // the first line of the help shown, when it scrolls

	state    state
	toolName string
	busy     bool
	cancel   context.CancelFunc
	// stoppedInTool: the person stopped the turn while a tool ran or a
	// dialog asked about one, so the tool's card shows the stop.
	stoppedInTool bool
	turnStart     time.Time
	now           time.Time // last tick, for the elapsed time
	spin          int
	// lastOutput is when agent events last arrived (the spinner keeps
	// the clock's pace for outputPause after), lastSpin when the spinner
	// last turned.
	lastOutput, lastSpin time.Time
	ticking              bool
	answering            bool // an answer or reasoning is streaming into the transcript
	queue                []queued
	history              []string // prompts sent, for Up/Down
	historyPos           int
	draft                string // what was typed before browsing history
	pastes               map[string]string
	inputRows            inputRows // which rows of the input start a line
	// emptyInput is the input box drawn while it is empty, and what it
	// was drawn for (see inputView).
	emptyInput    string
	emptyInputKey emptyInputKey
	themeGen      int // counts applyTheme calls, for emptyInputKey and rule
	// rule is the line above the input, drawn for ruleWidth and ruleGen.
	rule               string
	ruleWidth, ruleGen int
	// status is the status line as last drawn (see statusLine).
	status      statusCache
	quitArmed   bool
	terminalOut bool               // the terminal window does not have focus
	filesSeq    uint64             // the latest listing of the project's files asked for
	filesCancel context.CancelFunc // stops that listing's walk when a newer one starts
	watchedKey  string             // the directories last handed to the watcher
	// terminalBG is the terminal's own background colour, nil until the
	// terminal answers (tmux and some terminals never do).
	terminalBG color.Color
	// sideScroll says the terminal scrolls the transcript without moving
	// the tree beside it (termscreen.MarginsMsg).
	sideScroll bool
	notice     string

	usage       agent.Usage // session total
	subUsage    agent.Usage // the sub-agents' tokens, counted apart
	turnUsage   agent.Usage // the last turn's, sub-agents' included (/usage)
	lastContext int         // prompt+completion tokens of the last request, or the estimate of the next (see estimateContext)
	// diagErrors is how many errors the language servers last reported
	// for the project; diagSeen, whether they reported at all.
	diagErrors int
	diagSeen   bool
	checks     int // the checks shown, to key their cards

	dialogs []dialog
	cmdList []Command
	// shownWarnings are the notices already shown, so that reading the
	// commands again does not repeat a warning.
	shownWarnings map[string]bool
	quit          bool
	previews      map[string][]chat.Message // session picker previews

	autoApprove bool          // approvals are auto: the agent runs sandboxed confirm-tier commands unasked
	runningTask *session.Task // the scheduled task the turn in progress runs

	// plan is the last plan made in plan mode, for /plan save and /plan go.
	plan string
	// editDiffs holds, by call id, the diff of an edit applied without review.
	editDiffs map[string]string
	// recalled is what auto recall added in this session, for /memory.
	recalled []agent.Recalled

	// clock is time.Now, or a test's clock: it decides whether a dialog
	// opened while the person typed (see guard.go).
	clock func() time.Time
	// lastTyped is when a key last went into the input as typing;
	// lastAnswer is when one last went to a dialog.
	lastTyped, lastAnswer time.Time
	// waitingSince is when the request in flight reached the server, zero
	// once its answer began; waitingLimit is how long it may wait for the
	// first byte (0: no limit).
	waitingSince time.Time
	waitingLimit time.Duration
}

// New builds the screen's model.
func New(o Options) *App {
	a := &App{
		opts:      o,
		agent:     o.Agent,
		bridge:    newBridge(),
		theme:     o.Theme,
		keys:      defaultKeys(),
		help:      help.New(),
		treeShown: true,
		pastes:    map[string]string{},
		usage:     o.Usage,
		now:       time.Now(),
		clock:     time.Now,
	}
	a.transcript = transcript.New(o.Theme)
	a.tree = tree.New(o.Root)
	a.todos = todolist.New()
	a.files = complete.New()
	a.commands = complete.New()
	a.commands.SetAlignDetails(true) // what each command does, in one column
	a.input = newInput()
	a.input.SetPromptFunc(2, a.inputPrompt)
	a.setCommands(o.Commands)
	a.shownWarnings = map[string]bool{}
	for _, n := range o.Notices {
		a.shownWarnings[n] = true
	}
	a.applyTheme(o.Theme)
	if len(o.History) > 0 {
		a.loadHistory(o.History)
		a.todos.Set(agent.Todos(o.History))
		a.estimateContext()
	} else {
		a.transcript.AddNotice(fmt.Sprintf("pincer with %s in %s. Ask for anything; @ mentions a file, / lists the commands, ? shows the keys.", o.Model, o.Root))
	}
	for _, n := range o.Notices {
		a.transcript.AddNotice("Note: " + n)
	}
	if o.Sandbox.Mode != "" && o.Sandbox.Mode != "off" && !o.Sandbox.Active {
		a.transcript.AddNotice("Note: " + o.Sandbox.Note)
	}
	if o.Agent != nil {
		a.autoApprove = o.Agent.Approvals() == safety.ApprovalsAuto
	}
	return a
}

// newInput is the multi-line input box: Enter sends, Shift+Enter,
// Alt+Enter or Ctrl+J adds a line.
func newInput() textarea.Model {
	ta := textarea.New()
	ta.Placeholder = "Ask pincer…  @ file · / command · ? keys"
	ta.ShowLineNumbers = false
	ta.Prompt = "› "
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = 8
	ta.SetHeight(1)
	ta.CharLimit = 0
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "alt+enter", "ctrl+j")
	ta.Focus()
	return ta
}

// applyTheme points every part of the screen at a theme.
func (a *App) applyTheme(th themes.Theme) {
	th = th.OnTerminal(a.terminalBG)
	a.theme = th
	a.styles = th.Styles()
	a.transcript.SetTheme(th)
	st := a.styles
	a.tree.SetStyles(tree.Styles{
		Title: st.Accent, Dir: st.Accent.Bold(false), File: st.Text, Note: st.Muted,
		Cursor: st.Selected, CursorBlurred: st.Muted.Reverse(true),
		Read: st.Muted, Changed: st.Warning, Created: st.OK,
	})
	a.todos.SetStyles(todoStyles(st))
	cs := complete.Styles{Item: st.Text, Selected: st.Selected, Match: st.Accent, Detail: st.Muted}
	a.files.SetStyles(cs)
	a.commands.SetStyles(cs)
	is := textarea.DefaultStyles(th.Dark)
	// A blinking cursor would redraw the whole screen twice a second
	// forever; idle means idle.
	is.Cursor.Blink = false
	is.Focused.Prompt = st.Accent
	is.Blurred.Prompt = st.Muted
	is.Focused.Placeholder = st.Muted
	is.Blurred.Placeholder = st.Muted
	a.input.SetStyles(is)
	a.themeGen++
	hs := help.DefaultStyles(th.Dark)
	a.help.Styles = hs
}

// loadHistory shows a resumed session in the transcript and fills the
// input history with its prompts.
func (a *App) loadHistory(msgs []agent.Message) { a.showHistory(msgs, true) }

// showHistory shows a session's messages in the transcript and fills the
// input history with its prompts; resumed adds the line that says the
// session was resumed (not after a rewind of the session in use).
func (a *App) showHistory(msgs []agent.Message, resumed bool) {
	if len(msgs) == 0 {
		return
	}
	var entries []transcript.Entry
	for _, m := range msgs {
		switch m.Role {
		case agent.RoleUser:
			if m.Kind == agent.KindLimit {
				entries = append(entries, transcript.Entry{Kind: transcript.KindNotice, Text: "Iteration limit reached; the model was asked to sum up."})
				continue
			}
			if m.Kind == agent.KindHook {
				entries = append(entries, transcript.Entry{Kind: transcript.KindNotice, Text: m.Content})
				continue
			}
			if m.Kind == agent.KindCheck {
				entries = append(entries, transcript.Entry{Kind: transcript.KindNotice, Text: "The check failed; its output was sent to the model."})
				continue
			}
			typed, files := agent.SplitAttachments(m.Content)
			entries = append(entries, transcript.Entry{Kind: transcript.KindUser, Text: typed})
			if len(files) > 0 {
				entries = append(entries, transcript.Entry{Kind: transcript.KindNotice, Text: "Attached " + strings.Join(files, ", ") + "."})
			}
			a.history = append(a.history, typed)
		case agent.RoleAssistant:
			if m.Reasoning != "" {
				entries = append(entries, transcript.Entry{Kind: transcript.KindReasoning, Text: m.Reasoning})
			}
			if m.Content != "" || m.Kind == agent.KindInterrupted {
				entries = append(entries, transcript.Entry{Kind: transcript.KindAssistant, Text: m.Content, Interrupted: m.Kind == agent.KindInterrupted})
			}
			for _, c := range m.ToolCalls {
				entries = append(entries, transcript.Entry{Kind: transcript.KindTool, ToolID: c.ID, ToolName: c.Name, ToolArgs: c.Arguments})
			}
		case agent.RoleTool:
			a.countSubUsage(m)
			entries = append(entries, transcript.Entry{Kind: transcript.KindToolResult, ToolID: m.ToolCallID, ToolName: m.ToolName, Text: m.Content, IsError: m.IsError, Steps: m.Steps})
			for _, t := range m.Touched {
				a.tree.Mark(t.Path, markKind(t.Kind))
			}
		case agent.RoleSystem:
			if m.Kind == agent.KindSummary {
				entries = append(entries, transcript.Entry{Kind: transcript.KindCompressed, Text: m.Content})
			}
		}
	}
	if resumed {
		entries = append(entries, transcript.Entry{Kind: transcript.KindNotice, Text: fmt.Sprintf("Resumed session %s.", a.opts.Session)})
	}
	a.transcript.Load(entries...)
	a.historyPos = len(a.history)
}

// Init starts listening to the bridge, lists the project, and loads the
// files for @ completion.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{
		a.bridge.wait(),
		a.tree.Init(),
		a.reloadFiles(),
		a.opts.Watcher.Wait(),
		tea.RequestBackgroundColor,
		a.checkTasks(), // runs missed while pincer was closed run now, once
		a.scheduleCheck(),
	}
	if a.opts.Prompt != "" {
		cmds = append(cmds, func() tea.Msg { return submitMsg{text: a.opts.Prompt} })
	}
	if a.opts.Alerts != nil {
		cmds = append(cmds, waitAlert(a.opts.Alerts))
	}
	return tea.Batch(cmds...)
}

// submitMsg sends a prompt as if typed.
type submitMsg struct{ text string }

// tickMsg animates the spinner and the elapsed time while busy.
type tickMsg time.Time

// disarmQuitMsg ends the window in which a second Ctrl+C quits.
type disarmQuitMsg struct{}

const tickInterval = 100 * time.Millisecond

// outputPause is how long after the last output the spinner keeps the
// clock's pace (see spinsNow); once the output has paused for as long it
// turns at every tick, so a stalled answer still shows pincer is alive.
const outputPause = 500 * time.Millisecond

func tick() tea.Cmd { return tickIn(tickInterval) }

func tickIn(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// nextTick is how long after now the status line next changes while the
// agent works: at once (a tick) while the spinner turns at full speed;
// while output arrives, when the elapsed time shown moves on (the spinner
// turns with it) or when the output has paused long enough for the
// spinner to turn at full speed, whichever is first. Ticks that would
// change nothing are not taken: each woke the screen to work out a frame
// that showed nothing new, an eighth of what streaming an answer cost.
func (a *App) nextTick(now time.Time) time.Duration {
	if !a.outputRecent(now) {
		return tickInterval
	}
	next := a.lastOutput.Add(outputPause).Sub(now)
	if e, ok := a.turnElapsed(now); ok {
		// elapsed rounds to the second: it moves on at each half second.
		next = min(next, (e+time.Second/2).Truncate(time.Second)+time.Second/2-e)
	} else {
		next = min(next, a.lastSpin.Add(time.Second).Sub(now))
	}
	return max(next, time.Millisecond)
}

// turnElapsed is how long the turn has run at now, when that is known
// and shown.
func (a *App) turnElapsed(now time.Time) (time.Duration, bool) {
	e := now.Sub(a.turnStart)
	return e, !a.turnStart.IsZero() && e >= 0 && e < 24*time.Hour
}

// spinsNow says whether the spinner turns at a tick at now. While output
// arrives it turns only when the elapsed time shown moves on (once a
// second when no time is shown): the arriving text already shows the turn
// is alive, and the spinner and the clock then change the status line in
// one write a second, where a spinner of its own pace cost a move to the
// status line and back, its colours and a reset two or three times a
// second. Once the output pauses it turns at every tick.
func (a *App) spinsNow(now time.Time) bool {
	if !a.outputRecent(now) {
		return true
	}
	if e, ok := a.turnElapsed(now); ok {
		was, _ := a.turnElapsed(a.lastSpin)
		return a.lastSpin.IsZero() || elapsed(e) != elapsed(was)
	}
	return now.Sub(a.lastSpin) >= time.Second
}

// outputRecent says whether agent events arrived less than outputPause
// before now.
func (a *App) outputRecent(now time.Time) bool {
	return !a.lastOutput.IsZero() && now.Sub(a.lastOutput) < outputPause
}

// Update handles one message.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case alertMsg:
		a.transcript.AddNotice(string(msg))
		return a, waitAlert(a.opts.Alerts)
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.layout()
		return a, nil
	case tea.BackgroundColorMsg:
		a.terminalBG = msg.Color
		if a.opts.AutoTheme {
			a.applyTheme(themes.ForBackground(msg.IsDark()))
		} else {
			a.applyTheme(a.theme) // body text may now take the terminal's own colour
		}
		return a, nil
	case termscreen.MarginsMsg:
		a.sideScroll = true
		a.layout()
		return a, nil
	case tea.FocusMsg:
		a.terminalOut = false
		return a, nil
	case tea.BlurMsg:
		a.terminalOut = true
		return a, nil
	case eventsMsg:
		a.lastOutput = a.clock()
		cmds := a.handleEvents(msg)
		cmds = append(cmds, a.bridge.wait())
		return a, tea.Batch(cmds...)
	case turnDoneMsg:
		return a, a.turnDone(msg)
	case compactDoneMsg:
		return a, a.compactDone(msg)
	case guardTickMsg:
		return a, nil // drawn again: a held dialog may say the typing stopped
	case tickMsg:
		now := time.Time(msg)
		a.now = now
		if a.spinsNow(now) {
			a.spin++
			a.lastSpin = now
		}
		if a.busy {
			return a, tickIn(a.nextTick(now))
		}
		a.ticking = false
		return a, nil
	case disarmQuitMsg:
		a.quitArmed = false
		a.notice = ""
		return a, nil
	case submitMsg:
		return a, a.submit(msg.text)
	case commandsMsg:
		return a, a.commandsRead(msg)
	case tree.ListedMsg:
		cmd := a.tree.Update(msg)
		a.syncWatch()
		return a, cmd
	case watch.ChangedMsg:
		if msg.Root != a.tree.Root() {
			return a, a.opts.Watcher.Wait()
		}
		return a, tea.Batch(a.tree.RefreshDirs(msg.Dirs), a.reloadFiles(), a.opts.Watcher.Wait())
	case filesLoadedMsg:
		if msg.seq != a.filesSeq {
			return a, nil // a newer listing was asked for
		}
		a.filesCancel = nil
		return a.Update(msg.files)
	case tree.SelectMsg:
		a.insertMention(msg.Path)
		a.setFocus(focusInput)
		return a, nil
	case complete.FilesMsg:
		if msg.Err == nil {
			a.fileItems, a.fileIndex = msg.Items, msg.Index
			if a.fileIndex == nil {
				a.fileIndex = complete.NewIndex(msg.Items)
			}
			a.files.SetPartial(msg.Truncated)
			if a.files.IsOpen() {
				a.files.SetIndex(a.fileIndex)
			}
		}
		return a, nil
	case tea.PasteMsg:
		return a, a.paste(msg.Content)
	case sessionListMsg:
		return a, a.showSessionPicker(msg)
	case previewMsg:
		if a.previews != nil {
			a.previews[msg.id] = msg.msgs
		}
		return a, nil
	case sessionOpenedMsg:
		return a, a.sessionOpened(msg)
	case rewindTurnsMsg:
		return a, a.showRewindPicker(msg)
	case rewindModeMsg:
		return a, a.showRewindModes(msg.turn)
	case rewindPlanMsg:
		return a, a.showRewindPlan(msg)
	case rewindDoneMsg:
		return a, a.rewound(msg)
	case rediagnosedMsg:
		a.rediagnosed(msg)
		return a, nil
	case renamedMsg:
		a.opts.Session = msg.name
		a.transcript.AddNotice("This session is now named " + msg.name + ".")
		return a, nil
	case memoryMsg:
		if msg.err != nil {
			a.transcript.AddError("/memory: " + msg.err.Error())
		} else {
			a.transcript.AddNotice(a.recalledText(msg.notes))
		}
		return a, nil
	case noticeMsg:
		if msg.err != nil {
			a.transcript.AddError(msg.err.Error())
			if p, ok := a.topDialog().(*picker); ok {
				p.warn = sentence(msg.err.Error()) // not hidden behind the open list
			}
		} else {
			a.transcript.AddNotice(msg.text)
		}
		return a, nil
	case modelListMsg:
		return a, a.showModelPicker(msg)
	case modelCheckMsg:
		return a, a.switchCheckedModel(msg)
	case themesMsg:
		return a, a.showThemes(msg)
	case taskCheckMsg:
		return a, tea.Batch(a.checkTasks(), a.scheduleCheck())
	case tasksDueMsg:
		return a, a.runDueTask(msg)
	case taskFinishedMsg:
		return a, a.taskFinished(msg)
	case taskListMsg:
		return a, a.showTasks(msg)
	case taskAddedMsg:
		a.transcript.AddNotice(msg.text)
		return a, a.checkTasks()
	case tea.MouseWheelMsg:
		if a.showHelp {
			if msg.Mouse().Button == tea.MouseWheelUp {
				a.helpKey(tea.KeyPressMsg{Code: tea.KeyUp})
			} else {
				a.helpKey(tea.KeyPressMsg{Code: tea.KeyDown})
			}
			return a, nil
		}
		if md, ok := a.topDialog().(messageDialog); ok {
			return a, md.Message(msg)
		}
		return a, a.mouseWheel(msg)
	case tea.MouseClickMsg:
		return a, a.mouseClick(msg)
	case tea.KeyPressMsg:
		return a, a.key(msg)
	}
	if len(a.dialogs) > 0 {
		if md, ok := a.topDialog().(messageDialog); ok {
			return a, md.Message(msg)
		}
		return a, nil
	}
	var cmd tea.Cmd
	a.input, cmd = a.input.Update(msg)
	return a, cmd
}

// handleEvents applies a batch of agent events to the screen.
func (a *App) handleEvents(evs eventsMsg) []tea.Cmd {
	var cmds []tea.Cmd
	refresh := false
	for _, ev := range evs {
		switch ev.(type) {
		case agent.TextDelta, agent.ReasoningDelta, agent.ToolCallDelta, agent.AssistantMessage, agent.Retrying:
			a.waitingSince = time.Time{} // the answer began, or the attempt ended
		}
		switch e := ev.(type) {
		case agent.Waiting:
			a.waitingSince, a.waitingLimit = a.clock(), e.FirstByte
		case question:
			cmds = append(cmds, a.ask(e))
		case elicitQuestion:
			cmds = append(cmds, a.askServer(e))
		case agent.TextDelta:
			a.state = stateStreaming
			a.answering = true
			a.transcript.AppendText(e.Text)
		case agent.ReasoningDelta:
			if a.state != stateStreaming {
				a.state = stateThinking
			}
			a.answering = true
			a.transcript.AppendReasoning(e.Text)
		case agent.ToolCallDelta:
			a.state = stateStreaming
			a.transcript.ToolCallDelta(e.Index, callKey(e.Call, e.ID), e.Name, e.ArgsSoFar)
		case agent.AssistantMessage:
			a.transcript.SettleAnswer(e.Message.Reasoning, e.Message.Content)
			for i, c := range e.Message.ToolCalls {
				if i < len(e.Calls) {
					a.transcript.ToolCall(callKey(e.Calls[i], c.ID), c.Name, c.Arguments)
				}
			}
			a.transcript.FinishAssistant(false)
			a.answering = false
			a.state = stateThinking
		case agent.ToolStarted:
			a.state, a.toolName = stateTool, e.Name
			a.transcript.ToolStarted(callKey(e.Call, e.ID), e.Summary)
		case agent.Checked:
			a.checks++
			id := fmt.Sprintf("check-%d", a.checks)
			a.transcript.ToolCall(id, "check", "")
			a.transcript.ToolStarted(id, fmt.Sprintf("check %s (round %d of %d)", e.Command, e.Round, e.Rounds))
			if e.Passed {
				a.transcript.ToolDiagnostics(id, "passed", false)
			} else {
				a.transcript.ToolDiagnostics(id, "failed", true)
			}
			a.transcript.ToolResult(id, "check", "", e.Output, !e.Passed)
		case agent.Diagnosed:
			a.transcript.ToolDiagnostics(callKey(e.Call, e.ID), e.Report.Label(), e.Report.Errors > 0)
			a.tree.SetProblems(e.Report.Problems)
			a.diagErrors, a.diagSeen = e.Report.Total, true
		case agent.ToolResult:
			a.transcript.ToolResult(callKey(e.Call, e.ID), e.Name, e.Summary, a.shownResult(e), e.IsError)
			for _, t := range e.Touched {
				a.tree.Mark(t.Path, markKind(t.Kind))
				refresh = refresh || t.Kind != chat.TouchRead
			}
			// A command may create or delete files; a read changes nothing
			// on disk, so the tree and the file list stay as they are.
			refresh = refresh || e.Name == "run_command"
			a.state = stateThinking
		case agent.Usage:
			a.usage = a.usage.Plus(e)
			a.turnUsage = a.turnUsage.Plus(e)
			a.lastContext = e.PromptTokens + e.CompletionTokens
		case agent.Retrying:
			a.transcript.AddRetry(fmt.Sprintf("Request failed (%v); retrying in %s (attempt %d).", e.Err, e.Wait.Round(100*time.Millisecond), e.Attempt+1))
		case agent.Notice:
			a.transcript.AddNotice(e.Text)
		case agent.Recalled:
			a.recalled = append(a.recalled, e)
			a.transcript.AddRecalled(agent.RecallSummary(e.Notes, time.Now()), e.Text)
		case agent.Compressed:
			a.transcript.AddCompressed(e.Summary, e.Messages)
			a.lastContext = e.After
		case agent.TodoList:
			a.setTodos(e.Items)
		case agent.SubEvent:
			refresh = a.subEvent(e) || refresh
		}
	}
	if refresh {
		cmds = append(cmds, a.tree.Refresh(), a.reloadFiles())
	}
	return cmds
}

// callKey is what the screen keys a tool call's card by: pincer's own key
// of the call, or the server's id from an agent that gave none.
func callKey(call, id string) string {
	if call != "" {
		return call
	}
	return id
}

func markKind(k chat.TouchKind) tree.MarkKind {
	switch k {
	case chat.TouchChanged:
		return tree.MarkChanged
	case chat.TouchCreated:
		return tree.MarkCreated
	}
	return tree.MarkRead
}

// submit sends a prompt, or queues it while the agent is busy. Slash
// commands run at once.
func (a *App) submit(text string) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "//") {
		return a.runCommand(text)
	}
	text = strings.TrimPrefix(text, "/") // "//x" sends "/x"
	a.history = append(a.history, text)
	a.historyPos = len(a.history)
	return a.sendOrQueue(text, text)
}

// sendOrQueue starts a turn with the prompt text (the transcript shows
// shown), or queues text while a turn runs.
func (a *App) sendOrQueue(text, shown string) tea.Cmd {
	if a.busy {
		a.enqueue(queued{text: text})
		return nil
	}
	return a.startMessage(agent.Message{Role: agent.RoleUser, Content: a.expandPastes(text)}, shown)
}

// queued is a prompt typed while a turn runs, sent when it ends.
type queued struct {
	// text is the prompt, or for a command what was typed ("/review x").
	text string
	// start, when set, runs the command again when its turn comes, so
	// that what it includes is read then.
	start func() tea.Cmd
}

// enqueue puts q behind the turn that runs, where the transcript shows it.
func (a *App) enqueue(q queued) {
	a.queue = append(a.queue, q)
	a.transcript.SetQueued(a.queuedTexts())
}

// queuedTexts is the queue as the person typed it.
func (a *App) queuedTexts() []string {
	out := make([]string, len(a.queue))
	for i, q := range a.queue {
		out[i] = q.text
	}
	return out
}

// startTurn hands a prompt to the agent on its own goroutine.
func (a *App) startTurn(text string) tea.Cmd {
	return a.startMessage(agent.Message{Role: agent.RoleUser, Content: a.expandPastes(text)}, text)
}

// startMessage runs a prepared message (a prompt, or a scheduled task) as
// a turn; shown is what the transcript shows for it.
func (a *App) startMessage(m agent.Message, shown string) tea.Cmd {
	a.transcript.AddUser(shown)
	return a.startWork(func(ctx context.Context) tea.Msg {
		res, err := a.agent.RunMessage(ctx, m, a.bridge.event)
		return turnDoneMsg{res: res, err: err}
	})
}

// turnDone finishes a turn: late events are applied, the answer is closed
// (marked interrupted when cancelled), errors are shown, and the next
// queued prompt or due task starts.
func (a *App) turnDone(msg turnDoneMsg) tea.Cmd {
	cmds := a.endWork()
	switch {
	case msg.err == nil:
		if a.answering {
			a.transcript.FinishAssistant(false)
		}
		if msg.res.StopReason == "max_iterations" {
			a.transcript.AddNotice(fmt.Sprintf("Stopped at the limit of %d model requests; say \"go on\" to continue.", msg.res.Iterations-1))
		}
		a.planFinished(msg.res)
	case errors.Is(msg.err, context.Canceled):
		// A command or a question stopped by Esc says so on its card; a
		// second "(interrupted)" line would only repeat it.
		a.transcript.FinishAssistant(a.answering || !a.stoppedInTool)
	default:
		// A failure is not an interruption: what streamed stays as it is,
		// and the error says what went wrong and what to do.
		a.transcript.FinishAssistant(false)
		a.transcript.AddError(a.explain(msg.err))
	}
	a.answering = false
	taskJustRan := a.runningTask != nil
	if t := a.runningTask; t != nil {
		a.runningTask = nil
		runErr := msg.err
		if runErr == nil && msg.res.StopReason == "max_iterations" {
			runErr = errors.New("stopped at the iteration limit")
		}
		cmds = append(cmds, a.taskDone(*t, runErr))
	} else {
		cmds = append(cmds, a.notify("pincer: finished"))
	}
	return tea.Batch(append(cmds, a.nextWork(!taskJustRan))...)
}

// explain is a failed turn's error as a sentence for the transcript.
func (a *App) explain(err error) string {
	if a.opts.ExplainError != nil {
		err = a.opts.ExplainError(err)
	}
	return sentence(err.Error())
}

// sentence starts text with a capital letter and ends it with a full stop.
func sentence(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return text
	}
	r := []rune(text)
	r[0] = unicode.ToUpper(r[0])
	text = string(r)
	if !strings.HasSuffix(text, ".") && !strings.HasSuffix(text, "?") && !strings.HasSuffix(text, "!") {
		text += "."
	}
	return text
}

// compactDoneMsg reports that /compact finished.
type compactDoneMsg struct{ err error }

func (a *App) compactDone(msg compactDoneMsg) tea.Cmd {
	cmds := a.endWork()
	if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
		a.transcript.AddNotice("Nothing compressed: " + msg.err.Error() + ".")
	}
	return tea.Batch(append(cmds, a.nextWork(true))...)
}

// startWork runs work for the agent on its own goroutine (through the
// returned command) and marks the screen busy until its result arrives;
// Esc cancels the context it is given.
func (a *App) startWork(work func(ctx context.Context) tea.Msg) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	a.stoppedInTool = false
	a.busy = true
	a.state = stateThinking
	a.turnStart = time.Now()
	a.now = a.turnStart
	a.turnUsage = agent.Usage{}
	cmds := []tea.Cmd{func() tea.Msg { return work(ctx) }}
	if !a.ticking {
		a.ticking = true
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

// endWork applies the events still buffered and marks the screen idle.
func (a *App) endWork() []tea.Cmd {
	cmds := a.handleEvents(a.bridge.drain())
	a.busy = false
	a.state = stateIdle
	a.cancel = nil
	a.waitingSince = time.Time{}
	a.dialogs = nil // questions of finished work can no longer be answered
	a.editDiffs = nil
	return cmds
}

// nextWork starts the next queued prompt, or looks for a due task when
// checkTasks is set (after a task it is not: the check comes once its run
// is recorded, or it would run again).
func (a *App) nextWork(checkTasks bool) tea.Cmd {
	if len(a.queue) > 0 {
		next := a.queue[0]
		a.queue = a.queue[1:]
		a.transcript.SetQueued(a.queuedTexts())
		if next.start != nil {
			return next.start()
		}
		return a.startTurn(next.text)
	}
	if checkTasks {
		return a.checkTasks()
	}
	return nil
}

// stopTurn is the person stopping the turn (Esc, Ctrl+C): the turn ends,
// and the prompts queued behind it go back into the input instead of
// being sent, so that stopping stops.
func (a *App) stopTurn() {
	a.cancelTurn()
	if len(a.queue) == 0 {
		return
	}
	parts := make([]string, 0, len(a.queue)+1)
	for _, q := range a.queue {
		text := q.text
		if q.start == nil && strings.HasPrefix(text, "/") {
			text = "/" + text // a message, not a command, when sent again
		}
		parts = append(parts, text)
	}
	if typed := strings.TrimSpace(a.input.Value()); typed != "" {
		parts = append(parts, typed)
	}
	note := "Stopped. The queued prompt is back in the input; Enter sends it."
	if len(a.queue) > 1 {
		note = "Stopped. The queued prompts are back in the input; Enter sends them as one message."
	}
	a.transcript.AddNotice(note)
	a.queue = nil
	a.transcript.SetQueued(nil)
	a.setFocus(focusInput)
	a.setInput(strings.Join(parts, "\n\n"), -1)
}

// cancelTurn stops the model or the running tool at once.
func (a *App) cancelTurn() {
	a.stoppedInTool = a.state == stateTool || len(a.dialogs) > 0
	if a.cancel != nil {
		a.cancel()
	}
}

// notify rings the bell and sends a desktop notification (OSC 9 and OSC
// 777) when the terminal is not focused, so a person in another window
// learns that pincer needs them.
func (a *App) notify(text string) tea.Cmd {
	if !a.terminalOut {
		return nil
	}
	return tea.Raw("\a\x1b]9;" + text + "\x07\x1b]777;notify;pincer;" + text + "\x07")
}

// layout gives each part its size.
func (a *App) layout() {
	if a.width == 0 {
		return
	}
	inputW := a.width
	a.input.SetWidth(max(inputW-2, 10))
	treeW := a.treeWidth()
	if treeW > 0 {
		a.tree.SetSize(treeW, a.bodyHeight()-a.todoPaneHeight())
	}
	a.transcript.SetSize(a.width-treeW-btoi(treeW > 0), a.bodyHeight())
	a.transcript.SetOrigin(treeW+btoi(treeW > 0), 0)
	// Beside the tree, on a terminal that scrolls only whole rows, every
	// move of the transcript moves the tree too: stream in steps.
	a.transcript.SetSteppedScroll(treeW > 0 && !a.sideScroll)
	popW := min(a.width-treeW-btoi(treeW > 0), 80) // over the transcript, not the tree
	a.files.SetSize(popW, 8)
	a.commands.SetSize(popW, 8)
	a.help.SetWidth(a.width)
}

// treeWidth is the side pane's width, 0 when it is hidden (by choice, or
// because the terminal is narrow).
func (a *App) treeWidth() int {
	if !a.treeShown || a.width < treeMinWidth {
		return 0
	}
	return min(max(a.width/5, 24), 40)
}

// bodyHeight is the height of the transcript and the tree.
func (a *App) bodyHeight() int {
	return max(a.height-a.inputHeight()-1-a.todoBlockHeight(), 1)
}

// inputHeight is the input box with its top rule.
func (a *App) inputHeight() int { return a.input.Height() + 1 }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// View draws the screen.
func (a *App) View() tea.View {
	v := tea.NewView(a.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	v.WindowTitle = "pincer — " + a.opts.Session
	if a.paintsBackground() {
		v.BackgroundColor = a.theme.Palette.Background
		v.ForegroundColor = a.theme.Palette.Foreground
	}
	return v
}

// paintsBackground reports whether the theme sets the terminal's colours
// while pincer runs. It does when the terminal's own background is unknown
// (tmux and some terminals do not answer the query) or of the other kind
// than the theme's, so that a dark theme on a light terminal, or /theme
// light on a dark one, never leaves pale text on white or dark on black.
// The terminal restores its colours when pincer exits.
func (a *App) paintsBackground() bool { return a.theme.PaintsOn(a.terminalBG) }

func (a *App) render() string {
	if a.width == 0 || a.height == 0 {
		return ""
	}
	body := a.transcript.View()
	left, tw := "", a.treeWidth()
	if tw > 0 {
		left = a.tree.View()
		if h := a.todoPaneHeight(); h > 0 {
			left += "\n" + a.todos.Pane(tw, h)
		}
	}
	var over string // drawn over the body, centred (centre) or as a popup
	centre := false
	if a.showHelp {
		over, centre = a.helpView(), true
	} else if d := a.topDialog(); d != nil {
		over, centre = d.View(a.width, a.bodyHeight(), a.styles), true
	} else {
		over = a.popupView()
	}
	rule := a.ruleView()
	if h := a.todoBlockHeight(); h > 0 {
		rule += "\n" + a.todos.Block(a.width, h)
	}
	below := "\n" + rule + "\n" + a.inputView() + "\n" + a.statusLine()
	if tw > 0 && over == "" {
		// The frame is written once: the panes joined and the lines below
		// them in one string (a frame is tens of KB, and an answer
		// streams some fifteen of them a second).
		return joinPanes(left, "│", body, below)
	}
	if tw > 0 {
		// The divider is plain text: where the terminal scrolls whole
		// rows it is written again on every new line of an answer.
		body = joinPanes(left, "│", body, "")
	}
	switch {
	case centre:
		body = a.overlayCenter(body, over)
	case over != "":
		body = a.overlayPopup(body, over)
	}
	return body + below
}

// ruleView is the line above the input. It is kept: drawn through
// lipgloss it cost a seventh of a streamed frame.
func (a *App) ruleView() string {
	if a.rule == "" || a.ruleWidth != a.width || a.ruleGen != a.themeGen {
		a.rule = a.styles.Faint.Render(strings.Repeat("─", a.width))
		a.ruleWidth, a.ruleGen = a.width, a.themeGen
	}
	return a.rule
}

// emptyInputKey is everything an empty input box's drawing depends on.
type emptyInputKey struct {
	width, height int
	focused       bool
	virtualCursor bool
	placeholder   string
	themeGen      int
}

// inputView is the input box. While it is empty (as it is for most
// frames of an answer streaming) the drawing is kept: the input draws
// all its rows and its placeholder through lipgloss on every call, about
// a tenth of what a streamed frame cost.
func (a *App) inputView() string {
	if a.input.Value() != "" {
		return a.input.View()
	}
	key := emptyInputKey{
		width: a.input.Width(), height: a.input.Height(), focused: a.input.Focused(),
		virtualCursor: a.input.VirtualCursor(), placeholder: a.input.Placeholder, themeGen: a.themeGen,
	}
	if a.emptyInput == "" || key != a.emptyInputKey {
		a.emptyInput, a.emptyInputKey = a.input.View(), key
	}
	return a.emptyInput
}

// joinPanes puts two panes side by side with a separator between them,
// followed by tail.
// Both panes draw exactly their size (every line padded to its width), so
// this is plain line concatenation, far cheaper than measuring each line.
func joinPanes(left, sep, right, tail string) string {
	var b strings.Builder
	// One allocation: a separator and a newline on every row.
	b.Grow(len(left) + len(right) + (max(strings.Count(left, "\n"), strings.Count(right, "\n"))+1)*(len(sep)+1) + len(tail))
	for {
		l, lrest, lok := strings.Cut(left, "\n")
		r, rrest, rok := strings.Cut(right, "\n")
		b.WriteString(l)
		b.WriteString(sep)
		b.WriteString(r)
		if !lok && !rok {
			b.WriteString(tail)
			return b.String()
		}
		b.WriteByte('\n')
		left, right = lrest, rrest
	}
}

// filesLoadedMsg is a listing of the project's files for @ completion,
// numbered so that a late answer to an older request is dropped.
type filesLoadedMsg struct {
	seq   uint64
	files complete.FilesMsg
}

// reloadFiles lists the project's files again for @ completion. A walk
// still running for an older request is stopped: in a project of 50,000
// files it is wasted work, and its answer would be older than the new one.
func (a *App) reloadFiles() tea.Cmd {
	if a.filesCancel != nil {
		a.filesCancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.filesSeq++
	seq, load := a.filesSeq, complete.LoadFiles(ctx, a.opts.Root, 0)
	a.filesCancel = cancel
	return func() tea.Msg {
		defer cancel()
		return filesLoadedMsg{seq: seq, files: load().(complete.FilesMsg)}
	}
}

// syncWatch hands the watcher the directories open in the tree, when they
// changed since last time.
func (a *App) syncWatch() {
	if a.opts.Watcher == nil {
		return
	}
	dirs := a.tree.OpenDirs()
	if key := strings.Join(dirs, "\x00"); key != a.watchedKey {
		a.watchedKey = key
		a.opts.Watcher.Watch(dirs)
	}
}
