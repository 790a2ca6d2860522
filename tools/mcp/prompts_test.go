package mcp

import (
	"context"
	"maps"
	"strings"
	"testing"
)

func TestPromptArguments(t *testing.T) {
	p := Prompt{Server: "web", Name: "review", Args: []PromptArg{{Name: "path", Required: true}, {Name: "focus"}}}
	tests := []struct {
		line    string
		want    map[string]string
		wantErr string
	}{
		{"main.go error handling and names", map[string]string{"path": "main.go", "focus": "error handling and names"}, ""},
		{"focus=speed path=a.go", map[string]string{"path": "a.go", "focus": "speed"}, ""},
		{"main.go", map[string]string{"path": "main.go"}, ""},
		{"", nil, "needs path; give PATH [FOCUS]"},
		{"focus=speed", nil, "needs path"},
	}
	for _, tt := range tests {
		got, err := p.ParseArgs(tt.line)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: %v, want %q", tt.line, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("%q = %v, %v; want %v", tt.line, got, err, tt.want)
		}
	}
	if _, err := (Prompt{Server: "web", Name: "plain"}).ParseArgs("extra"); err == nil {
		t.Error("a prompt without arguments took some")
	}
}

func TestPromptsAndResourcesOfAServer(t *testing.T) {
	url := httpServer(t, "tok")
	m := started(t, Options{Servers: []Server{{Name: "web", URL: url, Headers: map[string]string{"Authorization": "Bearer tok"}}}})
	prompts := m.Prompts()
	if len(prompts) != 1 || prompts[0].Command() != "mcp__web__review" || prompts[0].Usage() != "PATH [FOCUS]" {
		t.Fatalf("prompts %+v", prompts)
	}
	text, err := m.GetPrompt(context.Background(), "web", "review", map[string]string{"path": "a.go", "focus": "bugs"})
	if err != nil || text != "Review a.go for bugs." {
		t.Errorf("GetPrompt = %q, %v", text, err)
	}
	if !m.HasServer("web") || m.HasServer("nope") {
		t.Error("HasServer is wrong")
	}
	text, err = m.ReadResource(context.Background(), "web", "note://hello")
	if err != nil || text != "hello from the server" {
		t.Errorf("ReadResource = %q, %v", text, err)
	}
	if _, err := m.ReadResource(context.Background(), "web", "note://missing"); err == nil {
		t.Error("a missing resource was read")
	}
	if _, err := m.ReadResource(context.Background(), "nope", "note://hello"); err == nil || !strings.Contains(err.Error(), "not ready") {
		t.Errorf("an unknown server: %v", err)
	}
}
