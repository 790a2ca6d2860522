//go:build !windows

package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"pincer/agent/agenttest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCloseStopsWhatTheServerStarted: a stdio server that starts
// processes of its own (as npx starts node) leaves none behind when
// pincer stops it.
func TestCloseStopsWhatTheServerStarted(t *testing.T) {
	srv := stdioServer(t, "wrapped")
	pidfile := filepath.Join(t.TempDir(), "pid")
	// A wrapper shell that leaves a child of its own running, then runs
	// the server as another child.
	script := fmt.Sprintf(`sleep 7777 & echo $! > %s; "$0" "$@"`, pidfile)
	srv.Args = append([]string{"-c", script, srv.Command}, srv.Args...)
	srv.Command = "/bin/sh"
	m := started(t, Options{Servers: []Server{srv}})
	if in := m.Servers()[0]; in.Status != StatusReady {
		t.Fatalf("server not ready: %+v", in)
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(strings.TrimSpace(string(data)), &pid)
	m.Close()
	for deadline := time.Now().Add(10 * time.Second); agenttest.Alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d started by the server outlived it", pid)
		}
	}
}
