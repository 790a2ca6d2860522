package cli

import (
	"github.com/spf13/pflag"

	"pincer/config"
	"pincer/ui/headless"
)

// The flag groups below are the flags several commands share. Each
// command keeps its own options type (tuiOptions, runOptions, …) holding
// only the groups it takes, so a helper of one command cannot read
// another command's flags, and a command's help lists exactly its own.
// A group registers its flags on the command's flag set and remembers it,
// so that it knows which flags the person gave; config.Load checks the
// values and names the flag in its error.

// flagGroup is a group of flags that override the configuration.
type flagGroup interface {
	apply(ov *config.Overrides)
}

// overridesOf collects the configuration overrides the given groups'
// flags make: only the flags the person gave.
func overridesOf(groups ...flagGroup) config.Overrides {
	var ov config.Overrides
	for _, g := range groups {
		g.apply(&ov)
	}
	return ov
}

// given reports whether the flag name was given on the command line of
// the flag set f (nil when the group was never registered).
func given(f *pflag.FlagSet, name string) bool {
	return f != nil && f.Changed(name)
}

// modelFlags choose the model and its limits for the commands that talk
// to it.
type modelFlags struct {
	provider      string
	baseURL       string
	model         string
	maxIterations int
	contextWindow int
	set           *pflag.FlagSet
}

func (m *modelFlags) register(f *pflag.FlagSet) {
	m.set = f
	f.StringVar(&m.provider, "provider", "", "provider preset: openai, deepseek, dashscope, ollama, lmstudio, vllm, openrouter, groq, mimo, custom")
	f.StringVar(&m.baseURL, "base-url", "", "base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1")
	f.StringVarP(&m.model, "model", "m", "", "model name, as the server knows it")
	f.IntVar(&m.maxIterations, "max-iterations", 0, "model requests with tools per prompt before the model must sum up (default 30)")
	f.IntVar(&m.contextWindow, "context-window", 0, "tokens the model accepts; older turns are compressed at 80% (default 30000)")
}

func (m *modelFlags) apply(ov *config.Overrides) {
	if given(m.set, "provider") {
		ov.Provider = &m.provider
	}
	if given(m.set, "base-url") {
		ov.BaseURL = &m.baseURL
	}
	if given(m.set, "model") {
		ov.Model = &m.model
	}
	if given(m.set, "max-iterations") {
		ov.MaxIterations = &m.maxIterations
	}
	if given(m.set, "context-window") {
		ov.ContextWindow = &m.contextWindow
	}
}

// modelGiven reports whether --model was given: it then wins over the
// model a resumed session or a custom command asks for.
func (m *modelFlags) modelGiven() bool { return given(m.set, "model") }

// themeFlag is --theme, for the commands that draw or show the theme.
type themeFlag struct {
	theme string
	set   *pflag.FlagSet
}

func (t *themeFlag) register(f *pflag.FlagSet) {
	t.set = f
	f.StringVar(&t.theme, "theme", "", "colour theme")
}

func (t *themeFlag) apply(ov *config.Overrides) {
	if given(t.set, "theme") {
		ov.Theme = &t.theme
	}
}

// sandboxFlag is --sandbox, for the commands that run the model's
// commands (or show how they would be jailed).
type sandboxFlag struct {
	mode string
	set  *pflag.FlagSet
}

func (s *sandboxFlag) register(f *pflag.FlagSet) {
	s.set = f
	f.StringVar(&s.mode, "sandbox", "", "how commands are contained: workspace (write only the project; default), read-only, or off")
}

func (s *sandboxFlag) apply(ov *config.Overrides) {
	if given(s.set, "sandbox") {
		ov.Sandbox = &s.mode
	}
}

// approvalFlags say what a run without anyone to ask approves: pincer run
// and the scheduler (pincer tasks run).
type approvalFlags struct {
	yes        bool
	approveAll bool
	// allowSchedule lets the model create scheduled tasks, which --yes
	// does not approve.
	allowSchedule bool
}

// register adds the flags; the commands word --yes and --allow-schedule
// for what they run (one prompt, or tasks).
func (a *approvalFlags) register(f *pflag.FlagSet, yesHelp, scheduleHelp string) {
	f.BoolVarP(&a.yes, "yes", "y", false, yesHelp)
	f.BoolVar(&a.approveAll, "dangerously-approve-all", false, "approve everything, dangerous commands included")
	f.BoolVar(&a.allowSchedule, "allow-schedule", false, scheduleHelp)
}

// policy is the headless approver's policy the flags give.
func (a approvalFlags) policy() headless.Policy {
	return headless.Policy{Yes: a.yes, ApproveAll: a.approveAll, AllowSchedule: a.allowSchedule}
}
