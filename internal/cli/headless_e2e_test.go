package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
			s := newSandbox(t, srv.BaseURL())
			args := []string{"run", "--yes", "answer at length, then touch marker"}
			if mode == "json" {
				args = []string{"run", "--json", "--yes", "answer at length, then touch marker"}
			}
			cmd := exec.Command(binary(t), args...)
			cmd.Dir, cmd.Env = s.dir, s.env
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
			if _, err := os.Stat(filepath.Join(s.dir, "marker")); err == nil {
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
	s := newSandbox(t, srv.BaseURL())
	s.write(".pincer.json", `{"allow": ["make *"]}`)
	trust := filepath.Join(s.home, ".config", "pincer", "trusted-projects.json")
	if err := os.MkdirAll(filepath.Dir(trust), 0o700); err != nil {
		t.Fatal(err)
	}
	corrupt := []byte(`{"projects": {"/elsewhere/.pincer.json": "abc"`)
	if err := os.WriteFile(trust, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.run("", "run", "hi")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, trust) || !strings.Contains(r.stderr, "not valid JSON") {
		t.Errorf("stderr does not report the corrupt trust file:\n%s", r.stderr)
	}
	tr := s.run("", "trust", "--yes")
	if tr.code == 0 || !strings.Contains(tr.stderr, "not valid JSON") {
		t.Errorf("trust over a corrupt file: exit %d\n%s", tr.code, tr.stderr)
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
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "first one-off prompt"); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	list := s.run("", "sessions")
	if strings.Contains(list.stdout, "first one-off prompt") {
		t.Errorf("pincer sessions lists the headless run:\n%s", list.stdout)
	}
	if !strings.Contains(list.stderr, "--all") {
		t.Errorf("pincer sessions does not say runs are hidden:\n%s", list.stderr)
	}
	var js []map[string]any
	if r := s.run("", "sessions", "--json"); json.Unmarshal([]byte(r.stdout), &js) != nil || len(js) != 0 {
		t.Errorf("pincer sessions --json = %s, want []", r.stdout)
	}
	all := s.run("", "sessions", "--all")
	if !strings.Contains(all.stdout, "first one-off prompt") || !strings.Contains(all.stdout, "(pincer run)") {
		t.Errorf("pincer sessions --all does not show the marked run:\n%s", all.stdout)
	}
	// -c continues the run: its first prompt goes with the second request.
	if r := s.run("", "run", "-c", "and a follow-up"); r.code != 0 {
		t.Fatalf("run -c: exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	if last := string(reqs[len(reqs)-1].Raw); !strings.Contains(last, "first one-off prompt") {
		t.Errorf("run -c did not continue the headless session:\n%s", last)
	}
	if r := s.run("", "run", "-s", "kept", "a named prompt"); r.code != 0 {
		t.Fatalf("run -s: exit %d\n%s", r.code, r.stderr)
	}
	if list := s.run("", "sessions"); !strings.Contains(list.stdout, "kept") {
		t.Errorf("a run with -s is not listed:\n%s", list.stdout)
	}
}

// TestSilentServerWithTheBinary: a server that accepts the request and
// never answers is reported as silent at the first timeout, with the
// configured limits, and pincer gives up within the silent retry budget.
func TestSilentServerWithTheBinary(t *testing.T) {
	t.Parallel()
	addr, accepted := agenttest.SilentListener(t)
	s := newSandbox(t, "http://"+addr+"/v1")
	cfg := filepath.Join(s.home, ".config", "pincer", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`{"first_byte_timeout": "300ms", "silent_retry_budget": "3s", "max_retries": 20}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.run("", "run", "hi")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "but the model sent nothing for") || strings.Contains(r.stderr, "could not reach") {
		t.Errorf("stderr does not say the server was reached and stayed silent:\n%s", r.stderr)
	}
	first := strings.Index(r.stderr, "retrying")
	if first < 0 || !strings.Contains(r.stderr[first:strings.IndexByte(r.stderr[first:], '\n')+first], "sent nothing") {
		t.Errorf("the first retry line does not say what happened:\n%s", r.stderr)
	}
	if n := accepted(); n >= 20 {
		t.Errorf("%d attempts: the silent retry budget did not bound them", n)
	}
}
