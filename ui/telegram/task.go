package telegram

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"pincer/agent"
	"pincer/session"
	"pincer/ui/safetext"
)

// MessageRunner is a conversation that can run a message other than a
// prompt, such as a scheduled task's; *agent.Agent is one.
type MessageRunner interface {
	RunMessage(ctx context.Context, m agent.Message, sink func(agent.Event)) (agent.Result, error)
}

// ErrChatBusy is returned by RunTask when the chat is answering; the
// scheduler tries again later.
var ErrChatBusy = errors.New("the chat is busy with another answer")

// RunTask runs a scheduled task of the chat's session in the chat, as a
// turn: the result appears there, and its approvals are asked there, of
// the chat's own user (in a group, of the first allowed user).
func (b *Bot) RunTask(ctx context.Context, chatID int64, t session.Task) error {
	c := b.chat(chatID)
	if name := c.session(); name != SessionName(chatID) {
		return fmt.Errorf("chat %d is in the session %s, not in the task's %s", chatID, name, SessionName(chatID))
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
	b.turns.Add(1)
	defer b.turns.Done()
	defer c.end()
	b.sendPlain(ctx, chatID, "⏰ Scheduled task: "+safetext.LineOf(t.Prompt))
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
