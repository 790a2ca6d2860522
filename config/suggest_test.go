package config

import "testing"

func TestSuggest(t *testing.T) {
	fields := FieldNames()
	tests := []struct{ in, want string }{
		{"modle", "model"},
		{"Model", "model"},
		{"baseUrl", "base_url"},
		{"base-url", "base_url"},
		{"api_base", "base_url"},
		{"endpoint", "base_url"},
		{"apiKey", "api_key"},
		{"max_iteration", "max_iterations"},
		{"max_turns", "max_iterations"},
		{"contex_window", "context_window"},
		{"compres_at", "compress_at"},
		{"thme", "theme"},
		{"dta_dir", "data_dir"},
		{"colour", ""},
		{"xyz", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.in, fields); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := suggest("opnai", presetNames()); got != "openai" {
		t.Errorf("suggest(opnai) = %q, want openai", got)
	}
	if got := suggest("lm-studio", presetNames()); got != "lmstudio" {
		t.Errorf("suggest(lm-studio) = %q, want lmstudio", got)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "", 1},
		{"model", "model", 0},
		{"modle", "model", 1},
		{"kitten", "sitting", 3},
		{"ab", "ba", 1},
		{"über", "uber", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
