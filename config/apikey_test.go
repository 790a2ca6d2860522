package config

import (
	"errors"
	"strings"
	"testing"
)

func TestResolvedAPIKey(t *testing.T) {
	tests := []struct {
		name       string
		cfg        Config
		env        fakeEnv
		want, from string
	}{
		{"key in config wins", Config{Provider: "deepseek", APIKey: "k-cfg", APIKeyEnv: "DEEPSEEK_API_KEY"},
			fakeEnv{"DEEPSEEK_API_KEY": "k-env"}, "k-cfg", "api_key"},
		{"preset variable", Config{Provider: "deepseek", APIKeyEnv: "DEEPSEEK_API_KEY"},
			fakeEnv{"DEEPSEEK_API_KEY": " k-ds\n", "PINCER_API_KEY": "k-p"}, "k-ds", "env DEEPSEEK_API_KEY"},
		{"PINCER_API_KEY when the variable is empty", Config{Provider: "deepseek", APIKeyEnv: "DEEPSEEK_API_KEY"},
			fakeEnv{"PINCER_API_KEY": "k-p", "OPENAI_API_KEY": "k-o"}, "k-p", "env PINCER_API_KEY"},
		{"OPENAI_API_KEY for openai", Config{Provider: "openai", APIKeyEnv: ""},
			fakeEnv{"OPENAI_API_KEY": "k-o"}, "k-o", "env OPENAI_API_KEY"},
		{"OPENAI_API_KEY for custom", Config{Provider: "custom"},
			fakeEnv{"OPENAI_API_KEY": "k-o"}, "k-o", "env OPENAI_API_KEY"},
		{"never another vendor's key", Config{Provider: "groq", APIKeyEnv: "GROQ_API_KEY"},
			fakeEnv{"OPENAI_API_KEY": "k-o"}, "", ""},
		{"never an OpenAI key to a local server", Config{Provider: "ollama"},
			fakeEnv{"OPENAI_API_KEY": "k-o"}, "", ""},
		{"none", Config{Provider: "openai", APIKeyEnv: "OPENAI_API_KEY"}, fakeEnv{}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.ResolvedAPIKey(tt.env.get); got != tt.want {
				t.Errorf("ResolvedAPIKey = %q, want %q", got, tt.want)
			}
			if got := tt.cfg.APIKeySource(tt.env.get); got != tt.from {
				t.Errorf("APIKeySource = %q, want %q", got, tt.from)
			}
		})
	}
}

func TestResolvedAPIKeyAfterLoad(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"provider": "mimo", "api_key": "k-file"}`)
	w.env["MIMO_API_KEY"] = "k-mimo"
	c, s := w.mustLoad(t, Overrides{})
	if got := c.ResolvedAPIKey(w.env.get); got != "k-file" || s.Of("api_key").Kind != FromUserFile {
		t.Errorf("key = %q from %v, want the user file's", got, s.Of("api_key"))
	}
	w.env[EnvAPIKey] = "k-pincer"
	c, s = w.mustLoad(t, Overrides{})
	if got := c.ResolvedAPIKey(w.env.get); got != "k-pincer" || s.Of("api_key").String() != "env PINCER_API_KEY" {
		t.Errorf("key = %q from %v, want PINCER_API_KEY over the file", got, s.Of("api_key"))
	}
}

func TestCheckAPIKey(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		cfg     Config
		env     fakeEnv
		wantErr string
	}{
		{Config{Provider: "deepseek", APIKeyEnv: "DEEPSEEK_API_KEY"}, fakeEnv{},
			"config: no API key for provider deepseek; export DEEPSEEK_API_KEY=<your key>, or set \"api_key\" in ~/.config/pincer/config.json"},
		{Config{Provider: "deepseek", APIKeyEnv: "DEEPSEEK_API_KEY"}, fakeEnv{"DEEPSEEK_API_KEY": "k"}, ""},
		{Config{Provider: "ollama"}, fakeEnv{}, ""},
		{Config{Provider: "vllm", APIKeyEnv: "VLLM_API_KEY"}, fakeEnv{}, ""},
		{Config{Provider: "custom"}, fakeEnv{}, ""},
	}
	for _, tt := range tests {
		env := fakeEnv{"HOME": w.home}
		for k, v := range tt.env {
			env[k] = v
		}
		err := tt.cfg.CheckAPIKey(env.get)
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", tt.cfg.Provider, err)
			}
			continue
		}
		if !errors.Is(err, ErrNoAPIKey) || err.Error() != tt.wantErr {
			t.Errorf("%s: error\n got %v\nwant %s", tt.cfg.Provider, err, tt.wantErr)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Error("the error must be one sentence")
		}
	}
}
