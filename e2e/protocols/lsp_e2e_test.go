package protocols

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// goplsDir is the directory of the gopls the end-to-end tests put on
// PATH: .ci/run installs it in $(go env GOPATH)/bin.
func goplsDir(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		dir := filepath.Join(strings.TrimSpace(string(out)), "bin")
		if _, err := os.Stat(filepath.Join(dir, "gopls")); err == nil {
			return dir
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("gopls is not installed; .ci/run installs golang.org/x/tools/gopls")
	}
	t.Skip("gopls is not installed (go install golang.org/x/tools/gopls@v0.23.0)")
	return ""
}

// goSandbox is a sandbox holding a small Go module, with gopls on PATH
// and the Go caches of the machine (read through the jail's copies).
func goSandbox(t *testing.T, baseURL string) *e2etest.Sandbox {
	t.Helper()
	s := e2etest.NewSandbox(t, baseURL)
	for i, kv := range s.Env {
		if strings.HasPrefix(kv, "PATH=") {
			s.Env[i] = "PATH=" + goplsDir(t) + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOROOT"} {
		if out, err := exec.Command("go", "env", v).Output(); err == nil {
			s.Env = append(s.Env, v+"="+strings.TrimSpace(string(out)))
		}
	}
	s.Env = append(s.Env, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "TMPDIR="+t.TempDir())
	s.Write("go.mod", "module example.com/demo\n\ngo 1.22\n")
	s.Write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greeting())\n}\n")
	s.Write("greet.go", "package main\n\nfunc greeting() string {\n\treturn \"hello\"\n}\n")
	return s
}

// TestRunFeedsGoplsDiagnosticsBack is the new user's check, headless: the
// model's edit brings a type error, the next request carries gopls's
// diagnostic, the fix clears it.
func TestRunFeedsGoplsDiagnosticsBack(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "edit_file", Arguments: `{"path":"greet.go","old_text":"return \"hello\"","new_text":"return 42"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "edit_file", Arguments: `{"path":"greet.go","old_text":"return 42","new_text":"return \"hi\""}`}),
		agenttest.Text("Fixed.", 4),
	)
	defer srv.Close()
	s := goSandbox(t, srv.BaseURL())
	res := s.Run("", "run", "--yes", "--json", "change the greeting")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.Code, res.Stdout, res.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	lastTool := func(i int) string {
		msgs := reqs[i].Body["messages"].([]any)
		m := msgs[len(msgs)-1].(map[string]any)
		return m["content"].(string)
	}
	broke := lastTool(1)
	if !strings.Contains(broke, "Diagnostics (gopls) after this change: 1 error") ||
		!strings.Contains(broke, "greet.go:4:9: error: ") || !strings.Contains(broke, "[new]") {
		t.Errorf("the request after the breaking edit carries:\n%s\nstderr:\n%s", broke, res.Stderr)
	}
	if fixed := lastTool(2); !strings.Contains(fixed, "Diagnostics (gopls): no errors in greet.go.") {
		t.Errorf("the request after the fix carries:\n%s", fixed)
	}
	// The JSON lines say it too.
	var results []string
	for _, line := range strings.Split(res.Stdout, "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) == nil && ev["type"] == "tool_result" {
			results = append(results, ev["content"].(string))
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "[new]") {
		t.Errorf("tool results %q", results)
	}
}

// TestRunCheckLoopsUntilTheBuildPasses: pincer run --check runs go build
// and go vet in the jail after the model answers; the failure goes back to
// the model, whose fix makes it pass; a model that never fixes it makes
// the run fail.
func TestRunCheckLoopsUntilTheBuildPasses(t *testing.T) {
	t.Parallel()
	for _, fixes := range []bool{true, false} {
		replies := []agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "c1", Name: "edit_file", Arguments: `{"path":"greet.go","old_text":"return \"hello\"","new_text":"return 42"}`}),
			agenttest.Text("Changed it.", 4),
		}
		if fixes {
			replies = append(replies,
				agenttest.Tools("", agenttest.Call{ID: "c2", Name: "edit_file", Arguments: `{"path":"greet.go","old_text":"return 42","new_text":"return \"hi\""}`}),
				agenttest.Text("Fixed.", 4))
		} else {
			replies = append(replies, agenttest.Text("I will not.", 4), agenttest.Text("Still not.", 4))
		}
		srv := agenttest.New(replies...)
		defer srv.Close()
		s := goSandbox(t, srv.BaseURL())
		s.Write(".pincer.json", `{"check_rounds": 2}`)
		res := s.Run("", "run", "--yes", "--check", "change the greeting")
		reqs := srv.Requests()
		if len(reqs) < 3 {
			t.Fatalf("fixes=%v: %d requests; stderr:\n%s", fixes, len(reqs), res.Stderr)
		}
		msgs := reqs[2].Body["messages"].([]any)
		told := msgs[len(msgs)-1].(map[string]any)["content"].(string)
		if !strings.Contains(told, "go build ./... && go vet ./...") || !strings.Contains(told, "greet.go:4:9") {
			t.Errorf("fixes=%v: the model was told:\n%s\nstderr:\n%s", fixes, told, res.Stderr)
		}
		if fixes && (res.Code != 0 || !strings.Contains(res.Stderr, "(round 2 of 2): passed")) {
			t.Errorf("exit %d, stderr:\n%s", res.Code, res.Stderr)
		}
		if !fixes && (res.Code != 1 || !strings.Contains(res.Stderr, "still fails")) {
			t.Errorf("exit %d, stderr:\n%s", res.Code, res.Stderr)
		}
	}
}
