package config

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"path/filepath"
	"pincer/internal/envname"
	"slices"
	"strings"
	"time"
)

// validate adds a Problem for every value that is out of range or missing.
func (ld *loader) validate(c Config, fields map[string]Source) {
	bad := func(kind error, field, value, sentence string) {
		ld.ps.add(&Problem{Kind: kind, Field: field, Value: value, Source: fields[field], Message: "config: " + sentence})
	}
	// is describes a value and its source: `max_iterations is 0 (from X)`.
	is := func(field, value string) string {
		return fmt.Sprintf("%s is %s%s", field, value, ld.from(fields[field]))
	}

	if _, ok := LookupPreset(c.Provider); !ok {
		v := fmt.Sprintf("%q", c.Provider)
		hint := ""
		if s := suggest(c.Provider, presetNames()); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		bad(ErrInvalidValue, "provider", v, fmt.Sprintf("provider %s%s is not known%s; %s",
			v, ld.from(fields["provider"]), hint, ld.fix("provider", fields["provider"], "one of "+strings.Join(presetNames(), ", "))))
	}

	ld.validateBaseURL(c, fields, bad)
	for _, id := range c.Telegram.AllowedUsers {
		if id <= 0 {
			bad(ErrInvalidValue, "telegram", fmt.Sprint(id), fmt.Sprintf("telegram.allowed_users holds %d%s, which is not a Telegram user id; "+
				"list the positive numeric ids of people (message @userinfobot in Telegram to learn yours)", id, ld.from(fields["telegram"])))
		}
	}
	if u := c.Telegram.APIURL; u != "" {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			bad(ErrInvalidValue, "telegram", fmt.Sprintf("%q", u), fmt.Sprintf("telegram.api_url %q%s is not an http:// or https:// URL; "+
				"remove it to use Telegram's server, or give your Bot API server's address such as http://localhost:8081", u, ld.from(fields["telegram"])))
		}
	}
	if r := c.Telegram.RecallScope; r != "" && r != "chat" && r != "project" && r != "all" {
		bad(ErrInvalidValue, "telegram", fmt.Sprintf("%q", r), fmt.Sprintf("telegram.recall_scope is %q%s; "+
			`write "chat" (a chat recalls its own sessions only, the default), "project" (the project's sessions and notes) or "all" (every project's)`, r, ld.from(fields["telegram"])))
	}
	ld.validateModel(c, fields, bad)

	if c.ContextWindow < 1000 {
		bad(ErrInvalidValue, "context_window", fmt.Sprint(c.ContextWindow), is("context_window", fmt.Sprint(c.ContextWindow))+
			"; "+ld.fix("context_window", fields["context_window"], "at least 1000 tokens, such as 30000"))
	}
	if c.MaxIterations < 1 || c.MaxIterations > 1000 {
		bad(ErrInvalidValue, "max_iterations", fmt.Sprint(c.MaxIterations), is("max_iterations", fmt.Sprint(c.MaxIterations))+
			"; "+ld.fix("max_iterations", fields["max_iterations"], "a whole number from 1 to 1000, such as 30"))
	}
	if !(c.CompressAt > 0 && c.CompressAt <= 1) {
		bad(ErrInvalidValue, "compress_at", fmt.Sprint(c.CompressAt), is("compress_at", fmt.Sprint(c.CompressAt))+
			"; "+ld.fix("compress_at", fields["compress_at"], "a fraction above 0 and at most 1, such as 0.8"))
	}
	if c.KeepRecent < 2 {
		bad(ErrInvalidValue, "keep_recent", fmt.Sprint(c.KeepRecent), is("keep_recent", fmt.Sprint(c.KeepRecent))+
			"; "+ld.fix("keep_recent", fields["keep_recent"], "at least 2, such as 10"))
	}
	if c.CheckpointMaxFileMB < 1 || c.CheckpointMaxFileMB > 1024 {
		bad(ErrInvalidValue, "checkpoint_max_file_mb", fmt.Sprint(c.CheckpointMaxFileMB), is("checkpoint_max_file_mb", fmt.Sprint(c.CheckpointMaxFileMB))+
			"; "+ld.fix("checkpoint_max_file_mb", fields["checkpoint_max_file_mb"], "a whole number of MiB from 1 to 1024, such as 5"))
	}
	if c.ToolArgsMaxKB < 1 || c.ToolArgsMaxKB > 65536 {
		bad(ErrInvalidValue, "tool_args_max_kb", fmt.Sprint(c.ToolArgsMaxKB), is("tool_args_max_kb", fmt.Sprint(c.ToolArgsMaxKB))+
			"; "+ld.fix("tool_args_max_kb", fields["tool_args_max_kb"], "a whole number of KiB from 1 to 65536, such as 1024"))
	}
	if c.CheckpointKeep < 1 {
		bad(ErrInvalidValue, "checkpoint_keep", fmt.Sprint(c.CheckpointKeep), is("checkpoint_keep", fmt.Sprint(c.CheckpointKeep))+
			"; "+ld.fix("checkpoint_keep", fields["checkpoint_keep"], "at least 1, such as 200"))
	}
	if c.MaxRetries < 0 || c.MaxRetries > 20 {
		bad(ErrInvalidValue, "max_retries", fmt.Sprint(c.MaxRetries), is("max_retries", fmt.Sprint(c.MaxRetries))+
			"; "+ld.fix("max_retries", fields["max_retries"], "a whole number from 0 to 20, such as 4"))
	}
	for _, d := range []struct {
		field string
		value Duration
		least time.Duration
		eg    string
	}{
		{"command_timeout", c.CommandTimeout, 0, `"2m" (0 means no limit)`},
		{"idle_timeout", c.IdleTimeout, 0, `"90s" (0 means no limit)`},
		{"first_byte_timeout", c.FirstByteTimeout, 0, `"90s" (0 means no limit)`},
		{"silent_retry_budget", c.SilentRetryBudget, 0, `"3m" (0 means no limit)`},
		{"scheduler_interval", c.SchedulerInterval, time.Second, `"30s"`},
		{"checkpoint_max_age", c.CheckpointMaxAge, time.Hour, `"720h"`},
		{"web_timeout", c.WebTimeout, time.Second, `"20s"`},
		{"mcp_timeout", c.MCPTimeout, time.Second, `"60s"`},
	} {
		if d.value.Std() >= d.least {
			continue
		}
		want := "a duration that is not negative, such as " + d.eg
		if d.least > 0 {
			want = fmt.Sprintf("at least %q, such as %s", d.least.String(), d.eg)
		}
		v := fmt.Sprintf("%q", d.value.String())
		bad(ErrInvalidValue, d.field, v, is(d.field, v)+"; "+ld.fix(d.field, fields[d.field], want))
	}
	if t := c.Temperature; t != nil && (*t < 0 || *t > 2) {
		bad(ErrInvalidValue, "temperature", fmt.Sprint(*t), is("temperature", fmt.Sprint(*t))+
			"; "+ld.fix("temperature", fields["temperature"], "a number from 0 to 2, or leave it out"))
	}
	if strings.TrimSpace(c.Theme) == "" {
		bad(ErrMissing, "theme", `""`, "theme is empty"+ld.from(fields["theme"])+"; "+
			ld.fix("theme", fields["theme"], `a theme name or "auto"`))
	} else if ld.checkTheme != nil {
		if problem, want := ld.checkTheme(c.Theme); problem != "" {
			v := fmt.Sprintf("%q", c.Theme)
			bad(ErrInvalidValue, "theme", v, is("theme", v)+", "+problem+"; "+ld.fix("theme", fields["theme"], want))
		}
	}
	if c.UnknownCommands != "confirm" && c.UnknownCommands != "safe" {
		v := fmt.Sprintf("%q", c.UnknownCommands)
		bad(ErrInvalidValue, "unknown_commands", v, is("unknown_commands", v)+"; "+
			ld.fix("unknown_commands", fields["unknown_commands"], `"confirm" (ask first) or "safe" (run at once)`))
	}
	for _, field := range []string{"allow", "deny"} {
		rules := c.Allow
		if field == "deny" {
			rules = c.Deny
		}
		for _, r := range rules {
			if strings.TrimSpace(r) == "" {
				bad(ErrInvalidValue, field, `""`, fmt.Sprintf("%s has an empty rule%s; remove the empty string from the %q list",
					field, ld.from(fields[field]), field))
				break
			}
		}
	}
	if !c.AutoRecall.valid() {
		v := fmt.Sprintf("%q", c.AutoRecall)
		bad(ErrInvalidValue, "auto_recall", v, is("auto_recall", v)+"; "+
			ld.fix("auto_recall", fields["auto_recall"], `"auto" (strong matches only, the default), "always" or "off"`))
	}
	if c.RecallScope != "project" && c.RecallScope != "all" {
		v := fmt.Sprintf("%q", c.RecallScope)
		bad(ErrInvalidValue, "recall_scope", v, is("recall_scope", v)+"; "+
			ld.fix("recall_scope", fields["recall_scope"], `"project" (this project's sessions, the default) or "all" (every project's)`))
	}
	if c.Sandbox != "workspace" && c.Sandbox != "read-only" && c.Sandbox != "off" {
		v := fmt.Sprintf("%q", c.Sandbox)
		bad(ErrInvalidValue, "sandbox", v, is("sandbox", v)+"; "+
			ld.fix("sandbox", fields["sandbox"], `"workspace" (write only the project), "read-only" or "off"`))
	}
	if c.Approvals != "ask" && c.Approvals != "auto" {
		v := fmt.Sprintf("%q", c.Approvals)
		bad(ErrInvalidValue, "approvals", v, is("approvals", v)+"; "+
			ld.fix("approvals", fields["approvals"], `"ask" (default) or "auto" (run ordinary commands unasked inside the sandbox)`))
	}
	if c.AutoCheck != "ask" && c.AutoCheck != "on" && c.AutoCheck != "off" {
		v := fmt.Sprintf("%q", c.AutoCheck)
		bad(ErrInvalidValue, "auto_check", v, is("auto_check", v)+"; "+
			ld.fix("auto_check", fields["auto_check"], `"ask" (ask the first time in each project, the default), "on" or "off"`))
	}
	if c.PromptProfile != "auto" && c.PromptProfile != "full" && c.PromptProfile != "compact" {
		v := fmt.Sprintf("%q", c.PromptProfile)
		bad(ErrInvalidValue, "prompt_profile", v, is("prompt_profile", v)+"; "+
			ld.fix("prompt_profile", fields["prompt_profile"], `"auto" (compact for windows of 16384 tokens or less, the default), "full" or "compact"`))
	}
	for _, model := range sortedModels(c.Prices) {
		p := c.Prices[model]
		switch {
		case strings.TrimSpace(model) == "":
			bad(ErrInvalidValue, "prices", `""`, "prices has a price for an empty model name"+ld.from(fields["prices"])+"; name the model as the provider knows it, such as \"gpt-5-mini\"")
		case !(p.Input >= 0) || !(p.Output >= 0) || math.IsInf(p.Input, 0) || math.IsInf(p.Output, 0):
			v := fmt.Sprintf("input %v, output %v", p.Input, p.Output)
			bad(ErrInvalidValue, "prices", v, fmt.Sprintf("prices.%s is %s%s; give dollars per million tokens, 0 or more, such as {\"input\": 0.25, \"output\": 2}", model, v, ld.from(fields["prices"])))
		}
	}
	if c.CheckRounds < 1 || c.CheckRounds > 20 {
		bad(ErrInvalidValue, "check_rounds", fmt.Sprint(c.CheckRounds), is("check_rounds", fmt.Sprint(c.CheckRounds))+
			"; "+ld.fix("check_rounds", fields["check_rounds"], "a whole number from 1 to 20, such as 3"))
	}
	for lang, s := range c.LSP {
		switch {
		case lang == "" || strings.ContainsAny(lang, " /\\"):
			bad(ErrInvalidValue, "lsp", fmt.Sprintf("%q", lang), fmt.Sprintf("lsp%s names the language %q; name it with one word, such as \"go\"", ld.from(fields["lsp"]), lang))
		case !s.Disabled && s.Command == "" && !knownLanguage(lang):
			bad(ErrInvalidValue, "lsp", lang, fmt.Sprintf("lsp.%s%s has no \"command\"; pincer knows no server for %s, so give one, such as {\"command\": \"zls\", \"extensions\": [\".zig\"]}", lang, ld.from(fields["lsp"]), lang))
		case !s.Disabled && len(s.Extensions) == 0 && !knownLanguage(lang):
			bad(ErrInvalidValue, "lsp", lang, fmt.Sprintf("lsp.%s%s has no \"extensions\"; list the file endings of %s, such as [\".zig\"]", lang, ld.from(fields["lsp"]), lang))
		}
		for _, e := range s.Extensions {
			if !strings.HasPrefix(e, ".") || len(e) < 2 {
				bad(ErrInvalidValue, "lsp", e, fmt.Sprintf("lsp.%s%s lists the extension %q; write file endings with their dot, such as \".go\"", lang, ld.from(fields["lsp"]), e))
				break
			}
		}
	}
	for _, w := range c.SandboxWritable {
		if !filepath.IsAbs(w) {
			v := fmt.Sprintf("%q", w)
			bad(ErrInvalidValue, "sandbox_writable", v, fmt.Sprintf("sandbox_writable has %s%s, not an absolute path; write it as an absolute path or ~/…, such as \"~/.cache/bazel\"", v, ld.from(fields["sandbox_writable"])))
			break
		}
	}
	for _, w := range c.SandboxSockets {
		if !filepath.IsAbs(w) {
			v := fmt.Sprintf("%q", w)
			bad(ErrInvalidValue, "sandbox_sockets", v, fmt.Sprintf("sandbox_sockets has %s%s, not an absolute path; write it as an absolute path or ~/…, such as \"/run/user/1000/ssh-agent.socket\"", v, ld.from(fields["sandbox_sockets"])))
			break
		}
	}
	for _, name := range c.CommandEnvPassthrough {
		if !envname.Valid(name) {
			bad(ErrInvalidValue, "command_env_passthrough", redactedKey, fmt.Sprintf("command_env_passthrough%s has an entry that is not a variable name (it may be a key, so it is not shown); list names such as \"GITHUB_TOKEN\"", ld.from(fields["command_env_passthrough"])))
			break
		}
	}
	ld.validateKeyEnv(c, fields, bad)
	ld.validateHooks(c, fields, bad)
	if c.DataDir != "" && !filepath.IsAbs(c.DataDir) {
		v := fmt.Sprintf("%q", c.DataDir)
		bad(ErrInvalidValue, "data_dir", v, is("data_dir", v)+", not an absolute path; "+
			ld.fix("data_dir", fields["data_dir"], "an absolute path, such as \"~/pincer-data\""))
	}
}

type badFunc func(kind error, field, value, sentence string)

func (ld *loader) validateBaseURL(c Config, fields map[string]Source, bad badFunc) {
	src := fields["base_url"]
	if c.BaseURL == "" {
		if _, known := LookupPreset(c.Provider); !known {
			return // the provider problem says it all
		}
		bad(ErrMissing, "base_url", `""`, fmt.Sprintf("base_url is empty for provider %q%s; %s or pass --base-url, such as http://localhost:8080/v1",
			c.Provider, ld.from(src), ld.setIn("base_url", src)))
		return
	}
	v := fmt.Sprintf("%q", RedactURL(c.BaseURL))
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad(ErrInvalidValue, "base_url", v, fmt.Sprintf("base_url %s%s is not an http:// or https:// URL; %s",
			v, ld.from(src), ld.fix("base_url", src, "a full URL such as https://api.openai.com/v1")))
		return
	}
	for _, suffix := range []string{"/chat/completions", "/completions"} {
		if trimmed, ok := strings.CutSuffix(strings.TrimRight(c.BaseURL, "/"), suffix); ok {
			bad(ErrInvalidValue, "base_url", v, fmt.Sprintf("base_url %s%s names an endpoint, not the API base; %s",
				v, ld.from(src), ld.fix("base_url", src, fmt.Sprintf("%q", trimmed))))
			return
		}
	}
}

func (ld *loader) validateModel(c Config, fields map[string]Source, bad badFunc) {
	if strings.TrimSpace(c.Model) != "" {
		return
	}
	p, known := LookupPreset(c.Provider)
	if !known || p.Local {
		return // local servers list their models; unknown provider is reported already
	}
	src := fields["model"]
	eg := ""
	if len(p.Models) > 0 {
		eg = fmt.Sprintf(" (provider %s has no default; for example %q)", p.Name, p.Models[0])
	}
	bad(ErrMissing, "model", `""`, fmt.Sprintf("model is empty%s; %s or pass --model%s", ld.from(src), ld.setIn("model", src), eg))
}

func (ld *loader) validateKeyEnv(c Config, fields map[string]Source, bad badFunc) {
	name := c.APIKeyEnv
	if name == "" || envname.Valid(name) {
		return
	}
	src := fields["api_key_env"]
	bare := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "${"), "$"), "}")
	if envname.Valid(bare) {
		v := fmt.Sprintf("%q", name)
		bad(ErrInvalidValue, "api_key_env", v, fmt.Sprintf("api_key_env %s%s must be the variable's name without $; %s",
			v, ld.from(src), ld.fix("api_key_env", src, fmt.Sprintf("%q", bare))))
		return
	}
	// Anything else may be the key itself pasted into the wrong field: never echo it.
	bad(ErrInvalidValue, "api_key_env", redactedKey, fmt.Sprintf("api_key_env%s is not an environment variable name (it may be a key, so it is not shown); %s, and put the key in that variable",
		ld.from(src), ld.fix("api_key_env", src, `the variable's name, such as "OPENAI_API_KEY"`)))
}

// from says where a value came from, for the middle of a sentence:
// " (from ~/.config/pincer/config.json)", or "" for built-in values.
func (ld *loader) from(s Source) string {
	switch s.Kind {
	case FromDefault:
		return ""
	case FromPreset, FromImplied:
		return " (" + s.String() + ")"
	}
	return " (from " + ld.describe(s) + ")"
}

// fix says how to change a value where it was set, ending with want:
// `set "f" in FILE to WANT`, `set VAR to WANT`, `give --flag WANT`. A
// built-in or derived value is fixed in the user file.
func (ld *loader) fix(field string, s Source, want string) string {
	switch s.Kind {
	case FromUserFile, FromProjectFile:
		return fmt.Sprintf("set %q in %s to %s", field, ld.tilde(s.Name), want)
	case FromEnv:
		return fmt.Sprintf("set %s to %s", s.Name, want)
	case FromFlag:
		return fmt.Sprintf("give %s %s", s.Name, want)
	}
	return fmt.Sprintf("set %q in %s to %s", field, ld.tilde(ld.userPath), want)
}

// setIn says where to set a missing value: the file it was emptied in, or
// the user file.
func (ld *loader) setIn(field string, s Source) string {
	path := ld.userPath
	if s.isFile() {
		path = s.Name
	}
	return fmt.Sprintf("set %q in %s", field, ld.tilde(path))
}

// sortedModels are the model names of prices in order, so errors come in
// the same order every time.
func sortedModels(prices map[string]Price) []string {
	return slices.Sorted(maps.Keys(prices))
}

// knownLanguage reports whether pincer has a built-in language server
// for lang (tools/lsp.Defaults holds their commands).
func knownLanguage(lang string) bool {
	switch lang {
	case "go", "rust", "typescript", "python", "c":
		return true
	}
	return false
}
