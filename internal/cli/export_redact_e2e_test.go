package cli

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestSessionsExportRedactsSecrets: `pincer sessions export` leaves out
// secret-looking text the session holds (here in an answer), says so on
// stderr, and keeps it with --keep-secrets.
func TestSessionsExportRedactsSecrets(t *testing.T) {
	const key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx"
	srv := agenttest.New(agenttest.Text("Your .env says OPENAI_API_KEY="+key+" and PORT=5432.", 8))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "leaky", "what is in .env?"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, format := range []string{"markdown", "json"} {
		r := s.run("", "sessions", "export", "leaky", "--format", format)
		if r.code != 0 {
			t.Fatal(r.stderr)
		}
		if strings.Contains(r.stdout, key) || !strings.Contains(r.stdout, "PORT=5432") {
			t.Errorf("%s export:\n%s", format, r.stdout)
		}
		if !strings.Contains(r.stderr, "redacted 1 item") || !strings.Contains(r.stderr, "--keep-secrets") {
			t.Errorf("%s export does not say what it redacted: %q", format, r.stderr)
		}
	}
	if r := s.run("", "sessions", "export", "leaky", "--keep-secrets"); !strings.Contains(r.stdout, key) || r.stderr != "" {
		t.Errorf("--keep-secrets: stdout %q stderr %q", r.stdout, r.stderr)
	}
}
