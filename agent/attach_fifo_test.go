//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadCappedRefusesWhatIsNotAFile: a pipe or a link swapped in after a
// mention was judged is refused at once, not waited on or followed.
func TestReadCappedRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("/etc/hostname", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link} {
		done := make(chan error, 1)
		go func() { _, _, err := readCapped(p); done <- err }()
		if err := <-done; err == nil {
			t.Errorf("readCapped(%s) read it", p)
		}
	}
}
