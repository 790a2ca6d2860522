package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/lsp"
	sbx "pincer/tools/sandbox"
)

// lspServers are the language servers for p: pincer's defaults with the
// configured ones laid over them.
func lspServers(p *project) map[string]lsp.ServerConfig {
	configured := map[string]lsp.ServerConfig{}
	for lang, s := range p.cfg.LSP {
		configured[lang] = lsp.ServerConfig{
			Command: s.Command, Args: s.Args, Env: s.Env, Extensions: s.Extensions, Disabled: s.Disabled,
			InitializationOptions: []byte(s.InitializationOptions), Origin: p.srcs.Of("lsp").String(),
		}
	}
	return lsp.Merge(lsp.Defaults(), configured)
}

// lspManager runs the language servers of p, each in the contained jail
// (the project writable, the toolchain caches as copies, no network
// unless sandbox_network is yours), or unjailed with --sandbox off.
// onChange, when set, is called when a server's state or its diagnostics
// change.
func (c *cli) lspManager(p *project, onChange func()) *lsp.Manager {
	return lsp.New(lsp.Options{
		Root:     p.root,
		Servers:  lspServers(p),
		Start:    c.lspStarter(p),
		Environ:  lspEnviron(os.Environ()),
		DropEnv:  c.keyVariables(p),
		OnChange: onChange,
	})
}

// lspEnviron is environ less the variables named like secrets: servers
// start without asking, like commands in the contained jail, and get
// none of them either.
func lspEnviron(environ []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return safety.SecretVarName(k)
	})
}

// lspStarter starts server programs in the jail of the contained profile,
// with the servers' own caches (gopls's) as copies too.
func (c *cli) lspStarter(p *project) lsp.Starter {
	st := c.sandboxState(p)
	if !st.Active || st.Helper == "" {
		return lsp.ExecStarter
	}
	spec, ok := st.specs(st.policy)[safety.ProfileContained]
	if !ok {
		return lsp.ExecStarter
	}
	spec.Name = "language servers"
	if st.home != "" {
		cache := c.getenv("XDG_CACHE_HOME")
		if cache == "" || !filepath.IsAbs(cache) {
			cache = filepath.Join(st.home, ".cache")
		}
		spec.Copies = append(spec.Copies, usableDirs([]string{filepath.Join(cache, "gopls")}, st.home)...)
	}
	launcher := sbx.NewLauncher(st.Helper, spec)
	c.mu.Lock()
	c.launchers = append(c.launchers, launcher)
	c.mu.Unlock()
	return func(cmd lsp.Command) (*lsp.Process, error) {
		return startJailed(launcher, cmd)
	}
}

// startJailed starts cmd through launcher with pipes for its standard
// streams.
func startJailed(l *sbx.Launcher, cmd lsp.Command) (*lsp.Process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, err
	}
	proc, err := l.Start(sbx.Request{Path: cmd.Path, Argv: append([]string{cmd.Path}, cmd.Args...), Env: cmd.Env, Dir: cmd.Dir, Stdin: inR, Stdout: outW, Stderr: errW})
	// The child has its ends now; pincer keeps only its own.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s in the jail: %w", filepath.Base(cmd.Path), err)
	}
	return &lsp.Process{
		Stdin: inW, Stdout: outR, Stderr: errR,
		Wait: func() error { _, err := proc.Wait(); return err },
		Kill: proc.Kill,
	}, nil
}

// describeLSP lists the language servers as /lsp and `pincer lsp` show
// them: one line per language with its state and command, then the
// running servers' problems. What servers said is foreign: every part
// goes through the sanitiser.
func describeLSP(infos []lsp.Info, ignored bool) string {
	var b strings.Builder
	b.WriteString("Language servers (started when a file of their language is first used; they run in the command jail):\n")
	for _, in := range infos {
		cmd := strings.Join(in.Command, " ")
		line := fmt.Sprintf("  %-11s %-9s %s", in.Language, in.State, cmd)
		if in.State == lsp.StateReady {
			line += fmt.Sprintf(" · %d file(s) open", in.Open)
		}
		if in.Restarts > 0 {
			line += fmt.Sprintf(" · %d failure(s)", in.Restarts)
		}
		if in.Reason != "" && in.State != lsp.StateReady {
			line += " · " + in.Reason
		}
		b.WriteString(safetext.LineOf(line) + "\n")
		for i, it := range in.Problems {
			if i == 20 {
				fmt.Fprintf(&b, "      … %d more\n", len(in.Problems)-i)
				break
			}
			b.WriteString("      " + safetext.LineOf(it.String()) + "\n")
		}
	}
	if ignored {
		b.WriteString("The project's .pincer.json names language servers; they are ignored until you trust the project with 'pincer trust'.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// lspPlansJSON is `pincer lsp --json`.
func lspPlansJSON(plans []lsp.Plan) ([]byte, error) {
	return json.MarshalIndent(plans, "", "  ")
}

// lspTools offers the navigation tools while a language server runs: nil
// before the first one is ready, so a project without one pays nothing.
func lspTools(m *lsp.Manager, root string) func() []tools.Tool {
	if m == nil {
		return nil
	}
	nav := lsp.Tools(m, root)
	return func() []tools.Tool {
		if !m.AnyRunning() {
			return nil
		}
		return nav
	}
}

// dynamicTools joins the sources of tools that come and go.
func dynamicTools(sources ...func() []tools.Tool) func() []tools.Tool {
	var live []func() []tools.Tool
	for _, s := range sources {
		if s != nil {
			live = append(live, s)
		}
	}
	if len(live) == 0 {
		return nil
	}
	return func() []tools.Tool {
		var out []tools.Tool
		for _, s := range live {
			out = append(out, s()...)
		}
		return out
	}
}
