package run

import (
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
)

// TestThemeIsCheckedOnceForEveryCommand: an unknown theme is a config
// error that pincer config reports just as starting pincer does (exit 2,
// the same sentence with the fix), and a theme file of that name makes it
// valid for both.
func TestThemeIsCheckedOnceForEveryCommand(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "http://127.0.0.1:9/v1")
	s.WriteHome(filepath.Join(".config", "pincer", "config.json"), `{"theme": "sunset"}`)
	cfg := s.Run("", "config")
	start := s.Run("")
	for _, r := range []e2etest.Result{cfg, start} {
		if r.Code != 2 || !strings.Contains(r.Stderr, `theme is "sunset"`) || !strings.Contains(r.Stderr, "not a built-in theme") ||
			!strings.Contains(r.Stderr, `"auto", a built-in theme (dark, light`) {
			t.Errorf("with an unknown theme: exit %d %q; want 2 and the reason", r.Code, r.Stderr)
		}
	}
	if cfg.Stderr != start.Stderr {
		t.Errorf("pincer config says %q, pincer says %q; want the same", cfg.Stderr, start.Stderr)
	}
	if r := s.Run("", "config", "--theme", "nope"); r.Code != 2 || !strings.Contains(r.Stderr, `give --theme "auto"`) {
		t.Errorf("--theme nope: exit %d %q", r.Code, r.Stderr)
	}
	s.WriteHome(filepath.Join(".config", "pincer", "themes", "sunset.json"), `{"extends": "dark", "colors": {"accent": "#ff8800"}}`)
	if r := s.Run("", "config"); r.Code != 0 || !strings.Contains(r.Stdout, `"sunset"`) {
		t.Errorf("with a theme file: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
}
