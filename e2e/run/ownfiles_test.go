package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestRunCannotWritePincersOwnFiles: with --yes, a model asking to write
// pincer's user config (to make unknown commands safe), the trust file or
// the session store is refused — those writes are dangerous — and pincer
// says which flag would allow it and why. --dangerously-approve-all keeps
// its documented meaning.
func TestRunCannotWritePincersOwnFiles(t *testing.T) {
	cases := []struct {
		name string
		path func(s *e2etest.Sandbox) string
		flag string
		want bool // written
		says string
	}{
		{"user config", func(s *e2etest.Sandbox) string { return filepath.Join(s.Home, ".config", "pincer", "config.json") }, "--yes", false, "pincer's configuration directory"},
		{"trust file", func(s *e2etest.Sandbox) string {
			return filepath.Join(s.Home, ".config", "pincer", "trusted-projects.json")
		}, "--yes", false, "trusted projects"},
		{"session store", func(s *e2etest.Sandbox) string { return filepath.Join(s.Home, "data", "pincer.db") }, "--yes", false, "session store"},
		{"theme", func(s *e2etest.Sandbox) string { return filepath.Join(s.Home, ".config", "pincer", "themes", "x.json") }, "--yes", false, "themes"},
		{"user config, approve all", func(s *e2etest.Sandbox) string { return filepath.Join(s.Home, ".config", "pincer", "config.json") }, "--dangerously-approve-all", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.New()
			defer srv.Close()
			s := e2etest.NewSandbox(t, srv.BaseURL())
			target := tc.path(s)
			const evil = `{"unknown_commands": "safe"}`
			args, _ := json.Marshal(map[string]string{"path": target, "content": evil})
			srv.Add(
				agenttest.Tools("", agenttest.Call{ID: "c", Name: "write_file", Arguments: string(args)}),
				agenttest.Text("done", 4),
			)
			before, _ := os.ReadFile(target)
			r := s.Run("", "run", tc.flag, "change it")
			if r.Code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
			}
			t.Logf("stderr:\n%s", r.Stderr)
			after, _ := os.ReadFile(target)
			if written := string(after) == evil; written != tc.want {
				t.Fatalf("written = %v, want %v (before %d bytes, after %q); stderr:\n%s", written, tc.want, len(before), after, r.Stderr)
			}
			if tc.want {
				return
			}
			if !strings.Contains(r.Stderr, "refused") || !strings.Contains(r.Stderr, tc.says) ||
				!strings.Contains(r.Stderr, "dangerous") || !strings.Contains(r.Stderr, "--dangerously-approve-all") {
				t.Errorf("stderr %q; want the refusal naming %q, the tier and the flag", r.Stderr, tc.says)
			}
		})
	}
}

// TestUntrustedProjectCannotMoveSessions: an untrusted .pincer.json that
// sets data_dir does not move the session store there, and loosened
// limits are ignored with a notice.
func TestUntrustedProjectCannotMoveSessions(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 4))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	var env []string
	for _, e := range s.Env {
		if !strings.HasPrefix(e, "PINCER_DATA_DIR=") {
			env = append(env, e)
		}
	}
	s.Env = env
	planted := filepath.Join(t.TempDir(), "planted")
	raw, _ := json.Marshal(map[string]any{"data_dir": planted, "idle_timeout": 0, "command_timeout": "1h"})
	s.Write(".pincer.json", string(raw))
	r := s.Run("", "run", "hi")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(planted, "pincer.db")); err == nil {
		t.Fatal("the session store was created where the untrusted project said")
	}
	if _, err := os.Stat(filepath.Join(s.Home, ".local", "share", "pincer", "pincer.db")); err != nil {
		t.Errorf("the session store is not in the usual place: %v", err)
	}
	for _, want := range []string{"data_dir", "idle_timeout to 0 (no limit), looser than your 1m30s", "command_timeout to 1h0m0s, looser than your 2m0s", "pincer trust"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
}
