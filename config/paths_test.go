package config

import (
	"path/filepath"
	"testing"
)

func TestUserConfigPath(t *testing.T) {
	tests := []struct {
		name string
		env  fakeEnv
		want string
	}{
		{"xdg", fakeEnv{"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h", "USERPROFILE": "/h"}, "/x/cfg/pincer/config.json"},
		{"relative xdg is ignored", fakeEnv{"XDG_CONFIG_HOME": "cfg", "HOME": "/h", "USERPROFILE": "/h"}, "/h/.config/pincer/config.json"},
		{"home", fakeEnv{"HOME": "/h", "USERPROFILE": "/h"}, "/h/.config/pincer/config.json"},
		{"PINCER_CONFIG does not move it", fakeEnv{"HOME": "/h", "USERPROFILE": "/h", "PINCER_CONFIG": "/other.json"}, "/h/.config/pincer/config.json"},
		{"no home", fakeEnv{}, ""},
	}
	for _, tt := range tests {
		if got := UserConfigPath(tt.env.get); got != filepath.FromSlash(tt.want) {
			t.Errorf("%s: UserConfigPath = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestTildeAndExpand(t *testing.T) {
	home := filepath.FromSlash("/home/ann")
	tests := []struct{ path, tilde string }{
		{"/home/ann/.config/pincer/config.json", "~/.config/pincer/config.json"},
		{"/home/anna/x", "/home/anna/x"},
		{"/etc/x", "/etc/x"},
		{"/home/ann", "/home/ann"},
	}
	for _, tt := range tests {
		p := filepath.FromSlash(tt.path)
		if got := tildePath(p, home); got != filepath.FromSlash(tt.tilde) {
			t.Errorf("tildePath(%q) = %q, want %q", p, got, tt.tilde)
		}
	}
	if got := expandHome("~/data", home); got != filepath.Join(home, "data") {
		t.Errorf("expandHome = %q", got)
	}
	if got := expandHome("/abs/~/x", home); got != "/abs/~/x" {
		t.Errorf("expandHome changed a path without a leading ~: %q", got)
	}
	if got := ProjectConfigPath(filepath.FromSlash("/p")); got != filepath.FromSlash("/p/.pincer.json") {
		t.Errorf("ProjectConfigPath = %q", got)
	}
}
