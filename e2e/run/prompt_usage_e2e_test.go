package run

import (
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/e2e/e2etest"
)

// TestPromptTokens: pincer prompt --tokens weighs the profile in effect
// part by part: the full one for the default window, the compact one for
// a small window or when asked; the total is the sum of the parts and
// within the profile's target.
func TestPromptTokens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		config  string
		args    []string
		profile string
		target  int
	}{
		{"default window", `{}`, nil, "full", 3500},
		{"small window", `{"context_window": 8192}`, nil, "compact", 1500},
		{"configured", `{"prompt_profile": "compact"}`, nil, "compact", 1500},
		{"flag", `{"context_window": 8192}`, []string{"--profile", "full"}, "full", 3500},
		{"window flag", `{}`, []string{"--window", "4096"}, "compact", 1500},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := e2etest.NewSandbox(t, "http://127.0.0.1:9/v1")
			s.WriteHome(filepath.Join(".config", "pincer", "config.json"), tt.config)
			r := s.Run("", append([]string{"prompt", "--tokens"}, tt.args...)...)
			if r.Code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
			}
			if !strings.HasPrefix(r.Stdout, "profile "+tt.profile+" ") {
				t.Fatalf("stdout begins %q, want profile %s", strings.SplitN(r.Stdout, "\n", 2)[0], tt.profile)
			}
			sum, total := 0, -1
			for _, m := range regexp.MustCompile(`(?m)^(\S+)\s+(\d+)`).FindAllStringSubmatch(r.Stdout, -1) {
				n, _ := strconv.Atoi(m[2])
				if m[1] == "total" {
					total = n
				} else {
					sum += n
				}
			}
			if total != sum || total > tt.target || !strings.Contains(r.Stdout, "instructions") || !strings.Contains(r.Stdout, "load_tools") {
				t.Errorf("total %d, parts %d, target %d:\n%s", total, sum, tt.target, r.Stdout)
			}
			if !strings.Contains(r.Stdout, "loaded when asked for: read_web, todo_write, recall, schedule_task, remember, task") {
				t.Errorf("the deferred tools are not listed:\n%s", r.Stdout)
			}
		})
	}
	s := e2etest.NewSandbox(t, "")
	if r := s.Run("", "prompt", "--tokens", "--profile", "tiny"); r.Code == 0 || !strings.Contains(r.Stderr, "give full, compact or auto") {
		t.Errorf("a bad --profile: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestRunUsageAndCost: pincer run --json gives each request's tokens,
// estimated (and marked so) when the server sends none, priced from the
// config's prices; the session keeps the totals, and sessions show says
// them with the cost.
func TestRunUsageAndCost(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"notes.txt"}`}),
		agenttest.Reply{Body: agenttest.TextBody("The notes say: buy milk.", 5, 0, 0)}, // no counts
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteHome(filepath.Join(".config", "pincer", "config.json"), `{"prices": {"test-model": {"input": 2, "output": 10}}}`)
	s.Write("notes.txt", "buy milk\n")
	r := s.Run("", "run", "--json", "what do my notes say?")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	lines := e2etest.JSONLines(t, r.Stdout)
	usage := e2etest.OfType(lines, "usage")
	if len(usage) != 2 {
		t.Fatalf("%d usage lines, want 2:\n%s", len(usage), r.Stdout)
	}
	// agenttest.Tools reports 100 prompt and 20 completion tokens.
	if u := usage[0]; u["prompt_tokens"] != 100.0 || u["estimated"] != nil || math.Abs(u["cost"].(float64)-(100*2+20*10)/1e6) > 1e-12 {
		t.Errorf("the counted request's usage %v", u)
	}
	if u := usage[1]; u["estimated"] != true || u["prompt_tokens"].(float64) < 100 || u["cost"].(float64) <= 0 {
		t.Errorf("the uncounted request's usage %v; want an estimate, marked, priced", u)
	}
	result := lines[len(lines)-1]["usage"].(map[string]any)
	if result["estimated"] != true || result["cost"].(float64) <= usage[0]["cost"].(float64) {
		t.Errorf("the result's usage %v; want the sum, marked estimated", result)
	}
	show := s.Run("", "sessions", "show", lines[len(lines)-1]["session"].(map[string]any)["id"].(string))
	if !strings.Contains(show.Stdout, "(estimated in part: the server sent no counts)") || !strings.Contains(show.Stdout, "- **Cost:** $0.00") {
		t.Errorf("sessions show:\n%s", show.Stdout)
	}
}
