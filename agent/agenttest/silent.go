package agenttest

import (
	"io"
	"net"
	"os"
	"sync"
	"testing"
)

// SilentListener accepts connections on 127.0.0.1, reads what is sent and
// never answers, like a model server that took the request and hangs. It
// returns its address and a count of the connections accepted; everything
// is closed when the test ends.
func SilentListener(t testing.TB) (addr string, accepted func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String(), func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(conns)
	}
}

// ClosingListener accepts TCP connections on 127.0.0.1 and closes each at
// once: something to connect to when a test checks whether a connection
// can be made at all. It returns the port; the listener closes when the
// test ends.
func ClosingListener(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// Missing stops a test whose prerequisite this machine lacks (Landlock, a
// kernel feature, a program). Under CI=true, where .ci/run provides
// everything, it is a failure, so a broken probe cannot turn the checks
// into silent skips; elsewhere it is a skip.
func Missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI must run this test", what)
	}
	t.Skip(what)
}
