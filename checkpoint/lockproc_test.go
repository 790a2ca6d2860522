package checkpoint

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain runs the tests, or, started by TestLockOtherProcess as a second
// process, holds a store's lock until its stdin closes.
func TestMain(m *testing.M) {
	if dir := os.Getenv("PINCER_CHECKPOINT_LOCK_DIR"); dir != "" {
		holdLock(dir)
	}
	os.Exit(m.Run())
}

// holdLock takes the lock of the store in dir, says so on stdout, and
// lets go when stdin closes.
func holdLock(dir string) {
	release, err := lockDir(context.Background(), dir, time.Second)
	if err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked\n")
	buf := make([]byte, 1)
	os.Stdin.Read(buf)
	release()
	os.Exit(0)
}

// TestLockOtherProcess: while another process holds the store, Snapshot
// waits, then fails with the fix; once it lets go, Snapshot works.
func TestLockOtherProcess(t *testing.T) {
	s, _ := newStore(t, spec{"a": "a"}, Options{})
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PINCER_CHECKPOINT_LOCK_DIR="+s.dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	s.lockWait = 100 * time.Millisecond
	start := time.Now()
	_, err = s.Snapshot(context.Background(), "blocked")
	if err == nil || !strings.Contains(err.Error(), "in use by another pincer process; wait for it to finish, then try again") {
		t.Fatalf("Snapshot while another process holds the store = %v", err)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Errorf("gave up after %v, before the wait", waited)
	}
	stdin.Close()
	cmd.Wait()
	s.lockWait = 5 * time.Second
	if _, err := s.Snapshot(context.Background(), "free"); err != nil {
		t.Fatalf("Snapshot after the other process let go: %v", err)
	}
}
