//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pincer/safety"
)

// TestDiskFilesPrivateKey classifies reads against a real project: a key
// under an innocent name asks, an ordinary file does not, and a named pipe
// under a key-ish name is not opened for reading (the test would hang
// waiting for a writer if it were).
func TestDiskFilesPrivateKey(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	files := map[string]string{
		"deploy_key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n",
		"notes":      "nothing secret\n",
		"src/a.go":   "package a\n",
		"ops/server": "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "pipes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipes", "id_key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipes", "deploy_key"), 0o600); err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	cls = cls.WithFiles(newDiskFiles(root, home))
	cases := []struct {
		cmd  string
		want safety.Tier
		why  string
	}{
		{"cat deploy_key", safety.Confirm, "reads deploy_key (holds a private key)"},
		{"head -n1 notes", safety.Safe, ""},
		{"cat pipes/deploy_key", safety.Safe, ""},
		{"rg foo pipes", safety.Safe, ""},
		{"rg foo", safety.Confirm, "which holds a private key"},
		{"grep -r foo src", safety.Safe, ""},
		{"grep -r foo ops", safety.Confirm, "including ops/server, which holds a private key"},
	}
	for _, tc := range cases {
		v := cls.Classify(tc.cmd)
		reasons := strings.Join(v.Reasons, "\n")
		if v.Tier != tc.want || !strings.Contains(reasons, tc.why) {
			t.Errorf("%q: got %v %q, want %v with %q", tc.cmd, v.Tier, reasons, tc.want, tc.why)
		}
	}
}
