package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"pincer/agent"
	"pincer/agent/llm"
	"pincer/agent/prompts"
	"pincer/config"
	"pincer/internal/serverfacts"
	"pincer/safety"
	"pincer/session"
	"pincer/tools"
	"pincer/tools/lsp"
	"pincer/tools/mcp"
	"pincer/tools/sessiontools"
	"pincer/tools/todo"
)

// project is what a command that talks to the model needs: the directory,
// the merged configuration and where it came from.
type project struct {
	root string
	cfg  config.Config
	srcs config.Sources
	key  string
	// trusted is whether the person trusts the project's files that need
	// it (see projectHash): its .pincer.json settings, its MCP servers,
	// its commands' "!" lines and its agents.
	trusted bool
	// configuredWindow is context_window as configured (default or set);
	// once the server was asked, cfg.ContextWindow holds the window in
	// force (see learnWindow). 0 until then.
	configuredWindow int
}

// learnWindow asks the model's server for its window before the prompt is
// assembled, and makes cfg.ContextWindow the window pincer budgets for,
// so what is chosen from the window (the prompt profile) fits the model.
// It waits at most llm.WindowProbeTimeout; the client caches the answer
// for the session, and the agent asks again before each turn (Ollama
// reports the real window once the model is loaded).
func (p *project) learnWindow(client *llm.Client) (agent.Budget, llm.Window) {
	if p.configuredWindow == 0 {
		p.configuredWindow = p.cfg.ContextWindow
	}
	b := agent.Budget{
		ContextWindow: p.configuredWindow,
		CapWindow:     p.srcs.Of("context_window").Explicit(),
		CompressAt:    p.cfg.CompressAt,
		KeepRecent:    p.cfg.KeepRecent,
	}
	if client.ModelName() == "" {
		return b, llm.Window{}
	}
	w := windowProbe(p, client)(context.Background(), "")
	if tokens, _ := agent.WindowFor(b, w); tokens > 0 {
		p.cfg.ContextWindow = tokens
	}
	return b, w
}

// loadProject resolves the project directory (--cwd) and loads the
// configuration, with the flags of the command's groups on top (none for
// a command that overrides nothing).
func (c *cli) loadProject(groups ...flagGroup) (*project, error) {
	return c.loadProjectAt(c.cwd, overridesOf(groups...))
}

// loadProjectAt is loadProject for a given directory ("" for the current
// one) and the overrides the groups gave (overridesOf).
func (c *cli) loadProjectAt(root string, ov config.Overrides) (*project, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, usageError(fmt.Errorf("cannot tell the current directory: %w", err))
		}
		root = wd
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, usageError(fmt.Errorf("project directory %q: %w", root, err))
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, usageError(fmt.Errorf("project directory %s does not exist or is not a directory; pass an existing one with --cwd", abs))
	}
	trusted, trustErr := c.trusted(abs)
	cfg, srcs, err := config.Load(config.LoadOptions{ProjectRoot: abs, Getenv: c.getenv, Overrides: ov, DistrustProject: !trusted, CheckTheme: c.themeProblem})
	if err != nil {
		return nil, usageError(err)
	}
	if trustErr != nil {
		srcs.Warnings = append(srcs.Warnings, trustErr.Error())
	}
	for _, w := range srcs.Warnings {
		fmt.Fprintf(c.stderr, "pincer: warning: %s\n", w)
	}
	return &project{root: abs, cfg: cfg, srcs: srcs, key: cfg.ResolvedAPIKey(c.getenv), trusted: trusted && trustErr == nil}, nil
}

// profile is the prompt profile: the configured one, or the one
// agent.ProfileFor chooses for the context window. (A window learnt from
// the server belongs here too, once known.)
func (p *project) profile() agent.Profile {
	return agent.ChooseProfile(p.cfg.PromptProfile, p.cfg.ContextWindow)
}

// clientOptions are the model client's options from the configuration.
func (p *project) clientOptions() llm.ClientOptions {
	o := llm.ClientOptions{
		BaseURL:     p.cfg.BaseURL,
		APIKey:      p.key,
		Model:       p.cfg.Model,
		Temperature: p.cfg.Temperature,
		MaxRetries:  p.cfg.MaxRetries,
		IdleTimeout: p.cfg.IdleTimeout.Std(),

		FirstByteTimeout:  p.cfg.FirstByteTimeout.Std(),
		SilentRetryBudget: p.cfg.SilentRetryBudget.Std(),
		Secrets:           p.cfg.Secrets(),
		MaxToolArgs:       p.cfg.ToolArgsMaxKB << 10,
	}
	if preset, ok := config.LookupPreset(p.cfg.Provider); ok && !preset.Local && preset.Name != config.Custom {
		// A hosted service, unless base_url sends the preset elsewhere.
		o.Hosted = !p.srcs.Of("base_url").Explicit()
	}
	// In the config 0 means none; in the client 0 means its default.
	if o.MaxRetries == 0 {
		o.MaxRetries = -1
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = -1
	}
	if o.FirstByteTimeout == 0 {
		o.FirstByteTimeout = -1
	}
	if o.SilentRetryBudget == 0 {
		o.SilentRetryBudget = -1
	}
	return o
}

// pickModel fills in the model on a local server that was configured
// without one: the first model the server lists.
func (p *project) pickModel(ctx context.Context) error {
	if !p.cfg.NeedsModelDiscovery() {
		return nil // config.Load refuses an empty model everywhere else
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	names, err := llm.ListModels(ctx, p.clientOptions())
	if err != nil {
		return p.explainUnreachable(err)
	}
	if len(names) == 0 {
		return usageError(fmt.Errorf("the server at %s lists no models; pull one (for Ollama: ollama pull qwen3) or pass --model", config.RedactURL(p.cfg.BaseURL)))
	}
	p.cfg.Model = names[0]
	return nil
}

// explainUnreachable turns "cannot connect" into advice. When no provider
// was configured, the person may not know pincer defaulted to a local
// Ollama, so the message says how to configure one.
func (p *project) explainUnreachable(err error) error {
	if !errors.Is(err, syscall.ECONNREFUSED) && !strings.Contains(err.Error(), "connection refused") {
		return err
	}
	if !p.srcs.ProviderConfigured {
		return usageError(fmt.Errorf("no model provider is configured, and nothing answers at %s (a local Ollama, the default); "+
			"start Ollama, or configure a provider, for example: export PINCER_PROVIDER=openai OPENAI_API_KEY=sk-... "+
			"(or write %s; see 'pincer config --help')", config.RedactURL(p.cfg.BaseURL), config.UserConfigPath(os.Getenv)))
	}
	return fmt.Errorf("nothing answers at %s; is the %s server running? (%w)", config.RedactURL(p.cfg.BaseURL), p.cfg.Provider, err)
}

// agentSetup is what an agent is wired with besides the configuration.
type agentSetup struct {
	approver agent.Approver
	recorder agent.Recorder
	// store, when open, adds the recall and schedule_task tools (and
	// auto_recall); current names the session in use.
	store   *session.Store
	current func() string
	// checkpoints, when set, records the files around each turn.
	checkpoints agent.Checkpointer
	// mcp, when set, offers the tools of its servers that are ready.
	mcp *mcp.Manager
	// recallWithin, when set, replaces the configured recall scope (a
	// Telegram chat's, held to its own sessions).
	recallWithin *sessiontools.RecallScope
	// chat is the Telegram chat the agent answers (0 elsewhere): the tasks
	// its model schedules report there only.
	chat int64
	// buffers, when set, is the editor whose buffers the file tools read
	// and write (pincer acp).
	buffers tools.Buffers
	// lsp, when set, runs the language servers whose diagnostics follow
	// each edit.
	lsp *lsp.Manager
	// check, when set, is the check run after a turn that changed files.
	check *agent.CheckOptions
	// offline makes an agent that is only looked at, never run (pincer
	// prompt --tokens): it needs no API key.
	offline bool
}

// newAgent wires the model client, the tools, the safety policy and the
// system prompt into an agent, and returns the client too (for /model).
func (c *cli) newAgent(p *project, s agentSetup) (*agent.Agent, *llm.Client, error) {
	if err := p.cfg.CheckAPIKey(c.getenv); err != nil && !s.offline {
		return nil, nil, usageError(err)
	}
	client, err := llm.NewClient(p.clientOptions())
	if err != nil {
		return nil, nil, usageError(err)
	}
	budget, learned := p.learnWindow(client)
	cls, err := c.classifier(p)
	if err != nil {
		return nil, nil, err
	}
	topts := tools.Options{Root: p.root, CommandTimeout: p.cfg.CommandTimeout.Std(), ReadLog: tools.NewReadLog(),
		ReadCheck: agent.ReadPolicy(cls, agent.HomeDir(), c.ownFiles(p))}
	topts.Sandbox, topts.DropEnv = c.commandSandbox(c.sandboxState(p)), c.keyVariables(p)
	topts.WebTimeout = p.cfg.WebTimeout.Std()
	topts.Buffers = s.buffers
	if topts.CommandTimeout == 0 {
		topts.CommandTimeout = tools.MaxCommandTimeout // 0 in the config means no limit of its own
	}
	all := append(tools.Builtins(topts), todo.Tool())
	var recall agent.Recaller
	if s.store != nil {
		current := s.current
		if current == nil {
			current = func() string { return "" }
		}
		scope := sessiontools.RecallScope{Dir: p.root, AllProjects: p.cfg.RecallScope == "all"}
		if s.recallWithin != nil {
			scope = *s.recallWithin
		}
		rt, err := sessiontools.RecallTool(s.store, scope, current)
		if err != nil {
			return nil, nil, err
		}
		sched, err := sessiontools.ScheduleTool(s.store, sessiontools.TaskPlace{Dir: p.root, Chat: s.chat}, current, time.Now)
		if err != nil {
			return nil, nil, err
		}
		remember, err := sessiontools.RememberTool(s.store, p.root)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, rt, sched, remember)
		if mode := agent.RecallMode(p.cfg.AutoRecall); mode != agent.RecallOff {
			recall = agent.StoreRecall{Store: s.store, Mode: mode, Scope: scope, Current: current}
		}
	}
	reg, err := tools.NewRegistry(all...)
	if err != nil {
		return nil, nil, fmt.Errorf("set up the tools: %w", err)
	}
	in, err := c.instructions(p)
	if err != nil {
		return nil, nil, err
	}
	env := agent.DetectEnvironment(p.root, topts.ShellPath(), time.Now())
	system := agent.SystemPrompt(agent.PromptParts{
		Agent:   in.Agent,
		Skills:  in.Skills,
		Project: in.Project,
		Env:     env,
	})
	// With prompt_profile auto, a window learned later may call for the
	// compact profile: its system prompt is made now, the same way.
	auto := agent.Profile(p.cfg.PromptProfile) != agent.ProfileFull && agent.Profile(p.cfg.PromptProfile) != agent.ProfileCompact
	compactSystem := ""
	if auto && p.profile() == agent.ProfileFull {
		agentMD, skillsMD := prompts.Defaults(string(agent.ProfileCompact))
		if cin, err := agent.LoadInstructions(agentMD, skillsMD, filepath.Dir(config.UserConfigPath(c.getenv)), p.root); err == nil {
			compactSystem = agent.SystemPrompt(agent.PromptParts{Agent: cin.Agent, Skills: cin.Skills, Project: cin.Project, Env: env})
		}
	}
	hks, err := hookRunner(p, c.keyVariables(p), s.current)
	if err != nil {
		return nil, nil, err
	}
	defs, defWarnings := agent.LoadAgentDefs(agent.AgentDirs(c.configDir(), p.root))
	defs, defWarnings = p.trustedAgents(defs, defWarnings)
	var resources agent.Resources
	if s.mcp != nil {
		resources = s.mcp // not a nil *mcp.Manager in an interface
	}
	a, err := agent.New(agent.Options{
		Resources:     resources,
		Model:         client,
		Tools:         reg,
		Safety:        cls,
		Approver:      s.approver,
		System:        system,
		Root:          p.root,
		Home:          agent.HomeDir(),
		Own:           c.ownFiles(p),
		MaxIterations: p.cfg.MaxIterations,
		Recorder:      s.recorder,
		Recall:        recall,
		Approvals:     safety.ApprovalMode(p.cfg.Approvals),
		Checkpoints:   s.checkpoints,
		DynamicTools:  dynamicTools(mcpTools(s.mcp), lspTools(s.lsp, p.root)),
		Hooks:         hks,
		SubAgents:     &agent.SubAgents{Agents: defs, Warnings: defWarnings, Context: agent.SubAgentContext(env, in.Project)},
		Diagnostics:   diagnostics(s.lsp),
		Check:         s.check,
		Profile:       p.profile(),
		ProfileAuto:   auto,
		CompactSystem: compactSystem,
		Price: func(model string) (float64, float64, bool) {
			if model == "" {
				model = client.ModelName()
			}
			price, ok := p.cfg.PriceOf(model)
			return price.Input, price.Output, ok
		},
		Window:          windowProbe(p, client),
		TextToolsMemory: c.textToolsMemory(p),
		Budget:          budget,
		Learned:         learned,
		CountTokens:     client.CountTokens,
	})
	return a, client, err
}

// textToolsMemory keeps, in the data directory, which models of the
// configured server write their calls as text (agent.TextToolsMemory),
// keyed by the base URL without credentials.
func (c *cli) textToolsMemory(p *project) agent.TextToolsMemory {
	f := serverfacts.File{Path: filepath.Join(filepath.Dir(c.storePath(p)), serverfacts.FileName)}
	return textToolsFile{facts: f, base: config.RedactURL(p.cfg.BaseURL)}
}

// textToolsFile is agent.TextToolsMemory over the facts file, for one
// server.
type textToolsFile struct {
	facts serverfacts.File
	base  string
}

func (m textToolsFile) TextTools(model string) (string, bool) {
	return m.facts.TextTools(m.base, model)
}

func (m textToolsFile) SetTextTools(model, reason string) error {
	return m.facts.SetTextTools(m.base, model, reason)
}

// windowProbe is the agent's Options.Window: the documented window of a
// well-known hosted model from its preset, else what the server says.
func windowProbe(p *project, client *llm.Client) func(ctx context.Context, model string) llm.Window {
	cfg := p.cfg
	return func(ctx context.Context, model string) llm.Window {
		if model == "" {
			model = client.ModelName()
		}
		cfg.Model = model
		if n := cfg.KnownWindow(); n > 0 {
			return llm.Window{Tokens: n, Source: "preset " + cfg.Provider}
		}
		return client.Window(ctx, model)
	}
}

// configDir is the directory of the person's config file, where their
// own commands and agents live; "" when it cannot be known.
func (c *cli) configDir() string {
	if path := config.UserConfigPath(c.getenv); path != "" {
		return filepath.Dir(path)
	}
	return ""
}

// ownFiles are pincer's own locations, which the path policy keeps the
// model from changing.
func (c *cli) ownFiles(p *project) safety.OwnFiles {
	store := c.storePath(p)
	own := safety.OwnFiles{
		DataDir:   filepath.Dir(store),
		Store:     store,
		TrustFile: c.trustPath(),
		ThemeDir:  c.themeDir(),
		// Hooks run outside the sandbox: the scripts they run from the
		// project are not the model's to change.
		HookScripts: hookScripts(configuredHooks(p), p.root),
	}
	if user := config.UserConfigPath(c.getenv); user != "" {
		own.ConfigDir = filepath.Dir(user)
	}
	if named := strings.TrimSpace(c.getenv(config.EnvConfig)); named != "" {
		if home := agent.HomeDir(); home != "" && strings.HasPrefix(named, "~/") {
			named = filepath.Join(home, named[2:])
		}
		if abs, err := filepath.Abs(named); err == nil {
			own.ConfigFile = abs
		}
	}
	return own
}

// classifier builds the safety classifier from the configured rules.
func (c *cli) classifier(p *project) (*safety.Classifier, error) {
	unknown := safety.UnknownConfirm
	if p.cfg.UnknownCommands == "safe" {
		unknown = safety.UnknownSafe
	}
	cls, err := safety.NewClassifier(safety.Rules{Allow: p.cfg.Allow, Deny: p.cfg.Deny, UnknownCommands: unknown})
	if err != nil {
		return nil, usageError(fmt.Errorf("config: %w", err))
	}
	// Globs and recursive reads are judged by what is on disk when the
	// command is classified, which is just before it runs.
	return cls.WithFiles(newDiskFiles(p.root, agent.HomeDir())).WithHome(agent.HomeDir()), nil
}

// instructions reads AGENT.md and SKILLS.md (built in for the prompt
// profile, and the person's own next to the user config file) and the
// project's instruction files.
func (c *cli) instructions(p *project) (agent.Instructions, error) {
	userDir := filepath.Dir(config.UserConfigPath(c.getenv))
	agentMD, skillsMD := prompts.Defaults(string(p.profile()))
	in, err := agent.LoadInstructions(agentMD, skillsMD, userDir, p.root)
	if err != nil {
		return in, usageError(err)
	}
	for _, w := range in.Warnings {
		fmt.Fprintf(c.stderr, "pincer: warning: %s\n", w)
	}
	return in, nil
}

// mcpTools is the agent's DynamicTools for the servers of m, or nil.
func mcpTools(m *mcp.Manager) func() []tools.Tool {
	if m == nil {
		return nil
	}
	return m.Tools
}

// diagnostics is the agent's Diagnostics for m, or nil (never a nil
// pointer in an interface).
func diagnostics(m *lsp.Manager) agent.Diagnostics {
	if m == nil {
		return nil
	}
	return m
}
