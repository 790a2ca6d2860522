package telegram

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/session"
)

// MessageRunner is a conversation that can run a message other than a
// prompt, such as a scheduled task's; *agent.Agent is one.
type MessageRunner interface {
	RunMessage(ctx context.Context, m agent.Message, sink func(agent.Event)) (agent.Result, error)
}

// ErrChatBusy is returned by RunTask when the chat is answering; the
// scheduler tries again later.
var ErrChatBusy = errors.New("the chat is busy with another answer")

// RunTask runs a scheduled task in the chat, as a turn in its session
// (called sessionName): the result appears there, and its approvals are
// asked there, of the chat's own user (in a group, of the first allowed
// user, told who scheduled the task). The caller chooses the chat: the one
// that scheduled the task.
func (b *Bot) RunTask(ctx context.Context, chatID int64, sessionName string, t session.Task) error {
	c := b.chat(chatID)
	if name := c.session(); name != sessionName {
		return fmt.Errorf("chat %d is in the session %s, not in the task's %s; the task runs once the chat is back there", chatID, name, sessionName)
	}
	owner := b.opts.AllowedUsers[0]
	if slices.Contains(b.opts.AllowedUsers, chatID) {
		owner = chatID
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if !c.begin(owner, cancel) {
		return ErrChatBusy
	}
	c.setScheduledBy(t.By)
	b.turns.Add(1)
	defer b.turns.Done()
	defer c.end()
	head := "⏰ Scheduled task: "
	if t.By != "" {
		head = "⏰ Scheduled task (by " + safetext.LineOf(t.By) + "): "
	}
	b.sendPlain(ctx, chatID, head+safetext.LineOf(t.Prompt))
	var runErr error
	c.work(ctx, func(conv Conversation, sink func(agent.Event)) error {
		mr, ok := conv.(MessageRunner)
		if !ok {
			runErr = errors.New("this conversation cannot run tasks")
			return runErr
		}
		res, err := mr.RunMessage(ctx, agent.TaskMessage(t), sink)
		if err == nil && res.StopReason == "max_iterations" {
			err = errors.New("stopped at the iteration limit")
		}
		runErr = err
		return err
	})
	return runErr
}

// Tasks schedules and lists the tasks of a session, by the session's name.
type Tasks interface {
	// Schedule adds a task from a spec such as "in 30m check the build",
	// to report in chat only, and says when it runs; by names the person
	// who scheduled it (see session.Task.By).
	Schedule(chat int64, by, session, spec string) (string, error)
	// List describes the session's tasks, one line each.
	List(session string) ([]string, error)
}

// tasks runs /schedule and /tasks.
func (b *Bot) tasks(ctx context.Context, c *chat, by, name, arg string) {
	if b.opts.Tasks == nil {
		b.sendPlain(ctx, c.id, "Scheduled tasks are not available here.")
		return
	}
	// The session must exist before a task can name it.
	if _, err := c.conversation(ctx); err != nil {
		b.sendPlain(ctx, c.id, "Could not open this chat's session: "+err.Error())
		return
	}
	if name == "schedule" {
		if arg == "" {
			b.sendPlain(ctx, c.id, "Say when and what: /schedule in 30m check the build (or every 1h …, at 2026-12-01T09:00:00Z …).")
			return
		}
		said, err := b.opts.Tasks.Schedule(c.id, by, c.session(), arg)
		if err != nil {
			b.sendPlain(ctx, c.id, "Not scheduled: "+err.Error())
			return
		}
		b.sendPlain(ctx, c.id, said)
		return
	}
	lines, err := b.opts.Tasks.List(c.session())
	switch {
	case err != nil:
		b.sendPlain(ctx, c.id, "Could not list the tasks: "+err.Error())
	case len(lines) == 0:
		b.sendPlain(ctx, c.id, "No tasks are scheduled in this session; /schedule in 30m PROMPT adds one.")
	default:
		b.sendPlain(ctx, c.id, strings.Join(lines, "\n"))
	}
}
