package run

import (
	"pincer/e2e/e2etest"
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
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "leaky", "what is in .env?"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	for _, format := range []string{"markdown", "json"} {
		r := s.Run("", "sessions", "export", "leaky", "--format", format)
		if r.Code != 0 {
			t.Fatal(r.Stderr)
		}
		if strings.Contains(r.Stdout, key) || !strings.Contains(r.Stdout, "PORT=5432") {
			t.Errorf("%s export:\n%s", format, r.Stdout)
		}
		if !strings.Contains(r.Stderr, "redacted 1 item") || !strings.Contains(r.Stderr, "--keep-secrets") {
			t.Errorf("%s export does not say what it redacted: %q", format, r.Stderr)
		}
	}
	if r := s.Run("", "sessions", "export", "leaky", "--keep-secrets"); !strings.Contains(r.Stdout, key) || r.Stderr != "" {
		t.Errorf("--keep-secrets: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}
