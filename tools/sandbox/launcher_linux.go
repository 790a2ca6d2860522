//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// readyTimeout bounds how long a new helper may take to build its jail.
const readyTimeout = 10 * time.Second

// killTimeout is how long a helper asked to kill its command may take to
// report the end before pincer kills the helper itself.
const killTimeout = 3 * time.Second

// maxIdle is how many idle helpers a Launcher keeps for the next commands.
const maxIdle = 2

// homeScanLimit bounds the entries of the home directory looked at for
// secrets when a helper starts.
const homeScanLimit = 20000

// Launcher starts commands under one Spec through helpers that live as
// long as it does: each helper builds its jail once, then runs one
// command at a time; commands that overlap get a helper each.
type Launcher struct {
	helper string
	spec   Spec
	sup    Support

	mu      sync.Mutex
	idle    []*server
	pending chan startResult // a helper Warm is starting, not yet taken
	closed  bool
	state   string               // pincer's directory for the jails' temp dirs and copies
	live    int                  // helpers not yet gone
	serial  int                  // numbers the helpers' directories
	note    string               // what the last helper could not build as asked
	started map[*server]struct{} // helpers started and not yet closed
	shut    bool                 // Shutdown began: no helper may start
	drained *sync.Cond           // on mu, signalled as helpers go (made by Shutdown)

	scanMu sync.Mutex
	scans  []*secretScan // one per SecretRoots, made on first use
	gen    int           // counts changes of the secrets found; a helper built before one is retired
}

// NewLauncher returns a launcher for commands under spec, with helper
// (the path of a binary whose main calls HelperMain: "/proc/self/exe"
// for pincer, so a command that replaced the file on disk is never run)
// as the jail's keeper.
func NewLauncher(helper string, spec Spec) *Launcher {
	return &Launcher{helper: helper, spec: spec, sup: Probe()}
}

// Support is what the launcher's jails are built with on this machine:
// what the kernel offers, less the namespaces when a helper could not
// build them after all (a container's policy the probe cannot see).
func (l *Launcher) Support() Support {
	l.mu.Lock()
	s := l.sup
	l.mu.Unlock()
	if l.spec.Flat {
		s.Namespaces, s.NamespacesReason = false, "left out on request"
	}
	return s
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
	// Pid is the command's process id, and its process group id, as the
	// jail sees it (in the namespaces, not the same as outside).
	Pid int
	// Spec is what the command may do, its paths resolved, with the
	// secrets found hidden; with HideHome, HomeKeep is all the jail kept
	// of home. Flat, Writable holds its private temp dir; in
	// the namespaces /tmp is the jail's own, a different place from the
	// /tmp outside.
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
		s, err := l.startServer()
		ch <- startResult{s, err}
	}()
}

// Start starts the command in req in the jail.
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
	if l.secretsChanged() {
		l.retireIdle()
	}
	s, err := l.get()
	if err == nil && !s.viewCurrent() {
		// Home changed since its jail was built: the idle helpers were built
		// from the same old view or an older one, and go too; a fresh one
		// hides what is there now.
		s.close()
		l.retireIdle()
		if s, err = l.get(); err == nil && !s.viewCurrent() {
			s.close() // the one Warm was starting, built before the change
			s, err = l.startServer()
		}
	}
	if err != nil {
		return nil, err
	}
	env := withEnv(req.Env, "TMPDIR", s.tmpdir)
	if !s.setup.Namespaces && len(s.setup.Copies) > 0 {
		// Flat, the caches cannot be copied: tools that need one get a
		// throwaway one in the temp dir.
		env = withEnv(withEnv(env, "XDG_CACHE_HOME", filepath.Join(s.tmpdir, ".cache")), "GOCACHE", filepath.Join(s.tmpdir, ".cache", "go-build"))
	}
	env = missingGoCache(env, s.setup.Home, s.tmpdir)
	if s.gitGlobal != "" && !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_CONFIG_GLOBAL=") }) {
		env = withEnv(env, "GIT_CONFIG_GLOBAL", s.gitGlobal)
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
	p := &Process{Pid: m.Pid, Spec: s.setup.Spec, srv: s, l: l, done: make(chan struct{})}
	if s.setup.HideHome {
		// What the jail really kept of home, for Blocked.
		p.Spec.Home, p.Spec.HomeKeep = s.setup.HiddenHome, slices.Clone(s.setup.HomeShown)
		for _, g := range append(slices.Clone(s.setup.GitFiles), s.setup.Settings...) {
			p.Spec.HomeKeep = append(p.Spec.HomeKeep, g.Real)
		}
	}
	go p.await()
	return p, nil
}

// secretsChanged looks again at the directories whose secrets the jail
// hides, and reports whether the secrets found changed since the idle
// helpers were built.
func (l *Launcher) secretsChanged() bool {
	if l.spec.IsSecret == nil || len(l.spec.SecretRoots) == 0 {
		return false
	}
	l.scanMu.Lock()
	defer l.scanMu.Unlock()
	if l.scans == nil {
		l.scanAll()
		return false
	}
	return l.refreshScans()
}

// refreshScans reads again what changed in the secret roots (scanMu
// held), and moves to the next generation when the secrets found changed.
func (l *Launcher) refreshScans() bool {
	changed := false
	for _, sc := range l.scans {
		changed = sc.refresh() || changed
	}
	if changed {
		l.gen++
	}
	return changed
}

// GitPlaces lists the git dirs and .git files in the project (Root) as
// they are now, from the scan that watches it for secrets: only what
// changed since the last look is read again, where GitPlaces walks the
// whole tree. ok is false when no scan covers the project (the jail masks
// no secrets there); the caller walks then.
func (l *Launcher) GitPlaces() (places []string, ok bool) {
	if l.spec.IsSecret == nil || l.spec.Root == "" {
		return nil, false
	}
	root := filepath.Clean(l.spec.Root)
	l.scanMu.Lock()
	if l.scans == nil {
		l.scanAll()
	}
	changed := l.refreshScans()
	for _, sc := range l.scans {
		if sc.root == root {
			places, ok = sc.gitPlaces(), true
		}
	}
	l.scanMu.Unlock()
	if changed {
		l.retireIdle() // as Start would have on finding the change
	}
	return places, ok
}

// scanAll makes the scans of the secret roots (scanMu held).
func (l *Launcher) scanAll() {
	for _, root := range l.spec.SecretRoots {
		l.scans = append(l.scans, newSecretScan(root, func(rel string) bool { return l.spec.IsSecret(rel, true) }))
	}
}

// secrets lists the secrets found now, the generation they belong to,
// and how the directories of home looked through stood.
func (l *Launcher) secrets() ([]string, int, homeWatch) {
	var found []string
	if l.spec.IsSecret != nil {
		l.scanMu.Lock()
		if l.scans == nil {
			l.scanAll()
		}
		for _, sc := range l.scans {
			found = append(found, sc.found()...)
		}
		gen := l.gen
		l.scanMu.Unlock()
		if l.spec.Home != "" {
			// The project is never looked through as part of home: whether
			// its secrets are hidden is the profile's choice (SecretRoots),
			// not a matter of how near the top of home it lies.
			skip := append(slices.Clone(l.spec.SecretRoots), l.spec.Root)
			dirs := homeWatch{}
			found = append(found, homeSecrets(l.spec.Home, skip, func(p string) bool { return l.spec.IsSecret(p, false) }, homeScanLimit, dirs)...)
			return found, gen, dirs
		}
		return found, gen, nil
	}
	return nil, 0, nil
}

// retireIdle stops the idle helpers (their jail hides an old list of
// secrets); the one Warm is starting is checked when taken.
func (l *Launcher) retireIdle() {
	l.mu.Lock()
	idle := l.idle
	l.idle = nil
	l.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
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
		p.srv.killJail(p.Pid)
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
// not answer in time it is killed, and the command with it.
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
			p.srv.killJail(p.Pid)
		}
	})
}

// Close stops the idle helpers and the one Warm is starting, and returns
// once they are gone and their directories removed, with the launcher's
// own when no helper is busy: a process that exits right after leaves
// no pincer-jail-* directory behind. Busy helpers stop when their
// command ends, and the last removes the launcher's directory.
func (l *Launcher) Close() {
	l.mu.Lock()
	idle := l.idle
	pending := l.pending
	l.idle, l.pending, l.closed = nil, nil, true
	l.mu.Unlock()
	var removed []<-chan struct{}
	for _, s := range idle {
		removed = append(removed, s.close())
	}
	l.scanMu.Lock()
	for _, sc := range l.scans {
		sc.close()
	}
	l.scanMu.Unlock()
	if pending != nil {
		// A helper that failed to start was removed before it was sent.
		if r := <-pending; r.err == nil {
			removed = append(removed, r.s.close())
		}
	}
	for _, ch := range removed {
		<-ch
	}
	l.gone(0)
}

// Shutdown is Close for a process about to exit: it also stops the
// helpers still busy, killing their commands (which would die with the
// process anyway), and those still starting, and returns once every
// helper's directory and the launcher's own are removed.
func (l *Launcher) Shutdown() {
	l.mu.Lock()
	l.shut = true
	l.mu.Unlock()
	l.Close()
	l.mu.Lock()
	busy := make([]*server, 0, len(l.started))
	for s := range l.started {
		busy = append(busy, s)
	}
	l.mu.Unlock()
	for _, s := range busy {
		<-s.close()
	}
	// A helper that was starting fails now that shut is set, and goes.
	l.mu.Lock()
	if l.drained == nil {
		l.drained = sync.NewCond(&l.mu)
	}
	for l.live > 0 {
		l.drained.Wait()
	}
	l.mu.Unlock()
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
		r := <-pending
		if r.err == nil && r.s.gen == l.generation() {
			return r.s, nil
		}
		if r.err == nil {
			r.s.close()
		}
	}
	return l.startServer()
}

// Note says what the last helper could not build as asked ("" when
// nothing), such as a cache that starts empty because its file system
// refuses an overlay.
func (l *Launcher) Note() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.note
}

func (l *Launcher) setNote(n string) {
	l.mu.Lock()
	l.note = n
	l.mu.Unlock()
}

func (l *Launcher) generation() int {
	l.scanMu.Lock()
	defer l.scanMu.Unlock()
	return l.gen
}

// put makes s idle again, with its temp dir emptied, or stops it.
func (l *Launcher) put(s *server) {
	if s.scratch != "" {
		if err := emptyDir(s.scratch); err != nil {
			s.close()
			return
		}
	}
	l.mu.Lock()
	keep := !l.closed && len(l.idle) < maxIdle && s.gen == l.generation()
	if keep {
		l.idle = append(l.idle, s)
	}
	l.mu.Unlock()
	if !keep {
		s.close()
	}
}

// gone counts a helper that has gone (n = 1), and removes the launcher's
// directory once it is closed and every helper is gone.
func (l *Launcher) gone(n int) {
	l.mu.Lock()
	l.live -= n
	if l.drained != nil {
		l.drained.Broadcast()
	}
	remove := l.closed && l.live == 0 && l.state != ""
	state := l.state
	if remove {
		l.state = ""
	}
	l.mu.Unlock()
	if remove {
		_ = removeAll(state)
	}
}

// dirs makes the directories of one new helper: its number, the shared
// temp dir (or its own scratch one) and one per copy.
func (l *Launcher) dirs(st *setup) (own string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return "", errors.New("sandbox: the launcher is closed")
	}
	if l.state == "" {
		if l.state, err = os.MkdirTemp("", "pincer-jail-"); err != nil {
			return "", fmt.Errorf("make the sandbox's directory: %w", err)
		}
	}
	l.serial++
	own = filepath.Join(l.state, fmt.Sprintf("h%d", l.serial))
	if err := os.Mkdir(own, 0o700); err != nil {
		return "", fmt.Errorf("make the sandbox's directory: %w", err)
	}
	l.live++
	shared := filepath.Join(l.state, "tmp")
	switch {
	case st.Namespaces && st.ScratchTemp:
		st.Temp = "" // a tmpfs of its own, emptied by the helper
	case st.ScratchTemp:
		st.Temp = filepath.Join(own, "tmp")
	default:
		st.Temp = shared
	}
	if st.Temp != "" {
		if err := os.MkdirAll(st.Temp, 0o700); err != nil {
			return own, err
		}
	}
	if st.Namespaces {
		for i := range st.Copies {
			u := filepath.Join(own, fmt.Sprintf("copy%d", i))
			if err := os.Mkdir(u, 0o700); err != nil {
				return own, err
			}
			st.Uppers = append(st.Uppers, u)
		}
	}
	return own, nil
}

type startResult struct {
	s   *server
	err error
}

// server is pincer's side of one helper.
type server struct {
	cmd     *exec.Cmd
	fd      int // pincer's end of the socket
	setup   setup
	gen     int       // the secrets' generation it hides
	watch   homeWatch // the settings files of home its jail was built from
	dirs    homeWatch // the directories of home looked through for secrets
	found   []string  // the secrets its jail hides
	tmpdir  string    // the command's TMPDIR
	scratch string    // a temp dir pincer empties after each command ("" none)
	own     string    // the helper's directory, removed when it is gone
	l       *Launcher
	stderr  *bytes.Buffer
	exited  chan struct{} // closed once the helper has exited and been waited for
	removed chan struct{} // closed once close has removed the helper's directory

	sendMu sync.Mutex
	once   sync.Once

	// gitGlobal is the filtered git settings a flat jail's commands read
	// (GIT_CONFIG_GLOBAL), "" when none.
	gitGlobal string
}

// startServer starts a helper and waits until its jail is built.
func (l *Launcher) startServer() (*server, error) {
	s, err := l.startOne()
	if err == nil || !l.Support().Namespaces || !errors.Is(err, errNoNamespaces) {
		return s, err
	}
	// The kernel said yes to namespaces, this machine no: fall back to the
	// flat jail, and say why from now on (auto approvals then ask).
	l.mu.Lock()
	l.sup.Namespaces, l.sup.NamespacesReason = false, err.Error()
	l.mu.Unlock()
	return l.startOne()
}

// shownDirs keeps of dirs (the directories of home looked through for
// secrets) those whose changes can show in a jail built as st: with home
// hidden only what it keeps in view matters; the rest shows nothing
// whatever is made in it.
func (l *Launcher) shownDirs(dirs homeWatch, st setup) homeWatch {
	out := homeWatch{}
	for dir, stamp := range dirs {
		if !st.HideHome || slices.ContainsFunc(st.HomeShown, func(k string) bool { return within(inHome(dir, l.spec.Home, st.HiddenHome), k) }) {
			out[dir] = stamp
		}
	}
	return out
}

// viewCurrent reports whether s's jail still shows home as it is: its
// settings files as they were, and the same secrets found in home. A
// directory of home that changed is looked through again rather than
// taken as a reason for a new helper: a shell saves its history by
// renaming a file into home, between every two commands, and a new
// helper costs far more than a look (see BenchmarkHomeChange).
func (s *server) viewCurrent() bool {
	if !s.watch.current() {
		return false
	}
	if s.dirs.current() {
		return true
	}
	found, gen, dirs := s.l.secrets()
	if gen != s.gen || !slices.Equal(found, s.found) {
		return false
	}
	s.dirs = s.l.shownDirs(dirs, s.setup)
	return true
}

// errNoNamespaces marks a helper that could not make or fill its
// namespaces.
var errNoNamespaces = errors.New("the namespaces could not be made")

// startOne starts a helper and waits until its jail is built.
func (l *Launcher) startOne() (*server, error) {
	if l.helper == "" {
		return nil, errors.New("sandbox: no helper binary")
	}
	found, gen, dirs := l.secrets()
	st := plan(l.spec, l.Support(), os.Environ(), found)
	s := &server{gen: gen, l: l, stderr: new(bytes.Buffer), exited: make(chan struct{}), removed: make(chan struct{})}
	s.watch, s.dirs, s.found = st.watch, l.shownDirs(dirs, st), found
	own, err := l.dirs(&st)
	s.own = own
	if err != nil {
		s.removeOwn()
		return nil, err
	}
	s.setup = st
	s.tmpdir = st.Temp
	if !st.Namespaces && len(st.GitFiles) > 0 {
		if s.gitGlobal, err = writeGitGlobal(own, st.GitFiles, l.spec.GitConfigs, l.spec.Home, st.HiddenHome); err != nil {
			s.removeOwn()
			return nil, err
		}
	}
	if st.Namespaces {
		s.tmpdir = "/tmp"
	} else {
		st.Writable = append(st.Writable, st.Temp)
		s.setup = st
		if st.ScratchTemp {
			s.scratch = st.Temp
		}
	}
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		s.removeOwn()
		return nil, fmt.Errorf("sandbox: socketpair: %w", err)
	}
	s.fd = pair[0]
	theirs := os.NewFile(uintptr(pair[1]), "pincer-sandbox")
	s.cmd = exec.Command(l.helper, HelperArg, "--serve")
	// The helper needs nothing from the environment (each command brings
	// its own), and it is where an API key would be read from.
	s.cmd.Env = []string{}
	s.cmd.Dir = "/"
	s.cmd.ExtraFiles = []*os.File{theirs}
	s.cmd.Stderr = &limitedBuffer{b: s.stderr, max: 4096}
	// Its own session: no controlling terminal for it or its commands.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if st.Namespaces {
		s.cmd.SysProcAttr = namespaced(!st.Network)
	}
	err = s.cmd.Start()
	theirs.Close()
	if err != nil {
		unix.Close(s.fd)
		s.removeOwn()
		if st.Namespaces && (errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSPC)) {
			return nil, fmt.Errorf("%w: %v", errNoNamespaces, err)
		}
		return nil, fmt.Errorf("sandbox: start the helper %s: %w", l.helper, err)
	}
	go func() {
		_ = s.cmd.Wait()
		close(s.exited)
	}()
	l.mu.Lock()
	shut := l.shut
	if !shut {
		if l.started == nil {
			l.started = map[*server]struct{}{}
		}
		l.started[s] = struct{}{}
	}
	l.mu.Unlock()
	if shut {
		<-s.close()
		return nil, errors.New("sandbox: the launcher is closed")
	}
	ready := make(chan error, 1)
	go func() {
		if err := s.send(message{Op: "setup", Setup: &st}); err != nil {
			ready <- s.lost(err)
			return
		}
		m, err := s.recv()
		switch {
		case err != nil:
			ready <- s.lost(err)
		case m.Op == "error" && st.Namespaces && strings.HasPrefix(m.Err, buildFailed):
			ready <- fmt.Errorf("%w: %s", errNoNamespaces, m.Err)
		case m.Op == "error":
			ready <- errors.New(m.Err)
		case m.Op != "ready":
			ready <- fmt.Errorf("sandbox: the helper said %q", m.Op)
		default:
			l.setNote(m.Err)
			ready <- nil
		}
	}()
	select {
	case err = <-ready:
	case <-time.After(readyTimeout):
		err = fmt.Errorf("sandbox: the helper did not start within %s", readyTimeout)
	}
	if err != nil {
		// Waited for, so a launcher closed meanwhile finds it gone.
		<-s.close()
		return nil, err
	}
	return s, nil
}

// namespaced starts the helper in namespaces of its own, as the same user
// (so files keep their owners), with the capabilities it needs to build
// the jail inside them; it drops them before any command runs.
func namespaced(noNetwork bool) *syscall.SysProcAttr {
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC)
	if noNetwork {
		flags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	return &syscall.SysProcAttr{
		Setsid:      true,
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		// Overlays need the file capabilities to make their work
		// directory; all of them count only inside the namespace, on
		// files the person owns, and are gone before a command runs.
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER, unix.CAP_CHOWN, unix.CAP_MKNOD},
	}
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

// killJail kills what is left of a command whose helper was lost. In the
// namespaces that is the helper itself: when the first process of a pid
// namespace dies, the kernel kills every other. Flat, it is the command's
// process group (its id cannot have been reused while the group still has
// members).
func (s *server) killJail(pid int) {
	if s.setup.Namespaces {
		_ = s.cmd.Process.Kill()
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// close stops the helper: it sees the socket close, kills what it runs,
// and exits; then its directory is removed. It returns at once, with a
// channel closed when that is done.
func (s *server) close() <-chan struct{} {
	s.once.Do(func() {
		_ = unix.Shutdown(s.fd, unix.SHUT_RDWR)
		go func() {
			defer close(s.removed)
			select {
			case <-s.exited:
			case <-time.After(killTimeout):
				_ = s.cmd.Process.Kill()
				<-s.exited
			}
			unix.Close(s.fd)
			s.l.mu.Lock()
			delete(s.l.started, s)
			s.l.mu.Unlock()
			s.removeOwn()
		}()
	})
	return s.removed
}

// removeOwn removes the helper's directory and counts it gone.
func (s *server) removeOwn() {
	if s.own == "" {
		return
	}
	_ = removeAll(s.own)
	s.own = ""
	s.l.gone(1)
}

// emptyDir removes everything in dir, links as links.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := removeAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// removeAll is os.RemoveAll that also removes directories a command (or
// the overlay file system) left without write or search permission.
func removeAll(p string) error {
	err := os.RemoveAll(p)
	if err == nil || !errors.Is(err, os.ErrPermission) {
		return err
	}
	_ = filepath.WalkDir(p, func(q string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			_ = os.Chmod(q, 0o700)
		}
		return nil
	})
	_ = os.Chmod(p, 0o700)
	return os.RemoveAll(p)
}

// withEnv sets one variable in env, replacing an earlier value.
func withEnv(env []string, key, value string) []string {
	return append(withoutEnv(env, key), key+"="+value)
}

// withoutEnv removes variables from env.
func withoutEnv(env []string, keys ...string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, d := range keys {
			drop = drop || k == d
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
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

// missingGoCache gives Go a build cache in the jail's temp dir when the
// one it would use does not exist yet: a home where go never ran has no
// ~/.cache/go-build, the jail shows home read-only, and go build, go vet
// and gopls would fail with "failed to initialize build cache".
func missingGoCache(env []string, home, tmpdir string) []string {
	get := func(k string) string {
		v := ""
		for _, kv := range env {
			if key, val, ok := strings.Cut(kv, "="); ok && key == k {
				v = val
			}
		}
		return v
	}
	cache := get("GOCACHE")
	if cache == "off" {
		return env
	}
	if cache == "" {
		base := get("XDG_CACHE_HOME")
		if base == "" || !filepath.IsAbs(base) {
			if home == "" {
				return env
			}
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "go-build")
	}
	if !filepath.IsAbs(cache) || exists(cache) {
		return env
	}
	return withEnv(env, "GOCACHE", filepath.Join(tmpdir, ".cache", "go-build"))
}
