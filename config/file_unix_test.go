//go:build !windows

package config

import (
	"os"
	"strings"
	"testing"
)

func TestWorldReadableKeyFileWarns(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"api_key": "sk-1", "provider": "openai"}`)
	if err := os.Chmod(w.userPath(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, s := w.mustLoad(t, Overrides{})
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "chmod 600") {
		t.Fatalf("warnings = %q, want one telling to chmod 600", s.Warnings)
	}
	if err := os.Chmod(w.userPath(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, s := w.mustLoad(t, Overrides{}); len(s.Warnings) != 0 {
		t.Errorf("warnings = %q with mode 0600, want none", s.Warnings)
	}
}
