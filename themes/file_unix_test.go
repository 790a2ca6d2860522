//go:build unix

package themes

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadRefusesNonRegularFiles: a theme file that is a named pipe or a
// link to a device is refused with the reason, without blocking.
func TestLoadRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for p, says := range map[string]string{fifo: "is a named pipe", zero: "links to /dev/zero, a device"} {
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("Load(%s) = %v; want an error saying %q", filepath.Base(p), err, says)
		}
	}
}
