package setup

import (
	"context"
	"fmt"

	"pincer/themes"
)

// Preset is a provider the person can pick: where its OpenAI-compatible
// API lives and which environment variable usually holds its key. A
// preset without a BaseURL (the "custom" one) asks for the address.
type Preset struct {
	Name         string // the provider name written to the config, e.g. "openai"
	Title        string // the name people know, e.g. "OpenAI"
	BaseURL      string // empty: the person types it
	KeyEnv       string // the usual key variable; empty when none is needed
	DefaultModel string // selected first in the model list when the server has it
	Local        bool   // runs on this machine and needs no key
}

// Options is what the setup screen needs from its caller.
type Options struct {
	// Presets are offered in this order. When empty, only a custom server
	// can be set up.
	Presets []Preset
	// ListModels asks a server for its models. It runs off the event loop
	// and must honour ctx. apiKey is empty when no key was given.
	ListModels func(ctx context.Context, baseURL, apiKey string) ([]string, error)
	// Getenv reads the environment, to tell whether a key variable is set;
	// nil means os.Getenv. Values are never shown.
	Getenv func(string) string
	// ConfigPath is the file the caller will write, shown before saving.
	ConfigPath string
	// Theme colours the screen; the zero Theme means the default dark one.
	Theme themes.Theme
}

// Result is what the person chose. Exactly one of APIKey and APIKeyEnv is
// set when a key was given; both are empty for servers without a key.
type Result struct {
	Provider  string // the preset's Name
	BaseURL   string // the server's address, without a trailing slash
	Model     string
	APIKey    string // the key as typed; write it only to the 0600 user file
	APIKeyEnv string // the variable that holds the key
}

// String describes the result with the key hidden, so that printing a
// Result by mistake cannot leak it.
func (r Result) String() string {
	key := ""
	if r.APIKey != "" {
		key = "[hidden]"
	}
	return fmt.Sprintf("{provider=%q base_url=%q model=%q api_key=%q api_key_env=%q}",
		r.Provider, r.BaseURL, r.Model, key, r.APIKeyEnv)
}

// GoString hides the key from %#v as String does from %v.
func (r Result) GoString() string { return "setup.Result" + r.String() }
