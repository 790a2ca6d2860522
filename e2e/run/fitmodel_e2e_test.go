package run

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/e2e/e2etest"
)

// TestRunLearnsTheWindow: pincer run asks the server for the window, says
// it in run --json, budgets for it, tells how to raise Ollama's, and a
// set context_window caps it.
func TestRunLearnsTheWindow(t *testing.T) {
	tests := []struct {
		name   string
		ps     string
		flags  []string
		want   string // the window line
		notice string // a notice containing this, or "" for none about the window
	}{
		{"ollama loaded", `{"models":[{"name":"test-model:latest","model":"test-model:latest","context_length":8192}]}`, nil,
			`{"type":"window","tokens":8192,"source":"Ollama /api/ps"}`, "OLLAMA_CONTEXT_LENGTH="},
		{"context_window caps", `{"models":[{"name":"test-model","context_length":131072}]}`, []string{"--context-window", "20000"},
			`{"type":"window","tokens":20000,"source":"context_window (Ollama /api/ps reports 131k)"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Text("hello", 5))
			defer srv.Close()
			srv.SetJSON("/api/ps", tt.ps)
			srv.SetJSON("/api/show", `{"model_info":{"qwen3.context_length":40960}}`)
			s := e2etest.NewSandbox(t, srv.BaseURL())
			r := s.Run("", append(append([]string{"run", "--json"}, tt.flags...), "hi")...)
			if r.Code != 0 {
				t.Fatalf("exit %d: %s", r.Code, r.Stderr)
			}
			if !strings.Contains(r.Stdout, tt.want+"\n") {
				t.Errorf("stdout lacks %s:\n%s", tt.want, r.Stdout)
			}
			said := strings.Contains(r.Stdout, `"type":"notice","message":"The model's window is`)
			if tt.notice == "" && said {
				t.Errorf("a notice about the window when none was due:\n%s", r.Stdout)
			}
			if tt.notice != "" && (!said || !strings.Contains(r.Stdout, tt.notice)) {
				t.Errorf("no notice naming %s:\n%s", tt.notice, r.Stdout)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d chat requests, want 1", n)
			}
		})
	}
}
