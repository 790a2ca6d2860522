package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/checkpoint"
	"pincer/config"
	"pincer/internal/safetext"
	"pincer/rewind"
	"pincer/session"
	"pincer/tools/lsp"
	"pincer/tools/mcp"
	"pincer/ui/acp"
)

// acpOptions are the flags of `pincer acp`; the model and sandbox flags
// apply to every project the editor opens.
type acpOptions struct {
	model   modelFlags
	sandbox sandboxFlag
	log     string // where pincer's own messages go instead of standard error
}

func (c *cli) acpCommand() *cobra.Command {
	var o acpOptions
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Work inside an editor: speak the Agent Client Protocol on standard input and output",
		Long: `acp runs pincer as an agent of an editor that speaks the Agent Client Protocol
(ACP): Zed, JetBrains IDEs, Neovim (CodeCompanion, avante) and Emacs (agent-shell).
The editor starts it and talks to it over standard input and output; nothing
else is written there. pincer's own messages go to standard error, or to the
file --log names.

Each session the editor opens works in the directory it names, with that
project's configuration, and is kept like any other ('pincer sessions' lists
it, 'pincer -s ID' opens it on the screen); the editor can load a session made
on the screen by its name. Edits are
shown as diffs and commands ask in the editor, dangerous ones twice; the
safety rules, sandbox, hooks and checkpoints are the same as on the screen.
See docs/editors.md for each editor's setup.`,
		Example: `  # what an editor runs (its settings name the command)
  pincer acp
  pincer acp --model qwen3-coder --log /tmp/pincer-acp.log`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.runACP(cmd, &o) },
	}
	o.model.register(cmd.Flags())
	o.sandbox.register(cmd.Flags())
	cmd.Flags().StringVar(&o.log, "log", "", "append pincer's own messages to this file instead of standard error")
	return cmd
}

func (c *cli) runACP(cmd *cobra.Command, opts *acpOptions) error {
	if opts.log != "" {
		f, err := os.OpenFile(opts.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return usageError(fmt.Errorf("open the log file: %w", err))
		}
		defer f.Close()
		c.stderr = f
	}
	out := c.stdout
	if c.stdout == io.Writer(os.Stdout) {
		claimed, err := acp.ClaimStdout()
		if err != nil {
			return err
		}
		out = claimed
	}
	o := &acpOpener{c: c, overrides: overridesOf(&opts.model, &opts.sandbox), projects: map[string]*acpProject{}, stores: map[string]*session.Store{}}
	defer o.close()
	fmt.Fprintf(c.stderr, "pincer: speaking ACP on standard input and output\n")
	return acp.Serve(cmd.Context(), c.stdin, out, acp.Options{Opener: o, Version: version, Log: c.stderr})
}

// acpOpener opens the editor's sessions: per project directory the
// configuration, the store, the MCP servers and the checkpoints are made
// once, and each session gets its own agent.
type acpOpener struct {
	c *cli
	// overrides are what acp's flags override in each project.
	overrides config.Overrides

	mu       sync.Mutex
	projects map[string]*acpProject
	stores   map[string]*session.Store // by path: projects may share one
	created  []createdSession          // sessions this connection started, removed if left empty
}

type acpProject struct {
	p       *project
	st      *session.Store
	servers *mcp.Manager
	langs   *lsp.Manager
	snaps   *checkpoint.Store
	rec     []*rewind.Recorder
}

type createdSession struct {
	st *session.Store
	id string
}

// project loads (once) what the sessions of dir share.
func (o *acpOpener) project(ctx context.Context, dir string) (*acpProject, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ap, ok := o.projects[dir]; ok {
		return ap, nil
	}
	p, err := o.c.loadProjectAt(dir, o.overrides)
	if err != nil {
		return nil, err
	}
	if err := p.pickModel(ctx); err != nil {
		return nil, err
	}
	if err := p.cfg.CheckAPIKey(o.c.getenv); err != nil {
		return nil, usageError(err)
	}
	st, err := o.store(p)
	if err != nil {
		return nil, err
	}
	if s := o.c.sandboxState(p); !s.Jailed && s.Mode != "off" {
		fmt.Fprintf(o.c.stderr, "pincer: warning: %s\n", s.Note)
	}
	ap := &acpProject{p: p, st: st}
	ap.servers = o.c.mcpManager(p, nil)
	ap.servers.Start()
	ap.langs = o.c.lspManager(p, nil)
	if why := unrecordable(p.root, agent.HomeDir()); why != "" && p.cfg.Checkpoints {
		fmt.Fprintf(o.c.stderr, "pincer: turns in %s are not recorded for /undo (%s)\n", safetext.LineOf(p.root), why)
	} else if ap.snaps, err = o.c.checkpointStore(p, p.root); err != nil {
		fmt.Fprintf(o.c.stderr, "pincer: warning: turns will not be recorded for /undo: %s\n", safetext.LineOf(err.Error()))
		ap.snaps = nil
	}
	o.projects[dir] = ap
	return ap, nil
}

// store opens the session store of p once; call with o.mu held.
func (o *acpOpener) store(p *project) (*session.Store, error) {
	path := o.c.storePath(p)
	if st, ok := o.stores[path]; ok {
		return st, nil
	}
	st, err := o.c.openStore(p)
	if err != nil {
		return nil, fmt.Errorf("open the session store: %w", err)
	}
	o.stores[path] = st
	return st, nil
}

// Open implements acp.Opener.
func (o *acpOpener) Open(ctx context.Context, r acp.OpenRequest) (*acp.Conversation, error) {
	ap, err := o.project(ctx, r.Dir)
	if err != nil {
		return nil, err
	}
	p := *ap.p // the session's model may differ from the project's
	st := ap.st
	var sess session.Session
	var notes []string
	if r.Ref == "" {
		if sess, err = st.Create(session.Session{Dir: p.root, Model: p.cfg.Model}); err != nil {
			return nil, err
		}
		o.mu.Lock()
		o.created = append(o.created, createdSession{st: st, id: sess.ID})
		o.mu.Unlock()
	} else {
		if sess, err = st.Get(r.Ref); err != nil {
			return nil, err
		}
		if sess.Model != "" {
			p.cfg.Model = sess.Model
		}
		if sess.Dir != p.root {
			notes = append(notes, fmt.Sprintf("Session %s was started in %s; working in %s.", sess.Label(), sess.Dir, p.root))
		}
		if sess.Headless {
			_ = st.SetHeadless(sess.ID, false) // opened in an editor: a session to work in
		}
	}
	id := sess.ID
	setup := agentSetup{
		approver: r.Approver, buffers: r.Buffers, mcp: ap.servers, lsp: ap.langs,
		recorder: agent.SessionLog{Store: st, ID: id}, store: st, current: func() string { return id },
		check: o.c.checkOptions(&p, false, true),
	}
	var rw *rewind.Rewinder
	if ap.snaps != nil {
		rec := rewind.NewRecorder(ap.snaps, st, setup.current)
		setup.checkpoints = rec
		rw = rewind.New(ap.snaps, st, id, rec.Wait).WithMemo(&rewind.Memo{})
		o.mu.Lock()
		ap.rec = append(ap.rec, rec)
		o.mu.Unlock()
	} else {
		rw = rewind.New(nil, st, id, nil)
	}
	a, _, err := o.c.newAgent(&p, setup)
	if err != nil {
		return nil, err
	}
	reload := func() error {
		history, summary, through, err := agent.LoadSession(st, id)
		if err != nil {
			return err
		}
		a.Restore(history, summary, through)
		return nil
	}
	if err := reload(); err != nil {
		return nil, err
	}
	custom, warnings := o.c.customCommands(&p)
	for _, w := range append(warnings, a.SubAgentNotes()...) {
		fmt.Fprintf(o.c.stderr, "pincer: %s\n", safetext.LineOf(w))
	}
	cmds := make([]acp.Command, 0, len(custom))
	for _, cmd := range custom {
		desc := cmd.Description
		if desc == "" {
			desc = "your command (" + filepath.Base(cmd.Path) + ")"
		}
		cmds = append(cmds, acp.Command{
			Name: cmd.Name, Description: desc, Hint: cmd.ArgumentHint, Model: cmd.Model,
			Render: func(ctx context.Context, args string, run func(context.Context, string) (string, error)) (string, error) {
				return cmd.Render(ctx, args, commandRunner(&p, cmd, run))
			},
		})
	}
	return &acp.Conversation{
		Agent: a, ID: id, Label: sess.Label(), Root: p.root,
		Commands: cmds, Rewinder: rw, Reload: reload, Notes: notes,
		Explain: func(err error) error { return o.c.explainModelError(&p, err) },
	}, nil
}

// Sessions implements acp.Opener.
func (o *acpOpener) Sessions(dir string) ([]acp.SessionSummary, error) {
	var st *session.Store
	if dir != "" {
		ap, err := o.project(context.Background(), dir)
		if err != nil {
			return nil, err
		}
		st = ap.st
	} else {
		o.mu.Lock()
		var err error
		st, err = o.store(nil)
		o.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	all, err := st.List()
	if err != nil {
		return nil, err
	}
	var out []acp.SessionSummary
	for _, s := range all {
		if dir != "" && s.Dir != dir {
			continue
		}
		title := s.Name
		if title == "" {
			title = s.Title
		}
		out = append(out, acp.SessionSummary{ID: s.ID, Dir: s.Dir, Title: title, Updated: s.Updated})
	}
	return out, nil
}

// close ends what the sessions shared once the editor is gone: the last
// snapshots are taken, the servers stopped, and the sessions this
// connection started and nothing was said in are removed.
func (o *acpOpener) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, ap := range o.projects {
		for _, r := range ap.rec {
			r.Wait()
		}
		ap.servers.Close()
		ap.langs.Close()
		if ap.snaps != nil {
			ap.snaps.Close()
		}
	}
	for _, cs := range o.created {
		if s, err := cs.st.Get(cs.id); err == nil && s.MessageCount == 0 {
			if err := cs.st.Delete(cs.id); err != nil && !errors.Is(err, session.ErrNotFound) {
				fmt.Fprintf(o.c.stderr, "pincer: could not remove the empty session %s: %v\n", s.Label(), err)
			}
		}
	}
}
