package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"pincer/internal/human"
	"pincer/internal/procgroup"

	"github.com/sourcegraph/jsonrpc2"
)

// MaxMessage is the largest message pincer reads from a server, headers
// included. A server that sends more (or garbage without line breaks) is
// cut off and treated as crashed, so it cannot fill pincer's memory.
const MaxMessage = 32 << 20

// Command is a server program to start.
type Command struct {
	Path string   // the program; looked up in PATH when it has no slash
	Args []string // its arguments, without the program
	Env  []string // its whole environment
	Dir  string   // where it runs: the project root
}

// Process is a started server program: its pipes, and how to wait for it
// and end it.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	// Stderr is what it writes to standard error; nil when the starter
	// keeps it.
	Stderr io.ReadCloser
	// Wait returns when the program has ended; Kill ends it and what it
	// started.
	Wait func() error
	Kill func()
}

// Starter starts a server program. The composition root gives one that
// starts it in the command jail (tools/sandbox); ExecStarter starts it
// with the person's rights, for tests and --sandbox off.
type Starter func(Command) (*Process, error)

// ExecStarter starts c as an ordinary child process in a process group
// of its own, so Kill ends what it started too.
func ExecStarter(c Command) (*Process, error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	procgroup.Own(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var once sync.Once
	var waitErr error
	done := make(chan struct{})
	wait := func() error {
		once.Do(func() {
			waitErr = cmd.Wait()
			close(done)
		})
		<-done
		return waitErr
	}
	return &Process{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Wait: wait,
		Kill: func() { _ = procgroup.Kill(cmd) },
	}, nil
}

// capped counts what was read since the last reset and fails past max.
type capped struct {
	r   io.Reader
	n   int64
	max int64
}

var errTooLarge = fmt.Errorf("the server sent a message over %s (or output that is not the protocol)", human.Bytes(MaxMessage))

func (c *capped) Read(p []byte) (int, error) {
	if c.n >= c.max {
		return 0, errTooLarge
	}
	if room := c.max - c.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// cappedCodec frames messages as the protocol does (Content-Length
// headers), with each message held to MaxMessage: the count restarts at
// every message (give or take what the buffer read ahead).
type cappedCodec struct{ in *capped }

func (c cappedCodec) WriteObject(w io.Writer, obj any) error {
	return jsonrpc2.VSCodeObjectCodec{}.WriteObject(w, obj)
}

func (c cappedCodec) ReadObject(r *bufio.Reader, v any) error {
	c.in.n = 0
	return jsonrpc2.VSCodeObjectCodec{}.ReadObject(r, v)
}

// pipes joins a process's standard output and input into the connection
// jsonrpc2 reads and writes.
type pipes struct {
	io.Reader
	in  io.WriteCloser
	out io.Closer
}

func (p *pipes) Write(b []byte) (int, error) { return p.in.Write(b) }

func (p *pipes) Close() error {
	return errors.Join(p.in.Close(), p.out.Close())
}

// clientHandler answers what a server asks of pincer. It never lets a
// server change anything: workspace/applyEdit is refused, and so are
// requests pincer does not know.
type clientHandler struct {
	s *server
}

func (h clientHandler) handle(ctx context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if req.Params != nil && json.Unmarshal(*req.Params, &p) == nil {
			h.s.published(p)
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		if req.Params != nil {
			_ = json.Unmarshal(*req.Params, &p)
		}
		return make([]any, len(p.Items)), nil
	case "workspace/workspaceFolders":
		return []map[string]string{{"uri": fileURI(h.s.root), "name": "project"}}, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create", "window/showMessageRequest":
		return nil, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "pincer applies edits only through its own review"}, nil
	case "window/showDocument":
		return map[string]any{"success": false}, nil
	}
	if req.Notif {
		return nil, nil // $/progress, window/logMessage, telemetry/event, …
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "pincer does not handle " + req.Method}
}

// tail keeps the last bytes a server wrote to standard error, for the
// message when it fails.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4096

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	for len(s) > 0 {
		i := len(s) - 1
		for i >= 0 && s[i] != '\n' {
			i--
		}
		line := s[i+1:]
		if len(line) > 0 && line != "\r" {
			return human.OneLine(line, maxLine)
		}
		s = s[:max(i, 0)]
	}
	return ""
}

// environ is os.Environ without the variables named in drop, with extra
// added.
func environ(base []string, drop []string, extra map[string]string) []string {
	if base == nil {
		base = os.Environ()
	}
	out := make([]string, 0, len(base)+len(extra))
	skip := map[string]bool{}
	for _, d := range drop {
		skip[d] = true
	}
	for k := range extra {
		skip[k] = true
	}
	for _, kv := range base {
		name := kv
		for i := 0; i < len(kv); i++ {
			if kv[i] == '=' {
				name = kv[:i]
				break
			}
		}
		if !skip[name] {
			out = append(out, kv)
		}
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}
