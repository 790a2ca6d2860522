package session

import (
	"path/filepath"
	"testing"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"PINCER_DATA_DIR": "/data", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, filepath.Join("/data", "pincer.db")},
		{"linux", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, filepath.Join("/xdg", "pincer", "pincer.db")},
		{"linux", map[string]string{"XDG_DATA_HOME": "relative", "HOME": "/home/u"}, filepath.Join("/home/u", ".local", "share", "pincer", "pincer.db")},
		{"linux", map[string]string{"HOME": "/home/u"}, filepath.Join("/home/u", ".local", "share", "pincer", "pincer.db")},
		{"freebsd", map[string]string{"HOME": "/home/u"}, filepath.Join("/home/u", ".local", "share", "pincer", "pincer.db")},
		{"darwin", map[string]string{"HOME": "/Users/u"}, filepath.Join("/Users/u", "Library", "Application Support", "pincer", "pincer.db")},
		{"darwin", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/Users/u"}, filepath.Join("/xdg", "pincer", "pincer.db")},
		{"darwin", map[string]string{"PINCER_DATA_DIR": "/data", "HOME": "/Users/u"}, filepath.Join("/data", "pincer.db")},
		{"windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "APPDATA": `C:\Users\u\AppData\Roaming`}, filepath.Join(`C:\Users\u\AppData\Local`, "pincer", "pincer.db")},
		{"windows", map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`}, filepath.Join(`C:\Users\u\AppData\Roaming`, "pincer", "pincer.db")},
		{"windows", map[string]string{"USERPROFILE": `C:\Users\u`}, filepath.Join(`C:\Users\u`, "AppData", "Local", "pincer", "pincer.db")},
		{"linux", map[string]string{}, ""},
		{"windows", map[string]string{}, ""},
	}
	for _, tt := range tests {
		got := defaultPath(tt.goos, func(k string) string { return tt.env[k] })
		if got != tt.want {
			t.Errorf("defaultPath(%s, %v) = %q, want %q", tt.goos, tt.env, got, tt.want)
		}
	}
}

func TestDefaultPathUsesEnvironmentFunction(t *testing.T) {
	env := map[string]string{"PINCER_DATA_DIR": "/from/getenv"}
	if got, want := DefaultPath(func(k string) string { return env[k] }), filepath.Join("/from/getenv", "pincer.db"); got != want {
		t.Errorf("DefaultPath = %q, want %q", got, want)
	}
}
