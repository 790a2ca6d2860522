//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// readyTimeout bounds how long a new helper may take to restrict itself.
const readyTimeout = 10 * time.Second

// killTimeout is how long a helper asked to kill its command may take to
// report the end before pincer kills the helper itself.
const killTimeout = 3 * time.Second

// maxIdle is how many idle helpers a Launcher keeps for the next commands.
const maxIdle = 2

// Launcher starts commands under one Spec through helpers that live as
// long as it does: each helper restricts itself once, then runs one
// command at a time; commands that overlap get a helper each.
type Launcher struct {
	helper      string
	spec        Spec
	privateTemp bool

	mu      sync.Mutex
	idle    []*server
	pending chan startResult // a helper Warm is starting, not yet taken
	closed  bool
}

// NewLauncher returns a launcher for commands under spec, with helper
// (the path of a binary whose main calls HelperMain) as the restricted
// intermediary. With privateTemp, each helper gets a temp dir of its own,
// writable besides spec.Writable, emptied after every command and named by
// TMPDIR in the command's environment (read-only mode).
func NewLauncher(helper string, spec Spec, privateTemp bool) *Launcher {
	return &Launcher{helper: helper, spec: spec, privateTemp: privateTemp}
}

// Request is one command to start.
type Request struct {
	Path string   // the program; looked up in PATH when it has no slash
	Argv []string // its arguments, Argv[0] included
	Env  []string
	Dir  string
	// Stdin, Stdout and Stderr are passed to the command as they are; the
	// caller keeps its own copies and closes them when it likes.
	Stdin, Stdout, Stderr *os.File
}

// Process is a command started by a Launcher.
type Process struct {
	// Pid is the command's process id, and its process group id.
	Pid int
	// Spec is what the command may do: the launcher's, plus its private
	// temp dir.
	Spec Spec

	srv     *server
	l       *Launcher
	done    chan struct{}
	exit    Exit
	err     error
	killReq sync.Once
	// ended is set, under mu, once the helper reported the end (or was
	// lost): from then on the helper may serve another command, so Kill
	// must not reach it.
	mu    sync.Mutex
	ended bool
}

// Warm starts a helper in the background, so the first command does not
// wait for one.
func (l *Launcher) Warm() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || len(l.idle) > 0 || l.pending != nil {
		return
	}
	ch := make(chan startResult, 1)
	l.pending = ch
	go func() {
		s, err := startServer(l.helper, l.spec, l.privateTemp)
		ch <- startResult{s, err}
	}()
}

// Start starts the command in req under the sandbox.
func (l *Launcher) Start(req Request) (*Process, error) {
	if req.Path == "" || len(req.Argv) == 0 {
		return nil, errors.New("sandbox: no program to run")
	}
	if req.Stdin == nil || req.Stdout == nil || req.Stderr == nil {
		return nil, errors.New("sandbox: the command needs stdin, stdout and stderr")
	}
	path := req.Path
	if !strings.Contains(path, "/") {
		p, err := exec.LookPath(path)
		if err != nil {
			return nil, err
		}
		path = p
	}
	s, err := l.get()
	if err != nil {
		return nil, err
	}
	env := req.Env
	if s.tmp != "" {
		env = withEnv(env, "TMPDIR", s.tmp)
	}
	err = s.send(message{Op: "run", Path: path, Argv: req.Argv, Env: env, Dir: req.Dir},
		int(req.Stdin.Fd()), int(req.Stdout.Fd()), int(req.Stderr.Fd()))
	if err != nil {
		s.close()
		return nil, s.lost(err)
	}
	m, err := s.recv()
	if err != nil {
		s.close()
		return nil, s.lost(err)
	}
	if m.Op != "started" {
		l.put(s)
		return nil, fmt.Errorf("could not start %s in the sandbox: %s", path, m.Err)
	}
	p := &Process{Pid: m.Pid, Spec: s.spec, srv: s, l: l, done: make(chan struct{})}
	go p.await()
	return p, nil
}

// await reads how the command ended, then hands the helper back.
func (p *Process) await() {
	defer close(p.done)
	m, err := p.srv.recv()
	if err == nil && m.Op != "ended" {
		err = fmt.Errorf("unexpected %q", m.Op)
	}
	p.mu.Lock()
	p.ended = true
	p.mu.Unlock()
	if err != nil {
		p.err = p.srv.lost(err)
		p.srv.close()
		// The helper is gone; whatever is left of the command's group
		// goes too. Its pid cannot have been reused while the group
		// still has members.
		_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
		return
	}
	ws := syscall.WaitStatus(m.Status)
	p.exit = Exit{Code: ws.ExitStatus()}
	if ws.Signaled() {
		p.exit = Exit{Code: -1, Signal: ws.Signal()}
	}
	p.l.put(p.srv)
}

// Wait waits for the command, and every process it left behind, to end
// and returns how the command ended.
func (p *Process) Wait() (Exit, error) {
	<-p.done
	return p.exit, p.err
}

// Kill ends the command and everything it started. When the helper does
// not answer in time it is killed, and the command's group with it.
func (p *Process) Kill() {
	p.killReq.Do(func() {
		p.mu.Lock()
		if p.ended {
			p.mu.Unlock()
			return
		}
		// Held while sending, so the helper cannot be handed to another
		// command meanwhile; a kill it gets once idle is ignored.
		err := p.srv.send(message{Op: "kill"})
		p.mu.Unlock()
		if err == nil {
			select {
			case <-p.done:
				return
			case <-time.After(killTimeout):
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.ended {
			p.srv.close()
			_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
		}
	})
}

// Close stops the idle helpers; busy ones stop when their command ends.
func (l *Launcher) Close() {
	l.mu.Lock()
	idle := l.idle
	pending := l.pending
	l.idle, l.pending, l.closed = nil, nil, true
	l.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
	if pending != nil {
		go func() {
			if r := <-pending; r.err == nil {
				r.s.close()
			}
		}()
	}
}

// get returns an idle helper, the one Warm is starting, or a new one.
func (l *Launcher) get() (*server, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, errors.New("sandbox: the launcher is closed")
	}
	if n := len(l.idle); n > 0 {
		s := l.idle[n-1]
		l.idle = l.idle[:n-1]
		l.mu.Unlock()
		return s, nil
	}
	pending := l.pending
	l.pending = nil
	l.mu.Unlock()
	if pending != nil {
		if r := <-pending; r.err == nil {
			return r.s, nil
		}
	}
	return startServer(l.helper, l.spec, l.privateTemp)
}

// put makes s idle again, with its temp dir emptied, or stops it.
func (l *Launcher) put(s *server) {
	if s.tmp != "" {
		if err := emptyDir(s.tmp); err != nil {
			s.close()
			return
		}
	}
	l.mu.Lock()
	keep := !l.closed && len(l.idle) < maxIdle
	if keep {
		l.idle = append(l.idle, s)
	}
	l.mu.Unlock()
	if !keep {
		s.close()
	}
}

type startResult struct {
	s   *server
	err error
}

// server is pincer's side of one helper.
type server struct {
	cmd    *exec.Cmd
	fd     int // pincer's end of the socket
	spec   Spec
	tmp    string // the private temp dir, "" without one
	stderr *bytes.Buffer
	exited chan struct{} // closed once the helper has exited and been waited for

	sendMu sync.Mutex
	once   sync.Once
}

// startServer starts a helper for spec and waits until it is restricted.
func startServer(helper string, spec Spec, privateTemp bool) (*server, error) {
	if helper == "" {
		return nil, errors.New("sandbox: no helper binary")
	}
	s := &server{spec: spec, stderr: new(bytes.Buffer), exited: make(chan struct{})}
	if privateTemp {
		tmp, err := os.MkdirTemp("", "pincer-cmd-")
		if err != nil {
			return nil, fmt.Errorf("make a private temp dir: %w", err)
		}
		s.tmp = tmp
		s.spec.Writable = append(append([]string(nil), spec.Writable...), tmp)
	}
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		s.removeTemp()
		return nil, fmt.Errorf("sandbox: socketpair: %w", err)
	}
	s.fd = pair[0]
	theirs := os.NewFile(uintptr(pair[1]), "pincer-sandbox")
	s.cmd = exec.Command(helper, helperArgs(s.spec)...)
	// The helper needs nothing from the environment (each command brings
	// its own), and it is where an API key would be read from.
	s.cmd.Env = []string{}
	s.cmd.ExtraFiles = []*os.File{theirs}
	s.cmd.Stderr = &limitedBuffer{b: s.stderr, max: 4096}
	// Its own session: no controlling terminal for it or its commands.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = s.cmd.Start()
	theirs.Close()
	if err != nil {
		unix.Close(s.fd)
		s.removeTemp()
		return nil, fmt.Errorf("sandbox: start the helper %s: %w", helper, err)
	}
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	ready := make(chan error, 1)
	go func() {
		m, err := s.recv()
		switch {
		case err != nil:
			ready <- s.lost(err)
		case m.Op == "error":
			ready <- errors.New(m.Err)
		case m.Op != "ready":
			ready <- fmt.Errorf("sandbox: the helper said %q", m.Op)
		default:
			ready <- nil
		}
	}()
	select {
	case err = <-ready:
	case <-time.After(readyTimeout):
		err = fmt.Errorf("sandbox: the helper did not start within %s", readyTimeout)
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *server) send(m message, fds ...int) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return sendFD(s.fd, m, fds...)
}

func (s *server) recv() (message, error) {
	m, fds, err := recvFD(s.fd)
	closeAll(fds)
	return m, err
}

// lost words a broken connection to the helper, with what it printed.
func (s *server) lost(err error) error {
	_ = s.cmd.Process.Kill()
	<-s.exited // the helper's stderr is complete once it has been waited for
	if msg := strings.TrimSpace(s.stderr.String()); msg != "" {
		return fmt.Errorf("sandbox: the helper stopped: %s", msg)
	}
	if s.cmd.ProcessState != nil && !s.cmd.ProcessState.Success() {
		return fmt.Errorf("sandbox: the helper stopped (%v)", s.cmd.ProcessState)
	}
	return fmt.Errorf("sandbox: lost the helper: %w", err)
}

// close stops the helper: it sees the socket close, kills what it runs,
// and exits.
func (s *server) close() {
	s.once.Do(func() {
		_ = unix.Shutdown(s.fd, unix.SHUT_RDWR)
		go func() {
			select {
			case <-s.exited:
			case <-time.After(killTimeout):
				_ = s.cmd.Process.Kill()
				<-s.exited
			}
			unix.Close(s.fd)
			s.removeTemp()
		}()
	})
}

func (s *server) removeTemp() {
	if s.tmp != "" {
		_ = os.RemoveAll(s.tmp)
	}
}

// emptyDir removes everything in dir, links as links.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// withEnv sets one variable in env, replacing an earlier value.
func withEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	b   *bytes.Buffer
	max int
}

func (w *limitedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.max - w.b.Len(); room > 0 {
		w.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
