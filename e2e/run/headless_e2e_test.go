package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// sseText is one streamed text chunk.
func sseText(s string) string {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": s}}}})
	return "data: " + string(b) + "\n\n"
}

// TestRunStopsQuietlyWhenTheReaderGoesAway: `pincer run … | head -1`. Once
// the reader is gone the run stops (the tool the model asked for never
// runs, no second request is made), nothing is printed about the pipe, and
// the exit status is the one a shell gives a program cut off by a pipe.
func TestRunStopsQuietlyWhenTheReaderGoesAway(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"text", "json"} {
		t.Run(mode, func(t *testing.T) {
			var body strings.Builder
			body.WriteString(sseText("first line\n"))
			for range 40 {
				body.WriteString(sseText("more of the answer\n"))
			}
			call := agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"touch marker"}`})
			body.WriteString(strings.TrimPrefix(call.Body, ""))
			srv := agenttest.New(agenttest.Reply{Body: body.String(), Piece: 48, Delay: 15 * time.Millisecond})
			defer srv.Close()
			srv.SetFallback(agenttest.Text("done", 4))
			s := e2etest.NewSandbox(t, srv.BaseURL())
			args := []string{"run", "--yes", "answer at length, then touch marker"}
			if mode == "json" {
				args = []string{"run", "--json", "--yes", "answer at length, then touch marker"}
			}
			cmd := exec.Command(e2etest.Binary(t), args...)
			cmd.Dir, cmd.Env = s.Dir, s.Env
			var errb bytes.Buffer
			cmd.Stderr = &errb
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
				t.Fatalf("no first line: %v; stderr:\n%s", err, errb.String())
			}
			out.Close() // head -1 has what it wanted
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("pincer kept running after its reader went away; stderr:\n%s", errb.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != 141 {
				t.Errorf("exit status %d (%s), want 141", code, cmd.ProcessState)
			}
			if e := errb.String(); strings.Contains(e, "broken pipe") || strings.Contains(e, "write") {
				t.Errorf("stderr reports the closed pipe:\n%s", e)
			}
			if _, err := os.Stat(filepath.Join(s.Dir, "marker")); err == nil {
				t.Error("the tool ran after the reader had gone")
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d model requests, want 1", n)
			}
		})
	}
}

// TestCorruptTrustFileIsReported: a trust file that does not parse is
// named with the fix, not read as "nothing is trusted" in silence, and
// `pincer trust` does not overwrite it (that would drop every other
// project's trust).
func TestCorruptTrustFileIsReported(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 2))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write(".pincer.json", `{"allow": ["make *"]}`)
	trust := filepath.Join(s.Home, ".config", "pincer", "trusted-projects.json")
	if err := os.MkdirAll(filepath.Dir(trust), 0o700); err != nil {
		t.Fatal(err)
	}
	corrupt := []byte(`{"projects": {"/elsewhere/.pincer.json": "abc"`)
	if err := os.WriteFile(trust, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.Run("", "run", "hi")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, trust) || !strings.Contains(r.Stderr, "not valid JSON") {
		t.Errorf("stderr does not report the corrupt trust file:\n%s", r.Stderr)
	}
	tr := s.Run("", "trust", "--yes")
	if tr.Code == 0 || !strings.Contains(tr.Stderr, "not valid JSON") {
		t.Errorf("trust over a corrupt file: exit %d\n%s", tr.Code, tr.Stderr)
	}
	if got, _ := os.ReadFile(trust); !bytes.Equal(got, corrupt) {
		t.Errorf("the corrupt trust file was rewritten:\n%s", got)
	}
}

// TestHeadlessRunSessionsAreHidden: a `pincer run` without -s is kept, so
// -c continues it, but `pincer sessions` (and the picker, which lists the
// same) leaves it out; --all shows it; a run with -s is listed.
func TestHeadlessRunSessionsAreHidden(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 2))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "first one-off prompt"); r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	list := s.Run("", "sessions")
	if strings.Contains(list.Stdout, "first one-off prompt") {
		t.Errorf("pincer sessions lists the headless run:\n%s", list.Stdout)
	}
	if !strings.Contains(list.Stderr, "--all") {
		t.Errorf("pincer sessions does not say runs are hidden:\n%s", list.Stderr)
	}
	var js []map[string]any
	if r := s.Run("", "sessions", "--json"); json.Unmarshal([]byte(r.Stdout), &js) != nil || len(js) != 0 {
		t.Errorf("pincer sessions --json = %s, want []", r.Stdout)
	}
	all := s.Run("", "sessions", "--all")
	if !strings.Contains(all.Stdout, "first one-off prompt") || !strings.Contains(all.Stdout, "(pincer run)") {
		t.Errorf("pincer sessions --all does not show the marked run:\n%s", all.Stdout)
	}
	// -c continues the run: its first prompt goes with the second request.
	if r := s.Run("", "run", "-c", "and a follow-up"); r.Code != 0 {
		t.Fatalf("run -c: exit %d\n%s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if last := string(reqs[len(reqs)-1].Raw); !strings.Contains(last, "first one-off prompt") {
		t.Errorf("run -c did not continue the headless session:\n%s", last)
	}
	if r := s.Run("", "run", "-s", "kept", "a named prompt"); r.Code != 0 {
		t.Fatalf("run -s: exit %d\n%s", r.Code, r.Stderr)
	}
	if list := s.Run("", "sessions"); !strings.Contains(list.Stdout, "kept") {
		t.Errorf("a run with -s is not listed:\n%s", list.Stdout)
	}
}

// TestSilentServerWithTheBinary: a server that accepts the request and
// never answers is reported as silent at the first timeout, with the
// configured limits, and pincer gives up within the silent retry budget.
func TestSilentServerWithTheBinary(t *testing.T) {
	t.Parallel()
	addr, accepted := agenttest.SilentListener(t)
	s := e2etest.NewSandbox(t, "http://"+addr+"/v1")
	cfg := filepath.Join(s.Home, ".config", "pincer", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`{"first_byte_timeout": "300ms", "silent_retry_budget": "3s", "max_retries": 20}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.Run("", "run", "hi")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "but the model sent nothing for") || strings.Contains(r.Stderr, "could not reach") {
		t.Errorf("stderr does not say the server was reached and stayed silent:\n%s", r.Stderr)
	}
	first := strings.Index(r.Stderr, "retrying")
	if first < 0 || !strings.Contains(r.Stderr[first:strings.IndexByte(r.Stderr[first:], '\n')+first], "sent nothing") {
		t.Errorf("the first retry line does not say what happened:\n%s", r.Stderr)
	}
	if n := accepted(); n >= 20 {
		t.Errorf("%d attempts: the silent retry budget did not bound them", n)
	}
}
