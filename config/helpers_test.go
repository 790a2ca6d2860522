package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fakeEnv is an injected environment.
type fakeEnv map[string]string

func (e fakeEnv) get(k string) string { return e[k] }

// world is a temporary home and project with optional config files.
type world struct {
	home, root string
	env        fakeEnv
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	w := &world{home: filepath.Join(dir, "home"), root: filepath.Join(dir, "project")}
	for _, d := range []string{w.home, w.root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.env = fakeEnv{"HOME": w.home, "USERPROFILE": w.home}
	return w
}

func (w *world) userPath() string { return filepath.Join(w.home, ".config", "pincer", "config.json") }

func (w *world) projectPath() string { return filepath.Join(w.root, ProjectFileName) }

func (w *world) writeUser(t *testing.T, content string) {
	t.Helper()
	writeFile(t, w.userPath(), content)
}

func (w *world) writeProject(t *testing.T, content string) {
	t.Helper()
	writeFile(t, w.projectPath(), content)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (w *world) load(o Overrides) (Config, Sources, error) {
	return Load(LoadOptions{ProjectRoot: w.root, Getenv: w.env.get, Overrides: o})
}

// mustLoad fails the test on any config error.
func (w *world) mustLoad(t *testing.T, o Overrides) (Config, Sources) {
	t.Helper()
	c, s, err := w.load(o)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c, s
}

// problemsOf unpacks Load's error.
func problemsOf(t *testing.T, err error) []*Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *config.Error", err, err)
	}
	return ce.Problems
}

// fieldValue reads a Config field by JSON name.
func fieldValue(c Config, name string) any {
	i, ok := fieldIndex(name)
	if !ok {
		panic("no field " + name)
	}
	v := reflect.ValueOf(c).Field(i).Interface()
	if hooks, ok := v.(map[string][]HookMatcher); ok && hooks != nil {
		// The file's path differs per test world; the kind says the layer.
		out := map[string][]HookMatcher{}
		for e, list := range hooks {
			for _, m := range list {
				m.From.Name = ""
				out[e] = append(out[e], m)
			}
		}
		return out
	}
	return v
}

// readSource returns a file of this package, for tests that keep tables
// complete.
func readSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFileB(b *testing.B, path, content string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		b.Fatal(err)
	}
}
