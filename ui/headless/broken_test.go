package headless

import (
	"errors"
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
