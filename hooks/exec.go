package hooks

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"pincer/internal/procgroup"
	"time"
)

// maxOutput is how much of a hook's standard output and error is kept;
// the rest is read and dropped, so a chatty hook cannot fill memory.
const maxOutput = 64 << 10

// maxContext caps the text hooks add for the model in one event.
const maxContext = 10_000

// result is how one hook run ended.
type result struct {
	stdout, stderr string
	code           int // exit status; -1 when it did not exit by itself
	timedOut       bool
	timeout        time.Duration
	cancelled      bool  // the turn was cancelled while it ran
	startErr       error // it could not be started at all
}

// exec runs one hook with sh -c in the project directory, in a process
// group of its own that is killed when the timeout passes or the turn is
// cancelled. It is the person's own command, so it runs outside the
// command sandbox.
func (r *Runner) exec(ctx context.Context, h Hook, payload []byte) result {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, "sh", "-c", h.Command)
	cmd.Dir = r.opts.Dir
	cmd.Env = append(append([]string(nil), r.opts.Env...),
		"PINCER_PROJECT_DIR="+r.opts.Dir, "CLAUDE_PROJECT_DIR="+r.opts.Dir)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Cancelling kills the whole group, so what the script started ends
	// with it.
	procgroup.Own(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd) }
	// Children that keep the output pipes open must not hold the turn.
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String(), code: -1, timeout: timeout}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.cancelled = true
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		res.timedOut = true
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil && cmd.ProcessState == nil:
		res.startErr = err
	case cmd.ProcessState != nil:
		res.code = cmd.ProcessState.ExitCode()
	}
	return res
}

// capped keeps the first maxOutput bytes written to it and drops the
// rest, so a hook that prints without end cannot fill memory (what is kept
// is cut again, saying so, where it is used).
type capped struct {
	buf bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }
