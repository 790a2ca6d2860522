package config

import (
	"fmt"
	"strings"
)

// ResolvedAPIKey returns the key to send: APIKey when set (the user file,
// PINCER_API_KEY or --api-key put it there), else the variable api_key_env
// names, else PINCER_API_KEY, else OPENAI_API_KEY — the last only for the
// openai and custom providers, so one vendor's key is never sent to
// another. Empty when there is none. Do not print the result.
func (c Config) ResolvedAPIKey(getenv func(string) string) string {
	key, _ := c.resolveKey(getenv)
	return key
}

// APIKeySource says where ResolvedAPIKey finds the key without showing it:
// "api_key", "env DEEPSEEK_API_KEY", or "" when there is none. Use it in
// messages such as "the key from env DEEPSEEK_API_KEY was refused".
func (c Config) APIKeySource(getenv func(string) string) string {
	_, src := c.resolveKey(getenv)
	return src
}

func (c Config) resolveKey(getenv func(string) string) (key, source string) {
	if k := strings.TrimSpace(c.APIKey); k != "" {
		return k, "api_key"
	}
	if getenv == nil {
		return "", ""
	}
	names := []string{c.APIKeyEnv, EnvAPIKey}
	if c.Provider == "openai" || c.Provider == Custom {
		names = append(names, EnvOpenAIAPIKey)
	}
	for _, name := range names {
		if name == "" {
			continue
		}
		if k := strings.TrimSpace(getenv(name)); k != "" {
			return k, "env " + name
		}
	}
	return "", ""
}

// CheckAPIKey returns an error wrapping ErrNoAPIKey, as one sentence with
// the fix, when the provider needs a key and none is set. Local servers
// and custom endpoints may run without one, so they always pass.
func (c Config) CheckAPIKey(getenv func(string) string) error {
	p, ok := LookupPreset(c.Provider)
	if !ok || p.Local || p.Name == Custom || c.ResolvedAPIKey(getenv) != "" {
		return nil
	}
	env := c.APIKeyEnv
	if env == "" {
		env = EnvAPIKey
	}
	return &Problem{Kind: ErrNoAPIKey, Field: "api_key",
		Message: fmt.Sprintf("config: no API key for provider %s; export %s=<your key>, or set \"api_key\" in %s",
			p.Name, env, tildePath(UserConfigPath(getenv), homeDir(getenv)))}
}
