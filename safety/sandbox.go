package safety

import (
	"path/filepath"
	"slices"
)

// SandboxMode is how far commands are contained.
type SandboxMode string

// The sandbox modes, from the strictest.
const (
	// SandboxReadOnly lets commands write only a private temp dir.
	SandboxReadOnly SandboxMode = "read-only"
	// SandboxWorkspace lets commands write the project, the temp dir and
	// the listed caches (the default).
	SandboxWorkspace SandboxMode = "workspace"
	// SandboxOff runs commands with the person's full rights.
	SandboxOff SandboxMode = "off"
)

// SandboxModes lists the modes, strictest first, for help and validation.
func SandboxModes() []SandboxMode {
	return []SandboxMode{SandboxReadOnly, SandboxWorkspace, SandboxOff}
}

// Valid reports whether m is one of the modes.
func (m SandboxMode) Valid() bool { return slices.Contains(SandboxModes(), m) }

// Looser reports whether m contains commands less than other does.
func (m SandboxMode) Looser(other SandboxMode) bool {
	return slices.Index(SandboxModes(), m) > slices.Index(SandboxModes(), other)
}

// ApprovalMode is how commands that need one approval are handled.
type ApprovalMode string

// The approval modes.
const (
	// ApprovalsAsk asks for every confirm-tier command (the default).
	ApprovalsAsk ApprovalMode = "ask"
	// ApprovalsAuto runs confirm-tier commands without asking when a
	// working sandbox contains them.
	ApprovalsAuto ApprovalMode = "auto"
)

// RunsUnasked reports whether a command with verdict v runs without asking
// under approvals, when contained says a working sandbox holds it.
// Dangerous commands and deny rules are never waved through, and without
// a sandbox auto asks like ask.
func RunsUnasked(v Verdict, approvals ApprovalMode, contained bool) bool {
	if v.Denied || v.Tier > Confirm {
		return false
	}
	if v.Tier == Safe {
		return true
	}
	return approvals == ApprovalsAuto && contained
}

// SandboxPolicy decides which paths a sandboxed command may write and
// which it may not see.
type SandboxPolicy struct {
	Mode    SandboxMode
	Root    string // the project root
	Home    string // the person's home directory ("" when unknown)
	TempDir string // the system temp dir
	// Extra are further writable paths (sandbox_writable and the
	// toolchain caches), absolute.
	Extra []string
	// ConfigDir and DataDir are pincer's own: never the model's to edit.
	ConfigDir, DataDir string
}

// Writable lists what a command may write: in workspace mode the project,
// the temp dir and Extra; in read-only mode nothing (the executor adds a
// private temp dir); nil when the sandbox is off.
func (p SandboxPolicy) Writable() []string {
	if p.Mode != SandboxWorkspace {
		return nil
	}
	var out []string
	for _, w := range append([]string{p.Root, p.TempDir}, p.Extra...) {
		if w != "" && filepath.IsAbs(w) && !slices.Contains(out, filepath.Clean(w)) {
			out = append(out, filepath.Clean(w))
		}
	}
	return out
}

// Hidden lists the secret paths a command may neither write nor read:
// credentials under the home directory and pincer's own config and data.
func (p SandboxPolicy) Hidden() []string {
	var out []string
	if p.Home != "" {
		for _, rel := range []string{".ssh", ".aws", ".gnupg", ".config/gcloud", ".netrc", ".git-credentials"} {
			out = append(out, filepath.Join(p.Home, filepath.FromSlash(rel)))
		}
	}
	for _, d := range []string{p.ConfigDir, p.DataDir} {
		if d != "" && filepath.IsAbs(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}

// ToolchainCaches are the directories Go, Node, Python and Rust write
// while they build and fetch, made writable in workspace mode so builds
// work: from GOCACHE, GOMODCACHE, CARGO_HOME and XDG_CACHE_HOME when set,
// else their usual places under home. The caller keeps those that exist.
func ToolchainCaches(home string, getenv func(string) string) []string {
	if home == "" {
		return nil
	}
	cache := getenv("XDG_CACHE_HOME")
	if cache == "" || !filepath.IsAbs(cache) {
		cache = filepath.Join(home, ".cache")
	}
	cargo := getenv("CARGO_HOME")
	if cargo == "" || !filepath.IsAbs(cargo) {
		cargo = filepath.Join(home, ".cargo")
	}
	out := []string{
		filepath.Join(cache, "go-build"), filepath.Join(home, "go", "pkg", "mod"),
		filepath.Join(home, ".npm"), filepath.Join(cache, "yarn"), filepath.Join(home, ".pnpm-store"), filepath.Join(home, ".local", "share", "pnpm"),
		filepath.Join(cache, "pip"), filepath.Join(cache, "uv"),
		filepath.Join(cargo, "registry"), filepath.Join(cargo, "git"), filepath.Join(home, ".rustup"),
	}
	for _, env := range []string{"GOCACHE", "GOMODCACHE"} {
		if v := getenv(env); v != "" && filepath.IsAbs(v) {
			out = append(out, filepath.Clean(v))
		}
	}
	return out
}
