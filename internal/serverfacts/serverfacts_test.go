package serverfacts

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTextTools(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	dir := filepath.Join(t.TempDir(), "data")
	f := File{Path: filepath.Join(dir, FileName), Now: func() time.Time { return now }}
	const vllm, ollama = "http://localhost:8000/v1", "http://localhost:11434/v1"
	if _, ok := f.TextTools(vllm, "qwen"); ok {
		t.Fatal("a fact before any was set")
	}
	if err := f.SetTextTools(vllm, "qwen", "no parser"); err != nil {
		t.Fatal(err)
	}
	if err := f.SetTextTools(ollama, "gemma3", "no tool calling"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, base, model string
		after             time.Duration
		want              string // "": none
	}{
		{"kept", vllm, "qwen", time.Hour, "no parser"},
		{"other model", vllm, "llama", 0, ""},
		{"same model elsewhere", ollama, "qwen", 0, ""},
		{"other server", ollama, "gemma3", 0, "no tool calling"},
		{"too old", vllm, "qwen", MaxAge + time.Minute, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := f
			g.Now = func() time.Time { return now.Add(tt.after) }
			got, ok := g.TextTools(tt.base, tt.model)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("TextTools = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
	if info, err := os.Stat(f.Path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("file %v, %v; want it readable by its owner only", info, err)
	}
	if err := f.SetTextTools(vllm, "qwen", ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.TextTools(vllm, "qwen"); ok {
		t.Error("a forgotten fact is still there")
	}
	if _, ok := f.TextTools(ollama, "gemma3"); !ok {
		t.Error("forgetting one fact lost another")
	}
}

func TestDamagedFileIsReplaced(t *testing.T) {
	f := File{Path: filepath.Join(t.TempDir(), FileName)}
	if err := os.WriteFile(f.Path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.TextTools("http://x/v1", "m"); ok {
		t.Fatal("a fact from a damaged file")
	}
	if err := f.SetTextTools("http://x/v1", "m", "no parser"); err != nil {
		t.Fatal(err)
	}
	if got, ok := f.TextTools("http://x/v1", "m"); !ok || got != "no parser" {
		t.Errorf("TextTools = %q, %v after the damaged file was replaced", got, ok)
	}
}
