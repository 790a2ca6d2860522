package telegram

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"
	"sync"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"pincer/agent"
	"pincer/internal/safetext"
)

// chat is one Telegram chat: its conversation and the turn in progress.
type chat struct {
	id  int64
	bot *Bot

	mu      sync.Mutex
	name    string // the session in use; "" means SessionName(id)
	conv    Conversation
	model   string // the model /model chose for this chat; "" for the default
	running bool
	owner   int64 // who sent the prompt of the turn in progress
	// scheduledBy names who scheduled the task the turn in progress runs
	// (session.Task.By), said with its approvals; "" otherwise.
	scheduledBy string
	cancel      context.CancelFunc
	// group is a group chat: recalled text is not posted there.
	group bool
}

func (c *chat) setGroup(group bool) {
	c.mu.Lock()
	c.group = group
	c.mu.Unlock()
}

func (c *chat) isGroup() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.group
}

func (c *chat) begin(owner int64, cancel context.CancelFunc) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		return false
	}
	c.running, c.owner, c.cancel = true, owner, cancel
	return true
}

func (c *chat) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running, c.owner, c.cancel, c.scheduledBy = false, 0, nil, ""
}

// setScheduledBy records who scheduled the task the turn runs.
func (c *chat) setScheduledBy(by string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scheduledBy = by
}

func (c *chat) turnScheduledBy() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scheduledBy
}

func (c *chat) turnOwner() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.owner
}

func (c *chat) busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

func (c *chat) cancelTurn() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel == nil {
		return false
	}
	c.cancel()
	return true
}

func (c *chat) setConv(name string, conv Conversation) {
	c.mu.Lock()
	c.name, c.conv = name, conv
	model := c.model
	c.mu.Unlock()
	// A model chosen with /model stays the chat's after /new or /session.
	if sw, ok := conv.(ModelSwitcher); ok && model != "" {
		_ = sw.SetModel(model)
	}
}

// modelName is the model the chat uses: the one /model chose, else def.
func (c *chat) modelName(def string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.model != "" {
		return c.model
	}
	return def
}

func (c *chat) setModelName(name string) {
	c.mu.Lock()
	c.model = name
	c.mu.Unlock()
}

// session is the name of the session the chat uses.
func (c *chat) session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.name == "" {
		return SessionName(c.id)
	}
	return c.name
}

// conversation is the chat's conversation, opened on first use.
func (c *chat) conversation(ctx context.Context) (Conversation, error) {
	c.mu.Lock()
	conv := c.conv
	c.mu.Unlock()
	if conv != nil {
		return conv, nil
	}
	conv, name, err := c.bot.open(ctx, c, c.session(), false)
	var no refusal
	if errors.As(err, &no) && c.session() != SessionName(c.id) {
		// Kept from before the rule (the chats file): back to its own.
		c.bot.sendPlain(ctx, c.id, string(no)+" This chat is back in its own session, "+SessionName(c.id)+".")
		c.bot.rememberSession(c.id, SessionName(c.id))
		conv, name, err = c.bot.open(ctx, c, SessionName(c.id), false)
	}
	if err != nil {
		return nil, err
	}
	c.setConv(name, conv)
	return conv, nil
}

// turn runs one prompt to its end, streaming the answer into the chat.
func (c *chat) turn(ctx context.Context, prompt string) {
	c.work(ctx, func(conv Conversation, sink func(agent.Event)) error {
		_, err := conv.Run(ctx, prompt, sink)
		return err
	})
}

// Compacter is a conversation that can summarise its history on demand
// (/compact); *agent.Agent is one.
type Compacter interface {
	Compact(ctx context.Context, focus string, sink func(agent.Event)) error
}

// compact runs /compact as a turn.
func (c *chat) compact(ctx context.Context, focus string) {
	c.work(ctx, func(conv Conversation, sink func(agent.Event)) error {
		cp, ok := conv.(Compacter)
		if !ok {
			return errors.New("this conversation cannot be compacted")
		}
		return cp.Compact(ctx, focus, sink)
	})
}

// work runs f on the chat's conversation, streaming what it reports.
func (c *chat) work(ctx context.Context, f func(Conversation, func(agent.Event)) error) {
	b := c.bot
	conv, err := c.conversation(ctx)
	if err != nil {
		b.sendPlain(ctx, c.id, "Could not open this chat's session: "+err.Error())
		return
	}
	s := newStream(ctx, b, c.id)
	s.group = c.isGroup()
	stop := s.tick(ctx)
	err = f(conv, s.event)
	stop()
	// The last edits go out even when the turn was cancelled.
	out, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	s.flush(out)
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		b.sendPlain(out, c.id, "Stopped.")
	case err != nil:
		b.sendPlain(out, c.id, "The turn failed: "+err.Error())
	}
}

// stream shows one turn in the chat: the answer as messages edited as it
// grows, and each tool call as a status line.
type stream struct {
	bot  *Bot
	chat int64
	ctx  context.Context // the turn's: a cancelled turn stops waiting for Telegram

	mu    sync.Mutex
	text  strings.Builder // the answer of the assistant message in flight
	msgs  []int           // the messages showing it, one per chunk
	shown []string        // what each of them shows now
	dirty bool
	last  time.Time
	tools map[string]toolLine // by call key
	// group: recalled text is not posted, since members who are not on
	// the allowlist read the chat.
	group bool
}

type toolLine struct {
	msg  int
	head string
}

func newStream(ctx context.Context, b *Bot, chat int64) *stream {
	return &stream{bot: b, chat: chat, ctx: ctx, tools: map[string]toolLine{}}
}

// tick flushes the answer once per EditEvery while it grows.
func (s *stream) tick(ctx context.Context) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(s.bot.opts.EditEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				s.flush(ctx)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// event takes one agent event. It does not wait for Telegram, except to
// show a tool call in order with the text around it.
func (s *stream) event(ev agent.Event) {
	switch e := ev.(type) {
	case agent.TextDelta:
		s.mu.Lock()
		s.text.WriteString(e.Text)
		s.dirty = true
		s.mu.Unlock()
	case agent.AssistantMessage:
		s.finishText(s.ctx)
	case agent.ToolStarted:
		s.finishText(s.ctx)
		head := "▸ " + safetext.LineOf(e.Summary)
		id := s.bot.send(s.ctx, s.chat, "<code>"+html.EscapeString(head)+"</code>", head, nil)
		s.mu.Lock()
		s.tools[e.Call] = toolLine{msg: id, head: head}
		s.mu.Unlock()
	case agent.ToolResult:
		s.mu.Lock()
		tl, ok := s.tools[e.Call]
		s.mu.Unlock()
		mark := "✓"
		if e.IsError {
			mark = "✗"
		}
		body := mark + " " + firstLines(e.Content, 3, 300)
		if s.group && e.Name == "recall" {
			body = mark + " (what recall found is not shown in a group)"
		}
		if !ok || tl.msg == 0 {
			if !ok && e.Summary != "" {
				// Refused before it started: say what it was, as a
				// started call's message does.
				body = "▸ " + safetext.LineOf(e.Summary) + "\n" + body
			}
			s.bot.send(s.ctx, s.chat, "<code>"+html.EscapeString(body)+"</code>", body, nil)
			return
		}
		full := tl.head + "\n" + body
		s.bot.edit(s.ctx, s.chat, tl.msg, "<code>"+html.EscapeString(full)+"</code>", full, nil)
	case agent.Notice:
		s.finishText(s.ctx)
		s.bot.sendPlain(s.ctx, s.chat, "Note: "+e.Text)
	case agent.Compressed:
		s.bot.sendPlain(s.ctx, s.chat, fmt.Sprintf("Compressed %d older messages into a summary.", e.Messages))
	case agent.Recalled:
		s.finishText(s.ctx)
		htmlText, plain := recalledMessage(e, time.Now(), s.group)
		s.bot.send(s.ctx, s.chat, htmlText, plain, nil)
	}
}

// recalledMessage is how a chat learns what auto recall gave the model:
// the one-line summary, then exactly what was added (capped), folded in
// an expandable quote so it does not fill the chat. A group gets the
// summary only: members who are not on the allowlist read it.
func recalledMessage(e agent.Recalled, now time.Time, group bool) (htmlText, plain string) {
	head := agent.RecallSummary(e.Notes, now)
	if head == "" {
		head = "recalled notes from earlier sessions"
	}
	head = strings.ToUpper(head[:1]) + head[1:]
	if group {
		head += " (not shown in a group)"
		return "<i>" + html.EscapeString(safetext.LineOf(head)) + "</i>", head
	}
	body := safetext.Sanitize(e.Text, safetext.Exact)
	if r := []rune(body); len(r) > 3000 {
		body = string(r[:3000]) + "…"
	}
	plain = head + "\n\n" + body
	htmlText = "<i>" + html.EscapeString(safetext.LineOf(head)) + "</i>\n<blockquote expandable>" + html.EscapeString(body) + "</blockquote>"
	return htmlText, plain
}

// finishText shows the answer so far in full and starts a new one: what
// follows (a tool line, the next message) comes after it in the chat.
func (s *stream) finishText(ctx context.Context) {
	s.flush(ctx)
	s.mu.Lock()
	s.text.Reset()
	s.msgs, s.shown, s.dirty = nil, nil, false
	s.mu.Unlock()
}

// flush brings the messages up to date with the answer: the chunk that
// grew is edited, new chunks are sent.
func (s *stream) flush(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty {
		return
	}
	s.dirty = false
	md := s.text.String()
	if strings.TrimSpace(md) == "" {
		return
	}
	for i, chunk := range Split(md, MaxMessage) {
		h := ToHTML(chunk)
		switch {
		case i >= len(s.msgs):
			id := s.bot.send(ctx, s.chat, h, chunk, nil)
			s.msgs = append(s.msgs, id)
			s.shown = append(s.shown, h)
		case s.shown[i] != h && s.msgs[i] != 0:
			s.bot.edit(ctx, s.chat, s.msgs[i], h, chunk, nil)
			s.shown[i] = h
		}
	}
	s.last = time.Now()
}

// firstLines is the first n lines of s, at most max characters, cleaned.
func firstLines(s string, n, max int) string {
	s = strings.TrimSpace(safetext.TextOf(s))
	lines := strings.SplitN(s, "\n", n+1)
	more := len(lines) > n
	if more {
		lines = lines[:n]
	}
	s = strings.Join(lines, "\n")
	if r := []rune(s); len(r) > max {
		s, more = string(r[:max]), true
	}
	if more {
		s += " …"
	}
	return s
}

// noPreview turns link previews off. The model writes the messages, and a
// preview is a request Telegram's servers make to a URL of the model's
// choosing (with whatever it put in the query) that nobody approved.
func noPreview() *models.LinkPreviewOptions {
	return &models.LinkPreviewOptions{IsDisabled: tg.True()}
}

// send sends a message in HTML, or as plain text when Telegram refuses
// the HTML, and returns its id (0 when it could not be sent).
func (b *Bot) send(ctx context.Context, chat int64, htmlText, plain string, markup models.ReplyMarkup) int {
	var m *models.Message
	err := b.retry(ctx, func() (err error) {
		m, err = b.api.SendMessage(ctx, &tg.SendMessageParams{ChatID: chat, Text: htmlText, ParseMode: models.ParseModeHTML,
			ReplyMarkup: markup, LinkPreviewOptions: noPreview()})
		return err
	})
	if err != nil && badEntities(err) {
		err = b.retry(ctx, func() (err error) {
			m, err = b.api.SendMessage(ctx, &tg.SendMessageParams{ChatID: chat, Text: clean(plain), ReplyMarkup: markup, LinkPreviewOptions: noPreview()})
			return err
		})
	}
	if err != nil {
		b.logf("telegram: could not send a message to chat %d: %v", chat, b.redact(err))
		return 0
	}
	return m.ID
}

// sendPlain sends our own text (with foreign parts in it) as plain text.
func (b *Bot) sendPlain(ctx context.Context, chat int64, text string) int {
	return b.send(ctx, chat, html.EscapeString(clean(text)), text, nil)
}

// edit replaces a message's text, like send.
func (b *Bot) edit(ctx context.Context, chat int64, msg int, htmlText, plain string, markup models.ReplyMarkup) {
	err := b.retry(ctx, func() error {
		_, err := b.api.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: chat, MessageID: msg, Text: htmlText,
			ParseMode: models.ParseModeHTML, ReplyMarkup: markup, LinkPreviewOptions: noPreview()})
		return err
	})
	if err != nil && badEntities(err) {
		err = b.retry(ctx, func() error {
			_, err := b.api.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: chat, MessageID: msg, Text: clean(plain), ReplyMarkup: markup, LinkPreviewOptions: noPreview()})
			return err
		})
	}
	if err != nil && !strings.Contains(err.Error(), "message is not modified") {
		b.logf("telegram: could not edit a message in chat %d: %v", chat, b.redact(err))
	}
}

// badEntities reports whether Telegram refused a message's formatting.
func badEntities(err error) bool {
	return errors.Is(err, tg.ErrorBadRequest) && strings.Contains(err.Error(), "can't parse entities")
}
