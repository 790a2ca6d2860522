package safety

import (
	"path/filepath"
	"slices"
	"strings"
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
// under approvals, when contained says the full jail (namespaces and
// Landlock) holds it. Dangerous commands and deny rules are never waved
// through, and without the jail auto asks like ask.
func RunsUnasked(v Verdict, approvals ApprovalMode, contained bool) bool {
	if v.Denied || v.Tier > Confirm {
		return false
	}
	if v.Tier == Safe {
		return true
	}
	return approvals == ApprovalsAuto && contained
}

// ToolchainCaches are the directories Go, Node, Python and Rust write
// while they build and fetch: writable to approved commands, copies of
// their own for the others, so builds work: from GOCACHE, GOMODCACHE, CARGO_HOME and XDG_CACHE_HOME when set,
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

// HomeToolchains are what commands that see the rest of home hidden
// (inspect, contained) still need of it to work, read-only: git's
// settings, the programs and toolchains installed under home (Go's
// GOPATH/bin and downloaded SDKs, cargo's bin and settings, rustup,
// nvm, volta, pyenv, rbenv, sdkman, bun, deno, gems, pip's user
// packages, the Maven and Gradle repositories) and Go's settings file.
// Not the files tools keep their tokens in (~/.cargo/credentials.toml,
// ~/.npmrc, ~/.pypirc, ~/.m2/settings.xml, ~/.gradle/gradle.properties):
// a tool that finds none works without. The caches are ToolchainCaches; the caller keeps
// the paths that exist.
func HomeToolchains(home string, getenv func(string) string) []string {
	if home == "" {
		return nil
	}
	absOr := func(env, def string) string { return envDir(getenv, env, def) }
	config := absOr("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	cargo := absOr("CARGO_HOME", filepath.Join(home, ".cargo"))
	out := []string{
		filepath.Join(home, ".gitconfig"), filepath.Join(config, "git"),
		filepath.Join(config, "go"), filepath.Join(home, "sdk"),
		filepath.Join(cargo, "bin"), filepath.Join(cargo, "config.toml"), filepath.Join(cargo, "config"),
		absOr("RUSTUP_HOME", filepath.Join(home, ".rustup")),
		filepath.Join(home, ".nvm"), filepath.Join(home, ".volta"),
		filepath.Join(home, ".pyenv"), filepath.Join(home, ".rbenv"), filepath.Join(home, ".sdkman"),
		filepath.Join(home, ".local", "bin"), filepath.Join(home, ".local", "lib"),
		filepath.Join(home, ".bun", "bin"), filepath.Join(home, ".deno", "bin"), filepath.Join(home, ".gem"),
		filepath.Join(home, ".m2", "repository"), filepath.Join(home, ".gradle", "caches"), filepath.Join(home, ".gradle", "wrapper"),
	}
	// GOPATH may list several; each one's bin holds what go install made.
	gopath := filepath.SplitList(getenv("GOPATH"))
	if len(gopath) == 0 {
		gopath = []string{filepath.Join(home, "go")}
	}
	for _, g := range gopath {
		if filepath.IsAbs(g) {
			out = append(out, filepath.Join(g, "bin"))
		}
	}
	for _, env := range []string{"GOROOT", "GOBIN", "GOENV", "NVM_DIR", "PYENV_ROOT", "VOLTA_HOME"} {
		if v := getenv(env); v != "" && filepath.IsAbs(v) && v != home {
			out = append(out, filepath.Clean(v))
		}
	}
	return out
}

// GitConfigFiles are git's own settings files in home, in the order git
// reads them ($XDG_CONFIG_HOME/git/config, then ~/.gitconfig, whose
// settings win): the jails that hide home give commands copies without
// the settings that carry credentials.
func GitConfigFiles(home string, getenv func(string) string) []string {
	if home == "" {
		return nil
	}
	config := envDir(getenv, "XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return []string{filepath.Join(config, "git", "config"), filepath.Join(home, ".gitconfig")}
}

// HomeSettingsFiles are the settings files inside what HomeToolchains
// keeps that may hold a credential beside what the tools need: cargo's
// config.toml and config (a registry's token), Go's env file (a GOPROXY
// with a password), the global npmrc of every Node version nvm and volta
// install and npm's built-in one beside it (an _authToken). They are patterns (filepath.Match syntax, the
// fixed parts quoted), not a list of what exists now, so a Node version
// installed while pincer runs is filtered too: the jails that hide home
// look for them each time they are built, and give commands copies
// without the lines that carry a credential.
func HomeSettingsFiles(home string, getenv func(string) string) []string {
	if home == "" {
		return nil
	}
	absOr := func(env, def string) string { return envDir(getenv, env, def) }
	cargo := globQuote(absOr("CARGO_HOME", filepath.Join(home, ".cargo")))
	out := []string{
		filepath.Join(cargo, "config.toml"), filepath.Join(cargo, "config"),
		globQuote(absOr("GOENV", filepath.Join(absOr("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "go", "env"))),
	}
	// Each Node version's global npmrc, and npm's own built-in one.
	for _, node := range []string{
		filepath.Join(globQuote(absOr("NVM_DIR", filepath.Join(home, ".nvm"))), "versions", "node", "*"),
		filepath.Join(globQuote(absOr("VOLTA_HOME", filepath.Join(home, ".volta"))), "tools", "image", "node", "*"),
	} {
		out = append(out, filepath.Join(node, "etc", "npmrc"), filepath.Join(node, "lib", "node_modules", "npm", "npmrc"))
	}
	return out
}

// globQuote is p with what filepath.Match reads as a pattern escaped, so
// a home named "a[1]" matches only itself.
func globQuote(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// envDir is the absolute directory the variable env names, or def when it
// is unset or not absolute: a relative one would name a different place
// for each directory a command runs in, so the policy cannot keep it.
func envDir(getenv func(string) string, env, def string) string {
	if v := getenv(env); v != "" && filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return def
}
