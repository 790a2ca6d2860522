package config

import (
	"errors"
	"strings"
	"testing"
)

// TestValidationErrors checks that every rule produces one sentence that
// names the field, the bad value, where it came from and the fix.
func TestValidationErrors(t *testing.T) {
	const user = "~/.config/pincer/config.json"
	tests := []struct {
		name          string
		user, project string
		env           fakeEnv
		flags         Overrides
		kind          error
		field         string
		contains      []string // PROJECT stands for the project file's path
		exact         string   // when set, the whole message
		absent        []string
	}{
		{name: "unknown provider from env, with suggestion",
			env:  fakeEnv{"PINCER_PROVIDER": "opnai"},
			kind: ErrInvalidValue, field: "provider",
			contains: []string{`provider "opnai"`, "(from env PINCER_PROVIDER)", `did you mean "openai"?`, "set PINCER_PROVIDER to one of openai, deepseek, dashscope, ollama, lmstudio, vllm, openrouter, groq, mimo, custom"}},
		{name: "auto_check not a choice",
			user: `{"model": "m", "auto_check": "yes"}`,
			kind: ErrInvalidValue, field: "auto_check",
			contains: []string{`auto_check is "yes" (from ` + user + `)`, `"ask"`, `"on" or "off"`}},
		{name: "prompt_profile not a choice",
			user: `{"model": "m", "prompt_profile": "small"}`,
			kind: ErrInvalidValue, field: "prompt_profile",
			contains: []string{`prompt_profile is "small" (from ` + user + `)`, `"auto"`, `"full" or "compact"`}},
		{name: "a negative price",
			user: `{"model": "m", "prices": {"gpt-x": {"input": -1, "output": 2}}}`,
			kind: ErrInvalidValue, field: "prices",
			contains: []string{"prices.gpt-x is input -1, output 2 (from " + user + ")", "0 or more", `{"input": 0.25, "output": 2}`}},
		{name: "a price written as text",
			user: `{"model": "m", "prices": {"gpt-x": {"input": "$3", "output": 2}}}`,
			kind: ErrWrongType, field: "prices",
			contains: []string{"prices in " + user, `such as {"gpt-5-mini": {"input": 0.25, "output": 2}}`}},
		{name: "a price with a misspelt key",
			user: `{"model": "m", "prices": {"gpt-x": {"in": 3, "output": 2}}}`,
			kind: ErrWrongType, field: "prices",
			contains: []string{"prices in " + user, "dollars per million tokens"}},
		{name: "a price for no model",
			user: `{"model": "m", "prices": {" ": {"input": 1, "output": 2}}}`,
			kind: ErrInvalidValue, field: "prices",
			contains: []string{"empty model name", `"gpt-5-mini"`}},
		{name: "check_rounds out of range",
			user: `{"model": "m", "check_rounds": 0}`,
			kind: ErrInvalidValue, field: "check_rounds",
			contains: []string{"check_rounds is 0", "from 1 to 20"}},
		{name: "lsp for an unknown language without a command",
			user: `{"model": "m", "lsp": {"zig": {"extensions": [".zig"]}}}`,
			kind: ErrInvalidValue, field: "lsp",
			contains: []string{`lsp.zig (from ` + user + `) has no "command"`, `{"command": "zls"`}},
		{name: "lsp for an unknown language without extensions",
			user: `{"model": "m", "lsp": {"zig": {"command": "zls"}}}`,
			kind: ErrInvalidValue, field: "lsp",
			contains: []string{`lsp.zig (from ` + user + `) has no "extensions"`}},
		{name: "lsp extension without its dot",
			user: `{"model": "m", "lsp": {"go": {"extensions": ["go"]}}}`,
			kind: ErrInvalidValue, field: "lsp",
			contains: []string{`lists the extension "go"`, `".go"`}},
		{name: "unknown provider in the user file",
			user: `{"provider": "acme"}`,
			kind: ErrInvalidValue, field: "provider",
			contains: []string{`provider "acme" (from ` + user + `)`, `set "provider" in ` + user + ` to one of openai`},
			absent:   []string{"did you mean"}},
		{name: "base_url without a scheme, from a flag",
			user:  `{"model": "m"}`,
			flags: Overrides{BaseURL: Ptr("localhost:11434")},
			kind:  ErrInvalidValue, field: "base_url",
			contains: []string{`base_url "localhost:11434" (from flag --base-url) is not an http:// or https:// URL`, "give --base-url a full URL such as https://api.openai.com/v1"}},
		{name: "base_url with another scheme, from the project file",
			project: `{"base_url": "ftp://models.example/v1", "model": "m"}`,
			kind:    ErrInvalidValue, field: "base_url",
			contains: []string{`base_url "ftp://models.example/v1" (from PROJECT)`, `set "base_url" in PROJECT to a full URL`}},
		{name: "base_url naming the endpoint",
			env:  fakeEnv{"PINCER_BASE_URL": "https://api.example.com/v1/chat/completions", "PINCER_MODEL": "m"},
			kind: ErrInvalidValue, field: "base_url",
			contains: []string{`"https://api.example.com/v1/chat/completions" (from env PINCER_BASE_URL) names an endpoint`, `set PINCER_BASE_URL to "https://api.example.com/v1"`}},
		{name: "custom provider without base_url",
			user: `{"provider": "custom", "model": "m"}`,
			kind: ErrMissing, field: "base_url",
			contains: []string{`base_url is empty for provider "custom"`, `set "base_url" in ` + user + ` or pass --base-url`}},
		{name: "model empty for custom (the issue's sentence)",
			flags: Overrides{BaseURL: Ptr("http://box:8000/v1")},
			kind:  ErrMissing, field: "model",
			exact: `config: model is empty; set "model" in ~/.config/pincer/config.json or pass --model`},
		{name: "model empty for a cloud preset without a default",
			user: `{"provider": "openrouter"}`,
			kind: ErrMissing, field: "model",
			contains: []string{"model is empty;", `set "model" in ` + user + ` or pass --model`, `provider openrouter has no default; for example "openai/gpt-5-mini"`}},
		{name: "model emptied in the project file",
			user:    `{"provider": "openai"}`,
			project: `{"model": ""}`,
			kind:    ErrMissing, field: "model",
			contains: []string{"model is empty (from PROJECT)", `set "model" in PROJECT or pass --model`}},
		{name: "context_window too small, from a flag",
			flags: Overrides{ContextWindow: Ptr(500)},
			kind:  ErrInvalidValue, field: "context_window",
			contains: []string{"context_window is 500 (from flag --context-window)", "give --context-window at least 1000 tokens"}},
		{name: "max_iterations zero",
			user: `{"max_iterations": 0}`,
			kind: ErrInvalidValue, field: "max_iterations",
			contains: []string{"max_iterations is 0 (from " + user + ")", `set "max_iterations" in ` + user + ` to a whole number from 1 to 1000`}},
		{name: "max_iterations too large",
			project: `{"max_iterations": 1001}`,
			kind:    ErrInvalidValue, field: "max_iterations",
			contains: []string{"max_iterations is 1001 (from PROJECT)"}},
		{name: "max_iterations negative from a flag",
			flags: Overrides{MaxIterations: Ptr(-3)},
			kind:  ErrInvalidValue, field: "max_iterations",
			contains: []string{"max_iterations is -3 (from flag --max-iterations)", "give --max-iterations a whole number from 1 to 1000"}},
		{name: "compress_at zero",
			user: `{"compress_at": 0}`,
			kind: ErrInvalidValue, field: "compress_at",
			contains: []string{"compress_at is 0 (from " + user + ")", "above 0 and at most 1"}},
		{name: "compress_at above one",
			user: `{"compress_at": 1.5}`,
			kind: ErrInvalidValue, field: "compress_at",
			contains: []string{"compress_at is 1.5"}},
		{name: "keep_recent below two",
			project: `{"keep_recent": 1}`,
			kind:    ErrInvalidValue, field: "keep_recent",
			contains: []string{"keep_recent is 1 (from PROJECT)", "at least 2"}},
		{name: "negative command_timeout",
			user: `{"command_timeout": "-5s"}`,
			kind: ErrInvalidValue, field: "command_timeout",
			contains: []string{`command_timeout is "-5s" (from ` + user + `)`, "not negative"}},
		{name: "negative idle_timeout in seconds",
			user: `{"idle_timeout": -1}`,
			kind: ErrInvalidValue, field: "idle_timeout",
			contains: []string{`idle_timeout is "-1s"`, "not negative"}},
		{name: "scheduler_interval below a second",
			user: `{"scheduler_interval": "500ms"}`,
			kind: ErrInvalidValue, field: "scheduler_interval",
			contains: []string{`scheduler_interval is "500ms"`, `at least "1s"`}},
		{name: "max_retries negative",
			user: `{"max_retries": -1}`,
			kind: ErrInvalidValue, field: "max_retries",
			contains: []string{"max_retries is -1", "from 0 to 20"}},
		{name: "tool_args_max_kb over the maximum",
			user: `{"tool_args_max_kb": 100000}`,
			kind: ErrInvalidValue, field: "tool_args_max_kb",
			contains: []string{"tool_args_max_kb is 100000", "from 1 to 65536"}},
		{name: "checkpoint_max_file_mb zero",
			user: `{"checkpoint_max_file_mb": 0}`,
			kind: ErrInvalidValue, field: "checkpoint_max_file_mb",
			contains: []string{"checkpoint_max_file_mb is 0", "from 1 to 1024"}},
		{name: "checkpoint_keep zero",
			user: `{"checkpoint_keep": 0}`,
			kind: ErrInvalidValue, field: "checkpoint_keep",
			contains: []string{"checkpoint_keep is 0", "at least 1"}},
		{name: "checkpoint_max_age below an hour",
			user: `{"checkpoint_max_age": "10m"}`,
			kind: ErrInvalidValue, field: "checkpoint_max_age",
			contains: []string{`checkpoint_max_age is "10m0s"`, `at least "1h0m0s"`}},
		{name: "web_timeout below a second",
			user: `{"web_timeout": "100ms"}`,
			kind: ErrInvalidValue, field: "web_timeout",
			contains: []string{`web_timeout is "100ms"`, `at least "1s"`}},
		{name: "temperature out of range",
			user: `{"temperature": 2.5}`,
			kind: ErrInvalidValue, field: "temperature",
			contains: []string{"temperature is 2.5", "from 0 to 2"}},
		{name: "empty theme",
			project: `{"theme": " "}`,
			kind:    ErrMissing, field: "theme",
			contains: []string{"theme is empty (from PROJECT)", `a theme name or "auto"`}},
		{name: "unknown_commands not a choice",
			user: `{"unknown_commands": "ask"}`,
			kind: ErrInvalidValue, field: "unknown_commands",
			contains: []string{`unknown_commands is "ask"`, `"confirm" (ask first) or "safe" (run at once)`}},
		{name: "empty allow rule",
			user: `{"allow": ["ls", ""]}`,
			kind: ErrInvalidValue, field: "allow",
			contains: []string{"allow has an empty rule (from " + user + ")", "remove the empty string"}},
		{name: "empty deny rule",
			project: `{"deny": [""]}`,
			kind:    ErrInvalidValue, field: "deny",
			contains: []string{"deny has an empty rule (from PROJECT)"}},
		{name: "api_key_env written with a dollar",
			user: `{"provider": "openai", "api_key_env": "$OPENAI_API_KEY"}`,
			kind: ErrInvalidValue, field: "api_key_env",
			contains: []string{`api_key_env "$OPENAI_API_KEY"`, `set "api_key_env" in ` + user + ` to "OPENAI_API_KEY"`}},
		{name: "api_key_env holding a key is not echoed",
			user: `{"provider": "openai", "api_key_env": "sk-proj-abc123XYZ"}`,
			kind: ErrInvalidValue, field: "api_key_env",
			contains: []string{"api_key_env (from " + user + ") is not an environment variable name", "put the key in that variable"},
			absent:   []string{"sk-proj-abc123XYZ"}},
		{name: "api_key_env holding a key made of name characters is not echoed",
			user: `{"provider": "groq", "api_key_env": "gsk_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0"}`,
			kind: ErrInvalidValue, field: "api_key_env",
			contains: []string{"api_key_env (from " + user + ") is not an environment variable name"},
			absent:   []string{"gsk_a1B2"}},
		{name: "relative data_dir",
			env:  fakeEnv{"PINCER_DATA_DIR": "data"},
			kind: ErrInvalidValue, field: "data_dir",
			contains: []string{`data_dir is "data" (from env PINCER_DATA_DIR), not an absolute path`, "set PINCER_DATA_DIR to an absolute path"}},
		{name: "api key in the project file",
			project: `{"model": "x",
  "api_key": "sk-committed-secret"}`,
			kind: ErrKeyInProject, field: "api_key",
			contains: []string{"api_key is set in PROJECT (line 2)", "would be committed", "remove it", user},
			absent:   []string{"sk-committed-secret"}},
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
			_, _, err := w.load(tt.flags)
			ps := problemsOf(t, err)
			if len(ps) != 1 {
				t.Fatalf("got %d problems, want 1:\n%v", len(ps), err)
			}
			p := ps[0]
			if !errors.Is(err, tt.kind) || p.Field != tt.field {
				t.Errorf("kind/field = %v/%q, want %v/%q", p.Kind, p.Field, tt.kind, tt.field)
			}
			if !strings.HasPrefix(p.Message, "config: ") || strings.Contains(p.Message, "\n") {
				t.Errorf("message %q must be one line starting with \"config: \"", p.Message)
			}
			if tt.exact != "" && p.Message != tt.exact {
				t.Errorf("message:\n got %s\nwant %s", p.Message, tt.exact)
			}
			for _, part := range tt.contains {
				part = strings.ReplaceAll(part, "PROJECT", w.projectPath())
				if !strings.Contains(p.Message, part) {
					t.Errorf("message %q\n does not contain %q", p.Message, part)
				}
			}
			for _, part := range tt.absent {
				if strings.Contains(err.Error(), part) {
					t.Errorf("message %q must not contain %q", err.Error(), part)
				}
			}
		})
	}
}

func TestAllProblemsAreReported(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"modle": "x", "max_iterations": 0}`)
	w.writeProject(t, `{"api_key": "sk-x", "keep_recent": "ten"}`)
	w.env[EnvProvider] = "nope"
	_, _, err := w.load(Overrides{ContextWindow: Ptr(10)})
	ps := problemsOf(t, err)
	wantKinds := []error{ErrUnknownField, ErrWrongType, ErrKeyInProject, ErrInvalidValue, ErrInvalidValue, ErrInvalidValue}
	if len(ps) != len(wantKinds) {
		t.Fatalf("got %d problems, want %d:\n%v", len(ps), len(wantKinds), err)
	}
	for i, k := range wantKinds {
		if !errors.Is(ps[i], k) {
			t.Errorf("problem %d = %q, want kind %v", i, ps[i].Message, k)
		}
	}
	if lines := strings.Split(err.Error(), "\n"); len(lines) != len(ps) {
		t.Errorf("Error() has %d lines, want one per problem", len(lines))
	}
	for _, k := range []error{ErrUnknownField, ErrWrongType, ErrKeyInProject, ErrInvalidValue} {
		if !errors.Is(err, k) {
			t.Errorf("errors.Is(err, %v) = false", k)
		}
	}
	var p *Problem
	if !errors.As(err, &p) {
		t.Error("errors.As(err, *Problem) = false")
	}
}

// TestPriceOf: a configured price wins over a built-in one, and a model
// with neither has no price.
func TestPriceOf(t *testing.T) {
	c := Defaults()
	c.Prices = map[string]Price{"gpt-5-mini": {Input: 1, Output: 1}, "local": {Input: 0, Output: 0}}
	for _, tt := range []struct {
		model string
		want  Price
		ok    bool
	}{
		{"gpt-5-mini", Price{Input: 1, Output: 1}, true},
		{"gpt-5", Price{Input: 1.25, Output: 10}, true},
		{"local", Price{}, true},
		{"qwen3", Price{}, false},
	} {
		if got, ok := c.PriceOf(tt.model); got != tt.want || ok != tt.ok {
			t.Errorf("PriceOf(%q) = %v, %v; want %v, %v", tt.model, got, ok, tt.want, tt.ok)
		}
	}
	if got := (Price{Input: 0.25, Output: 2}).Cost(1_000_000, 500_000); got != 1.25 {
		t.Errorf("Cost = %v, want 1.25", got)
	}
}
