package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"pincer/agent"
	"pincer/agent/prompts"
	"pincer/config"
	"pincer/customcommands"
	"pincer/internal/safetext"
	"pincer/rewind"
	"pincer/session"
	"pincer/themes"
	"pincer/tools/mcp"
	"pincer/ui"
)

// tuiOptions are the flags of the full screen (pincer with no
// subcommand), registered by rootCommand.
type tuiOptions struct {
	model   modelFlags
	theme   themeFlag
	sandbox sandboxFlag
	session sessionChoice
	plan    bool // start in plan mode
}

func (o *tuiOptions) register(f *pflag.FlagSet) {
	o.model.register(f)
	o.theme.register(f)
	o.session.register(f)
	o.sandbox.register(f)
	f.BoolVar(&o.plan, "plan", false, "start in plan mode: read-only tools, and the model answers with a plan (shift+tab changes the mode)")
}

// overrides are the configuration the flags override.
func (o *tuiOptions) overrides() config.Overrides {
	return overridesOf(&o.model, &o.theme, &o.sandbox)
}

// runTUI opens the full-screen program in the project, in a new or resumed
// session, and prints how to resume it when it closes.
func (c *cli) runTUI(cmd *cobra.Command, o *tuiOptions) error {
	p, err := c.loadProjectAt(c.cwd, o.overrides())
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if err := p.pickModel(ctx); err != nil {
		// Nothing configured and no local Ollama: walk the person through
		// choosing a provider instead of failing.
		if p.srcs.ProviderConfigured || !c.canRunSetup() {
			return err
		}
		np, saved, serr := c.firstRun(cmd, p, o.overrides())
		if serr != nil {
			return serr
		}
		if !saved {
			fmt.Fprintln(c.stderr, "pincer: nothing was saved. "+config.ProviderHelpFor(config.ShownUserConfigPath(c.getenv)))
			return &exitError{code: 2, silent: true}
		}
		p = np
		if err := p.pickModel(ctx); err != nil {
			return err
		}
	}
	// After the configuration's own errors, before anything is opened.
	if err := c.checkScreenStreams(); err != nil {
		return err
	}
	screenGC(c.getenv)
	st, err := c.openStore(p)
	if err != nil {
		return err
	}
	opened, err := openSession(o.session, o.model.modelGiven(), st, p)
	if err != nil {
		return err
	}
	if opened.sess.Headless {
		// Opened on the screen: a session to work in now.
		if err := st.SetHeadless(opened.sess.ID, false); err != nil {
			fmt.Fprintf(c.stderr, "pincer: warning: could not show this session in the list: %v\n", err)
		}
	}
	if opened.sess.Model == "" {
		if err := st.SetModel(opened.sess.ID, p.cfg.Model); err != nil {
			fmt.Fprintf(c.stderr, "pincer: warning: could not record the model with the session: %v\n", err)
		}
	}
	current := opened.sess.ID
	cps := c.startCheckpoints(p, st, func() string { return current }, true)
	defer cps.wait()
	setup := agentSetup{
		recorder: agent.SessionLog{Store: st, ID: opened.sess.ID},
		store:    st,
		current:  func() string { return current },
	}
	if cps.recorder != nil {
		setup.checkpoints = cps.recorder
	}
	// The servers start in the background: the screen never waits for
	// them, and their tools are offered as each one becomes ready.
	alerts := make(chan string, 16)
	watch := &mcpAlerts{alert: func(text string) {
		select {
		case alerts <- text:
		default: // the screen is behind: /mcp still tells
		}
	}}
	var servers *mcp.Manager
	servers = c.mcpManager(p, func() { watch.changed(servers.Servers()) })
	servers.Start()
	defer servers.Close()
	setup.mcp = servers
	langs := c.lspManager(p, nil)
	defer langs.Close()
	setup.lsp = langs
	setup.check = c.checkOptions(p, false, true)
	a, client, err := c.newAgent(p, setup)
	if err != nil {
		return err
	}
	a.Restore(opened.history, opened.summary, opened.through)
	if o.plan {
		a.SetMode(agent.ModePlan)
	}
	in, err := agent.LoadInstructions(prompts.AgentMD, prompts.SkillsMD, filepath.Dir(config.UserConfigPath(c.getenv)), p.root)
	if err != nil {
		return usageError(err)
	}
	skills := in.AllSkills() // (warnings were shown when the agent was made)
	custom, cmdWarnings := c.customCommands(p)
	theme, auto, err := c.pickTheme(p.cfg.Theme)
	if err != nil {
		return usageError(err)
	}
	u := opened.sess.Usage
	sb := c.sandboxState(p)
	// extraCommands are the screen's commands besides the built-in ones:
	// the lists of MCP servers, hooks and sub-agents, and the person's own.
	extraCommands := func(custom []customcommands.Command) []ui.Command {
		return append([]ui.Command{ui.NoticeCommand("mcp", "list the MCP servers: status, tools and log", func() string {
			return describeMCP(servers.Servers(), slices.Contains(p.srcs.Ignored, "mcp_servers"))
		}), ui.NoticeCommand("lsp", "list the language servers: state, command and their errors", func() string {
			return describeLSP(langs.Servers(), slices.Contains(p.srcs.Ignored, "lsp"))
		}), ui.NoticeCommand("hooks", "list the hooks: by event, with where each came from", func() string {
			return describeHooks(p)
		}), ui.NoticeCommand("agents", "list the sub-agents the task tool can start, and where they come from", func() string {
			return describeAgents(a, agent.HomeDir())
		})}, append(screenCommands(p, custom), mcpPromptCommands(servers)...)...)
	}
	err = ui.Run(ctx, ui.Options{
		Sandbox:           ui.SandboxStatus{Mode: string(sb.Mode), Active: sb.Active, Jailed: sb.Jailed, Network: sb.Network, Note: sb.Note},
		Store:             st,
		SessionID:         opened.sess.ID,
		Private:           o.session.private,
		OnSession:         func(id string) { current = id },
		Client:            client,
		ThemeDir:          c.themeDir(),
		SchedulerInterval: p.cfg.SchedulerInterval.Std(),
		Skills:            skills,
		Notices:           withNote(append(append(append([]string(nil), p.srcs.Warnings...), in.Warnings...), opened.notes...), cps.note, append(cmdWarnings, a.SubAgentNotes()...)...),
		Agent:             a,
		Root:              p.root,
		Theme:             theme,
		AutoTheme:         auto,
		Model:             p.cfg.Model,
		Session:           opened.sess.Label(),
		History:           opened.history,
		Usage:             u,
		ExplainError:      func(err error) error { return c.explainModelError(p, err) },
		Rewinder:          func(id string) *rewind.Rewinder { return cps.rewinder(st, id) },
		Alerts:            alerts,
		AskServers:        servers.SetElicitor,
		OpenURL:           c.openPage,
		Commands:          extraCommands(custom),
		// The command files are read again when the / list opens, so one
		// added or changed while pincer runs is there without a restart.
		ReloadCommands: func() ([]ui.Command, []string) {
			custom, warnings := c.customCommands(p)
			return extraCommands(custom), warnings
		},
	})
	c.sayHowToResume(st, current)
	return err
}

// resumeStore is what sayHowToResume needs of the session store.
type resumeStore interface {
	Get(ref string) (session.Session, error)
	Delete(ref string) error
}

// sayHowToResume prints, once the screen has closed, the command that
// resumes session id, or removes the session when nothing was said in it.
// A store that fails is reported, never ignored.
func (c *cli) sayHowToResume(st resumeStore, id string) {
	s, err := st.Get(id)
	switch {
	case err != nil:
		fmt.Fprintf(c.stderr, "pincer: could not read the session to say how to resume it: %v\n", err)
	case s.MessageCount > 0:
		fmt.Fprintf(c.stdout, "Resume this session with: %s\n", safetext.LineOf(resumeHint(s)))
	default:
		// Nothing was said: do not keep an empty session.
		if err := st.Delete(s.ID); err != nil {
			fmt.Fprintf(c.stderr, "pincer: could not remove the empty session %s: %v\n", safetext.LineOf(s.Label()), err)
		}
	}
}

// pickTheme finds the configured theme: "auto" follows the terminal's
// background, a built-in name, or a theme file in the config directory
// (themes/NAME.json). Load checks the name the same way first (see
// themeProblem), so an error here means the file changed meanwhile.
func (c *cli) pickTheme(name string) (themes.Theme, bool, error) {
	th, auto, problem := c.findTheme(name)
	if problem != "" {
		return themes.Theme{}, false, fmt.Errorf("theme %q, %s", name, problem)
	}
	return th, auto, nil
}

// findTheme looks a theme name up; problem says why it cannot be used,
// as a clause that follows the name.
func (c *cli) findTheme(name string) (th themes.Theme, auto bool, problem string) {
	if name == "" || name == "auto" {
		return themes.Dark(), true, ""
	}
	if th, ok := themes.Lookup(name); ok {
		return th, false, ""
	}
	path := filepath.Join(c.themeDir(), name+".json")
	th, err := themes.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return th, false, fmt.Sprintf("which is not a built-in theme, and there is no theme file %s", path)
	case err != nil:
		return th, false, fmt.Sprintf("whose theme file cannot be used (%v)", err)
	}
	return th, false, ""
}

// themeProblem is config.LoadOptions.CheckTheme: the check pickTheme
// makes, with what to write instead.
func (c *cli) themeProblem(name string) (problem, want string) {
	if _, _, problem = c.findTheme(name); problem == "" {
		return "", ""
	}
	var names []string
	for _, th := range themes.Builtin() {
		names = append(names, th.Name)
	}
	return problem, fmt.Sprintf(`"auto", a built-in theme (%s) or the name of a theme file in %s`, strings.Join(names, ", "), c.themeDir())
}

// themeDir is where the person's theme files live: themes/ next to the user
// config file.
func (c *cli) themeDir() string {
	return filepath.Join(filepath.Dir(config.UserConfigPath(c.getenv)), "themes")
}

// screenGCPercent is the garbage collector's target for the full screen:
// the heap may grow half again over what is live between collections
// instead of doubling. The screen lives for hours beside an editor, and
// the heap an answer streams through is small (under 10 MB): at 50 a
// streamed answer peaks about 4 MB lower in resident memory. The turn's
// CPU stays the same (BenchmarkScreenStreamCost): the collections that
// come more often cost about what the page faults of a larger heap did.
const screenGCPercent = 50

// screenGC sets the full screen's collector target, unless the person
// set GOGC themselves.
func screenGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(screenGCPercent)
	}
}
