package headless

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"

	"pincer/agent"
)

// brokenPipe fails every write after the first n, like a pipe whose reader
// left.
type brokenPipe struct {
	n, writes, failed int
}

func (b *brokenPipe) Write(p []byte) (int, error) {
	b.writes++
	if b.writes > b.n {
		b.failed++
		return 0, syscall.EPIPE
	}
	return len(p), nil
}

func TestPrinterStopsAtTheFirstWriteError(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		out, errOut := &brokenPipe{n: 1}, &brokenPipe{n: 1000}
		p := NewPrinter(out, errOut, asJSON)
		var told []error
		p.OnBroken(func(err error) { told = append(told, err) })
		for range 5 {
			p.Event(agent.TextDelta{Text: "line\n"})
			p.Event(agent.ToolStarted{Summary: "ls"})
		}
		code := p.Finish(agent.Result{StopReason: "cancelled"}, errors.New("boom"))
		if code != ExitBrokenPipe {
			t.Errorf("json=%v: exit code %d, want %d", asJSON, code, ExitBrokenPipe)
		}
		if len(told) != 1 || !errors.Is(told[0], syscall.EPIPE) {
			t.Errorf("json=%v: OnBroken called with %v, want EPIPE once", asJSON, told)
		}
		if out.failed != 1 {
			t.Errorf("json=%v: %d failed writes to the output, want 1 (then nothing)", asJSON, out.failed)
		}
		if errOut.writes > 1 {
			t.Errorf("json=%v: %d writes to stderr after the output broke", asJSON, errOut.writes)
		}
	}
}

// failing fails every write with err.
type failing struct{ err error }

func (f failing) Write([]byte) (int, error) { return 0, f.err }

// TestOutputThatFailsOtherwiseIsReported: only a reader that went away
// ends a run quietly with ExitBrokenPipe; a full disk or a closed
// descriptor loses what the person asked for, so the run says so on
// standard error and exits 1.
func TestOutputThatFailsOtherwiseIsReported(t *testing.T) {
	cases := []struct {
		name     string
		err      error
		wantCode int
		wantSaid string
	}{
		{"a broken pipe", syscall.EPIPE, ExitBrokenPipe, ""},
		{"a closed pipe", io.ErrClosedPipe, ExitBrokenPipe, ""},
		{"a full disk", syscall.ENOSPC, ExitFailure, "could not write the output (no space left on device)"},
		{"a closed descriptor", syscall.EBADF, ExitFailure, "could not write the output (bad file descriptor)"},
	}
	for _, tc := range cases {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s json=%v", tc.name, asJSON), func(t *testing.T) {
				var errOut strings.Builder
				p := NewPrinter(failing{tc.err}, &errOut, asJSON)
				p.Event(agent.TextDelta{Text: "the answer\n"})
				code := p.Finish(agent.Result{StopReason: "stop"}, nil)
				if code != tc.wantCode {
					t.Errorf("exit code %d, want %d", code, tc.wantCode)
				}
				if got := errOut.String(); (tc.wantSaid == "") != (got == "") || !strings.Contains(got, tc.wantSaid) {
					t.Errorf("stderr %q, want %q", got, tc.wantSaid)
				}
			})
		}
	}
}
