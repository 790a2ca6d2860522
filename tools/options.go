package tools

import (
	"maps"
	"path/filepath"
	"sync"
	"time"

	"pincer/safety"
	"pincer/tools/sandbox"
)

// Defaults and hard limits of the built-in tools.
const (
	DefaultCommandTimeout = 2 * time.Minute
	MaxCommandTimeout     = 10 * time.Minute
	DefaultMaxOutput      = 30000
)

// Options configure the built-in tools for one project.
type Options struct {
	// Root is the project root, absolute; relative paths resolve against it.
	Root string
	// CommandTimeout is run_command's default timeout (0 means 2 minutes),
	// rounded up to whole seconds. A call may ask for less or more, up to
	// MaxCommandTimeout.
	CommandTimeout time.Duration
	// MaxOutput is the most bytes of a tool result kept (0 means 30000);
	// longer output keeps its head and tail and states the cut.
	MaxOutput int
	// Shell runs run_command. "" picks $SHELL when it is sh-like (bash, zsh,
	// sh, dash, ksh), else /bin/bash, else /bin/sh; on Windows pwsh or
	// powershell. A path or name of cmd.exe or powershell also works there.
	Shell string
	// ReadLog, when set, remembers what the model read and wrote, so an edit
	// can tell when its file changed on disk in between (Change.Stale).
	ReadLog *ReadLog
	// ReadCheck, when set, is the path policy for the files a search (grep)
	// opens by itself: it returns "" when reading path (absolute, links
	// resolved) needs no approval given that reading below scope (the
	// project root, or a directory the person approved) was allowed, else
	// why it needs approval. The search asks twice: while it walks, with
	// head nil (judged by name, nothing opened), and once it has read the
	// file, with what it read from the start (judged by what it holds too,
	// a private key), so each file is opened once. Such files are skipped
	// and named in the result, so a search never shows what read_file would
	// ask about. Without it, only files below the search's start whose
	// links stay there are opened.
	ReadCheck func(scope, path string, head []byte) string
	// Sandbox, when set, runs every command inside it; nil runs commands
	// with the person's full rights.
	Sandbox *CommandSandbox
	// DropEnv names variables removed from every command's environment
	// (API keys), sandbox or not.
	DropEnv []string
	// WebTimeout bounds one read_web fetch, redirects and reading the body
	// included (0 means DefaultWebTimeout).
	WebTimeout time.Duration
	// WebResolver looks up the hosts read_web connects to; nil uses the
	// system's resolver. Tests set it to play a name that changes its
	// address.
	WebResolver Resolver
	// Buffers, when set, is the editor that holds the files open: read_file
	// and the edit tools read its text, and approved edits of existing
	// files are written through it (see Buffers).
	Buffers Buffers
}

// CommandSandbox is how run_command jails commands: a jail per profile
// (safety.ProfileFor chooses one per call), each with the helpers its
// launcher starts.
type CommandSandbox struct {
	// Helper is the binary that builds the jails: "/proc/self/exe" for
	// pincer, or a test binary whose main calls sandbox.HelperMain.
	Helper string
	// Specs are the jails by profile (set them before the first use).
	Specs map[safety.Profile]sandbox.Spec

	mu        sync.Mutex
	launchers map[safety.Profile]*sandbox.Launcher
	closed    bool
}

// Launcher returns the launcher of profile p's jail, made on first use;
// nil when there is no jail for p, or it was not made before Close (a
// closed sandbox starts no helper).
func (s *CommandSandbox) Launcher(p safety.Profile) *sandbox.Launcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.launchers[p]; ok {
		return l
	}
	spec, ok := s.Specs[p]
	if !ok || s.closed {
		return nil
	}
	if s.launchers == nil {
		s.launchers = map[safety.Profile]*sandbox.Launcher{}
	}
	l := sandbox.NewLauncher(s.Helper, spec)
	s.launchers[p] = l
	return l
}

// Jailed reports whether the full jail (namespaces and Landlock) holds
// commands here, so auto approvals may run confirm-tier ones unasked in
// the contained profile.
func (s *CommandSandbox) Jailed() bool {
	l := s.Launcher(safety.ProfileContained)
	return l != nil && l.Support().Jailed()
}

// Warm starts the helpers of the jails most commands run in (inspect,
// and workspace) in the background, so the first command does not wait
// for one.
func (s *CommandSandbox) Warm() {
	for _, p := range []safety.Profile{safety.ProfileInspect, safety.ProfileWorkspace} {
		if l := s.Launcher(p); l != nil {
			l.Warm()
		}
	}
}

// Close stops the helpers, killing the commands still running, and
// returns once their directories are removed (sandbox.Launcher.Shutdown);
// the launchers shut down side by side, as each waits for its own. The
// closed launchers stay, so a late Warm or command finds them closed
// rather than making new ones.
func (s *CommandSandbox) Close() {
	s.mu.Lock()
	s.closed = true
	ls := maps.Clone(s.launchers)
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range ls {
		wg.Go(l.Shutdown)
	}
	wg.Wait()
}

// withDefaults fills zero fields and cleans Root.
func (o Options) withDefaults() Options {
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = DefaultCommandTimeout
	}
	if o.CommandTimeout > MaxCommandTimeout {
		o.CommandTimeout = MaxCommandTimeout
	}
	if o.WebTimeout <= 0 {
		o.WebTimeout = DefaultWebTimeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	if o.Root == "" {
		o.Root = "."
	}
	if abs, err := filepath.Abs(o.Root); err == nil {
		o.Root = abs
	}
	o.Root = filepath.Clean(o.Root)
	return o
}

// ShellPath is the shell run_command will use with these options, so the
// system prompt can tell the model which syntax to write.
func (o Options) ShellPath() string {
	prog, _ := shellCommand(o.Shell, "")
	return prog
}
