// Package sandbox runs shell commands in a jail: pincer re-executes
// itself once as a helper per jail, the helper builds the jail around
// itself and from then on starts each command pincer sends it, and every
// command inherits the jail. pincer itself is never jailed. Because the
// helper lives as long as the session, a command costs one fork and
// exec, not the start of another pincer.
//
// On Linux the jail has four layers, outermost first:
//
//   - namespaces: the helper is started in a user, mount, pid and IPC
//     namespace of its own (and a network namespace with only a loopback
//     of its own when the jail has no network). In the mount namespace
//     it gives the jail a private /tmp and a /dev with only the ordinary
//     devices and ptys of its own, leaves out /run and the other places
//     where other programs' sockets live, for commands that run unasked
//     leaves of the home directory only the project and what the
//     toolchains need, lays an empty read-only file or
//     directory over every hidden path, and makes the pinned paths
//     (pincer's binary) read-only; the jail's /proc shows only its own
//     processes;
//   - a seccomp filter refusing the system calls that reach outside:
//     ptrace, process_vm_*, keyctl, bpf, mount calls, new namespaces,
//     TIOCSTI and TIOCLINUX, io_uring (see seccomp_linux.go);
//   - Landlock: writes only to the writable paths, signals only inside;
//   - no capabilities and no_new_privs.
//
// Where user namespaces are not available the jail is Landlock, seccomp
// and no capabilities only ("flat"); Support says which layers a machine
// has, and the caller decides what may run unasked in each.
//
// A helper runs one command at a time; when the command ends every
// process it left behind — in the background, under nohup, or after
// setsid — is killed with it. Commands that run at the same time get a
// helper each (see Launcher).
//
// The package enforces a Spec; which paths belong in it is decided by the
// caller's policy (safety.SandboxPolicy).
package sandbox

import (
	"syscall"
)

// HelperArg is the first argument that turns a pincer (or test) binary
// into the sandbox helper. main calls IsHelper and HelperMain before
// anything else.
const HelperArg = "__pincer-sandbox-exec"

// Spec is what a jailed command may do.
type Spec struct {
	// Name names the jail in messages ("inspect", "workspace").
	Name string `json:"name,omitempty"`
	// Root is the project, where commands start: it stays in view
	// wherever it lies (in /tmp, say), writable or not.
	Root string `json:"root,omitempty"`
	// Writable are the files and directories the command may change,
	// besides the jail's private temp dir; the rest of the file system is
	// read-only.
	Writable []string `json:"writable"`
	// Hidden are paths the command may neither read nor write, even when
	// they lie inside Writable (secrets, pincer's own config and data). In
	// the namespaces an empty read-only file or directory lies over each.
	Hidden []string `json:"hidden"`
	// Pinned are paths that stay read-only even inside Writable, and
	// cannot be renamed away or replaced (pincer's binary).
	Pinned []string `json:"pinned,omitempty"`
	// Copies are directories (build caches) the command sees whole but
	// whose changes go to a copy of the jail's own: the real directory
	// never changes. Without namespaces they are read-only.
	Copies []string `json:"copies,omitempty"`
	// Network lets the command reach other machines. Without it the jail
	// has a network namespace with only a loopback of its own (or, flat,
	// Landlock blocks TCP and, from ABI 10, UDP).
	Network bool `json:"network"`
	// Unix says which Unix sockets (by path) the command may use.
	Unix UnixAccess `json:"unix"`
	// Sockets are socket paths outside the jail the command may still
	// reach (the SSH agent, Docker), with UnixListed.
	Sockets []string `json:"sockets,omitempty"`
	// ScratchTemp empties the private temp dir after every command.
	ScratchTemp bool `json:"scratch_temp,omitempty"`
	// SecretRoots are directories whose secret files are hidden too: they
	// are looked for when a helper starts, and again when a directory
	// below changes, before each command. IsSecret decides what is one.
	SecretRoots []string `json:"-"`
	// Home is the person's home directory: it stays in view wherever it
	// lies (read-only but for Writable), and its secret files and
	// directories near the top (~/.ssh, ~/.aws, ~/.bash_history,
	// ~/.config/gh, …) are hidden; IsSecret decides.
	Home string `json:"-"`
	// IsSecret reports whether a path is a secret: relative to its root
	// and slash-separated when inProject, else absolute with the home
	// directory written "~".
	IsSecret func(path string, inProject bool) bool `json:"-"`
	// HideHome hides all of Home but the project, the writable paths, the
	// copies, the programs on PATH that lie in it and HomeKeep, which stay
	// read-only (but for Writable): commands that run unasked then cannot
	// read another project's files, whatever their names. In the
	// namespaces home is an empty read-only directory with those mounted
	// back; flat, Landlock grants reading only those (names and metadata
	// in the rest stay visible). Ignored when the project is Home or holds
	// it.
	HideHome bool `json:"hide_home,omitempty"`
	// HomeKeep are the paths under Home that stay in view when HideHome:
	// what the toolchains need (git's settings, installed toolchains).
	HomeKeep []string `json:"home_keep,omitempty"`
	// GitConfigs are git's own settings files (~/.gitconfig,
	// ~/.config/git/config). With HideHome the jail reads them, and the
	// files they include from home, without the settings that carry
	// credentials (a token in a URL, an Authorization header, an inline
	// credential helper): git works as outside, the tokens stay out.
	GitConfigs []string `json:"git_configs,omitempty"`
	// SettingsFiles are path patterns (filepath.Match, so a Node version
	// installed later is matched too) of other settings files in what
	// HomeKeep keeps that may hold a credential beside what the tools need
	// (cargo's config.toml, Go's env file, a Node version's global npmrc):
	// with HideHome the jail reads those that do without the lines that
	// carry one (flat, not at all).
	SettingsFiles []string `json:"settings_files,omitempty"`
	// (With HideHome the project's own git settings, its submodules' and
	// nested repositories' too, are read the same way when they hold a
	// credential, a token left by CI in .git/config: in the namespaces a
	// filtered copy lies over each; flat, they are hidden.)
	// GitGuard keeps read-only, where the project is writable, what git
	// reads as settings or runs as code in every git dir of the project
	// (config, config.worktree, hooks, info, a submodule's and a linked
	// worktree's, a nested repository's) and the .git files that point a
	// worktree at one: a command cannot plant what the person's own git
	// runs later outside any jail. The rest (objects, refs, the index,
	// HEAD, lock files) stays writable, so git add, commit, checkout and
	// stash work. Flat, the git dirs' own entries cannot be added to
	// either (Landlock grants the rest entry by entry).
	GitGuard bool `json:"git_guard,omitempty"`
	// Flat leaves out the namespaces even where the kernel has them (the
	// fallback, and the benchmark that measures their cost).
	Flat bool `json:"-"`
}

// UnixAccess says which Unix sockets a jailed command may use by path.
// Abstract sockets outside the jail are never reachable (Landlock ABI 6,
// and without network the jail's own network namespace).
type UnixAccess int

// The levels of Unix socket access.
const (
	// UnixNone: the command cannot make a Unix socket at all
	// (socketpair, which has no path, still works).
	UnixNone UnixAccess = iota
	// UnixJail: its own sockets in the paths it may write. Where the
	// kernel cannot limit connecting by path (Landlock before ABI 9),
	// none.
	UnixJail
	// UnixListed: its own and Sockets. Where the kernel cannot limit
	// connecting by path, any socket the jail can see; the namespaces
	// leave out the usual places (/run, /tmp, $XDG_RUNTIME_DIR) and the
	// sockets named in pincer's environment.
	UnixListed
)

// Exit is how a jailed command ended.
type Exit struct {
	// Code is the exit code, when the command exited.
	Code int
	// Signal is the signal that killed it; 0 when it exited.
	Signal syscall.Signal
}

// Support says what the sandbox can enforce on this machine.
type Support struct {
	// Mechanism names what enforces the sandbox, e.g. "landlock"; "" when
	// nothing can.
	Mechanism string `json:"mechanism"`
	// ABI is the Landlock ABI version the kernel offers (0 without it).
	ABI int `json:"abi"`
	// Files reports whether writes (and reads of hidden paths) can be limited.
	Files bool `json:"files"`
	// Network reports whether the network can be taken away.
	Network bool `json:"network"`
	// Reason says why there is no sandbox or why part of it is missing.
	Reason string `json:"reason,omitempty"`
	// Namespaces reports whether the jail gets user, mount, pid, IPC and
	// network namespaces of its own (a private /tmp and /dev, no sockets
	// or processes outside, masked secrets, no network at all).
	Namespaces bool `json:"namespaces"`
	// NamespacesReason says why they are missing.
	NamespacesReason string `json:"namespaces_reason,omitempty"`
	// Seccomp reports whether the system call filter is applied.
	Seccomp bool `json:"seccomp"`
	// SeccompReason says why it is missing.
	SeccompReason string `json:"seccomp_reason,omitempty"`
	// UnixByPath reports whether Landlock limits connecting to Unix
	// sockets by path (ABI 9); without it UnixJail means no Unix sockets.
	UnixByPath bool `json:"unix_by_path"`
}

// Available reports whether commands can be contained at all.
func (s Support) Available() bool { return s.Files }

// Jailed reports whether the full jail can be built: Landlock inside
// namespaces of its own. Commands that run unasked because they change
// things need it.
func (s Support) Jailed() bool { return s.Files && s.Namespaces }

// IsHelper reports whether args (os.Args) ask for the helper.
func IsHelper(args []string) bool { return len(args) > 1 && args[1] == HelperArg }

// devices are the device files ordinary commands read and write.
func devices() []string {
	return []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}
}
