package e2etest

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

	"pincer/session"
)

// Sandbox is a project directory and a home for one pincer process, with
// nothing of the developer's own configuration leaking in. Since each test
// has its own sandbox and server, the tests that drive the binary run in
// parallel: most of their time is spent waiting for it.
type Sandbox struct {
	T    *testing.T
	Dir  string   // the project, pincer's working directory
	Home string   // HOME, with the XDG directories and the store under it
	Env  []string // the whole environment pincer runs with
}

// NewSandbox makes a sandbox whose pincer talks to the model server at
// baseURL (none when it is empty). Under -short the test is skipped: every
// end-to-end test starts here.
func NewSandbox(t *testing.T, baseURL string) *Sandbox {
	t.Helper()
	Binary(t)
	s := &Sandbox{T: t, Dir: t.TempDir(), Home: t.TempDir()}
	s.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.Home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.Home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.Home, ".local", "share"),
		"PINCER_DATA_DIR=" + filepath.Join(s.Home, "data"),
		"SHELL=/bin/sh",
		"TERM=xterm-256color",
	}
	if baseURL != "" {
		s.Env = append(s.Env, "PINCER_BASE_URL="+baseURL, "PINCER_MODEL=test-model")
	}
	return s
}

// Write writes a file under the project.
func (s *Sandbox) Write(name, content string) {
	s.T.Helper()
	writeFile(s.T, filepath.Join(s.Dir, name), content, 0o755, 0o644)
}

// WriteHome writes a file under the sandbox's home directory.
func (s *Sandbox) WriteHome(name, content string) {
	s.T.Helper()
	writeFile(s.T, filepath.Join(s.Home, name), content, 0o755, 0o600)
}

// WriteUserConfig writes v as the sandbox's user config file.
func (s *Sandbox) WriteUserConfig(v any) {
	s.T.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		s.T.Fatal(err)
	}
	writeFile(s.T, filepath.Join(s.Home, ".config", "pincer", "config.json"), string(data), 0o700, 0o600)
}

func writeFile(t *testing.T, p, content string, dirMode, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), dirMode); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// Result is what one run of pincer printed and its exit status.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Run runs pincer in the sandbox with stdin and args; a run that has not
// finished after two minutes (the race detector on a busy machine, MCP
// servers started through npx) fails the test.
func (s *Sandbox) Run(stdin string, args ...string) Result {
	s.T.Helper()
	cmd := exec.Command(Binary(s.T), args...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// A server pincer started may hold the output pipes after pincer is
	// killed: stop copying from them then, so Wait returns.
	cmd.WaitDelay = 5 * time.Second
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		s.T.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done // the copying into errb has ended: it can be read
		s.T.Fatalf("pincer %v did not finish; stderr:\n%s", args, errb.String())
	}
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: cmd.ProcessState.ExitCode()}
}

// Exported reads a session back through the CLI as a person would.
func (s *Sandbox) Exported(name string) session.Document {
	s.T.Helper()
	r := s.Run("", "sessions", "show", name, "--json")
	if r.Code != 0 {
		s.T.Fatalf("sessions show %s: exit %d: %s", name, r.Code, r.Stderr)
	}
	var doc session.Document
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		s.T.Fatalf("sessions show --json: %v\n%s", err, r.Stdout)
	}
	return doc
}

// JSONLines parses `pincer run --json` output, failing the test on a line
// that is not a JSON object with a type.
func JSONLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line is not JSON: %q", sc.Text())
		}
		if m["type"] == nil {
			t.Fatalf("line has no type: %q", sc.Text())
		}
		lines = append(lines, m)
	}
	return lines
}

// OfType are the lines of type typ.
func OfType(lines []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["type"] == typ {
			out = append(out, l)
		}
	}
	return out
}
