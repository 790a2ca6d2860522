package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/safety"
	"pincer/tools"
)

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
