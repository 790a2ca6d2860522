package browser

import (
	"errors"
	"runtime"
	"slices"
	"testing"
)

func TestFind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the opener without $BROWSER is the platform's")
	}
	have := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			if slices.Contains(names, n) {
				return "/usr/bin/" + n, nil
			}
			return "", errors.New("not found")
		}
	}
	tests := []struct {
		name  string
		env   map[string]string
		path  func(string) (string, error)
		want  Opener
		found bool
	}{
		{"BROWSER wins", map[string]string{"BROWSER": "firefox --new-tab", "DISPLAY": ":0"}, have("firefox", "xdg-open"), Opener{"firefox", []string{"--new-tab"}}, true},
		{"BROWSER missing falls back", map[string]string{"BROWSER": "nosuch", "DISPLAY": ":0"}, have("xdg-open"), Opener{Program: "xdg-open"}, true},
		{"no display, no browser", map[string]string{}, have("xdg-open"), Opener{}, false},
		{"wayland", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, have("xdg-open"), Opener{Program: "xdg-open"}, true},
		{"display without xdg-open", map[string]string{"DISPLAY": ":0"}, have(), Opener{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Find(func(k string) string { return tt.env[k] }, tt.path)
			if ok != tt.found || got.Program != tt.want.Program || !slices.Equal(got.Args, tt.want.Args) {
				t.Errorf("Find = %+v, %v; want %+v, %v", got, ok, tt.want, tt.found)
			}
		})
	}
}

func TestCommandRefusesWhatIsNotAWebPage(t *testing.T) {
	o := Opener{Program: "browser", Args: []string{"--app=%s"}}
	tests := []struct {
		page string
		ok   bool
		args []string
	}{
		{"https://auth.example/authorize?x=1", true, []string{"--app=https://auth.example/authorize?x=1"}},
		{"http://127.0.0.1:8080/a", true, []string{"--app=http://127.0.0.1:8080/a"}},
		{"file:///etc/passwd", false, nil},
		{"javascript:alert(1)", false, nil},
		{"--remote-debugging-port=1", false, nil},
		{"https://a.example/x y", false, nil},
		{"https:///nohost", false, nil},
	}
	for _, tt := range tests {
		cmd, err := o.Command(tt.page)
		if (err == nil) != tt.ok {
			t.Errorf("Command(%q) error = %v, want ok=%v", tt.page, err, tt.ok)
			continue
		}
		if tt.ok && !slices.Equal(cmd.Args[1:], tt.args) {
			t.Errorf("Command(%q) args = %q, want %q", tt.page, cmd.Args[1:], tt.args)
		}
	}
	cmd, err := Opener{Program: "xdg-open"}.Command("https://a.example/")
	if err != nil || !slices.Equal(cmd.Args, []string{"xdg-open", "https://a.example/"}) {
		t.Errorf("the page goes last: %v %v", cmd, err)
	}
}
