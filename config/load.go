package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// LoadOptions says where to look.
type LoadOptions struct {
	// ProjectRoot holds .pincer.json; empty means no project file.
	ProjectRoot string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Overrides are the flags the person gave.
	Overrides Overrides
	// DistrustProject leaves out the project file's settings that decide
	// where the API key goes or which commands run unasked (see
	// Sources.ProjectSensitive), with a warning naming each: a cloned
	// repository must not choose them until the person trusts it.
	DistrustProject bool
	// CheckTheme, when set, says why a theme name cannot be used (""
	// when it can) and what to write instead. Which themes exist is the
	// caller's to know (built in, or files in the person's theme folder);
	// checking here makes a bad theme a config error like any other, the
	// same for every command.
	CheckTheme func(name string) (problem, want string)
}

// loader carries what Load needs while it works.
type loader struct {
	getenv   func(string) string
	home     string
	userPath string // where the user file is (or would be), for fix hints
	ps       problems
	warnings []string
	// checkTheme is LoadOptions.CheckTheme.
	checkTheme func(name string) (problem, want string)
}

// tilde shortens a path under the home directory for messages.
func (ld *loader) tilde(path string) string { return tildePath(path, ld.home) }

// Load merges defaults < user file < project file < environment < flags
// into one Config, validates it, and reports where each value came from.
//
// The user file is $XDG_CONFIG_HOME/pincer/config.json (else
// ~/.config/pincer/config.json), or the file PINCER_CONFIG names, which
// must then exist. Missing user and project files are fine.
//
// On error, the returned *Error lists every problem found, each one
// sentence with the field, the value, its source and the fix. The Config
// and Sources are still returned with everything that could be merged, so
// `pincer config` can show them, but must not be used to run.
func Load(o LoadOptions) (Config, Sources, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	ld := &loader{getenv: getenv, home: homeDir(getenv), checkTheme: o.CheckTheme}
	userPath, named := UserConfigPath(getenv), false
	if p := strings.TrimSpace(getenv(EnvConfig)); p != "" {
		userPath, named = expandHome(p, ld.home), true
	}
	ld.userPath = userPath
	if ld.userPath == "" { // no home directory: still name the usual place in hints
		ld.userPath = "~/.config/pincer/config.json"
	}
	srcs := Sources{Fields: map[string]Source{}}
	var layers []layer
	if userPath != "" {
		if l, ok := ld.fileLayer(userPath, FromUserFile, named); ok {
			layers = append(layers, l)
			srcs.Files = append(srcs.Files, userPath)
		}
	}
	if o.ProjectRoot != "" {
		// .mcp.json sits below .pincer.json: a server named in both is
		// the one .pincer.json describes.
		mcpIgnored := false
		if l, ok := ld.mcpLayer(o.ProjectRoot); ok {
			if o.DistrustProject {
				mcpIgnored = true
				ld.warnings = append(ld.warnings, fmt.Sprintf("%s starts the MCP servers %s, programs the project chose; they start only once you trust this project with 'pincer trust'",
					ld.tilde(MCPConfigPath(o.ProjectRoot)), serverNames(l.values.MCPServers)))
			} else {
				layers = append(layers, l)
				srcs.Files = append(srcs.Files, MCPConfigPath(o.ProjectRoot))
			}
		}
		path := ProjectConfigPath(o.ProjectRoot)
		hooksIgnored := false
		if l, ok := ld.projectLayer(o.ProjectRoot); ok {
			if o.DistrustProject {
				if l.values.Hooks != nil {
					// Said on its own: hooks are programs, not a setting.
					ld.warnings = append(ld.warnings, fmt.Sprintf("%s sets hooks, commands the project chose to run around every turn; they do not run until you trust this project with 'pincer trust'",
						ld.tilde(path)))
					l.values.clear("hooks")
					delete(l.sources, "hooks")
					hooksIgnored = true
				}
				for _, f := range trustSensitiveFields() {
					if _, set := l.sources[f]; set {
						l.values.clear(f)
						delete(l.sources, f)
						srcs.Ignored = append(srcs.Ignored, f)
					}
				}
				srcs.Ignored = append(srcs.Ignored, ld.onlyStricter(&l, layers)...)
				if len(srcs.Ignored) > 0 {
					ld.warnings = append(ld.warnings, fmt.Sprintf("%s sets %s, which decide where your API key goes, which commands run without asking, where your sessions are kept, what recall brings from your other projects, or what you are shown a turn costs; they are ignored until you trust this project with 'pincer trust'",
						ld.tilde(path), strings.Join(srcs.Ignored, ", ")))
				}
				user, _ := merge(layers, map[string]Source{})
				srcs.Ignored = append(srcs.Ignored, ld.keepStricter(&l, user, path)...)
			}
			layers = append(layers, l)
			srcs.Files = append(srcs.Files, path)
		}
		if hooksIgnored {
			srcs.Ignored = append(srcs.Ignored, "hooks")
		}
		if mcpIgnored && !slices.Contains(srcs.Ignored, "mcp_servers") {
			srcs.Ignored = append(srcs.Ignored, "mcp_servers")
		}
	}
	layers = append(layers, envLayer(getenv), flagLayer(o.Overrides))

	c, providerAt := merge(layers, srcs.Fields)
	for _, l := range layers {
		for name := range l.values.MCPServers {
			if srcs.Servers == nil {
				srcs.Servers = map[string]Source{}
			}
			srcs.Servers[name] = l.sources["mcp_servers"] // a higher layer's server replaces one of the same name
		}
	}
	c.DataDir = expandHome(c.DataDir, ld.home)
	for i, w := range c.SandboxWritable {
		c.SandboxWritable[i] = expandHome(w, ld.home)
	}
	for i, w := range c.SandboxSockets {
		c.SandboxSockets[i] = expandHome(w, ld.home)
	}
	srcs.ProviderConfigured = ld.resolveProvider(&c, srcs.Fields, providerAt)
	ld.validate(c, srcs.Fields)
	if len(ld.ps) == 0 {
		c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	}
	srcs.Warnings = ld.warnings
	return c, srcs, ld.ps.err()
}

// providerSpecific are the fields that belong to one provider: a value
// set while one provider was chosen is dropped when a higher layer
// switches to another (so an OpenAI key is never sent to DeepSeek). The
// preset fills all but api_key.
var providerSpecific = []string{"base_url", "api_key_env", "api_key", "model"}

// merge applies the layers in order over the defaults, records each
// field's source in fields, and returns for each provider-specific field
// the provider that was in effect when it was set ("" when none was).
func merge(layers []layer, fields map[string]Source) (Config, map[string]string) {
	c := Defaults()
	for _, name := range FieldNames() {
		fields[name] = Source{Kind: FromDefault}
	}
	providerAt := map[string]string{}
	current := ""
	for _, l := range layers {
		if l.values.Provider != nil {
			current = *l.values.Provider
		}
		for _, name := range l.values.setFields() {
			l.values.applyTo(&c, name)
			fields[name] = l.sources[name]
			if slices.Contains(providerSpecific, name) {
				providerAt[name] = current
			}
		}
	}
	return c, providerAt
}

// resolveProvider settles the provider and fills what its preset gives,
// and reports whether a provider was configured at all.
//
// Rules: a base URL with no provider means custom; nothing at all means
// the local Ollama preset. The preset fills base_url, api_key_env and
// model unless a person set them, and a value (api_key too) set while
// another provider was chosen is replaced, since it belongs to that one.
// OPENAI_BASE_URL fills base_url for openai and custom when nothing else
// set it.
func (ld *loader) resolveProvider(c *Config, fields map[string]Source, providerAt map[string]string) bool {
	configured := fields["provider"].explicit()
	openaiBase := strings.TrimSpace(ld.getenv(EnvOpenAIBaseURL))
	if !configured {
		switch {
		case fields["base_url"].explicit():
			configured = true
		case openaiBase != "":
			c.BaseURL = openaiBase
			fields["base_url"] = Source{Kind: FromEnv, Name: EnvOpenAIBaseURL}
			configured = true
		}
		if configured {
			c.Provider = Custom
			fields["provider"] = Source{Kind: FromImplied, Name: "base_url"}
		} else {
			c.Provider = DefaultProvider
		}
	}
	p, known := LookupPreset(c.Provider)
	if !known {
		return configured // validate reports the name
	}
	for _, name := range providerSpecific {
		src := fields[name]
		was := providerAt[name]
		stale := src.explicit() && was != "" && was != c.Provider
		if src.explicit() && !stale {
			continue
		}
		value := presetValue(p, name)
		old := setString(c, name, value)
		if stale && name != "api_key_env" {
			what := fmt.Sprintf("%s %q", name, old)
			if name == "api_key" {
				what = name // never show the key
			}
			ld.warnings = append(ld.warnings, fmt.Sprintf("%s from %s was set for provider %q, so it is not used with provider %q from %s",
				what, ld.describe(src), was, c.Provider, ld.describe(fields["provider"])))
		}
		fields[name] = Source{Kind: FromDefault}
		if value != "" {
			fields[name] = Source{Kind: FromPreset, Name: p.Name}
		}
	}
	if !fields["base_url"].explicit() && openaiBase != "" && (c.Provider == "openai" || c.Provider == Custom) {
		c.BaseURL = openaiBase
		fields["base_url"] = Source{Kind: FromEnv, Name: EnvOpenAIBaseURL}
	}
	return configured
}

// presetValue is what a preset gives a provider-specific field.
func presetValue(p Preset, name string) string {
	switch name {
	case "base_url":
		return p.BaseURL
	case "api_key_env":
		return p.KeyEnv
	case "model":
		return p.DefaultModel
	}
	return ""
}

// setString sets one of the provider-specific string fields and returns
// the old value.
func setString(c *Config, name, value string) string {
	var old string
	switch name {
	case "base_url":
		old, c.BaseURL = c.BaseURL, value
	case "api_key_env":
		old, c.APIKeyEnv = c.APIKeyEnv, value
	case "api_key":
		old, c.APIKey = c.APIKey, value
	case "model":
		old, c.Model = c.Model, value
	}
	return old
}

// describe names a source for messages, with paths shortened.
func (ld *loader) describe(s Source) string {
	if s.isFile() {
		return ld.tilde(s.Name)
	}
	return s.String()
}

// onlyStricter drops the sandbox settings of an untrusted project file
// that would contain commands less than the layers below it do, and
// returns the fields it dropped: a cloned repository may tighten the
// sandbox, never loosen it.
func (ld *loader) onlyStricter(project *layer, below []layer) []string {
	mode, network := DefaultSandbox, true
	for _, l := range below {
		if l.values.Sandbox != nil {
			mode = *l.values.Sandbox
		}
		if l.values.SandboxNetwork != nil {
			network = *l.values.SandboxNetwork
		}
	}
	var dropped []string
	if v := project.values.Sandbox; v != nil && sandboxLooser(*v, mode) {
		project.values.clear("sandbox")
		delete(project.sources, "sandbox")
		dropped = append(dropped, "sandbox")
	}
	if v := project.values.SandboxNetwork; v != nil && *v && !network {
		project.values.clear("sandbox_network")
		delete(project.sources, "sandbox_network")
		dropped = append(dropped, "sandbox_network")
	}
	return dropped
}

// sandboxLooser reports whether mode a contains commands less than b; an
// unknown mode counts as looser, so it cannot slip past.
func sandboxLooser(a, b string) bool {
	rank := map[string]int{"read-only": 0, "workspace": 1, "off": 2}
	ra, ok := rank[a]
	if !ok {
		return true
	}
	return ra > rank[b]
}
