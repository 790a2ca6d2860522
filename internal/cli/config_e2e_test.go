package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThemeIsCheckedOnceForEveryCommand: an unknown theme is a config
// error that pincer config reports just as starting pincer does (exit 2,
// the same sentence with the fix), and a theme file of that name makes it
// valid for both.
func TestThemeIsCheckedOnceForEveryCommand(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, "http://127.0.0.1:9/v1")
	s.writeHome(filepath.Join(".config", "pincer", "config.json"), `{"theme": "sunset"}`)
	cfg := s.run("", "config")
	start := s.run("")
	for _, r := range []runResult{cfg, start} {
		if r.code != 2 || !strings.Contains(r.stderr, `theme is "sunset"`) || !strings.Contains(r.stderr, "not a built-in theme") ||
			!strings.Contains(r.stderr, `"auto", a built-in theme (dark, light`) {
			t.Errorf("with an unknown theme: exit %d %q; want 2 and the reason", r.code, r.stderr)
		}
	}
	if cfg.stderr != start.stderr {
		t.Errorf("pincer config says %q, pincer says %q; want the same", cfg.stderr, start.stderr)
	}
	if r := s.run("", "config", "--theme", "nope"); r.code != 2 || !strings.Contains(r.stderr, `give --theme "auto"`) {
		t.Errorf("--theme nope: exit %d %q", r.code, r.stderr)
	}
	s.writeHome(filepath.Join(".config", "pincer", "themes", "sunset.json"), `{"extends": "dark", "colors": {"accent": "#ff8800"}}`)
	if r := s.run("", "config"); r.code != 0 || !strings.Contains(r.stdout, `"sunset"`) {
		t.Errorf("with a theme file: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// writeHome writes a file under the sandbox's home directory.
func (s *sandbox) writeHome(name, content string) {
	s.t.Helper()
	p := filepath.Join(s.home, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		s.t.Fatal(err)
	}
}
