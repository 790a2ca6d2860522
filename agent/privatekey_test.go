package agent

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pincer/internal/privatekey"
	"pincer/safety"
	"pincer/tools"
)

// diskView is the classifier's view of the disk the composition root
// gives it, for tests: absolute paths as they are; it counts the files
// it opened to look for a key.
type diskView struct {
	mu     sync.Mutex
	sniffs []string
}

func (d *diskView) ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }
func (d *diskView) EvalSymlinks(p string) (string, error)     { return filepath.EvalSymlinks(p) }
func (d *diskView) HoldsPrivateKey(p string) (bool, int64) {
	d.mu.Lock()
	d.sniffs = append(d.sniffs, p)
	d.mu.Unlock()
	return privatekey.InFile(p)
}

// TestPrivateKeyNeverShownUnasked: a private key in a file whose name
// says nothing (deploy_key, a settings file with a key pasted in) is
// never shown by read_file or grep unless the person says yes: read_file
// asks, grep names the file as needing approval; a key deeper in a large
// file than read_file looks is still left out of grep's lines.
func TestPrivateKeyNeverShownUnasked(t *testing.T) {
	const keyLine = "MIIEowIBAAKCAQEAsecretkeymaterial"
	root := t.TempDir()
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + keyLine + "\n-----END OPENSSH PRIVATE KEY-----\n"
	files := map[string]string{
		"deploy_key":    key,
		"config/app.rb": "host = x\n" + key,
		"big.txt":       strings.Repeat("filler line\n", 8000) + key,
		"plain.txt":     "MIIE is not a key here\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	cls = cls.WithFiles(&diskView{})
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: root, ReadCheck: ReadPolicy(cls, t.TempDir(), safety.OwnFiles{})})...)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	a, err := New(Options{Model: nopModel{}, Tools: reg, Safety: cls, Root: root, Home: t.TempDir(),
		Approver: ApproverFunc(func(context.Context, Approval) (Decision, error) { asked++; return Decision{}, nil })})
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		tool string
		args map[string]any
		ask  bool
		want string
	}{
		{"read_file", map[string]any{"path": "deploy_key"}, true, ""},
		{"read_file", map[string]any{"path": "config/app.rb"}, true, ""},
		{"grep", map[string]any{"pattern": "MII", "path": "."}, false, "plain.txt"},
		{"grep", map[string]any{"pattern": "MII|BEGIN", "path": "big.txt"}, false, "not shown"},
	} {
		raw, _ := json.Marshal(tc.args)
		before := asked
		r := a.runCall(context.Background(), ToolCall{ID: string(rune('a' + i)), Name: tc.tool, Arguments: string(raw)}, func(Event) {})
		if strings.Contains(r.Content, keyLine) {
			t.Errorf("%s %v showed the private key:\n%s", tc.tool, tc.args, r.Content)
		}
		if (asked > before) != tc.ask {
			t.Errorf("%s %v asked %v, want %v", tc.tool, tc.args, asked > before, tc.ask)
		}
		if !strings.Contains(r.Content, tc.want) {
			t.Errorf("%s %v lacks %q:\n%s", tc.tool, tc.args, tc.want, r.Content)
		}
	}
}

// TestKeyCheckOneViewOneOpen: whether a read holds a private key is
// decided in one place, the classifier's judgement of the path through
// its view of the disk: read_file asks it (one look at the file); grep
// decides from what it read, so the files it searches are not opened a
// second time to look for a key, and a key file is still named, not
// searched.
func TestKeyCheckOneViewOneOpen(t *testing.T) {
	root := t.TempDir()
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nMIIEsecret\n-----END OPENSSH PRIVATE KEY-----\n"
	for name, content := range map[string]string{"deploy_key": key, "a.txt": "MIIE plain\n", "b.go": "// MIIE\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		tool       string
		args       string
		ask        bool
		wantSniffs []string
		want       string
	}{
		{"read_file", `{"path":"deploy_key"}`, true, []string{filepath.Join(root, "deploy_key")}, ""},
		{"read_file", `{"path":"a.txt"}`, false, []string{filepath.Join(root, "a.txt")}, "MIIE plain"},
		// The search's start is judged as the call's access; none of the
		// files it reads is looked at apart.
		{"grep", `{"pattern":"MIIE","path":"."}`, false, []string{root}, "deploy_key"},
	} {
		view := &diskView{}
		base, err := safety.NewClassifier(safety.Rules{})
		if err != nil {
			t.Fatal(err)
		}
		cls := base.WithFiles(view)
		reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: root, ReadCheck: ReadPolicy(cls, t.TempDir(), safety.OwnFiles{})})...)
		if err != nil {
			t.Fatal(err)
		}
		asked := false
		a, err := New(Options{Model: nopModel{}, Tools: reg, Safety: cls, Root: root, Home: t.TempDir(),
			Approver: ApproverFunc(func(context.Context, Approval) (Decision, error) { asked = true; return Decision{}, nil })})
		if err != nil {
			t.Fatal(err)
		}
		r := a.runCall(context.Background(), ToolCall{ID: "c", Name: tc.tool, Arguments: tc.args}, func(Event) {})
		if asked != tc.ask {
			t.Errorf("%s %s: asked %v, want %v", tc.tool, tc.args, asked, tc.ask)
		}
		if strings.Join(view.sniffs, ",") != strings.Join(tc.wantSniffs, ",") {
			t.Errorf("%s %s: the view looked for a key in %q, want %q", tc.tool, tc.args, view.sniffs, tc.wantSniffs)
		}
		if strings.Contains(r.Content, "MIIEsecret") || !strings.Contains(r.Content, tc.want) {
			t.Errorf("%s %s: result lacks %q or shows the key:\n%s", tc.tool, tc.args, tc.want, r.Content)
		}
	}
}
