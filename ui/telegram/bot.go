// Package telegram is pincer as a Telegram bot: the same agent and
// sessions, driven from a phone. It polls the Bot API for messages (no
// public URL needed), answers only the users on its allowlist, streams each
// answer into one message edited as it grows, and asks approvals with
// inline buttons. It holds no Bubble Tea code; the agent is reached through
// Opener, so the command that starts the bot decides how a chat's agent
// and session are made.
package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"pincer/agent"
	"pincer/internal/atomicfile"
	"pincer/internal/safetext"
)

// Conversation is one chat's agent, as the bot uses it.
type Conversation interface {
	Run(ctx context.Context, prompt string, sink func(agent.Event)) (agent.Result, error)
}

// ModelSwitcher is a Conversation whose model can be changed (/model NAME);
// the change is kept with its session.
type ModelSwitcher interface {
	SetModel(name string) error
}

// Opener opens the conversation of chat in the session called name,
// asking its approvals through ap. fresh asks for a new, empty session
// under that name (the command /new); the old one is kept under another
// name. The bot checks that the chat may use the session first; the
// opener keeps what the conversation reaches to the chat: its recall to
// the chat's own sessions, its scheduled tasks reporting there.
type Opener func(ctx context.Context, chat Chat, name string, fresh bool, ap agent.Approver) (Conversation, error)

// Options configure a Bot.
type Options struct {
	Token        string  // the bot token; never printed
	APIURL       string  // the Bot API server; "" means Telegram's
	AllowedUsers []int64 // the only users the bot answers
	Open         Opener
	// Tasks, when set, schedules and lists the tasks of a session
	// (/schedule, /tasks).
	Tasks Tasks
	// Model is the model's name, shown by /model.
	Model string
	// Sessions, when set, lists the project's named sessions (/sessions),
	// newest first; a chat is offered those it may use.
	Sessions func() ([]SessionInfo, error)
	// Lookup, when set, finds the session a name or id refers to, so a
	// chat cannot reach another chat's session, or a private one, by
	// naming it.
	Lookup func(name string) (SessionInfo, bool, error)
	// OffsetFile keeps the id of the last update handled, so a restart
	// does not answer anything twice. "" keeps it in memory only.
	OffsetFile string
	// ChatsFile keeps the session each chat switched to (/session,
	// /sessions), so a restart leaves the chat where it was. "" keeps it
	// in memory only.
	ChatsFile string
	// Log receives one line per stranger and per fault (no token, ever).
	Log io.Writer
	// EditEvery is the least time between two edits of a streaming
	// message (default 1s, what Telegram tolerates per chat).
	EditEvery time.Duration
	// PollTimeout is the long-polling timeout (default 50s).
	PollTimeout time.Duration
	// HTTPClient, when set, makes the requests (tests).
	HTTPClient *http.Client
	// Retry is the first wait after a network error (default 1s); it
	// doubles up to a minute.
	Retry time.Duration
}

// SessionName is the name of a chat's session in the store.
func SessionName(chatID int64) string { return "tg-" + strconv.FormatInt(chatID, 10) }

// Bot is a running bot. Create one with New and call Run.
type Bot struct {
	opts  Options
	api   *tg.Bot
	me    *models.User
	mu    sync.Mutex
	chats map[int64]*chat
	// sessions are the sessions chats switched to, as ChatsFile keeps them.
	sessions map[int64]string
	logged   map[int64]bool // strangers already logged
	// pending are the approvals waiting for a button, by nonce.
	pending map[string]*pending
	pickers map[string]*picker // /sessions lists, by nonce
	// handled, when set, learns each update id once it was handled.
	handled func(id int64)
	turns   sync.WaitGroup
	logMu   sync.Mutex
}

// ErrNoUsers is returned by New when the allowlist is empty.
var ErrNoUsers = errors.New("telegram.allowed_users is empty, so the bot would answer nobody; " +
	"send a message to @userinfobot in Telegram to learn your numeric user id, then add it to telegram.allowed_users in your user config file")

// New connects to the Bot API (getMe) and returns a bot ready to Run.
func New(ctx context.Context, o Options) (*Bot, error) {
	if len(o.AllowedUsers) == 0 {
		return nil, ErrNoUsers
	}
	if strings.TrimSpace(o.Token) == "" {
		return nil, errors.New("no bot token")
	}
	if o.EditEvery == 0 {
		o.EditEvery = time.Second
	}
	if o.PollTimeout == 0 {
		o.PollTimeout = 50 * time.Second
	}
	if o.Retry == 0 {
		o.Retry = time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	b := &Bot{opts: o, chats: map[int64]*chat{}, logged: map[int64]bool{}, pending: map[string]*pending{}, pickers: map[string]*picker{}}
	b.sessions = b.loadSessions()
	client := o.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	// The client's own timeout must outlast a long poll.
	c := *client
	c.Timeout = o.PollTimeout + 15*time.Second
	opts := []tg.Option{
		tg.WithSkipGetMe(),
		tg.WithHTTPClient(o.PollTimeout, &c),
		tg.WithDefaultHandler(b.handle),
		tg.WithNotAsyncHandlers(),
		tg.WithErrorsHandler(func(err error) { b.logf("telegram: %v", err) }),
		tg.WithAllowedUpdates(tg.AllowedUpdates{"message", "callback_query"}),
		tg.WithInitialOffset(b.loadOffset()),
	}
	if o.APIURL != "" {
		opts = append(opts, tg.WithServerURL(strings.TrimRight(o.APIURL, "/")))
	}
	api, err := tg.New(o.Token, opts...)
	if err != nil {
		return nil, b.redact(err)
	}
	b.api = api
	// At start a server that stays unreachable is an error within half a
	// minute, not a silent wait.
	start, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err = b.retry(start, func() error {
		me, err := api.GetMe(start)
		b.me = me
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reach the Telegram Bot API (check the token in the variable telegram.token_env names, and telegram.api_url): %w", b.redact(err))
	}
	return b, nil
}

// commands are the bot commands, registered with setMyCommands so
// Telegram offers them as you type /.
var commands = []models.BotCommand{
	{Command: "new", Description: "Start a new conversation (the old one is kept)"},
	{Command: "cancel", Description: "Stop the answer in progress"},
	{Command: "compact", Description: "Summarise the older messages now"},
	{Command: "sessions", Description: "Switch to another session"},
	{Command: "session", Description: "Show the session, or switch: /session NAME"},
	{Command: "schedule", Description: "Run a prompt later: /schedule in 30m PROMPT, every 1h PROMPT"},
	{Command: "tasks", Description: "List this session's scheduled tasks"},
	{Command: "model", Description: "Show the model"},
	{Command: "help", Description: "What this bot does"},
}

// Run polls for updates until ctx ends, then cancels the turns in
// progress and waits for them to stop.
func (b *Bot) Run(ctx context.Context) error {
	err := b.retry(ctx, func() error {
		_, err := b.api.SetMyCommands(ctx, &tg.SetMyCommandsParams{Commands: commands})
		return err
	})
	if err != nil && ctx.Err() == nil {
		b.logf("telegram: could not register the bot commands: %v", b.redact(err))
	}
	b.api.Start(ctx)
	b.mu.Lock()
	for _, c := range b.chats {
		c.cancelTurn()
	}
	b.mu.Unlock()
	b.turns.Wait()
	return nil
}

// handle takes one update. It runs on the polling goroutine, one update at
// a time, and never waits for a turn: turns run on goroutines of their own.
func (b *Bot) handle(ctx context.Context, _ *tg.Bot, u *models.Update) {
	switch {
	case u.Message != nil:
		b.message(ctx, u.Message)
	case u.CallbackQuery != nil:
		b.callback(ctx, u.CallbackQuery)
	}
	b.saveOffset(u.ID)
	if b.handled != nil {
		b.handled(u.ID)
	}
}

// userName is how a message names u to others: "@username", or the name
// given when there is none, or the id.
func userName(u *models.User) string {
	if u.Username != "" {
		return "@" + u.Username
	}
	if n := strings.TrimSpace(u.FirstName + " " + u.LastName); n != "" {
		return n
	}
	return "user " + strconv.FormatInt(u.ID, 10)
}

func (b *Bot) allowed(id int64) bool { return slices.Contains(b.opts.AllowedUsers, id) }

// message handles a message: a command, or a prompt for the agent.
func (b *Bot) message(ctx context.Context, m *models.Message) {
	if m.From == nil || !b.allowed(m.From.ID) {
		b.stranger(m)
		return
	}
	text := m.Text
	if m.Chat.Type != models.ChatTypePrivate {
		var ok bool
		if text, ok = b.addressed(m); !ok {
			return
		}
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	c := b.chat(m.Chat.ID)
	c.setGroup(m.Chat.Type != models.ChatTypePrivate)
	if strings.HasPrefix(text, "/") {
		name, arg, _ := strings.Cut(text[1:], " ")
		name, _, _ = strings.Cut(name, "@")
		b.command(ctx, c, m.From, strings.ToLower(name), strings.TrimSpace(arg))
		return
	}
	b.startTurn(ctx, c, m.From.ID, text)
}

// stranger logs a message from someone not on the allowlist, once per
// user, and answers nothing.
func (b *Bot) stranger(m *models.Message) {
	var id int64
	name := "unknown"
	if m.From != nil {
		id = m.From.ID
		name = strings.TrimSpace(m.From.FirstName + " " + m.From.LastName)
		if m.From.Username != "" {
			name += " (@" + m.From.Username + ")"
		}
	}
	b.mu.Lock()
	seen := b.logged[id]
	b.logged[id] = true
	b.mu.Unlock()
	if !seen {
		b.logf("telegram: ignored a message from user %d, %s, in chat %d; add %d to telegram.allowed_users to let them in",
			id, safetext.LineOf(name), m.Chat.ID, id)
	}
}

// addressed reports whether a group message is meant for the bot (it
// mentions it or replies to it) and returns its text without the mention.
func (b *Bot) addressed(m *models.Message) (string, bool) {
	if m.ReplyToMessage != nil && m.ReplyToMessage.From != nil && m.ReplyToMessage.From.ID == b.me.ID {
		return m.Text, true
	}
	if b.me.Username == "" {
		return "", false
	}
	mention := "@" + b.me.Username
	i := strings.Index(strings.ToLower(m.Text), strings.ToLower(mention))
	if i < 0 {
		return "", false
	}
	return m.Text[:i] + m.Text[i+len(mention):], true
}

func (b *Bot) chat(id int64) *chat {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, ok := b.chats[id]
	if !ok {
		// Group chats have negative ids; a message says for sure.
		c = &chat{id: id, bot: b, name: b.sessions[id], group: id < 0}
		b.chats[id] = c
	}
	return c
}

// loadSessions reads ChatsFile; a missing file is no switch yet, and an
// unreadable one is said in the log and starts every chat in its own
// session.
func (b *Bot) loadSessions() map[int64]string {
	out := map[int64]string{}
	if b.opts.ChatsFile == "" {
		return out
	}
	data, err := os.ReadFile(b.opts.ChatsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return out
	}
	var byID map[string]string
	if err == nil {
		err = json.Unmarshal(data, &byID)
	}
	if err != nil {
		b.logf("telegram: ignoring %s (each chat starts in its own session): %v", b.opts.ChatsFile, err)
		return out
	}
	for k, name := range byID {
		id, err := strconv.ParseInt(k, 10, 64)
		if owner, ok := ChatOf(name); err != nil || name == "" || ok && owner != id {
			continue // another chat's session is not this chat's to be in
		}
		out[id] = name
	}
	return out
}

// rememberSession records that chat id switched to the session name.
func (b *Bot) rememberSession(id int64, name string) {
	b.mu.Lock()
	b.sessions[id] = name
	byID := make(map[string]string, len(b.sessions))
	for k, v := range b.sessions {
		byID[strconv.FormatInt(k, 10)] = v
	}
	b.mu.Unlock()
	if b.opts.ChatsFile == "" {
		return
	}
	data, _ := json.MarshalIndent(byID, "", "  ")
	if err := atomicfile.Write(b.opts.ChatsFile, append(data, '\n'), 0o600); err != nil {
		b.logf("telegram: could not record the chat's session in %s (after a restart it starts in its own): %v", b.opts.ChatsFile, err)
	}
}

const helpText = `pincer works on the project it was started in. Send a message and it answers, reading files and running commands as it goes; anything that changes things asks you first, with buttons.

/new – start a new conversation (the old one stays in pincer sessions)
/cancel – stop the answer in progress
/compact – summarise the older messages now
/sessions – switch to another session
/session NAME – switch to (or start) the session NAME
/schedule in 30m PROMPT – run a prompt later here (also: every 1h …, at 2026-12-01T09:00:00Z …)
/tasks – this session's scheduled tasks
/model [NAME] – show the model, or switch this chat to another
/help – this text

This chat is in the session %s: on the computer, pincer -s %s opens it.`

// command runs a bot command.
func (b *Bot) command(ctx context.Context, c *chat, user *models.User, name, arg string) {
	from := user.ID
	switch name {
	case "start", "help":
		b.sendPlain(ctx, c.id, fmt.Sprintf(helpText, c.session(), c.session()))
	case "cancel":
		if !c.cancelTurn() {
			b.sendPlain(ctx, c.id, "Nothing is running.")
		}
	case "new":
		if c.busy() {
			b.sendPlain(ctx, c.id, "An answer is in progress; /cancel it first.")
			return
		}
		conv, name, err := b.open(ctx, c, c.session(), true)
		if err != nil {
			b.sendPlain(ctx, c.id, "Could not start a new conversation: "+err.Error())
			return
		}
		c.setConv(name, conv)
		b.sendPlain(ctx, c.id, "New conversation. The previous one is kept in pincer sessions.")
	case "schedule", "tasks":
		b.tasks(ctx, c, userName(user), name, arg)
	case "model":
		b.model(ctx, c, arg)
	case "compact":
		b.startWork(ctx, c, from, func(ctx context.Context) { c.compact(ctx, arg) })
	case "session":
		if arg == "" {
			b.sendPlain(ctx, c.id, "This chat is in the session "+c.session()+"; /session NAME switches.")
			return
		}
		b.switchSession(ctx, c, arg)
	case "sessions":
		b.pickSession(ctx, c, from)
	default:
		b.sendPlain(ctx, c.id, "Unknown command /"+safetext.LineOf(name)+"; /help lists them.")
	}
}

// model shows the chat's model, or switches it to name.
func (b *Bot) model(ctx context.Context, c *chat, name string) {
	current := c.modelName(b.opts.Model)
	if name == "" {
		b.sendPlain(ctx, c.id, "This chat uses "+safetext.LineOf(current)+"; /model NAME switches it.")
		return
	}
	if c.busy() {
		b.sendPlain(ctx, c.id, "An answer is in progress; /cancel it first, or switch when it is done.")
		return
	}
	conv, err := c.conversation(ctx)
	if err != nil {
		b.sendPlain(ctx, c.id, "Could not open this chat's conversation: "+err.Error())
		return
	}
	sw, ok := conv.(ModelSwitcher)
	if !ok {
		b.sendPlain(ctx, c.id, "The model cannot be switched here; restart the bot with --model NAME.")
		return
	}
	if err := sw.SetModel(name); err != nil {
		b.sendPlain(ctx, c.id, "Could not switch the model: "+err.Error())
		return
	}
	c.setModelName(name)
	b.sendPlain(ctx, c.id, "This chat now uses "+safetext.LineOf(name)+".")
}

// startTurn runs a prompt on the chat's agent, unless one runs already.
func (b *Bot) startTurn(ctx context.Context, c *chat, from int64, prompt string) {
	b.startWork(ctx, c, from, func(ctx context.Context) { c.turn(ctx, prompt) })
}

// startWork runs f as the chat's turn, unless one runs already.
func (b *Bot) startWork(ctx context.Context, c *chat, from int64, f func(context.Context)) {
	turnCtx, cancel := context.WithCancel(ctx)
	if !c.begin(from, cancel) {
		cancel()
		b.sendPlain(ctx, c.id, "Still working on your last message; wait for it or send /cancel.")
		return
	}
	b.turns.Add(1)
	go func() {
		defer b.turns.Done()
		defer cancel()
		defer c.end()
		f(turnCtx)
	}()
}

// logf writes one line to the log, with the token masked.
func (b *Bot) logf(format string, args ...any) {
	// Library errors carry the Bot API server's text: foreign, so through
	// the sanitiser like everything else that reaches the terminal.
	line := safetext.LineOf(b.mask(fmt.Sprintf(format, args...)))
	b.logMu.Lock()
	defer b.logMu.Unlock()
	fmt.Fprintln(b.opts.Log, line)
}

func (b *Bot) mask(s string) string {
	if b.opts.Token != "" {
		s = strings.ReplaceAll(s, b.opts.Token, "<token>")
	}
	return s
}

// redact is err with the token masked in its text.
func (b *Bot) redact(err error) error {
	if err == nil {
		return nil
	}
	msg := b.mask(err.Error())
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// loadOffset is the id of the last update handled before, or 0.
func (b *Bot) loadOffset() int64 {
	if b.opts.OffsetFile == "" {
		return 0
	}
	data, err := os.ReadFile(b.opts.OffsetFile)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		b.logf("telegram: ignoring %s: it does not hold an update id", b.opts.OffsetFile)
		return 0
	}
	return n
}

// saveOffset records the last update handled, by writing a temporary file
// and renaming it, so a crash leaves the old value or the new one.
func (b *Bot) saveOffset(id int64) {
	if b.opts.OffsetFile == "" {
		return
	}
	if err := atomicfile.Write(b.opts.OffsetFile, []byte(strconv.FormatInt(id, 10)+"\n"), 0o600); err != nil {
		b.logf("telegram: could not record the last update handled in %s (a restart may answer it again): %v", b.opts.OffsetFile, err)
	}
}

// retry calls f until it succeeds, waiting out Telegram's 429 (its
// retry_after) and network errors (with backoff, from Options.Retry up to a
// minute). A refusal (400, 403, …) is returned at once; so is the end of ctx.
func (b *Bot) retry(ctx context.Context, f func() error) error {
	wait := b.opts.Retry
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil || ctx.Err() != nil {
			return err
		}
		var tooMany *tg.TooManyRequestsError
		switch {
		case errors.As(err, &tooMany):
			d := time.Duration(tooMany.RetryAfter) * time.Second
			if d <= 0 {
				d = wait
			}
			b.logf("telegram: rate limited, waiting %s", d)
			if !sleep(ctx, d) {
				return err
			}
			continue
		case errors.Is(err, tg.ErrorBadRequest), errors.Is(err, tg.ErrorForbidden), errors.Is(err, tg.ErrorUnauthorized),
			errors.Is(err, tg.ErrorNotFound), errors.Is(err, tg.ErrorConflict), attempt >= 8:
			return err
		}
		b.logf("telegram: %v; retrying in %s", b.redact(err), wait)
		if !sleep(ctx, wait) {
			return err
		}
		wait = min(2*wait, time.Minute)
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
