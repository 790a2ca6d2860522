package telegram

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// SessionInfo is what the bot must know of a session before a chat may
// use it.
type SessionInfo struct {
	// Name is the session's name ("" for one known by its id only); ID is
	// its id.
	Name, ID string
	// Private marks a session started with --private: never indexed,
	// never recalled, and never opened from a chat.
	Private bool
}

// label is how a person names the session.
func (s SessionInfo) label() string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// ChatOf returns the chat a session name belongs to: tg-<id>, and the
// tg-<id>-<date> that /new keeps of it; ok is false for a name no chat
// owns.
func ChatOf(name string) (id int64, ok bool) {
	rest, found := strings.CutPrefix(name, "tg-")
	if !found {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest[min(1, len(rest)):], "-")
	digits = rest[:min(1, len(rest))] + digits // a group's id starts with '-'
	id, err := strconv.ParseInt(digits, 10, 64)
	return id, err == nil
}

// OwnSession reports whether the session name is one of chat's own.
func OwnSession(chat int64, name string) bool {
	id, ok := ChatOf(name)
	return ok && id == chat
}

// mayUse says why chat may not open the session info, or "" when it may:
// a session another chat owns (another user's conversation) is not one
// to switch into, nor one started with --private.
func mayUse(chat int64, info SessionInfo) string {
	if id, ok := ChatOf(info.Name); ok && id != chat {
		return fmt.Sprintf("The session %s is another chat's; a chat can switch only to its own sessions and the project's shared ones.", info.Name)
	}
	if info.Private {
		return fmt.Sprintf("The session %s was started with --private; it cannot be opened from Telegram.", info.label())
	}
	return ""
}

// session finds the session name refers to (by name or id), or one to
// be made under that name, and says why chat may not use it ("" when it
// may). The name it returns is the one to open.
func (b *Bot) sessionFor(chat int64, name string) (string, string) {
	info := SessionInfo{Name: name}
	if b.opts.Lookup != nil {
		found, ok, err := b.opts.Lookup(name)
		switch {
		case err != nil:
			return "", "Could not look up the session " + name + ": " + err.Error()
		case ok:
			info = found
		}
	}
	if why := mayUse(chat, info); why != "" {
		return "", why
	}
	return info.label(), ""
}

// open opens the chat's conversation in the session name, once the chat
// may use it.
func (b *Bot) open(ctx context.Context, c *chat, name string, fresh bool) (Conversation, string, error) {
	name, why := b.sessionFor(c.id, name)
	if why != "" {
		return nil, "", refusal(why)
	}
	conv, err := b.opts.Open(ctx, Chat{ID: c.id, Group: c.isGroup()}, name, fresh, c.approver())
	return conv, name, err
}

// refusal is a session a chat may not use.
type refusal string

func (r refusal) Error() string { return string(r) }

// Chat is what an Opener knows of the chat it opens a conversation for.
type Chat struct {
	ID int64
	// Group is a group chat, read by members who may not be on the
	// allowlist.
	Group bool
}
