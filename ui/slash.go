package ui

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/ui/complete"
)

// Command is a slash command: /name args.
type Command struct {
	Name string
	Args string // how the arguments are written in help, "" when none
	Help string
	// Run does the command. It runs on the event loop, so it must not
	// block: slow work goes into the returned tea.Cmd.
	Run func(a *App, args string) tea.Cmd
}

// builtinCommands are the commands the screen itself provides.
func builtinCommands() []Command {
	return []Command{
		{Name: "help", Help: "show the keys and commands", Run: func(a *App, _ string) tea.Cmd {
			a.showHelp = true
			return nil
		}},
		{Name: "quit", Help: "leave pincer", Run: func(a *App, _ string) tea.Cmd {
			a.cancelTurn()
			a.quit = true
			return tea.Quit
		}},
		{Name: "clear", Help: "clear the screen (history is kept)", Run: func(a *App, _ string) tea.Cmd {
			a.transcript.Reset()
			return nil
		}},
		{Name: "tree", Help: "show or hide the project tree", Run: func(a *App, _ string) tea.Cmd {
			a.toggleTree()
			return nil
		}},
		{Name: "new", Help: "start a new session here", Run: func(a *App, _ string) tea.Cmd { return a.newSession() }},
		{Name: "sessions", Help: "resume, rename, fork, delete sessions", Run: func(a *App, _ string) tea.Cmd { return a.openSessionPicker() }},
		{Name: "rename", Args: "NAME", Help: "name this session", Run: func(a *App, args string) tea.Cmd { return a.renameSession(args) }},
		{Name: "export", Args: "[-f] [PATH]", Help: "save the session as .md or .json, secrets redacted", Run: func(a *App, args string) tea.Cmd { return a.exportSession(args) }},
		{Name: "rewind", Help: "go back to an earlier turn: its files, the conversation, or both", Run: func(a *App, _ string) tea.Cmd { return a.openRewind() }},
		{Name: "undo", Help: "take back the last turn: its files and the conversation", Run: func(a *App, _ string) tea.Cmd { return a.undo() }},
		{Name: "redo", Help: "take back the last rewind, while nothing changed since", Run: func(a *App, _ string) tea.Cmd { return a.redo() }},
		{Name: "compact", Args: "[FOCUS]", Help: "summarise older messages now", Run: func(a *App, args string) tea.Cmd { return a.compact(args) }},
		{Name: "usage", Help: "tokens and cost of the last turn and of the session", Run: func(a *App, _ string) tea.Cmd {
			a.transcript.AddNotice(a.usageText())
			return nil
		}},
		{Name: "model", Args: "[-f] [NAME]", Help: "switch the model for this session (-f: one the server does not list)", Run: func(a *App, args string) tea.Cmd { return a.openModelPicker(args) }},
		{Name: "theme", Args: "[NAME]", Help: "switch the colour theme", Run: func(a *App, args string) tea.Cmd { return a.openThemePicker(args) }},
		{Name: "schedule", Args: "in|every|at WHEN PROMPT", Help: "run a prompt later, or repeatedly", Run: func(a *App, args string) tea.Cmd { return a.scheduleCommand(args) }},
		{Name: "tasks", Help: "list and cancel scheduled tasks", Run: func(a *App, _ string) tea.Cmd { return a.openTasks() }},
		{Name: "remember", Args: "TEXT", Help: "save a note that later sessions of this project are reminded of", Run: func(a *App, args string) tea.Cmd { return a.rememberCommand(args) }},
		{Name: "memory", Help: "show what was recalled in this session, and the saved notes", Run: func(a *App, _ string) tea.Cmd { return a.memoryCommand() }},
		{Name: "skills", Help: "list the composite skills", Run: func(a *App, _ string) tea.Cmd { return a.showSkills() }},
		{Name: "auto", Help: "toggle running ordinary commands unasked inside the sandbox", Run: func(a *App, _ string) tea.Cmd {
			a.autoApprove = !a.autoApprove
			mode := safety.ApprovalsAsk
			if a.autoApprove {
				mode = safety.ApprovalsAuto
			}
			if a.agent != nil {
				a.agent.SetApprovals(mode)
			}
			switch {
			case !a.autoApprove:
				a.transcript.AddNotice("Auto approvals are off: commands that change things ask first.")
			case a.opts.Sandbox.Jailed:
				a.transcript.AddNotice("Auto approvals are on: ordinary commands run without asking inside the sandbox for the rest of this session; dangerous ones still ask twice, and leaving the sandbox always asks. /auto turns it off.")
			case a.opts.Sandbox.Active:
				a.transcript.AddNotice("Auto approvals are on, but commands cannot be fully jailed here (" + a.opts.Sandbox.Note + "), so every command that changes things still asks. /auto turns it off.")
			default:
				a.transcript.AddNotice("Auto approvals are on, but no sandbox contains commands here (" + a.opts.Sandbox.Note + "), so every command that changes things still asks. /auto turns it off.")
			}
			return nil
		}},
		{Name: "accept-edits", Help: "toggle applying edits unreviewed (the accept edits mode)", Run: func(a *App, _ string) tea.Cmd {
			if a.mode() == agent.ModeAcceptEdits {
				a.setMode(agent.ModeAsk, true)
			} else {
				a.setMode(agent.ModeAcceptEdits, true)
			}
			return nil
		}},
		{Name: "plan", Args: "[off|save [-f] [PATH]|go]", Help: "plan mode: plan without changing anything; save the plan, or carry it out", Run: func(a *App, args string) tea.Cmd { return a.planCommand(args) }},
	}
}

// setCommands makes the command list the built-in commands and extra,
// where a built-in command keeps its name.
func (a *App) setCommands(extra []Command) {
	a.cmdList = builtinCommands()
	for _, c := range extra {
		if !slices.ContainsFunc(a.cmdList, func(b Command) bool { return b.Name == c.Name }) {
			a.cmdList = append(a.cmdList, c)
		}
	}
}

// commandsMsg carries the extra commands read again; retry, when set, is
// a command line to run once they are in.
type commandsMsg struct {
	cmds     []Command
	warnings []string
	retry    string
}

// reloadCommands reads the extra commands again off the event loop, so
// that a command file added or changed while pincer runs is seen.
func (a *App) reloadCommands(retry string) tea.Cmd {
	load := a.opts.ReloadCommands
	if load == nil {
		return nil
	}
	return func() tea.Msg {
		cmds, warnings := load()
		return commandsMsg{cmds: cmds, warnings: warnings, retry: retry}
	}
}

// commandsRead takes the commands read again: the list and an open /
// popup show them, new warnings are shown once, and a command line that
// waited for them runs.
func (a *App) commandsRead(msg commandsMsg) tea.Cmd {
	a.setCommands(msg.cmds)
	for _, w := range msg.warnings {
		if !a.shownWarnings[w] {
			a.shownWarnings[w] = true
			a.transcript.AddNotice("Note: " + w)
		}
	}
	if a.commands.IsOpen() {
		a.commands.SetItems(a.commandItems())
	}
	if msg.retry != "" {
		return a.runCommandLine(msg.retry, false)
	}
	return nil
}

// commandItems are the completion items for /.
func (a *App) commandItems() []complete.Item {
	items := make([]complete.Item, 0, len(a.cmdList))
	for _, c := range a.cmdList {
		label := c.Name
		if c.Args != "" {
			label += " " + c.Args
		}
		items = append(items, complete.Item{Value: c.Name, Label: label, Detail: c.Help})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Value < items[j].Value })
	return items
}

// commandTakesArgs reports whether a command expects arguments, so Enter on
// its completion fills it in instead of running it.
func (a *App) commandTakesArgs(name string) bool {
	for _, c := range a.cmdList {
		if c.Name == name {
			return c.Args != "" && !strings.HasPrefix(c.Args, "[")
		}
	}
	return false
}

// runCommand runs "/name args".
func (a *App) runCommand(text string) tea.Cmd { return a.runCommandLine(text, true) }

// runCommandLine runs "/name args"; a name not known is looked for in the
// command files once more when reload is set (one may have been added).
func (a *App) runCommandLine(text string, reload bool) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	for _, c := range a.cmdList {
		if c.Name == name {
			return c.Run(a, strings.TrimSpace(args))
		}
	}
	if reload && a.opts.ReloadCommands != nil {
		return a.reloadCommands(text)
	}
	a.transcript.AddError(fmt.Sprintf("Unknown command /%s. Type / to see the commands, or // to send a message that starts with /.", name))
	return nil
}

// CustomCommand is one of the person's own slash commands, as the screen
// runs it.
type CustomCommand struct {
	Name, Args, Help string
	// Model, when set, answers the command's turn instead of the session's
	// model.
	Model string
	// Render makes the prompt from what was typed after the name; run
	// runs a command the text asks for, through the approvals.
	Render func(ctx context.Context, args string, run func(ctx context.Context, command string) (string, error)) (string, error)
}

// PromptCommand is a slash command that sends a prompt made from its
// arguments (the person's own commands): the transcript shows what was
// typed, the model gets the prompt. The prompt is made when its turn
// starts (queued behind a running one, it waits), off the screen's loop,
// since the commands it runs may ask for approval.
func PromptCommand(c CustomCommand) Command {
	return Command{Name: c.Name, Args: c.Args, Help: c.Help, Run: func(a *App, typed string) tea.Cmd {
		shown := strings.TrimSpace("/" + c.Name + " " + typed)
		start := func() tea.Cmd {
			args := a.expandPastes(typed)
			a.transcript.AddUser(shown)
			if c.Model != "" {
				a.transcript.AddNotice("This command asks for the model " + safetext.LineOf(c.Model) + ".")
			}
			return a.startWork(func(ctx context.Context) tea.Msg {
				run := func(ctx context.Context, command string) (string, error) {
					return a.agent.RunShell(ctx, command, a.bridge.event)
				}
				prompt, err := c.Render(ctx, args, run)
				if err != nil {
					return turnDoneMsg{err: err}
				}
				res, err := a.agent.RunTurn(ctx, agent.Message{Role: agent.RoleUser, Content: prompt}, agent.TurnOptions{Model: c.Model, Composed: true, Typed: args}, a.bridge.event)
				return turnDoneMsg{res: res, err: err}
			})
		}
		if a.busy {
			a.enqueue(queued{text: shown, start: start})
			return nil
		}
		return start()
	}}
}
