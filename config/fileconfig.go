package config

import (
	"reflect"
	"slices"
)

// FileConfig is one layer as written: a nil field was not given. Its fields
// mirror Config's, in the same order with the same JSON names (a test holds
// the two together). SaveUser hands one to its update function; Load reads
// each file, the environment and the flags into one.
type FileConfig struct {
	Provider              *string          `json:"provider,omitempty"`
	BaseURL               *string          `json:"base_url,omitempty"`
	APIKeyEnv             *string          `json:"api_key_env,omitempty"`
	APIKey                *string          `json:"api_key,omitempty"`
	Model                 *string          `json:"model,omitempty"`
	ContextWindow         *int             `json:"context_window,omitempty"`
	MaxIterations         *int             `json:"max_iterations,omitempty"`
	CompressAt            *float64         `json:"compress_at,omitempty"`
	KeepRecent            *int             `json:"keep_recent,omitempty"`
	CommandTimeout        *Duration        `json:"command_timeout,omitempty"`
	IdleTimeout           *Duration        `json:"idle_timeout,omitempty"`
	FirstByteTimeout      *Duration        `json:"first_byte_timeout,omitempty"`
	SilentRetryBudget     *Duration        `json:"silent_retry_budget,omitempty"`
	MaxRetries            *int             `json:"max_retries,omitempty"`
	Temperature           *float64         `json:"temperature,omitempty"`
	Theme                 *string          `json:"theme,omitempty"`
	Allow                 []string         `json:"allow,omitempty"`
	Deny                  []string         `json:"deny,omitempty"`
	UnknownCommands       *string          `json:"unknown_commands,omitempty"`
	AutoRecall            *RecallMode      `json:"auto_recall,omitempty"`
	RecallScope           *string          `json:"recall_scope,omitempty"`
	SchedulerInterval     *Duration        `json:"scheduler_interval,omitempty"`
	DataDir               *string          `json:"data_dir,omitempty"`
	Sandbox               *string          `json:"sandbox,omitempty"`
	SandboxWritable       []string         `json:"sandbox_writable,omitempty"`
	SandboxNetwork        *bool            `json:"sandbox_network,omitempty"`
	SandboxSockets        []string         `json:"sandbox_sockets,omitempty"`
	CommandEnvPassthrough []string         `json:"command_env_passthrough,omitempty"`
	Approvals             *string          `json:"approvals,omitempty"`
	Checkpoints           *bool            `json:"checkpoints,omitempty"`
	CheckpointMaxFileMB   *int             `json:"checkpoint_max_file_mb,omitempty"`
	CheckpointKeep        *int             `json:"checkpoint_keep,omitempty"`
	CheckpointMaxAge      *Duration        `json:"checkpoint_max_age,omitempty"`
	ToolArgsMaxKB         *int             `json:"tool_args_max_kb,omitempty"`
	WebTimeout            *Duration        `json:"web_timeout,omitempty"`
	PromptProfile         *string          `json:"prompt_profile,omitempty"`
	Prices                map[string]Price `json:"prices,omitempty"`

	// MCP servers and their limit.
	MCPServers map[string]MCPServer `json:"mcp_servers,omitempty"`
	MCPTimeout *Duration            `json:"mcp_timeout,omitempty"`

	// Language servers and the check after a turn.
	LSP         map[string]LSPServer `json:"lsp,omitempty"`
	Check       *string              `json:"check,omitempty"`
	AutoCheck   *string              `json:"auto_check,omitempty"`
	CheckRounds *int                 `json:"check_rounds,omitempty"`

	// Telegram is the bot of pincer telegram (user files only).
	Telegram *Telegram `json:"telegram,omitempty"`

	// Hooks are the person's commands run around a turn.
	Hooks map[string][]HookMatcher `json:"hooks,omitempty"`
}

// Ptr returns a pointer to v, for filling FileConfig fields.
func Ptr[T any](v T) *T { return &v }

// setFields returns the JSON names of the fields this layer gives, in
// declaration order.
func (f *FileConfig) setFields() []string {
	v := reflect.ValueOf(f).Elem()
	t := v.Type()
	var out []string
	for i := range t.NumField() {
		if !v.Field(i).IsNil() {
			out = append(out, jsonName(t.Field(i)))
		}
	}
	return out
}

// fieldPtr returns a pointer to the FileConfig field with that JSON name,
// for decoding one value into it.
func (f *FileConfig) fieldPtr(name string) (any, bool) {
	i, ok := fieldIndex(name)
	if !ok {
		return nil, false
	}
	return reflect.ValueOf(f).Elem().Field(i).Addr().Interface(), true
}

// clear unsets the field with that JSON name, for a value that failed to
// decode half-way.
func (f *FileConfig) clear(name string) {
	if i, ok := fieldIndex(name); ok {
		v := reflect.ValueOf(f).Elem().Field(i)
		v.Set(reflect.Zero(v.Type()))
	}
}

// applyTo copies one given field into c: pointers are dereferenced,
// Temperature keeps its pointer, and allow/deny rules are appended
// (without repeats) to those of lower layers.
func (f *FileConfig) applyTo(c *Config, name string) {
	i, ok := fieldIndex(name)
	if !ok {
		return
	}
	src := reflect.ValueOf(f).Elem().Field(i)
	dst := reflect.ValueOf(c).Elem().Field(i)
	if src.IsNil() {
		return
	}
	switch {
	case name == "hooks":
		// Hooks from every layer run: a higher layer's are added after.
		dst.Set(reflect.ValueOf(mergeHooks(c.Hooks, f.Hooks)))
	case name == "lsp":
		// Language servers: a higher layer's replaces one of the same language.
		servers := map[string]LSPServer{}
		for k, v := range c.LSP {
			servers[k] = v
		}
		for k, v := range f.LSP {
			servers[k] = v
		}
		c.LSP = servers
	case name == "prices":
		// Prices: a higher layer's replaces one for the same model.
		prices := map[string]Price{}
		for k, v := range c.Prices {
			prices[k] = v
		}
		for k, v := range f.Prices {
			prices[k] = v
		}
		c.Prices = prices
	case src.Kind() == reflect.Map:
		// MCP servers: a higher layer's server replaces one of the same name.
		servers := map[string]MCPServer{}
		for k, v := range dst.Interface().(map[string]MCPServer) {
			servers[k] = v
		}
		for k, v := range src.Interface().(map[string]MCPServer) {
			servers[k] = v
		}
		dst.Set(reflect.ValueOf(servers))
	case src.Kind() == reflect.Slice:
		rules := dst.Interface().([]string)
		for _, r := range src.Interface().([]string) {
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
		dst.Set(reflect.ValueOf(rules))
	case dst.Kind() == reflect.Pointer:
		cp := reflect.New(dst.Type().Elem())
		cp.Elem().Set(src.Elem())
		dst.Set(cp)
	default:
		dst.Set(src.Elem())
	}
}
