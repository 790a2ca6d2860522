package config

import (
	"net/url"
	"strings"
	"testing"
)

// TestPresets pins every preset's endpoint and key variable to what the
// providers document.
func TestPresets(t *testing.T) {
	tests := []struct {
		name, baseURL, keyEnv string
		local, hasDefault     bool
	}{
		{"openai", "https://api.openai.com/v1", "OPENAI_API_KEY", false, true},
		{"deepseek", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", false, true},
		{"dashscope", "https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY", false, true},
		{"ollama", "http://localhost:11434/v1", "", true, false},
		{"lmstudio", "http://localhost:1234/v1", "", true, false},
		{"vllm", "http://localhost:8000/v1", "VLLM_API_KEY", true, false},
		{"openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", false, false},
		{"groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY", false, true},
		{"mimo", "https://api.xiaomimimo.com/v1", "MIMO_API_KEY", false, true},
		{"custom", "", "", false, false},
	}
	ps := Presets()
	if len(ps) != len(tests) {
		t.Fatalf("got %d presets, want %d", len(ps), len(tests))
	}
	for i, tt := range tests {
		p := ps[i]
		if p.Name != tt.name || p.BaseURL != tt.baseURL || p.KeyEnv != tt.keyEnv || p.Local != tt.local || (p.DefaultModel != "") != tt.hasDefault {
			t.Errorf("preset %d = %+v, want %+v", i, p, tt)
		}
		if p.Title == "" {
			t.Errorf("%s has no title for help text", p.Name)
		}
		if p.BaseURL != "" {
			if u, err := url.Parse(p.BaseURL); err != nil || u.Host == "" {
				t.Errorf("%s: base URL %q does not parse", p.Name, p.BaseURL)
			}
		}
		if p.DefaultModel != "" && (len(p.Models) == 0 || p.Models[0] != p.DefaultModel) {
			t.Errorf("%s: default model %q should lead its Models list %v", p.Name, p.DefaultModel, p.Models)
		}
	}
	if got, ok := LookupPreset("groq"); !ok || got.Name != "groq" {
		t.Errorf("LookupPreset(groq) = %+v, %v", got, ok)
	}
	if _, ok := LookupPreset("GROQ"); ok {
		t.Error("LookupPreset must match names exactly")
	}
}

func TestPresetsReturnsACopy(t *testing.T) {
	ps := Presets()
	ps[0].BaseURL = "http://changed"
	if Presets()[0].BaseURL == "http://changed" {
		t.Error("changing the returned slice changed the presets")
	}
}

// TestDashScopeHelpMentionsInternational keeps the international endpoint
// in the help text.
func TestDashScopeHelpMentionsInternational(t *testing.T) {
	p, _ := LookupPreset("dashscope")
	if want := "https://dashscope-intl.aliyuncs.com/compatible-mode/v1"; !strings.Contains(p.Note, want) {
		t.Errorf("dashscope note %q does not mention %s", p.Note, want)
	}
}

func TestProviderHelp(t *testing.T) {
	help := ProviderHelp()
	lines := strings.Split(strings.TrimRight(help, "\n"), "\n")
	if len(lines) != len(Presets())+1 {
		t.Fatalf("help has %d lines, want a heading and one per preset:\n%s", len(lines), help)
	}
	for i, p := range Presets() {
		line := lines[i+1]
		if !strings.HasPrefix(strings.TrimSpace(line), p.Name+" ") || !strings.Contains(line, p.BaseURL) || !strings.Contains(line, p.KeyEnv) {
			t.Errorf("line for %s = %q", p.Name, line)
		}
	}
	for _, want := range []string{"PINCER_PROVIDER", "--provider", "dashscope-intl.aliyuncs.com"} {
		if !strings.Contains(help, want) {
			t.Errorf("help does not mention %s", want)
		}
	}
}
