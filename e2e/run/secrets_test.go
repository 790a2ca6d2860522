package run

import (
	"fmt"
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

const leakedKey = "sk-proj-LEAKME0123456789abcdef"

// TestKeyNeverLeavesPincer runs the real binary against servers that echo
// the key back: in an error object mid-stream, in an error body, in a
// retried failure. Neither stderr, stdout, --json nor the stored session
// shows it.
func TestKeyNeverLeavesPincer(t *testing.T) {
	streamErr := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n" +
		fmt.Sprintf("data: {\"error\":{\"message\":\"Incorrect API key provided: %s\"}}\n\n", leakedKey)
	tests := []struct {
		name    string
		replies []agenttest.Reply
	}{
		{"error object in the stream", []agenttest.Reply{{Body: streamErr}}},
		{"error body", []agenttest.Reply{agenttest.Error(401, "Incorrect API key provided: "+leakedKey)}},
		{"retried", []agenttest.Reply{agenttest.Error(500, "key "+leakedKey+" overloaded"), agenttest.Error(401, "key "+leakedKey)}},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s json=%v", tt.name, asJSON), func(t *testing.T) {
				srv := agenttest.New(tt.replies...)
				defer srv.Close()
				s := e2etest.NewSandbox(t, srv.BaseURL())
				s.Env = append(s.Env, "PINCER_API_KEY="+leakedKey)
				args := []string{"run", "-s", "leak", "hi"}
				if asJSON {
					args = append(args, "--json")
				}
				r := s.Run("", args...)
				if r.Code != 1 {
					t.Errorf("exit %d, want 1; stderr %q", r.Code, r.Stderr)
				}
				if strings.Contains(r.Stdout+r.Stderr, leakedKey) {
					t.Errorf("the key was printed:\nstdout %s\nstderr %s", r.Stdout, r.Stderr)
				}
				if !strings.Contains(r.Stdout+r.Stderr, "<redacted>") {
					t.Errorf("the error does not show where the key was removed:\nstdout %s\nstderr %s", r.Stdout, r.Stderr)
				}
				if out := s.Run("", "sessions", "export", "leak", "--format", "json"); strings.Contains(out.Stdout, leakedKey) {
					t.Errorf("the stored session holds the key:\n%s", out.Stdout)
				}
			})
		}
	}
}

// TestKeyInBaseURL: a key carried in base_url (user info or a query
// parameter) is not shown by `pincer config`, nor in errors, and the query
// reaches the server on the right path.
func TestKeyInBaseURL(t *testing.T) {
	srv := agenttest.New(agenttest.Text("fine", 5), agenttest.Error(401, "bad key "+leakedKey))
	defer srv.Close()
	for _, base := range []string{
		srv.BaseURL() + "?api-key=" + leakedKey,
		strings.Replace(srv.BaseURL(), "http://", "http://user:"+leakedKey+"@", 1),
		strings.Replace(srv.BaseURL(), "http://", "http://"+leakedKey+"@", 1) + "?access_token=" + leakedKey,
	} {
		s := e2etest.NewSandbox(t, "")
		s.Env = append(s.Env, "PINCER_BASE_URL="+base, "PINCER_MODEL=test-model")
		for _, args := range [][]string{{"config"}, {"config", "--json"}} {
			r := s.Run("", args...)
			if r.Code != 0 || strings.Contains(r.Stdout+r.Stderr, leakedKey) || !strings.Contains(r.Stdout, "redacted") {
				t.Errorf("pincer %v with base_url %s: exit %d\n%s%s", args, base, r.Code, r.Stdout, r.Stderr)
			}
		}
		bad := e2etest.NewSandbox(t, "")
		bad.Env = append(bad.Env, "PINCER_BASE_URL="+strings.Replace(base, "http://", "htp://", 1), "PINCER_MODEL=test-model")
		if r := bad.Run("", "run", "hi"); r.Code == 0 || strings.Contains(r.Stdout+r.Stderr, leakedKey) {
			t.Errorf("an invalid base_url's error shows the key: exit %d %s", r.Code, r.Stderr)
		}
		closed := e2etest.NewSandbox(t, "")
		closed.Env = append(closed.Env, "PINCER_BASE_URL="+strings.Replace(base, srv.Listener.Addr().String(), "127.0.0.1:1", 1), "PINCER_MODEL=test-model")
		if r := closed.Run("", "run", "hi"); r.Code == 0 || strings.Contains(r.Stdout+r.Stderr, leakedKey) {
			t.Errorf("an unreachable base_url's error shows the key: exit %d %s", r.Code, r.Stderr)
		}
	}
	// The query goes with the request, to /v1/chat/completions.
	s := e2etest.NewSandbox(t, "")
	s.Env = append(s.Env, "PINCER_BASE_URL="+srv.BaseURL()+"?api-key="+leakedKey, "PINCER_MODEL=test-model")
	if r := s.Run("", "run", "hi"); r.Code != 0 || !strings.Contains(r.Stdout, "fine") {
		t.Fatalf("run with a query in base_url: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if reqs := srv.Requests(); len(reqs) == 0 || reqs[0].Path != "/v1/chat/completions" || reqs[0].Query != "api-key="+leakedKey {
		t.Errorf("requests: %+v", reqs)
	}
	if r := s.Run("", "run", "hi"); r.Code != 1 || strings.Contains(r.Stdout+r.Stderr, leakedKey) {
		t.Errorf("error with a key in the base URL: exit %d, stderr %q", r.Code, r.Stderr)
	}
}
