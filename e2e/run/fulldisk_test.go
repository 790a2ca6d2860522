package run

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"pincer/agent/agenttest"
)

// TestAFullDiskFailsTheRun puts the store on a small file system, fills
// it, and runs again: pincer run exits 1 saying the conversation could not
// be saved, and the session holds no answer without its prompt.
func TestAFullDiskFailsTheRun(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a file system")
	}
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text(strings.Repeat("a long answer ", 2000), 4000))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	data := filepath.Join(s.Home, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", data).CombinedOutput(); err != nil {
		agenttest.Missing(t, fmt.Sprintf("cannot mount a tmpfs here: %v: %s", err, out))
	}
	defer exec.Command("umount", "-l", data).Run()
	if r := s.Run("", "run", "-s", "full", "first prompt"); r.Code != 0 {
		t.Fatalf("first run: exit %d: %s", r.Code, r.Stderr)
	}
	fill(t, filepath.Join(data, "filler"))
	r := s.Run(strings.Repeat("a long prompt ", 3000), "run", "-s", "full")
	if r.Code != 1 || !strings.Contains(r.Stderr, "could not save the conversation") {
		t.Errorf("run on a full disk: exit %d, stderr %q; want 1 and a sentence saying it could not save", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stdout, "a long answer") {
		t.Error("the model was asked although the prompt was not saved")
	}
	os.Remove(filepath.Join(data, "filler"))
	msgs := s.Exported("full").Messages
	for i, m := range msgs {
		if want := []string{"user", "assistant"}[i%2]; string(m.Role) != want {
			t.Errorf("message %d is %s, want %s: the session is out of order", i+1, m.Role, want)
		}
	}
}

// fill writes to path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill the disk: %v", err)
			}
			return
		}
	}
}
