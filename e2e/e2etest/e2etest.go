// Package e2etest holds what the end-to-end tests share: the pincer binary
// built once per test package, a sandboxed project and home to run it in,
// a tmux screen to drive the full-screen interface, and readers for what
// the fake model server was sent. It is a test helper: nothing in pincer
// imports it.
package e2etest

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// binaryPath is where Main builds pincer for this test process. It is
// derived from the process id rather than stored, so that Binary finds it
// without any package state.
func binaryPath() string {
	if p := os.Getenv(BinaryEnv); p != "" {
		return p
	}
	name := "pincer"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("pincer-e2e-bin-%d", os.Getpid()), name)
}

// BinaryEnv names a pincer already built for the end-to-end tests (with
// -race when they run under it): .ci/run builds it once for all the
// packages instead of once per package.
const BinaryEnv = "PINCER_E2E_BINARY"

// Main is the TestMain of every end-to-end package: it builds pincer once
// (with -race when the tests run under it, so the program's own goroutines
// are checked where they meet), runs the tests and removes the build.
// Under -short nothing is built and every test that needs the binary skips:
// the inner loop leaves the end-to-end tests out; .ci/run runs them all.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// testing.Short needs the flags parsed; m.Run would parse them too.
	if !flag.Parsed() {
		flag.Parse()
	}
	if testing.Short() {
		return m.Run()
	}
	if p := os.Getenv(BinaryEnv); p != "" {
		// Built once for every package (.ci/run): not built again here,
		// and not removed.
		if !filepath.IsAbs(p) {
			fmt.Fprintf(os.Stderr, "%s must be an absolute path, not %q\n", BinaryEnv, p)
			return 1
		}
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(os.Stderr, "%s names no built pincer: %v\n", BinaryEnv, err)
			return 1
		}
		return m.Run()
	}
	bin := binaryPath()
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(filepath.Dir(bin))
	args := []string{"build", "-o", bin}
	if RaceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "pincer")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build pincer:", err)
		return 1
	}
	return m.Run()
}

// Binary is the built pincer for a test that runs it. Under -short the
// test is skipped (the binary is not built then).
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the built binary; go test without -short (or .ci/run) runs it")
	}
	bin := binaryPath()
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("pincer is not built (%v): the package's TestMain must call e2etest.Main", err)
	}
	return bin
}
