// Package config merges pincer's settings from built-in defaults, the user
// file, the project file, the environment and command-line flags into one
// validated Config, and remembers where every value came from so that
// errors and `pincer config` can point at the right place.
//
// Precedence, lowest first: defaults < user file
// ($XDG_CONFIG_HOME/pincer/config.json or ~/.config/pincer/config.json, or
// the file named by PINCER_CONFIG) < project file (.pincer.json in the
// project root) < environment < flags.
//
// The package reads the files it is pointed at and nothing else; the
// environment comes in as a function so tests can inject it.
package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// Config is the merged, validated configuration. Every field has a
// description tag because the JSON Schema for the config file is generated
// from this type.
//
// The API key is never printed: String, GoString, Format, MarshalJSON and
// LogValue all show "<redacted>" in its place.
type Config struct {
	Provider              string           `json:"provider" jsonschema_description:"Provider preset; it fills base_url, api_key_env and a default model. custom means any OpenAI-compatible server at base_url. With no provider and no base_url, pincer uses a local Ollama."`
	BaseURL               string           `json:"base_url" jsonschema_description:"OpenAI-compatible API base URL, e.g. https://api.openai.com/v1. Overrides the preset's URL; set alone it means the custom provider."`
	APIKeyEnv             string           `json:"api_key_env" jsonschema_description:"Name of the environment variable that holds the API key, e.g. OPENAI_API_KEY. The preset fills it."`
	APIKey                string           `json:"api_key,omitempty" jsonschema_description:"The API key itself. Allowed in the user config file only, never in a project's .pincer.json (it would be committed). Prefer api_key_env."`
	Model                 string           `json:"model" jsonschema_description:"Model name as the provider knows it, e.g. gpt-5-mini or qwen-plus. May be left empty for local servers (ollama, lmstudio, vllm): pincer then uses the first model the server lists."`
	ContextWindow         int              `json:"context_window" jsonschema:"minimum=1000" jsonschema_description:"Context window in tokens that pincer budgets for. Left out, pincer asks the server (llama.cpp, Ollama, LM Studio, vLLM, OpenRouter) or the provider's preset, and uses 30000 when neither says; set, it caps what the server reports."`
	MaxIterations         int              `json:"max_iterations" jsonschema:"minimum=1,maximum=1000" jsonschema_description:"Most model round trips in one turn before pincer stops and asks the model to summarise (default 30)."`
	CompressAt            float64          `json:"compress_at" jsonschema:"exclusiveMinimum=0,maximum=1" jsonschema_description:"Fraction of the context window at which older messages are summarised (default 0.8)."`
	KeepRecent            int              `json:"keep_recent" jsonschema:"minimum=2" jsonschema_description:"At most this many recent messages are kept verbatim when the context is compressed (default 10): whole turns only, and fewer when they do not fit under compress_at."`
	CommandTimeout        Duration         `json:"command_timeout" jsonschema_description:"Time limit of a shell command when the model does not ask for one, as \"90s\" or \"2m\" or a number of seconds (default 2m); the model may ask for up to 10m. 0 means the 10-minute maximum."`
	IdleTimeout           Duration         `json:"idle_timeout" jsonschema_description:"A model stream silent for this long is aborted, as \"90s\" or a number of seconds (default 90s). 0 means no limit."`
	FirstByteTimeout      Duration         `json:"first_byte_timeout" jsonschema_description:"A model server that took the request but sends no byte of an answer for this long is reported as silent, as \"90s\" or a number of seconds (default 90s). 0 means no limit."`
	SilentRetryBudget     Duration         `json:"silent_retry_budget" jsonschema_description:"Total time spent on a model server that takes requests but stays silent, retries included (default 3m). 0 means no limit."`
	MaxRetries            int              `json:"max_retries" jsonschema:"minimum=0,maximum=20" jsonschema_description:"Retries of a model request after 429, 5xx or a connection error (default 4)."`
	Temperature           *float64         `json:"temperature,omitempty" jsonschema:"minimum=0,maximum=2" jsonschema_description:"Sampling temperature sent to the model; leave it out to use the provider's default."`
	Theme                 string           `json:"theme" jsonschema:"minLength=1" jsonschema_description:"Colour theme name, or auto to follow the terminal (default auto)."`
	Allow                 []string         `json:"allow,omitempty" jsonschema_description:"Command rules that run without asking. Rules from every file are combined."`
	Deny                  []string         `json:"deny,omitempty" jsonschema_description:"Command rules that are always refused. Rules from every file are combined."`
	UnknownCommands       string           `json:"unknown_commands" jsonschema:"enum=confirm,enum=safe" jsonschema_description:"How commands pincer does not recognise are treated: confirm asks first (default), safe runs them at once."`
	AutoRecall            RecallMode       `json:"auto_recall" jsonschema_description:"Before each message, give the model what earlier sessions and saved notes say about it: auto adds only strong matches (default), always adds the best matches whatever their strength, off adds nothing. The old true and false mean always and off."`
	RecallScope           string           `json:"recall_scope" jsonschema:"enum=project,enum=all" jsonschema_description:"Where recall looks: project searches this project's sessions and notes (default); all searches every project's."`
	SchedulerInterval     Duration         `json:"scheduler_interval" jsonschema_description:"How often scheduled tasks are checked, at least 1s (default 30s)."`
	DataDir               string           `json:"data_dir,omitempty" jsonschema_description:"Absolute directory for pincer's data (sessions). ~/ is expanded. Empty means the platform default. PINCER_DATA_DIR overrides it."`
	Sandbox               string           `json:"sandbox" jsonschema:"enum=workspace,enum=read-only,enum=off" jsonschema_description:"How commands are jailed: workspace (default) gives each the jail of how it was allowed (inspect for read-only commands run unasked, contained for those auto approvals run, workspace for those you approve: the project, the temp dir, the caches and sandbox_writable); read-only holds every command to its private temp dir; off runs them with your full rights. --sandbox overrides it. A project not trusted can only make it stricter."`
	SandboxWritable       []string         `json:"sandbox_writable,omitempty" jsonschema_description:"More paths commands may write in workspace mode, absolute or ~/; the usual Go, Node, Python and Rust caches are writable already. Lists from every file are combined."`
	SandboxNetwork        bool             `json:"sandbox_network" jsonschema_description:"Let commands you approve reach the network (default true); set to true in your own config, commands auto approvals run get it too. false takes it from every command. Read-only commands run unasked never have it."`
	SandboxSockets        []string         `json:"sandbox_sockets,omitempty" jsonschema_description:"Unix sockets outside the jail that commands you approve may use, absolute or ~/, such as your SSH agent or Docker's socket; the rest (in /run, /tmp, $XDG_RUNTIME_DIR, and those named in pincer's environment) are left out of the jail. Lists from every file are combined."`
	CommandEnvPassthrough []string         `json:"command_env_passthrough,omitempty" jsonschema_description:"API key variables to leave in commands' environment; by default every key variable pincer knows (api_key_env, PINCER_API_KEY, OPENAI_API_KEY and each provider's) is removed."`
	Approvals             string           `json:"approvals" jsonschema:"enum=ask,enum=auto" jsonschema_description:"ask asks before every command that changes things (default); auto runs those commands without asking while the sandbox is active, and still asks twice for dangerous ones. --auto on pincer run, /auto on the screen."`
	Checkpoints           bool             `json:"checkpoints" jsonschema_description:"Record the project's files (in a repository of pincer's own, never yours) before and after each turn, so /rewind, /undo and 'pincer sessions rewind' can restore them (default true)."`
	CheckpointMaxFileMB   int              `json:"checkpoint_max_file_mb" jsonschema:"minimum=1,maximum=1024" jsonschema_description:"Files larger than this many MiB are not recorded in checkpoints; a rewind leaves them alone and says so (default 5)."`
	CheckpointKeep        int              `json:"checkpoint_keep" jsonschema:"minimum=1" jsonschema_description:"Most checkpoints kept per project; older ones are pruned, except those a session still uses (default 200)."`
	CheckpointMaxAge      Duration         `json:"checkpoint_max_age" jsonschema_description:"Checkpoints older than this are pruned, as \"720h\" or a number of seconds, at least 1h (default 720h, 30 days)."`
	ToolArgsMaxKB         int              `json:"tool_args_max_kb" jsonschema:"minimum=1,maximum=65536" jsonschema_description:"Largest arguments of one tool call the model may send, in KiB (default 1024). A larger call is refused without being read, and the model is told to send less; so are the calls of one answer past the 64th."`
	WebTimeout            Duration         `json:"web_timeout" jsonschema_description:"Time limit of one read_web fetch, redirects and reading the page included, as \"20s\" or a number of seconds, at least 1s (default 20s)."`
	PromptProfile         string           `json:"prompt_profile" jsonschema:"enum=auto,enum=full,enum=compact" jsonschema_description:"How much pincer tells the model before your first word: full (the whole instructions and tool descriptions), compact (short ones, for small windows) or auto (default): compact when the context window is 16384 tokens or less. Either way, rarely used tools and MCP tools past a budget are listed by name and loaded when the model asks. pincer prompt --tokens shows the weight."`
	Prices                map[string]Price `json:"prices,omitempty" jsonschema_description:"Prices in dollars per million tokens by model name, as {\"gpt-5-mini\": {\"input\": 0.25, \"output\": 2}}, for the cost shown beside the tokens; some hosted models have built-in prices. A higher layer's price replaces one for the same model; a project's .pincer.json sets them only once you trust it."`

	// MCP servers and their limit.
	MCPServers map[string]MCPServer `json:"mcp_servers,omitempty" jsonschema_description:"MCP servers whose tools the model may call, by name: {\"command\", \"args\", \"env\"} for a server over stdio, or {\"url\", \"headers\"} for streamable HTTP; header and env values may name ${VARIABLES}. Each may be \"disabled\", list \"hide_tools\", or be \"trusted\" (its read-only tools run unasked). Servers from every file are combined; a project's (here or in .mcp.json) start only once the project is trusted."`
	MCPTimeout Duration             `json:"mcp_timeout" jsonschema_description:"Time limit of one MCP tool call, as \"60s\" or a number of seconds (default 60s)."`

	// Language servers and the check after a turn.
	LSP         map[string]LSPServer `json:"lsp,omitempty" jsonschema_description:"Language servers by language (go, rust, typescript, python, c, or a name of your own with \"extensions\"): {\"command\", \"args\", \"env\", \"extensions\", \"disabled\", \"initialization_options\"}. pincer knows gopls, rust-analyzer, typescript-language-server, basedpyright/pyright and clangd, and starts one when a file of its language is first used and its program is on PATH; they run in the command jail. A project's servers start only once the project is trusted. See docs/lsp.md."`
	Check       string               `json:"check,omitempty" jsonschema_description:"The command that checks the project after a turn changed files, e.g. \"go build ./... && go vet ./...\"; empty means detected from the project (go.mod, Cargo.toml, tsconfig.json, pyproject.toml). It runs in the jail; its failures go back to the model. A project's check runs only once the project is trusted."`
	AutoCheck   string               `json:"auto_check" jsonschema:"enum=ask,enum=on,enum=off" jsonschema_description:"Run the check after each turn that changed files: ask asks the first time in each project (default), on runs it, off never. pincer run --check turns it on for one run."`
	CheckRounds int                  `json:"check_rounds" jsonschema:"minimum=1,maximum=20" jsonschema_description:"Most times in one turn the check's failures are sent back to the model to fix (default 3)."`

	// Telegram is the bot of pincer telegram.
	Telegram Telegram `json:"telegram" jsonschema_description:"The bot of 'pincer telegram': {\"allowed_users\": [your numeric Telegram user id], \"token_env\": the variable holding the bot token (default TELEGRAM_BOT_TOKEN), \"api_url\": a self-hosted Bot API server (default Telegram's), \"recall_scope\": \"chat\" (default: a chat recalls only its own sessions), \"project\" or \"all\"}. Read from your user config file only: a project's .pincer.json may not set who can command pincer."`

	// Hooks are the person's commands run around a turn.
	Hooks map[string][]HookMatcher `json:"hooks,omitempty" jsonschema_description:"Commands run at moments of a turn, by event (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop): a list of {\"matcher\": a regular expression on the tool name, \"hooks\": [{\"type\": \"command\", \"command\": \"...\", \"timeout\": seconds}]}, as in Claude Code's settings. Hooks from every file run; a project's run only once the project is trusted. See docs/hooks.md."`
}

// Price is what a model costs, in dollars per million tokens.
type Price struct {
	Input  float64 `json:"input" jsonschema:"minimum=0" jsonschema_description:"Dollars per million prompt (input) tokens."`
	Output float64 `json:"output" jsonschema:"minimum=0" jsonschema_description:"Dollars per million completion (output) tokens."`
}

// UnmarshalJSON reads a price, refusing keys other than input and output,
// so a misspelt "in" is not taken for a free model.
func (p *Price) UnmarshalJSON(data []byte) error {
	type plain Price
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v plain
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("a price is {\"input\": dollars, \"output\": dollars} per million tokens: %w", err)
	}
	*p = Price(v)
	return nil
}

// Telegram configures the bot of pincer telegram. The token itself is
// never in a file: TokenEnv names the variable that holds it.
type Telegram struct {
	TokenEnv     string  `json:"token_env,omitempty" jsonschema_description:"The environment variable holding the bot token (default TELEGRAM_BOT_TOKEN)."`
	AllowedUsers []int64 `json:"allowed_users,omitempty" jsonschema_description:"Numeric Telegram user ids the bot answers; everyone else is ignored. Required."`
	APIURL       string  `json:"api_url,omitempty" jsonschema_description:"The Bot API server, for a self-hosted one (default https://api.telegram.org)."`
	// RecallScope is where a chat's recall looks: "chat" (or "") its own
	// sessions, "project" the project's sessions and notes, "all" every
	// project's.
	RecallScope string `json:"recall_scope,omitempty" jsonschema:"enum=chat,enum=project,enum=all" jsonschema_description:"Where recall looks from a chat: chat searches only the chat's own sessions (default), project the project's sessions and notes, all every project's. recall_scope does not apply to chats."`
}

// DefaultTelegramTokenEnv is the variable that holds the bot token when
// telegram.token_env is not set.
const DefaultTelegramTokenEnv = "TELEGRAM_BOT_TOKEN"

// TokenVariable is the variable that holds the bot token.
func (t Telegram) TokenVariable() string {
	if t.TokenEnv == "" {
		return DefaultTelegramTokenEnv
	}
	return t.TokenEnv
}

// MCPServer is one MCP server in the configuration. Command (with Args and
// Env) starts a server that talks over stdio; URL (with Headers) reaches
// one over streamable HTTP.
type MCPServer struct {
	Type      string            `json:"type,omitempty" jsonschema:"enum=stdio,enum=http,enum=streamable-http" jsonschema_description:"stdio or http; inferred from command or url when left out."`
	Command   string            `json:"command,omitempty" jsonschema_description:"The program that runs the server over stdio."`
	Args      []string          `json:"args,omitempty" jsonschema_description:"Its arguments."`
	Env       map[string]string `json:"env,omitempty" jsonschema_description:"Extra environment variables for it; values may name ${VARIABLES}."`
	URL       string            `json:"url,omitempty" jsonschema_description:"The server's streamable HTTP endpoint."`
	Headers   map[string]string `json:"headers,omitempty" jsonschema_description:"HTTP headers sent with every request; values may name ${VARIABLES}, so no token is written in a file."`
	Disabled  bool              `json:"disabled,omitempty" jsonschema_description:"Do not start this server."`
	HideTools []string          `json:"hide_tools,omitempty" jsonschema_description:"Tools of this server not offered to the model, by the server's names for them."`
	Trusted   bool              `json:"trusted,omitempty" jsonschema_description:"Run this server's tools that declare readOnlyHint without asking."`
	OAuth     *MCPOAuth         `json:"oauth,omitempty" jsonschema_description:"How pincer logs in to this server over HTTP when it asks for authorization (pincer mcp login NAME); without it pincer registers itself with the server's authorization server."`
}

// MCPOAuth is the OAuth client pincer uses for one MCP server. The tokens
// a login earns are never kept here but in pincer's data directory.
type MCPOAuth struct {
	ClientID          string   `json:"client_id,omitempty" jsonschema_description:"A client registered with the server's authorization server beforehand."`
	ClientSecret      string   `json:"client_secret,omitempty" jsonschema_description:"Its secret, as a ${VARIABLE} so it is not written in the file."`
	ClientMetadataURL string   `json:"client_metadata_url,omitempty" jsonschema_description:"The HTTPS URL of a client ID metadata document describing pincer, used as its client ID where the authorization server accepts such documents."`
	Scopes            []string `json:"scopes,omitempty" jsonschema_description:"Scopes to ask for besides those the server names."`
	CallbackPort      int      `json:"callback_port,omitempty" jsonschema_description:"The port of the loopback address the browser returns to (http://127.0.0.1:PORT/callback), when the client's registration names one; any free port otherwise."`
}

// LSPServer is one language server in the configuration.
type LSPServer struct {
	Command               string            `json:"command,omitempty" jsonschema_description:"The program that runs the server; it speaks the protocol on standard input and output."`
	Args                  []string          `json:"args,omitempty" jsonschema_description:"Its arguments."`
	Env                   map[string]string `json:"env,omitempty" jsonschema_description:"Extra environment variables for it."`
	Extensions            []string          `json:"extensions,omitempty" jsonschema_description:"File name endings of the language, with the dot, e.g. [\".go\"]; needed for a language pincer does not know."`
	Disabled              bool              `json:"disabled,omitempty" jsonschema_description:"Do not start this language's server."`
	InitializationOptions json.RawMessage   `json:"initialization_options,omitempty" jsonschema_description:"Sent to the server as they are with initialize."`
}

// Defaults for the fields that have one; Load starts from these.
const (
	DefaultContextWindow     = 30000
	DefaultMaxIterations     = 30
	DefaultCompressAt        = 0.8
	DefaultKeepRecent        = 10
	DefaultCommandTimeout    = 2 * time.Minute
	DefaultIdleTimeout       = 90 * time.Second
	DefaultMaxRetries        = 4
	DefaultFirstByteTimeout  = 90 * time.Second
	DefaultSilentRetryBudget = 3 * time.Minute
	DefaultTheme             = "auto"
	DefaultUnknownCommands   = "confirm"
	DefaultAutoRecall        = RecallAuto
	DefaultRecallScope       = "project"
	DefaultSchedulerInterval = 30 * time.Second
	DefaultSandbox           = "workspace"
	DefaultApprovals         = "ask"
	DefaultCheckpointMaxMB   = 5
	DefaultCheckpointKeep    = 200
	DefaultCheckpointMaxAge  = 30 * 24 * time.Hour
	DefaultToolArgsMaxKB     = 1024
	DefaultWebTimeout        = 20 * time.Second
	DefaultMCPTimeout        = 60 * time.Second
	DefaultAutoCheck         = "ask"
	DefaultCheckRounds       = 3
	DefaultPromptProfile     = "auto"
	// DefaultProvider is used when nothing names a provider or a base URL.
	DefaultProvider = "ollama"
)

// Defaults returns the built-in configuration, the lowest layer of Load.
// Provider is empty here: Load resolves it (to DefaultProvider when nothing
// names one).
func Defaults() Config {
	return Config{
		ContextWindow:       DefaultContextWindow,
		MaxIterations:       DefaultMaxIterations,
		CompressAt:          DefaultCompressAt,
		KeepRecent:          DefaultKeepRecent,
		CommandTimeout:      Duration(DefaultCommandTimeout),
		IdleTimeout:         Duration(DefaultIdleTimeout),
		FirstByteTimeout:    Duration(DefaultFirstByteTimeout),
		SilentRetryBudget:   Duration(DefaultSilentRetryBudget),
		MaxRetries:          DefaultMaxRetries,
		Theme:               DefaultTheme,
		UnknownCommands:     DefaultUnknownCommands,
		AutoRecall:          DefaultAutoRecall,
		RecallScope:         DefaultRecallScope,
		SchedulerInterval:   Duration(DefaultSchedulerInterval),
		Sandbox:             DefaultSandbox,
		SandboxNetwork:      true,
		Approvals:           DefaultApprovals,
		Checkpoints:         true,
		CheckpointMaxFileMB: DefaultCheckpointMaxMB,
		CheckpointKeep:      DefaultCheckpointKeep,
		CheckpointMaxAge:    Duration(DefaultCheckpointMaxAge),
		ToolArgsMaxKB:       DefaultToolArgsMaxKB,
		WebTimeout:          Duration(DefaultWebTimeout),
		MCPTimeout:          Duration(DefaultMCPTimeout),
		AutoCheck:           DefaultAutoCheck,
		CheckRounds:         DefaultCheckRounds,
		PromptProfile:       DefaultPromptProfile,
	}
}

// NeedsModelDiscovery reports whether no model is configured and the
// provider is a local server, so the caller should ask the server for its
// models and use the first one. Validation allows an empty model only then.
func (c Config) NeedsModelDiscovery() bool {
	if c.Model != "" {
		return false
	}
	p, ok := LookupPreset(c.Provider)
	return ok && p.Local
}

// FieldNames returns the JSON names of the config fields in declaration
// order, for listing the merged config with Sources next to each value.
func FieldNames() []string {
	t := reflect.TypeFor[Config]()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		names = append(names, jsonName(t.Field(i)))
	}
	return names
}

// jsonName is the name a struct field has in JSON.
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	for i := 0; i < len(tag); i++ {
		if tag[i] == ',' {
			return tag[:i]
		}
	}
	if tag == "" {
		return f.Name
	}
	return tag
}

// fieldIndex maps a JSON field name to its index in Config (and FileConfig,
// whose fields are in the same order).
func fieldIndex(name string) (int, bool) {
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		if jsonName(t.Field(i)) == name {
			return i, true
		}
	}
	return 0, false
}

// asJSON is Config without its methods, so marshalling inside MarshalJSON
// does not recurse.
type asJSON Config

// MarshalJSON encodes the config with the API key redacted, so a config
// dumped to a log or a file never carries the key.
func (c Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(asJSON(c.Redacted()))
}
