package sandbox

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCover(t *testing.T) {
	tree := map[string][]string{
		"/":               {"/bin", "/etc", "/home", "/tmp"},
		"/home":           {"/home/u"},
		"/home/u":         {"/home/u/.ssh", "/home/u/.bashrc", "/home/u/src", "/home/u/.config"},
		"/home/u/.config": {"/home/u/.config/pincer", "/home/u/.config/git"},
	}
	list := func(dir string) ([]string, error) {
		if e, ok := tree[dir]; ok {
			return e, nil
		}
		return nil, errors.New("not a directory")
	}
	tests := []struct {
		name          string
		top           string
		hidden        []string
		whole, parent string
	}{
		{"nothing hidden", "/", nil, "/", ""},
		{"hidden elsewhere", "/home/u/src", []string{"/home/u/.ssh"}, "/home/u/src", ""},
		{"hidden above", "/home/u/.ssh/keys", []string{"/home/u/.ssh"}, "", ""},
		{"hidden is top", "/home/u/.ssh", []string{"/home/u/.ssh"}, "", ""},
		{"split root", "/", []string{"/home/u/.ssh", "/home/u/.config/pincer"},
			"/bin /etc /home/u/.bashrc /home/u/.config/git /home/u/src /tmp", "/ /home /home/u /home/u/.config"},
		{"split home", "/home/u", []string{"/home/u/.ssh"}, "/home/u/.bashrc /home/u/.config /home/u/src", "/home/u"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, p := cover(tt.top, tt.hidden, list)
			slices.Sort(w)
			slices.Sort(p)
			if got := strings.Join(w, " "); got != tt.whole {
				t.Errorf("whole = %q, want %q", got, tt.whole)
			}
			if got := strings.Join(p, " "); got != tt.parent {
				t.Errorf("parents = %q, want %q", got, tt.parent)
			}
		})
	}
	_ = filepath.Join
}
