package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"

	xterm "github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"pincer/agent/llm"
	"pincer/config"
	"pincer/themes"
	"pincer/ui/setup"
)

// firstRun walks the person through choosing a provider when none is
// configured and no local Ollama answers, saves the choice to the user
// config file (mode 0600), and loads the project again with it. It returns
// false when the person left without saving.
func (c *cli) firstRun(cmd *cobra.Command, p *project, ov config.Overrides) (*project, bool, error) {
	ps := config.Presets()
	presets := make([]setup.Preset, len(ps))
	for i, pr := range ps {
		presets[i] = setup.Preset{Name: pr.Name, Title: pr.Title, BaseURL: pr.BaseURL, KeyEnv: pr.KeyEnv, DefaultModel: pr.DefaultModel, Local: pr.Local}
	}
	path := config.UserConfigPath(c.getenv)
	if path == "" {
		return nil, false, usageError(errors.New("cannot tell where the user config file goes; set XDG_CONFIG_HOME or HOME, or PINCER_CONFIG"))
	}
	theme, _, _ := c.pickTheme(p.cfg.Theme)
	if theme.Name == "" {
		theme = themes.Dark()
	}
	r, saved, err := setup.Run(cmd.Context(), setup.Options{
		Presets:    presets,
		Getenv:     c.getenv,
		ConfigPath: path,
		Theme:      theme,
		ListModels: func(ctx context.Context, base, key string) ([]string, error) {
			return llm.ListModels(ctx, llm.ClientOptions{BaseURL: base, APIKey: key})
		},
	})
	if err != nil || !saved {
		return nil, false, err
	}
	err = config.SaveUser(path, func(f *config.FileConfig) {
		f.Provider, f.Model = config.Ptr(r.Provider), config.Ptr(r.Model)
		f.BaseURL = nil
		if pr, ok := config.LookupPreset(r.Provider); !ok || pr.BaseURL != r.BaseURL {
			f.BaseURL = config.Ptr(r.BaseURL)
		}
		switch {
		case r.APIKey != "":
			f.APIKey, f.APIKeyEnv = config.Ptr(r.APIKey), nil
		case r.APIKeyEnv != "":
			f.APIKeyEnv, f.APIKey = config.Ptr(r.APIKeyEnv), nil
		}
	})
	if err != nil {
		return nil, false, fmt.Errorf("save the configuration to %s: %w", path, err)
	}
	fmt.Fprintf(c.stderr, "pincer: saved %s (provider %s, model %s)\n", path, r.Provider, r.Model)
	np, err := c.loadProjectAt(c.cwd, ov)
	if err != nil {
		return nil, false, err
	}
	return np, true, nil
}

// canRunSetup reports whether the setup screen can be shown: standard input
// and output are a terminal.
func (c *cli) canRunSetup() bool {
	in, ok1 := c.stdin.(*os.File)
	out, ok2 := c.stdout.(*os.File)
	return ok1 && ok2 && xterm.IsTerminal(in.Fd()) && xterm.IsTerminal(out.Fd())
}

// checkScreenStreams refuses to start the screen where it cannot work:
// text piped in (the screen reads keys from the terminal, so the text
// would be silently lost) or no terminal at all.
func (c *cli) checkScreenStreams() error {
	in, ok := c.stdin.(*os.File)
	if !ok {
		return nil // a test's streams
	}
	fi, err := in.Stat()
	if err != nil {
		return nil
	}
	// A real terminal, not any character device: /dev/null is one too.
	return screenStreamsError(fi.Mode(), fi.Size(), xterm.IsTerminal(in.Fd()), func() bool {
		if runtime.GOOS == "windows" {
			return true // the console is found otherwise there
		}
		f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return false
		}
		f.Close()
		return true
	})
}

// screenStreamsError is checkScreenStreams' decision, from standard
// input's mode and size, whether it is a terminal, and whether the
// controlling terminal can be opened.
func screenStreamsError(mode os.FileMode, size int64, inTerminal bool, ttyOpens func() bool) error {
	if inTerminal {
		return nil
	}
	if mode&os.ModeNamedPipe != 0 || (mode.IsRegular() && size > 0) {
		return usageError(errors.New(`the screen reads its keys from the terminal, so text piped into pincer would be lost; send it with pincer run (… | pincer run "PROMPT"), or start pincer without the pipe`))
	}
	if !ttyOpens() {
		return usageError(errors.New(`the screen needs a terminal and none is attached; run it in a terminal, or use pincer run "PROMPT" for scripts and CI`))
	}
	return nil
}
