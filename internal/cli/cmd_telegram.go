package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/agent/llm"
	"pincer/checkpoint"
	"pincer/internal/safetext"
	"pincer/rewind"
	"pincer/session"
	"pincer/tools/sessiontools"
	"pincer/ui/telegram"
)

// telegramOptions are the flags of `pincer telegram`.
type telegramOptions struct {
	model   modelFlags
	sandbox sandboxFlag
}

func (c *cli) telegramCommand() *cobra.Command {
	var o telegramOptions
	cmd := &cobra.Command{
		Use:   "telegram",
		Short: "Answer from Telegram: a bot for this project, for the users you allow",
		Long: `telegram runs a Telegram bot for the project in the current directory (or --cwd),
with long polling, so no public address is needed. It answers only the numeric
user ids in telegram.allowed_users of your user config file; everyone else gets
no answer and is logged here once, with the id to add.

The bot token is read from the variable telegram.token_env names (default
TELEGRAM_BOT_TOKEN); it is never written to a file or printed.

Each chat is a session named tg-<chat id> in the usual store: pincer -s tg-<id>
opens it on the screen. Commands that change things ask with buttons in the
chat, twice for dangerous ones. Ctrl+C stops the bot and the answer in progress.
See docs/telegram.md for creating the bot and running it as a service.`,
		Example: `  export TELEGRAM_BOT_TOKEN=123456:ABC...
  pincer telegram
  pincer telegram --cwd ~/src/project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.runTelegram(cmd, &o) },
	}
	o.model.register(cmd.Flags())
	o.sandbox.register(cmd.Flags())
	return cmd
}

func (c *cli) runTelegram(cmd *cobra.Command, o *telegramOptions) error {
	p, err := c.loadProject(&o.model, &o.sandbox)
	if err != nil {
		return err
	}
	tc := p.cfg.Telegram
	if len(tc.AllowedUsers) == 0 {
		return usageError(telegram.ErrNoUsers)
	}
	token := strings.TrimSpace(c.getenv(tc.TokenVariable()))
	if token == "" {
		return usageError(fmt.Errorf("no bot token: %s is empty; create a bot with @BotFather in Telegram and export %s=<the token it gives you> (or name another variable in telegram.token_env)",
			tc.TokenVariable(), tc.TokenVariable()))
	}
	ctx := cmd.Context()
	if err := p.pickModel(ctx); err != nil {
		return err
	}
	if err := p.cfg.CheckAPIKey(c.getenv); err != nil {
		return usageError(err)
	}
	st, err := c.openStore(p)
	if err != nil {
		return fmt.Errorf("the sessions of the chats are kept in the store, which could not be opened: %w", err)
	}
	if s := c.sandboxState(p); !s.Jailed && s.Mode != "off" {
		fmt.Fprintf(c.stderr, "pincer: warning: %s\n", s.Note)
	}
	servers := c.mcpManager(p, nil)
	servers.Start()
	defer servers.Close()

	// The files are recorded around each turn, as on the screen, so a
	// turn run from the phone can be rewound at the desk.
	var snaps *checkpoint.Store
	if why := unrecordable(p.root, agent.HomeDir()); why != "" && p.cfg.Checkpoints {
		fmt.Fprintf(c.stderr, "pincer: turns will not be recorded for /rewind here (%s); run pincer telegram in a project directory\n", why)
	} else if snaps, err = c.checkpointStore(p, p.root); err != nil {
		fmt.Fprintf(c.stderr, "pincer: warning: turns will not be recorded for /rewind: %s\n", safetext.LineOf(err.Error()))
		snaps = nil
	}
	var mu sync.Mutex // one chat's agent is made at a time
	var recorders []*rewind.Recorder
	defer func() { // the snapshots of the last turns are taken before pincer ends
		mu.Lock()
		defer mu.Unlock()
		for _, r := range recorders {
			r.Wait()
		}
	}()
	open := func(ctx context.Context, chat telegram.Chat, name string, fresh bool, ap agent.Approver) (telegram.Conversation, error) {
		mu.Lock()
		defer mu.Unlock()
		scope := chatRecall(p, st, chat.ID)
		setup := agentSetup{approver: ap, mcp: servers, chat: chat.ID, recallWithin: &scope}
		a, rec, err := c.openChat(p, st, name, fresh, setup, snaps)
		if rec != nil {
			recorders = append(recorders, rec)
		}
		return a, err
	}
	botID, _, _ := strings.Cut(token, ":")
	b, err := telegram.New(ctx, telegram.Options{
		Token:        token,
		APIURL:       tc.APIURL,
		AllowedUsers: tc.AllowedUsers,
		Open:         open,
		Model:        p.cfg.Model,
		Tasks:        chatTasks{st: st, root: p.root},
		Sessions: func() ([]telegram.SessionInfo, error) {
			all, err := st.List()
			var out []telegram.SessionInfo
			for _, s := range all {
				if s.Name != "" && s.Dir == p.root {
					out = append(out, telegram.SessionInfo{Name: s.Name, ID: s.ID, Private: s.Private})
				}
			}
			return out, err
		},
		Lookup: func(name string) (telegram.SessionInfo, bool, error) {
			s, err := st.Get(name)
			switch {
			case errors.Is(err, session.ErrNotFound):
				return telegram.SessionInfo{}, false, nil
			case err != nil:
				return telegram.SessionInfo{}, false, err
			}
			return telegram.SessionInfo{Name: s.Name, ID: s.ID, Private: s.Private}, true, nil
		},
		OffsetFile: filepath.Join(filepath.Dir(c.storePath(p)), "telegram-"+safeFileName(botID)+".offset"),
		ChatsFile:  filepath.Join(filepath.Dir(c.storePath(p)), "telegram-"+safeFileName(botID)+".chats.json"),
		Log:        c.stderr,
	})
	if err != nil {
		return err
	}
	// A server's question goes to the chat whose turn asked for its tool.
	servers.SetElicitor(b.Elicitor())
	fmt.Fprintf(c.stderr, "pincer: the Telegram bot answers for %s (%d allowed user(s)); Ctrl+C stops it\n", safetext.LineOf(p.root), len(tc.AllowedUsers))
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	scheduled := c.telegramTasks(runCtx, p, st, b)
	err = b.Run(runCtx)
	stop()
	<-scheduled
	return err
}

// telegramTasks runs the scheduled tasks of the chats' sessions (tg-<chat
// id>) in their chats, until ctx ends; the channel is closed then.
func (c *cli) telegramTasks(ctx context.Context, p *project, st *session.Store, b *telegram.Bot) <-chan struct{} {
	done := make(chan struct{})
	runner, err := agent.NewTaskRunner(st, p.cfg.SchedulerInterval.Std(), nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "pincer: warning: scheduled tasks will not run: %v\n", err)
		close(done)
		return done
	}
	chatOf := func(t session.Task) (int64, string, bool) { return taskChat(st, p.root, t) }
	go func() {
		defer close(done)
		for {
			_, err := runner.RunDue(ctx, func(t session.Task) bool { _, _, ok := chatOf(t); return ok },
				func(ctx context.Context, t session.Task) error {
					id, name, _ := chatOf(t)
					return b.RunTask(ctx, id, name, t)
				})
			if err != nil && ctx.Err() == nil {
				fmt.Fprintf(c.stderr, "pincer: scheduled tasks: %s\n", safetext.LineOf(err.Error()))
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(runner.Interval()):
			}
		}
	}()
	return done
}

// taskChat is the chat a task reports in, and its session's name: the
// chat that scheduled it, and no other; a task scheduled outside Telegram
// (pincer tasks add -s tg-<id>, by the person at the computer) reports in
// the chat whose own session it names. ok is false for a task of another
// project or of no chat.
func taskChat(st *session.Store, root string, t session.Task) (chat int64, name string, ok bool) {
	if t.Session == "" || t.Dir != root {
		return 0, "", false
	}
	sess, err := st.Get(t.Session)
	if err != nil {
		return 0, "", false
	}
	if t.Chat != 0 {
		return t.Chat, sess.Label(), true
	}
	id, ok := telegram.ChatOf(sess.Name)
	return id, sess.Name, ok && sess.Name == telegram.SessionName(id)
}

// openChat opens a chat's session (or, fresh, starts it anew, keeping the
// old one under a dated name) and an agent over it.
// chatAgent is a chat's agent with its model client, so /model NAME can
// switch the model and keep the choice with the session.
type chatAgent struct {
	*agent.Agent
	client *llm.Client
	st     *session.Store
	id     string
}

// SetModel switches the chat's model and records it with its session.
func (a chatAgent) SetModel(name string) error {
	a.client.SetModel(name)
	return a.st.SetModel(a.id, name)
}

func (c *cli) openChat(p *project, st *session.Store, name string, fresh bool, setup agentSetup, snaps *checkpoint.Store) (telegram.Conversation, *rewind.Recorder, error) {
	sess, err := st.Get(name)
	if err == nil && fresh {
		if err := st.Rename(name, name+"-"+time.Now().Format("20060102-150405")); err != nil {
			return nil, nil, fmt.Errorf("keep the old conversation: %w", err)
		}
		err = session.ErrNotFound
	}
	if errors.Is(err, session.ErrNotFound) {
		sess, err = st.Create(session.Session{Name: name, Dir: p.root, Model: p.cfg.Model})
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open session %s: %w", name, err)
	}
	history, summary, through, err := agent.LoadSession(st, sess.ID)
	if err != nil {
		return nil, nil, err
	}
	id := sess.ID
	setup.recorder = agent.SessionLog{Store: st, ID: id}
	setup.store, setup.current = st, func() string { return id }
	var rec *rewind.Recorder
	if snaps != nil {
		rec = rewind.NewRecorder(snaps, st, setup.current)
		setup.checkpoints = rec
	}
	a, client, err := c.newAgent(p, setup)
	if err != nil {
		return nil, nil, err
	}
	a.Restore(history, summary, through)
	return chatAgent{Agent: a, client: client, st: st, id: id}, rec, nil
}

// chatRecall is where recall looks from a chat: by default only the
// chat's own sessions (tg-<id> and the ones /new kept), so one allowed
// user's conversation never reaches another's chat, nor a group;
// telegram.recall_scope in the person's own config widens it.
func chatRecall(p *project, st *session.Store, chat int64) sessiontools.RecallScope {
	switch p.cfg.Telegram.RecallScope {
	case "project":
		return sessiontools.RecallScope{Dir: p.root}
	case "all":
		return sessiontools.RecallScope{Dir: p.root, AllProjects: true}
	}
	return sessiontools.RecallScope{
		Dir:      p.root,
		Narrowed: "this Telegram chat's own sessions (the bot's owner can widen it with telegram.recall_scope)",
		Sessions: func() ([]string, error) {
			all, err := st.List()
			if err != nil {
				return nil, err
			}
			var own []string
			for _, s := range all {
				if s.Dir == p.root && telegram.OwnSession(chat, s.Name) {
					own = append(own, s.ID)
				}
			}
			return own, nil
		},
	}
}

// safeFileName keeps letters and digits only.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, s)
}

// chatTasks schedules and lists the tasks of a chat's session.
type chatTasks struct {
	st   *session.Store
	root string
}

func (t chatTasks) Schedule(chat int64, by, name, spec string) (string, error) {
	sess, err := t.st.Get(name)
	if err != nil {
		return "", err
	}
	now := time.Now()
	prompt, next, every, err := sessiontools.ParseSchedule(spec, now)
	if err != nil {
		return "", err
	}
	task, err := t.st.AddTask(session.Task{Session: sess.ID, Dir: t.root, Prompt: prompt, Next: next, Every: every, Chat: chat, By: by})
	if err != nil {
		return "", err
	}
	return sessiontools.DescribeTask(task, now), nil
}

func (t chatTasks) List(name string) ([]string, error) {
	sess, err := t.st.Get(name)
	if err != nil {
		return nil, err
	}
	all, err := t.st.Tasks()
	if err != nil {
		return nil, err
	}
	var out []string
	now := time.Now()
	for _, task := range all {
		if task.Session == sess.ID {
			out = append(out, sessiontools.DescribeTask(task, now))
		}
	}
	return out, nil
}
