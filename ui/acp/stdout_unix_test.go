//go:build unix

package acp

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestClaimStdout runs this test binary as a child that claims standard
// output, then prints to it the usual way and starts a program that
// inherits it: only what is written to the claimed file reaches standard
// output, the rest goes to standard error.
func TestClaimStdout(t *testing.T) {
	if os.Getenv("PINCER_ACP_CLAIM_CHILD") == "1" {
		out, err := ClaimStdout()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println("a stray print")
		cmd := exec.Command("sh", "-c", "echo a child process")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		_ = cmd.Run()
		fmt.Fprintln(out, `{"jsonrpc":"2.0","method":"session/update"}`)
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestClaimStdout$")
	cmd.Env = append(os.Environ(), "PINCER_ACP_CLAIM_CHILD=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if got := stdout.String(); got != "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\"}\n" {
		t.Errorf("standard output held %q", got)
	}
	for _, want := range []string{"a stray print", "a child process"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("standard error lacks %q: %q", want, stderr.String())
		}
	}
}
