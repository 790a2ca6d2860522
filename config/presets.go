package config

import (
	"fmt"
	"strings"
)

// Preset is a named provider: where its OpenAI-compatible API lives, which
// environment variable holds its key, and a model to use when none is
// configured. Choosing a preset fills base_url, api_key_env and model;
// any of them can still be set at any layer.
type Preset struct {
	Name    string
	Title   string // human name for help text
	BaseURL string
	// KeyEnv names the environment variable holding the key; empty for
	// servers that need none.
	KeyEnv string
	// DefaultModel is used when no model is configured; empty means the
	// person must choose one (or, for local servers, the first listed).
	DefaultModel string
	// Local servers run on this machine, need no key, and may leave the
	// model empty (pincer then asks the server which models it has).
	Local bool
	// Models are a few well-known names, for help text only; the provider
	// may serve others and retire these.
	Models []string
	// Note is extra help, such as other regional endpoints.
	Note string
	// Windows are the documented context windows of well-known models, in
	// tokens: pincer budgets for them without asking the server, which
	// does not say.
	Windows map[string]int
}

// KnownWindow is the documented context window of the configured model on
// the configured provider, or 0 when the preset does not know it.
func (c Config) KnownWindow() int {
	p, ok := LookupPreset(c.Provider)
	if !ok {
		return 0
	}
	return p.Windows[c.Model]
}

// Custom is the preset name for any other OpenAI-compatible server; it
// needs base_url.
const Custom = "custom"

// Presets returns the built-in providers in the order help text lists them.
// The slice is new on every call, so callers may change it.
func Presets() []Preset {
	return []Preset{
		{
			Name: "openai", Title: "OpenAI",
			BaseURL: "https://api.openai.com/v1", KeyEnv: "OPENAI_API_KEY",
			DefaultModel: "gpt-5-mini",
			Models:       []string{"gpt-5-mini", "gpt-5", "gpt-4.1", "gpt-4.1-mini"},
			Windows:      map[string]int{"gpt-5-mini": 400_000, "gpt-5": 400_000, "gpt-4.1": 1_047_576, "gpt-4.1-mini": 1_047_576},
		},
		{
			Name: "deepseek", Title: "DeepSeek",
			BaseURL: "https://api.deepseek.com/v1", KeyEnv: "DEEPSEEK_API_KEY",
			DefaultModel: "deepseek-v4-flash",
			Models:       []string{"deepseek-v4-flash", "deepseek-v4-pro"},
			Windows:      map[string]int{"deepseek-chat": 131_072, "deepseek-reasoner": 131_072},
		},
		{
			Name: "dashscope", Title: "Alibaba Cloud DashScope (Qwen)",
			BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", KeyEnv: "DASHSCOPE_API_KEY",
			DefaultModel: "qwen-plus",
			Models:       []string{"qwen-plus", "qwen3-coder-plus", "qwen3-max"},
			Windows:      map[string]int{"qwen-plus": 131_072, "qwen3-coder-plus": 1_048_576, "qwen3-max": 262_144},
			Note:         "mainland China (Beijing) endpoint; outside China set base_url to https://dashscope-intl.aliyuncs.com/compatible-mode/v1 (Singapore) with a key from that region",
		},
		{
			Name: "ollama", Title: "Ollama (local)",
			BaseURL: "http://localhost:11434/v1", Local: true,
			Models: []string{"qwen3", "llama3.2", "gpt-oss:20b"},
			Note:   "start it with `ollama serve` and fetch a model with `ollama pull`",
		},
		{
			Name: "lmstudio", Title: "LM Studio (local)",
			BaseURL: "http://localhost:1234/v1", Local: true,
			Note: "start the server in LM Studio's Developer tab or with `lms server start`",
		},
		{
			Name: "vllm", Title: "vLLM (local)",
			BaseURL: "http://localhost:8000/v1", KeyEnv: "VLLM_API_KEY", Local: true,
			Note: "VLLM_API_KEY is needed only when the server was started with --api-key",
		},
		{
			Name: "openrouter", Title: "OpenRouter",
			BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY",
			Models: []string{"openai/gpt-5-mini", "qwen/qwen3-coder"},
			Note:   "model names carry the vendor, as in openai/gpt-5-mini",
		},
		{
			Name: "groq", Title: "Groq",
			BaseURL: "https://api.groq.com/openai/v1", KeyEnv: "GROQ_API_KEY",
			DefaultModel: "openai/gpt-oss-120b",
			Models:       []string{"openai/gpt-oss-120b", "llama-3.3-70b-versatile"},
			Windows:      map[string]int{"openai/gpt-oss-120b": 131_072, "llama-3.3-70b-versatile": 131_072},
		},
		{
			Name: "mimo", Title: "Xiaomi MiMo",
			BaseURL: "https://api.xiaomimimo.com/v1", KeyEnv: "MIMO_API_KEY",
			DefaultModel: "mimo-v2.5-pro",
			Models:       []string{"mimo-v2.5-pro", "mimo-v2.5", "mimo-v2-flash"},
			Note:         "Token Plan subscribers use the base URL and key shown on their subscription page",
		},
		{
			Name: Custom, Title: "any OpenAI-compatible server",
			Note: "set base_url (and api_key_env if it needs a key)",
		},
	}
}

// LookupPreset returns the preset with that exact name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range Presets() {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// presetNames lists the preset names in order.
func presetNames() []string {
	ps := Presets()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}

// ProviderHelp returns how to choose a provider, one preset per line, for
// --help and for the message shown when no provider is configured and the
// local Ollama does not answer.
func ProviderHelp() string { return ProviderHelpFor("~/.config/pincer/config.json") }

// ProviderHelpFor is ProviderHelp naming the user config file as path:
// the real one (see ShownUserConfigPath) when the message is for a person
// whose XDG_CONFIG_HOME may point elsewhere.
func ProviderHelpFor(path string) string {
	var b strings.Builder
	b.WriteString(`Choose a provider with "provider" in ` + path + `, PINCER_PROVIDER or --provider:` + "\n")
	for _, p := range Presets() {
		fmt.Fprintf(&b, "  %-11s %s", p.Name, p.Title)
		if p.BaseURL != "" {
			fmt.Fprintf(&b, ": %s", p.BaseURL)
		}
		if p.KeyEnv != "" {
			fmt.Fprintf(&b, ", key in %s", p.KeyEnv)
		}
		if len(p.Models) > 0 {
			fmt.Fprintf(&b, "; models such as %s", strings.Join(p.Models, ", "))
		}
		if p.Note != "" {
			fmt.Fprintf(&b, "; %s", p.Note)
		}
		b.WriteString("\n")
	}
	return b.String()
}
