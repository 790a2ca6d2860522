package config

// SourceKind says which layer a value came from.
type SourceKind int

// The layers, lowest precedence first. FromPreset and FromImplied are not
// layers of their own: they mark values Load derived from the provider.
const (
	FromDefault SourceKind = iota
	FromPreset
	FromImplied
	FromUserFile
	FromProjectFile
	FromEnv
	FromFlag
)

// Source is where one value came from.
type Source struct {
	Kind SourceKind
	// Name is the file path (FromUserFile, FromProjectFile), the variable
	// (FromEnv), the flag with its dashes (FromFlag), the preset
	// (FromPreset) or the field that implied the value (FromImplied).
	Name string
}

// String names the source the way `pincer config` shows it:
// "default", a file path, "env PINCER_MODEL", "flag --model",
// "preset deepseek", "implied by base_url".
func (s Source) String() string {
	switch s.Kind {
	case FromPreset:
		return "preset " + s.Name
	case FromImplied:
		return "implied by " + s.Name
	case FromUserFile, FromProjectFile:
		return s.Name
	case FromEnv:
		return "env " + s.Name
	case FromFlag:
		return "flag " + s.Name
	default:
		return "default"
	}
}

// explicit reports whether a person set the value (in a file, the
// environment or a flag) rather than pincer deriving it.
func (s Source) explicit() bool { return s.Kind >= FromUserFile }

// Explicit reports whether a person set the value (in a file, the
// environment or a flag) rather than pincer deriving or defaulting it: a
// context_window set so caps the window learned from the server.
func (s Source) Explicit() bool { return s.explicit() }

// isFile reports whether the value came from a config file.
func (s Source) isFile() bool { return s.Kind == FromUserFile || s.Kind == FromProjectFile }

// Sources records where each field's value came from, which files were
// read, and what Load derived.
type Sources struct {
	// Fields maps every JSON field name to its source. For allow and deny,
	// whose rules are combined from every layer, it is the highest layer
	// that added a rule.
	Fields map[string]Source
	// Files are the config files that were read, lowest precedence first.
	Files []string
	// ProviderConfigured is false when neither a provider nor a base URL
	// was set anywhere and Load fell back to the local Ollama preset; if
	// nothing answers there, the caller should say how to configure one
	// (see Presets).
	ProviderConfigured bool
	// Warnings are things worth telling the person that do not stop
	// pincer, each one sentence.
	Warnings []string
	// Ignored are the project file's fields left out because the project
	// is not trusted (LoadOptions.DistrustProject).
	Ignored []string
	// Servers maps each MCP server of mcp_servers to the file that
	// describes it: servers are merged by name from several files (a
	// project's .mcp.json and .pincer.json), which Fields cannot say.
	Servers map[string]Source
}

// Of returns where a field's value came from; unknown fields are "default".
func (s Sources) Of(field string) Source { return s.Fields[field] }

// trustSensitiveFields are the fields a project file can use to send the
// API key somewhere else, to let commands run without asking, to widen
// what they may reach, to move the person's sessions to a place the
// project chose (data_dir), to turn off the checkpoints that let the
// person undo what a turn did, to start programs of its choosing as MCP
// servers (mcp_servers), as hooks (hooks), as language servers (lsp) or
// as the check run after a turn (check, auto_check), or to have automatic recall
// bring the person's other projects into its sessions (recall_scope).
func trustSensitiveFields() []string {
	return []string{"provider", "base_url", "api_key_env", "allow", "unknown_commands", "data_dir", "sandbox_writable", "sandbox_sockets", "command_env_passthrough", "approvals", "checkpoints", "mcp_servers", "hooks", "recall_scope", "lsp", "check", "auto_check", "prices"}
}

// ProjectSensitive lists the fields whose value came from the project file
// and that decide where the API key is sent, which commands run without
// asking, or where sessions are kept. A cloned repository controls its
// .pincer.json, so the caller should show these and ask the person to
// trust the project first.
func (s Sources) ProjectSensitive() []string {
	var out []string
	for _, f := range trustSensitiveFields() {
		if s.Fields[f].Kind == FromProjectFile {
			out = append(out, f)
		}
	}
	return out
}

// ProjectLimits lists the limit fields (LimitFields) whose value came from
// the project file: an untrusted project may only make them stricter, so
// trusting it lets them loosen.
func (s Sources) ProjectLimits() []string {
	var out []string
	for _, f := range LimitFields() {
		if s.Fields[f].Kind == FromProjectFile {
			out = append(out, f)
		}
	}
	return out
}
