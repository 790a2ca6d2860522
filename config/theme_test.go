package config

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckTheme: Load asks LoadOptions.CheckTheme about the theme and
// turns its answer into a config problem that names the field, where it
// was set and what to write instead; without a checker any name passes.
func TestCheckTheme(t *testing.T) {
	known := func(name string) (string, string) {
		if name == "dark" || name == "auto" {
			return "", ""
		}
		return "which is not a theme here", `"auto" or "dark"`
	}
	tests := []struct {
		file  string
		check func(string) (string, string)
		want  string // "" for no error
	}{
		{`{"theme": "dark"}`, known, ""},
		{`{}`, known, ""},
		{`{"theme": "sunset"}`, known, `theme is "sunset" (from PROJECT), which is not a theme here; set "theme" in PROJECT to "auto" or "dark"`},
		{`{"theme": "sunset"}`, nil, ""},
	}
	for _, tt := range tests {
		w := newWorld(t)
		w.writeProject(t, tt.file)
		_, _, err := Load(LoadOptions{ProjectRoot: w.root, Getenv: w.env.get, CheckTheme: tt.check})
		want := strings.ReplaceAll(tt.want, "PROJECT", w.projectPath())
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.file, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrInvalidValue)):
			t.Errorf("%s: %v\nwant %s", tt.file, err, want)
		}
	}
}
