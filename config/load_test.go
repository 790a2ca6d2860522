package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestPrecedence checks, field by field, that each layer overrides the one
// below: default < user file < project file < environment < flag.
func TestPrecedence(t *testing.T) {
	type stage struct {
		json string // value in the file, as JSON; "" = not given
		env  string // value of the field's PINCER_* variable; "" = not given
		want any
	}
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		field                 string
		extra                 string // more JSON for the user file
		def                   any
		user, project, envSet stage
		flag                  func(*Overrides) // nil when no flag exists
		flagWant              any
	}{
		{field: "provider", def: "ollama",
			user: stage{json: `"deepseek"`, want: "deepseek"}, project: stage{json: `"groq"`, want: "groq"},
			envSet: stage{env: "openai", want: "openai"},
			flag:   func(o *Overrides) { o.Provider = Ptr("mimo") }, flagWant: "mimo"},
		{field: "base_url", extra: `"model": "m", `, def: "http://localhost:11434/v1",
			user: stage{json: `"http://u.example/v1"`, want: "http://u.example/v1"}, project: stage{json: `"http://p.example/v1/"`, want: "http://p.example/v1"},
			envSet: stage{env: "https://e.example/v1", want: "https://e.example/v1"},
			flag:   func(o *Overrides) { o.BaseURL = Ptr("https://f.example/v1") }, flagWant: "https://f.example/v1"},
		{field: "model", def: "",
			user: stage{json: `"m-user"`, want: "m-user"}, project: stage{json: `"m-project"`, want: "m-project"},
			envSet: stage{env: "m-env", want: "m-env"},
			flag:   func(o *Overrides) { o.Model = Ptr("m-flag") }, flagWant: "m-flag"},
		{field: "api_key", def: "",
			user:   stage{json: `"k-user"`, want: "k-user"}, // a project file may not hold a key
			envSet: stage{env: "k-env", want: "k-env"},
			flag:   func(o *Overrides) { o.APIKey = Ptr("k-flag") }, flagWant: "k-flag"},
		{field: "api_key_env", def: "",
			user: stage{json: `"USER_KEY"`, want: "USER_KEY"}, project: stage{json: `"PROJECT_KEY"`, want: "PROJECT_KEY"}},
		{field: "context_window", def: 30000,
			user: stage{json: `2000`, want: 2000}, project: stage{json: `3000`, want: 3000},
			flag: func(o *Overrides) { o.ContextWindow = Ptr(4000) }, flagWant: 4000},
		{field: "max_iterations", def: 30,
			user: stage{json: `5`, want: 5}, project: stage{json: `6`, want: 6},
			flag: func(o *Overrides) { o.MaxIterations = Ptr(7) }, flagWant: 7},
		{field: "compress_at", def: 0.8,
			user: stage{json: `0.5`, want: 0.5}, project: stage{json: `1`, want: 1.0}},
		{field: "keep_recent", def: 10,
			user: stage{json: `3`, want: 3}, project: stage{json: `4`, want: 4}},
		{field: "command_timeout", def: Duration(2 * time.Minute),
			user: stage{json: `"90s"`, want: Duration(90 * time.Second)}, project: stage{json: `300`, want: Duration(5 * time.Minute)}},
		{field: "idle_timeout", def: Duration(90 * time.Second),
			user: stage{json: `10`, want: Duration(10 * time.Second)}, project: stage{json: `"1m"`, want: Duration(time.Minute)}},
		{field: "first_byte_timeout", def: Duration(90 * time.Second),
			user: stage{json: `"2m"`, want: Duration(2 * time.Minute)}, project: stage{json: `30`, want: Duration(30 * time.Second)}},
		{field: "silent_retry_budget", def: Duration(3 * time.Minute),
			user: stage{json: `"5m"`, want: Duration(5 * time.Minute)}, project: stage{json: `0`, want: Duration(0)}},
		{field: "max_retries", def: 4,
			user: stage{json: `1`, want: 1}, project: stage{json: `0`, want: 0}},
		{field: "temperature", def: (*float64)(nil),
			user: stage{json: `0.2`, want: f(0.2)}, project: stage{json: `0`, want: f(0)}},
		{field: "theme", def: "auto",
			user: stage{json: `"dark"`, want: "dark"}, project: stage{json: `"light"`, want: "light"},
			flag: func(o *Overrides) { o.Theme = Ptr("mono") }, flagWant: "mono"},
		{field: "unknown_commands", def: "confirm",
			user: stage{json: `"safe"`, want: "safe"}, project: stage{json: `"confirm"`, want: "confirm"}},
		{field: "auto_recall", def: RecallAuto,
			user: stage{json: `true`, want: RecallAlways}, project: stage{json: `"off"`, want: RecallOff}},
		{field: "recall_scope", def: "project",
			user: stage{json: `"all"`, want: "all"}, project: stage{json: `"project"`, want: "project"}},
		{field: "scheduler_interval", def: Duration(30 * time.Second),
			user: stage{json: `"10s"`, want: Duration(10 * time.Second)}, project: stage{json: `60`, want: Duration(time.Minute)}},
		{field: "data_dir", def: "",
			user: stage{json: `"/u/data"`, want: "/u/data"}, project: stage{json: `"/p/data"`, want: "/p/data"},
			envSet: stage{env: "/e/data", want: "/e/data"}},
		{field: "allow", def: []string(nil),
			user: stage{json: `["git push"]`, want: []string{"git push"}}, project: stage{json: `["make", "git push"]`, want: []string{"git push", "make"}}},
		{field: "sandbox", def: "workspace",
			user: stage{json: `"off"`, want: "off"}, project: stage{json: `"read-only"`, want: "read-only"},
			flag: func(o *Overrides) { o.Sandbox = Ptr("workspace") }, flagWant: "workspace"},
		{field: "sandbox_writable", def: []string(nil),
			user: stage{json: `["/u/cache"]`, want: []string{"/u/cache"}}, project: stage{json: `["/p/cache"]`, want: []string{"/u/cache", "/p/cache"}}},
		{field: "sandbox_network", def: true,
			user: stage{json: `true`, want: true}, project: stage{json: `false`, want: false}},
		{field: "sandbox_sockets", def: []string(nil),
			user: stage{json: `["/run/user/1/ssh.sock"]`, want: []string{"/run/user/1/ssh.sock"}}, project: stage{json: `["/var/run/docker.sock"]`, want: []string{"/run/user/1/ssh.sock", "/var/run/docker.sock"}}},
		{field: "command_env_passthrough", def: []string(nil),
			user: stage{json: `["GITHUB_TOKEN"]`, want: []string{"GITHUB_TOKEN"}}, project: stage{json: `["NPM_TOKEN"]`, want: []string{"GITHUB_TOKEN", "NPM_TOKEN"}}},
		{field: "approvals", def: "ask",
			user: stage{json: `"auto"`, want: "auto"}, project: stage{json: `"ask"`, want: "ask"},
			flag: func(o *Overrides) { o.Approvals = Ptr("auto") }, flagWant: "auto"},
		{field: "checkpoints", def: true,
			user: stage{json: `false`, want: false}, project: stage{json: `true`, want: true}},
		{field: "checkpoint_max_file_mb", def: 5,
			user: stage{json: `50`, want: 50}, project: stage{json: `2`, want: 2}},
		{field: "checkpoint_keep", def: 200,
			user: stage{json: `500`, want: 500}, project: stage{json: `20`, want: 20}},
		{field: "checkpoint_max_age", def: Duration(720 * time.Hour),
			user: stage{json: `"1000h"`, want: Duration(1000 * time.Hour)}, project: stage{json: `"2h"`, want: Duration(2 * time.Hour)}},
		{field: "tool_args_max_kb", def: 1024,
			user: stage{json: `4096`, want: 4096}, project: stage{json: `256`, want: 256}},
		{field: "web_timeout", def: Duration(20 * time.Second),
			user: stage{json: `"45s"`, want: Duration(45 * time.Second)}, project: stage{json: `5`, want: Duration(5 * time.Second)}},
		{field: "mcp_servers", def: map[string]MCPServer(nil),
			user:    stage{json: `{"gh": {"command": "gh-mcp", "args": ["-v"]}, "b": {"url": "http://u"}}`, want: map[string]MCPServer{"gh": {Command: "gh-mcp", Args: []string{"-v"}}, "b": {URL: "http://u"}}},
			project: stage{json: `{"b": {"url": "http://p", "disabled": true}}`, want: map[string]MCPServer{"gh": {Command: "gh-mcp", Args: []string{"-v"}}, "b": {URL: "http://p", Disabled: true}}}},
		{field: "mcp_timeout", def: Duration(60 * time.Second),
			user: stage{json: `"2m"`, want: Duration(2 * time.Minute)}, project: stage{json: `30`, want: Duration(30 * time.Second)}},
		{field: "telegram", def: Telegram{}, // a project file may not set it
			user: stage{json: `{"allowed_users": [42, 7], "token_env": "MY_BOT"}`, want: Telegram{AllowedUsers: []int64{42, 7}, TokenEnv: "MY_BOT"}}},
		{field: "hooks", def: map[string][]HookMatcher(nil),
			user: stage{json: `{"Stop": [{"hooks": [{"command": "u"}]}]}`, want: map[string][]HookMatcher{"Stop": {{Hooks: []HookCommand{{Command: "u"}}, From: Source{Kind: FromUserFile}}}}},
			project: stage{json: `{"Stop": [{"hooks": [{"command": "p", "timeout": 5}]}], "PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "q"}]}]}`,
				want: map[string][]HookMatcher{
					"Stop":       {{Hooks: []HookCommand{{Command: "u"}}, From: Source{Kind: FromUserFile}}, {Hooks: []HookCommand{{Command: "p", Timeout: 5}}, From: Source{Kind: FromProjectFile}}},
					"PreToolUse": {{Matcher: "run_command", Hooks: []HookCommand{{Type: "command", Command: "q"}}, From: Source{Kind: FromProjectFile}}},
				}}},
		{field: "deny", def: []string(nil),
			user: stage{json: `["rm"]`, want: []string{"rm"}}, project: stage{json: `["curl"]`, want: []string{"rm", "curl"}}},
		{field: "lsp", def: map[string]LSPServer(nil),
			user:    stage{json: `{"go": {"command": "gopls", "args": ["-rpc.trace"]}, "zig": {"command": "zls", "extensions": [".zig"]}}`, want: map[string]LSPServer{"go": {Command: "gopls", Args: []string{"-rpc.trace"}}, "zig": {Command: "zls", Extensions: []string{".zig"}}}},
			project: stage{json: `{"go": {"disabled": true}}`, want: map[string]LSPServer{"go": {Disabled: true}, "zig": {Command: "zls", Extensions: []string{".zig"}}}}},
		{field: "check", def: "",
			user: stage{json: `"go vet ./..."`, want: "go vet ./..."}, project: stage{json: `"make check"`, want: "make check"}},
		{field: "auto_check", def: "ask",
			user: stage{json: `"on"`, want: "on"}, project: stage{json: `"off"`, want: "off"}},
		{field: "check_rounds", def: 3,
			user: stage{json: `5`, want: 5}, project: stage{json: `1`, want: 1}},
		{field: "prompt_profile", def: "auto",
			user: stage{json: `"compact"`, want: "compact"}, project: stage{json: `"full"`, want: "full"}},
		{field: "prices", def: map[string]Price(nil),
			user:    stage{json: `{"m1": {"input": 1, "output": 2}, "m2": {"input": 0.5, "output": 0.5}}`, want: map[string]Price{"m1": {Input: 1, Output: 2}, "m2": {Input: 0.5, Output: 0.5}}},
			project: stage{json: `{"m1": {"input": 3, "output": 4}}`, want: map[string]Price{"m1": {Input: 3, Output: 4}, "m2": {Input: 0.5, Output: 0.5}}}},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			w := newWorld(t)
			check := func(stageName string, o Overrides, want any, kind SourceKind) {
				t.Helper()
				c, s := w.mustLoad(t, o)
				if got := fieldValue(c, tt.field); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: %s = %#v, want %#v", stageName, tt.field, got, want)
				}
				if got := s.Of(tt.field).Kind; got != kind && !(kind == FromDefault && got == FromPreset) {
					t.Errorf("%s: source of %s = %v, want kind %d", stageName, tt.field, s.Of(tt.field), kind)
				}
			}
			check("defaults", Overrides{}, tt.def, FromDefault)
			if tt.user.json != "" {
				w.writeUser(t, fmt.Sprintf(`{%s%q: %s}`, tt.extra, tt.field, tt.user.json))
				check("user file", Overrides{}, tt.user.want, FromUserFile)
			}
			if tt.project.json != "" {
				w.writeProject(t, fmt.Sprintf(`{%q: %s}`, tt.field, tt.project.json))
				check("project file", Overrides{}, tt.project.want, FromProjectFile)
			}
			if tt.envSet.env != "" {
				w.env[envFields[tt.field]] = tt.envSet.env
				check("environment", Overrides{}, tt.envSet.want, FromEnv)
			}
			if tt.flag != nil {
				var o Overrides
				tt.flag(&o)
				check("flag", o, tt.flagWant, FromFlag)
			}
		})
	}
}

// TestEveryFieldHasAPrecedenceRow keeps TestPrecedence complete when a
// field is added.
func TestEveryFieldHasAPrecedenceRow(t *testing.T) {
	src := readSource(t, "load_test.go")
	for _, name := range FieldNames() {
		if !strings.Contains(src, fmt.Sprintf("{field: %q", name)) {
			t.Errorf("TestPrecedence has no row for %q", name)
		}
	}
}

func TestSourcesNameTheLayer(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"provider": "openai", "theme": "dark"}`)
	w.writeProject(t, `{"max_iterations": 12}`)
	w.env[EnvModel] = "gpt-4.1"
	_, s := w.mustLoad(t, Overrides{ContextWindow: Ptr(5000)})
	tests := []struct{ field, want string }{
		{"provider", w.userPath()},
		{"theme", w.userPath()},
		{"max_iterations", w.projectPath()},
		{"model", "env PINCER_MODEL"},
		{"context_window", "flag --context-window"},
		{"base_url", "preset openai"},
		{"api_key_env", "preset openai"},
		{"keep_recent", "default"},
	}
	for _, tt := range tests {
		if got := s.Of(tt.field).String(); got != tt.want {
			t.Errorf("source of %s = %q, want %q", tt.field, got, tt.want)
		}
	}
	if want := []string{w.userPath(), w.projectPath()}; !reflect.DeepEqual(s.Files, want) {
		t.Errorf("Files = %v, want %v", s.Files, want)
	}
}

func TestProviderResolution(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		env           fakeEnv
		flags         Overrides
		provider      string
		baseURL       string
		keyEnv        string
		model         string
		configured    bool
		baseSource    string
		warnings      int
	}{
		{name: "nothing configured means local ollama",
			provider: "ollama", baseURL: "http://localhost:11434/v1", configured: false, baseSource: "preset ollama"},
		{name: "a base url alone means custom",
			user:     `{"base_url": "http://gpu-box:8080/v1", "model": "qwen"}`,
			provider: "custom", baseURL: "http://gpu-box:8080/v1", model: "qwen", configured: true, baseSource: "USER"},
		{name: "OPENAI_BASE_URL alone means custom",
			env:      fakeEnv{"OPENAI_BASE_URL": "http://proxy:4000/v1", "PINCER_MODEL": "m"},
			provider: "custom", baseURL: "http://proxy:4000/v1", model: "m", configured: true, baseSource: "env OPENAI_BASE_URL"},
		{name: "PINCER_BASE_URL beats OPENAI_BASE_URL",
			env:      fakeEnv{"OPENAI_BASE_URL": "http://proxy:4000/v1", "PINCER_BASE_URL": "http://mine:1/v1", "PINCER_MODEL": "m"},
			provider: "custom", baseURL: "http://mine:1/v1", model: "m", configured: true, baseSource: "env PINCER_BASE_URL"},
		{name: "OPENAI_BASE_URL redirects the openai preset",
			user:     `{"provider": "openai"}`,
			env:      fakeEnv{"OPENAI_BASE_URL": "https://gateway.example/v1"},
			provider: "openai", baseURL: "https://gateway.example/v1", keyEnv: "OPENAI_API_KEY", model: "gpt-5-mini", configured: true, baseSource: "env OPENAI_BASE_URL"},
		{name: "OPENAI_BASE_URL does not redirect another vendor",
			user:     `{"provider": "deepseek"}`,
			env:      fakeEnv{"OPENAI_BASE_URL": "https://gateway.example/v1"},
			provider: "deepseek", baseURL: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY", model: "deepseek-v4-flash", configured: true, baseSource: "preset deepseek"},
		{name: "OPENAI_BASE_URL does not override a file's base_url",
			user:     `{"provider": "openai", "base_url": "https://corp.example/v1"}`,
			env:      fakeEnv{"OPENAI_BASE_URL": "https://gateway.example/v1"},
			provider: "openai", baseURL: "https://corp.example/v1", keyEnv: "OPENAI_API_KEY", model: "gpt-5-mini", configured: true, baseSource: "USER"},
		{name: "a preset's url can be overridden in the same file",
			user:     `{"provider": "dashscope", "base_url": "https://dashscope-intl.aliyuncs.com/compatible-mode/v1"}`,
			provider: "dashscope", baseURL: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", keyEnv: "DASHSCOPE_API_KEY", model: "qwen-plus", configured: true, baseSource: "USER"},
		{name: "switching provider in a higher layer drops the lower layer's provider settings",
			user:     `{"provider": "openai", "base_url": "https://corp.example/v1", "model": "gpt-4.1", "api_key_env": "CORP_KEY"}`,
			env:      fakeEnv{"PINCER_PROVIDER": "deepseek"},
			provider: "deepseek", baseURL: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY", model: "deepseek-v4-flash", configured: true, baseSource: "preset deepseek", warnings: 2},
		{name: "a model set with no provider is kept when a provider is chosen later",
			user:     `{"model": "gpt-4.1"}`,
			env:      fakeEnv{"PINCER_PROVIDER": "openai"},
			provider: "openai", baseURL: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY", model: "gpt-4.1", configured: true, baseSource: "preset openai"},
		{name: "restating the same provider keeps its settings",
			user:     `{"provider": "deepseek", "model": "deepseek-v4-pro"}`,
			project:  `{"provider": "deepseek"}`,
			provider: "deepseek", baseURL: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY", model: "deepseek-v4-pro", configured: true, baseSource: "preset deepseek"},
		{name: "a model flag applies to the provider from a file",
			user:     `{"provider": "openai", "model": "gpt-5"}`,
			flags:    Overrides{Model: Ptr("gpt-4.1")},
			provider: "openai", baseURL: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY", model: "gpt-4.1", configured: true, baseSource: "preset openai"},
		{name: "provider and model flags together",
			user:     `{"provider": "openai", "model": "gpt-5"}`,
			flags:    Overrides{Provider: Ptr("groq"), Model: Ptr("llama-3.3-70b-versatile")},
			provider: "groq", baseURL: "https://api.groq.com/openai/v1", keyEnv: "GROQ_API_KEY", model: "llama-3.3-70b-versatile", configured: true, baseSource: "preset groq"},
		{name: "switching to a local server leaves the model to discovery",
			user:     `{"provider": "openai", "model": "gpt-5"}`,
			project:  `{"provider": "lmstudio"}`,
			provider: "lmstudio", baseURL: "http://localhost:1234/v1", configured: true, baseSource: "preset lmstudio", warnings: 1},
		{name: "api_key_env given with a preset is kept",
			user:     `{"provider": "openrouter", "api_key_env": "MY_OR_KEY", "model": "openai/gpt-5-mini"}`,
			provider: "openrouter", baseURL: "https://openrouter.ai/api/v1", keyEnv: "MY_OR_KEY", model: "openai/gpt-5-mini", configured: true, baseSource: "preset openrouter"},
		{name: "vllm preset names its optional key variable",
			flags:    Overrides{Provider: Ptr("vllm")},
			provider: "vllm", baseURL: "http://localhost:8000/v1", keyEnv: "VLLM_API_KEY", configured: true, baseSource: "preset vllm"},
		{name: "mimo preset",
			env:      fakeEnv{"PINCER_PROVIDER": "mimo"},
			provider: "mimo", baseURL: "https://api.xiaomimimo.com/v1", keyEnv: "MIMO_API_KEY", model: "mimo-v2.5-pro", configured: true, baseSource: "preset mimo"},
		{name: "custom from a flag keeps a lower layer's base_url",
			user:     `{"base_url": "http://box:9000/v1", "model": "m"}`,
			flags:    Overrides{Provider: Ptr("custom")},
			provider: "custom", baseURL: "http://box:9000/v1", model: "m", configured: true, baseSource: "USER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			for k, v := range tt.env {
				w.env[k] = v
			}
			if tt.user != "" {
				w.writeUser(t, tt.user)
			}
			if tt.project != "" {
				w.writeProject(t, tt.project)
			}
			c, s := w.mustLoad(t, tt.flags)
			got := []string{c.Provider, c.BaseURL, c.APIKeyEnv, c.Model}
			want := []string{tt.provider, tt.baseURL, tt.keyEnv, tt.model}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("provider, base_url, api_key_env, model = %q, want %q", got, want)
			}
			if s.ProviderConfigured != tt.configured {
				t.Errorf("ProviderConfigured = %v, want %v", s.ProviderConfigured, tt.configured)
			}
			wantSrc := strings.ReplaceAll(tt.baseSource, "USER", w.userPath())
			if got := s.Of("base_url").String(); got != wantSrc {
				t.Errorf("source of base_url = %q, want %q", got, wantSrc)
			}
			if len(s.Warnings) != tt.warnings {
				t.Errorf("warnings = %q, want %d", s.Warnings, tt.warnings)
			}
		})
	}
}

func TestSwitchWarningNamesWhatWasDropped(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"provider": "openai", "model": "gpt-4.1"}`)
	w.env[EnvProvider] = "deepseek"
	_, s := w.mustLoad(t, Overrides{})
	if len(s.Warnings) != 1 {
		t.Fatalf("warnings = %q, want 1", s.Warnings)
	}
	for _, part := range []string{`model "gpt-4.1"`, "~/.config/pincer/config.json", `"openai"`, `"deepseek"`, "env PINCER_PROVIDER"} {
		if !strings.Contains(s.Warnings[0], part) {
			t.Errorf("warning %q does not mention %s", s.Warnings[0], part)
		}
	}
}

func TestPincerConfigReplacesUserFile(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"theme": "from-default-path"}`)
	other := w.home + "/elsewhere.json"
	writeFile(t, other, `{"theme": "from-named-file", "api_key": "sk-named"}`)
	w.env[EnvConfig] = other
	c, s := w.mustLoad(t, Overrides{})
	if c.Theme != "from-named-file" || c.APIKey != "sk-named" {
		t.Errorf("theme, key = %q, %q; want the named file's values", c.Theme, c.APIKey)
	}
	if s.Of("theme").Kind != FromUserFile || s.Of("theme").Name != other {
		t.Errorf("source = %+v, want the named file as the user layer", s.Of("theme"))
	}
}

func TestPincerConfigMissingFileIsAnError(t *testing.T) {
	w := newWorld(t)
	w.env[EnvConfig] = w.home + "/nope.json"
	_, _, err := w.load(Overrides{})
	ps := problemsOf(t, err)
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "PINCER_CONFIG names") || !strings.Contains(ps[0].Message, "nope.json") {
		t.Fatalf("problems = %v, want one naming PINCER_CONFIG and the file", err)
	}
}

func TestXDGConfigHome(t *testing.T) {
	w := newWorld(t)
	xdg := w.home + "/xdg"
	w.env["XDG_CONFIG_HOME"] = xdg
	writeFile(t, xdg+"/pincer/config.json", `{"theme": "xdg"}`)
	w.writeUser(t, `{"theme": "home"}`)
	c, _ := w.mustLoad(t, Overrides{})
	if c.Theme != "xdg" {
		t.Errorf("theme = %q, want the XDG file's", c.Theme)
	}
}

func TestMissingFilesAreFine(t *testing.T) {
	w := newWorld(t)
	c, s := w.mustLoad(t, Overrides{})
	if len(s.Files) != 0 {
		t.Errorf("Files = %v, want none", s.Files)
	}
	if c.ContextWindow != DefaultContextWindow {
		t.Errorf("context_window = %d, want the default", c.ContextWindow)
	}
}

func TestEnvValuesAreTrimmedAndEmptyIsUnset(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"model": "file-model"}`)
	w.env[EnvModel] = "   "
	w.env[EnvAPIKey] = "sk-abc\n"
	c, _ := w.mustLoad(t, Overrides{})
	if c.Model != "file-model" {
		t.Errorf("model = %q: a blank PINCER_MODEL must not override the file", c.Model)
	}
	if c.APIKey != "sk-abc" {
		t.Errorf("api_key = %q, want it trimmed", c.APIKey)
	}
}

func TestEmptyFlagIsNotGiven(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"model": "file-model"}`)
	c, s := w.mustLoad(t, Overrides{Model: Ptr("")})
	if c.Model != "file-model" || s.Of("model").Kind != FromUserFile {
		t.Errorf("model = %q from %v; an empty --model must not count", c.Model, s.Of("model"))
	}
}

func TestDataDirExpandsHome(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"data_dir": "~/pincer-data"}`)
	c, _ := w.mustLoad(t, Overrides{})
	if want := w.home + "/pincer-data"; c.DataDir != want {
		t.Errorf("data_dir = %q, want %q", c.DataDir, want)
	}
}

func TestProjectSensitive(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"provider": "openai", "allow": ["ls"]}`)
	w.writeProject(t, `{"base_url": "https://elsewhere.example/v1", "allow": ["make"], "model": "gpt-4.1", "unknown_commands": "safe"}`)
	_, s := w.mustLoad(t, Overrides{})
	want := []string{"base_url", "allow", "unknown_commands"}
	if got := s.ProjectSensitive(); !reflect.DeepEqual(got, want) {
		t.Errorf("ProjectSensitive = %v, want %v", got, want)
	}
}

func TestNeedsModelDiscovery(t *testing.T) {
	tests := []struct {
		provider, model string
		want            bool
	}{
		{"ollama", "", true},
		{"lmstudio", "", true},
		{"vllm", "", true},
		{"ollama", "llama3.2", false},
		{"openai", "", false},
		{"custom", "", false},
		{"nope", "", false},
	}
	for _, tt := range tests {
		c := Config{Provider: tt.provider, Model: tt.model}
		if got := c.NeedsModelDiscovery(); got != tt.want {
			t.Errorf("%s/%q: NeedsModelDiscovery = %v, want %v", tt.provider, tt.model, got, tt.want)
		}
	}
}

func TestLoadReturnsWhatItCouldMergeOnError(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"theme": "dark", "max_iterations": 0}`)
	c, s, err := w.load(Overrides{})
	if err == nil {
		t.Fatal("want an error for max_iterations 0")
	}
	if c.Theme != "dark" || s.Of("theme").Kind != FromUserFile {
		t.Errorf("theme = %q from %v; the good values must still be merged", c.Theme, s.Of("theme"))
	}
}

func TestMarshalJSONRoundTripsExceptKey(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"provider": "openai", "api_key": "sk-secret-123", "command_timeout": "45s", "temperature": 0.3}`)
	c, _ := w.mustLoad(t, Overrides{})
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-secret-123") {
		t.Fatalf("JSON leaks the key: %s", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	c.APIKey = redactedKey
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, c)
	}
}

func TestKeyForOneProviderIsNotSentToAnother(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"provider": "openai", "api_key": "sk-openai-secret"}`)
	w.env[EnvProvider] = "deepseek"
	w.env["DEEPSEEK_API_KEY"] = "sk-deepseek"
	c, s := w.mustLoad(t, Overrides{})
	if got := c.ResolvedAPIKey(w.env.get); got != "sk-deepseek" {
		t.Errorf("key = %q, want DeepSeek's own key", got)
	}
	if c.APIKey != "" || s.Of("api_key").Kind != FromDefault {
		t.Errorf("api_key still set from %v", s.Of("api_key"))
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "api_key from ~/.config/pincer/config.json was set for provider \"openai\"") {
		t.Errorf("warnings = %q", s.Warnings)
	}
	if strings.Contains(strings.Join(s.Warnings, " "), "sk-openai-secret") {
		t.Error("a warning shows the key")
	}
}

func TestNoHomeDirectory(t *testing.T) {
	env := fakeEnv{EnvProvider: "openrouter"}
	_, s, err := Load(LoadOptions{Getenv: env.get})
	if len(s.Files) != 0 {
		t.Errorf("Files = %v with no home, want none", s.Files)
	}
	if err == nil || !strings.Contains(err.Error(), `set "model" in ~/.config/pincer/config.json`) {
		t.Errorf("err = %v, want the usual user file named in the fix", err)
	}
}

func TestDistrustProjectIgnoresSensitiveFields(t *testing.T) {
	for _, distrust := range []bool{false, true} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, ".pincer.json"),
			[]byte(`{"base_url": "https://evil.example/v1", "allow": ["curl *"], "unknown_commands": "safe", "model": "m", "context_window": 8000}`), 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"HOME": t.TempDir()}
		c, srcs, err := Load(LoadOptions{ProjectRoot: root, Getenv: func(k string) string { return env[k] }, DistrustProject: distrust})
		if err != nil {
			t.Fatal(err)
		}
		if distrust {
			if c.BaseURL == "https://evil.example/v1" || len(c.Allow) != 0 || c.UnknownCommands == "safe" {
				t.Errorf("distrusted project still set base_url %q allow %v unknown %q", c.BaseURL, c.Allow, c.UnknownCommands)
			}
			if c.Model != "m" || c.ContextWindow != 8000 {
				t.Errorf("harmless project settings were dropped too: model %q window %d", c.Model, c.ContextWindow)
			}
			if strings.Join(srcs.Ignored, ",") != "base_url,allow,unknown_commands" || len(srcs.Warnings) == 0 || !strings.Contains(srcs.Warnings[0], "pincer trust") {
				t.Errorf("ignored %v, warnings %v", srcs.Ignored, srcs.Warnings)
			}
		} else if c.BaseURL != "https://evil.example/v1" || len(srcs.ProjectSensitive()) != 3 {
			t.Errorf("trusted project: base_url %q, sensitive %v", c.BaseURL, srcs.ProjectSensitive())
		}
	}
}

func TestDistrustedProjectOnlyTightensTheSandbox(t *testing.T) {
	tests := []struct {
		user, project string
		wantMode      string
		wantNetwork   bool
		ignored       string
	}{
		{``, `"sandbox": "off"`, "workspace", true, "sandbox"},
		{``, `"sandbox": "read-only"`, "read-only", true, ""},
		{`"sandbox": "read-only"`, `"sandbox": "workspace"`, "read-only", true, "sandbox"},
		{`"sandbox": "off"`, `"sandbox": "workspace"`, "workspace", true, ""},
		{``, `"sandbox": "bogus"`, "workspace", true, "sandbox"},
		{`"sandbox_network": false`, `"sandbox_network": true`, "workspace", false, "sandbox_network"},
		{``, `"sandbox_network": false`, "workspace", false, ""},
		{``, `"sandbox_writable": ["/"], "approvals": "auto", "command_env_passthrough": ["OPENAI_API_KEY"]`, "workspace", true, "sandbox_writable,command_env_passthrough,approvals"},
		{``, `"sandbox_sockets": ["/var/run/docker.sock"]`, "workspace", true, "sandbox_sockets"},
	}
	for _, tt := range tests {
		t.Run(tt.user+"|"+tt.project, func(t *testing.T) {
			w := newWorld(t)
			if tt.user != "" {
				w.writeUser(t, "{"+tt.user+"}")
			}
			w.writeProject(t, "{"+tt.project+"}")
			env := w.env
			c, srcs, err := Load(LoadOptions{ProjectRoot: w.root, Getenv: func(k string) string { return env[k] }, DistrustProject: true})
			if err != nil {
				t.Fatal(err)
			}
			if c.Sandbox != tt.wantMode || c.SandboxNetwork != tt.wantNetwork || len(c.SandboxWritable) != 0 || len(c.SandboxSockets) != 0 || c.Approvals != "ask" || len(c.CommandEnvPassthrough) != 0 {
				t.Errorf("got sandbox %q network %v writable %v approvals %q passthrough %v", c.Sandbox, c.SandboxNetwork, c.SandboxWritable, c.Approvals, c.CommandEnvPassthrough)
			}
			if got := strings.Join(srcs.Ignored, ","); got != tt.ignored {
				t.Errorf("ignored %q, want %q", got, tt.ignored)
			}
		})
	}
}

// A cloned project may not name the programs pincer starts as language
// servers or runs as its check until the person trusts it.
func TestDistrustProjectIgnoresServersAndCheck(t *testing.T) {
	for _, distrust := range []bool{false, true} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, ".pincer.json"),
			[]byte(`{"model": "m", "lsp": {"go": {"command": "./evil-gopls"}}, "check": "./evil.sh", "auto_check": "on", "check_rounds": 2}`), 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"HOME": t.TempDir()}
		c, srcs, err := Load(LoadOptions{ProjectRoot: root, Getenv: func(k string) string { return env[k] }, DistrustProject: distrust})
		if err != nil {
			t.Fatal(err)
		}
		kept := c.LSP["go"].Command == "./evil-gopls" || c.Check == "./evil.sh" || c.AutoCheck == "on"
		if kept == distrust {
			t.Errorf("distrust=%v: lsp %v check %q auto_check %q", distrust, c.LSP, c.Check, c.AutoCheck)
		}
		if c.CheckRounds != 2 {
			t.Errorf("distrust=%v: check_rounds %d, a harmless setting", distrust, c.CheckRounds)
		}
		if distrust && (strings.Join(srcs.Ignored, ",") != "lsp,check,auto_check" || !strings.Contains(strings.Join(srcs.Warnings, " "), "pincer trust")) {
			t.Errorf("ignored %v, warnings %v", srcs.Ignored, srcs.Warnings)
		}
	}
}
