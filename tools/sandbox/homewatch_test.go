package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCredentialStoreFiles: the files git's credential helpers keep or
// read passwords in are found however the settings name them, and
// nothing else is.
func TestCredentialStoreFiles(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"store --file=", "[credential]\n\thelper = store --file=~/.config/git/tok\n", []string{"/h/.config/git/tok"}},
		{"store --file apart", "[credential \"https://x\"]\n\thelper = store --file /h/x/tok\n", []string{"/h/x/tok"}},
		{"git-credential-store by path", "[credential]\n\thelper = /usr/lib/git-core/git-credential-store --file=$HOME/t\n", []string{"/h/t"}},
		{"store by default", "[credential]\n\thelper = store\n", nil},
		{"cache", "[credential]\n\thelper = cache --timeout=300\n", nil},
		{"inline helper reads a file", "[credential]\n\thelper = \"!f() { echo password=$(cat ~/.config/git/pat); }; f\"\n", []string{"/h/.config/git/pat"}},
		{"inline helper, ${HOME}", "[credential]\n\thelper = \"!cat ${HOME}/.tok\"\n", []string{"/h/.tok"}},
		{"a relative file is not resolved", "[credential]\n\thelper = store --file=tok\n", nil},
		{"another section", "[core]\n\thelper = store --file=~/x\n", nil},
		{"several, each once", "[credential]\n\thelper = store --file=~/a\n\thelper = store --file=~/a\n\thelper = store --file=~/b\n", []string{"/h/a", "/h/b"}},
	} {
		if got := credentialStoreFiles(tc.text, "/h"); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHomeWatchCurrent: a watch stops being current when a file it
// recorded changes, appears or goes, or a pattern it recorded matches
// another list; and stays current otherwise.
func TestHomeWatchCurrent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(dir string) error
		want   bool
	}{
		{"nothing", func(string) error { return nil }, true},
		{"a file elsewhere", func(d string) error { return os.WriteFile(filepath.Join(d, "elsewhere", "x"), nil, 0o644) }, true},
		{"a recorded file grows", func(d string) error { return os.WriteFile(filepath.Join(d, "f"), []byte("token=1\n"), 0o644) }, false},
		{"a recorded missing file appears", func(d string) error { return os.WriteFile(filepath.Join(d, "missing"), nil, 0o644) }, false},
		{"a recorded file goes", func(d string) error { return os.Remove(filepath.Join(d, "f")) }, false},
		{"a pattern matches one more", func(d string) error {
			return os.MkdirAll(filepath.Join(d, "node", "v2", "etc"), 0o755)
		}, false},
		{"an entry made in a recorded directory", func(d string) error { return os.WriteFile(filepath.Join(d, "dir", "credentials"), nil, 0o644) }, false},
	} {
		d := t.TempDir()
		for _, sub := range []string{"elsewhere", "dir", "node/v1/etc"} {
			if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		w := homeWatch{}
		w.stamp(filepath.Join(d, "f"))
		w.stamp(filepath.Join(d, "missing"))
		w.stamp(filepath.Join(d, "dir"))
		w.glob(filepath.Join(d, "node", "*", "etc"))
		if !w.current() {
			t.Fatalf("%s: not current when just made", tc.name)
		}
		if err := tc.change(d); err != nil {
			t.Fatal(err)
		}
		if got := w.current(); got != tc.want {
			t.Errorf("%s: current = %v, want %v", tc.name, got, tc.want)
		}
	}
}
