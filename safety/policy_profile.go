package safety

import (
	"path/filepath"
	"slices"
)

// Profile is the jail a command runs in, chosen by how it was allowed:
// the classifier decides what to ask, the jail holds each command to
// what it was judged to do.
type Profile string

// The profiles, strictest first.
const (
	// ProfileInspect is for commands rated safe and run unasked: they
	// write nothing but a private scratch temp dir, reach no network, and
	// see the project with its secret files masked.
	ProfileInspect Profile = "inspect"
	// ProfileContained is for confirm-tier commands that auto approvals
	// run unasked: they may write the project, their private temp dir and
	// copies of the build caches of their own; no network unless
	// sandbox_network is set to true.
	ProfileContained Profile = "contained"
	// ProfileWorkspace is for commands the person approved: the project,
	// the temp dir, the caches and sandbox_writable; the network as
	// configured; the sockets sandbox_sockets lists.
	ProfileWorkspace Profile = "workspace"
	// ProfileNone is no jail (--sandbox off).
	ProfileNone Profile = "none"
)

// Profiles lists the jails, strictest first.
func Profiles() []Profile { return []Profile{ProfileInspect, ProfileContained, ProfileWorkspace} }

// Valid reports whether p names a jail.
func (p Profile) Valid() bool { return slices.Contains(Profiles(), p) }

// ProfileFor is the jail a command with verdict v runs in. asked says
// the person approved this very command (or a hook made pincer ask); an
// allow rule of theirs that made it safe counts as approval given in
// advance. Otherwise a safe command is only inspecting, and anything
// else ran unasked because auto approvals let it.
func ProfileFor(v Verdict, asked bool) Profile {
	switch {
	case asked, v.Tier == Safe && v.Rule != "" && !v.Denied:
		return ProfileWorkspace
	case v.Tier == Safe:
		return ProfileInspect
	default:
		return ProfileContained
	}
}

// SocketAccess says which Unix sockets, by path, a jailed command may use.
type SocketAccess string

// The levels of socket access.
const (
	// SocketsNone: no Unix sockets at all.
	SocketsNone SocketAccess = "none"
	// SocketsOwn: only its own, in what it may write.
	SocketsOwn SocketAccess = "own"
	// SocketsListed: its own, and those sandbox_sockets lists.
	SocketsListed SocketAccess = "listed"
)

// SandboxPolicy decides what the commands in each profile may do.
type SandboxPolicy struct {
	Mode SandboxMode
	Root string // the project root
	Home string // the person's home directory ("" when unknown)
	// Writable are further paths approved commands may write
	// (sandbox_writable), absolute.
	Writable []string
	// Caches are the toolchain caches (see ToolchainCaches) that exist.
	Caches []string
	// Toolchains are the other paths under home that commands which see
	// the rest of home hidden still need (see HomeToolchains), that exist.
	Toolchains []string
	// GitConfigs are git's own settings files (see GitConfigFiles), in
	// the order git reads them.
	GitConfigs []string
	// SettingsFiles are the settings files in the toolchains that may
	// hold a credential (see HomeSettingsFiles).
	SettingsFiles []string
	// Own are pincer's own files: never the model's to read or edit.
	Own OwnFiles
	// Binary is pincer's own program: never the model's to replace.
	Binary string
	// Network is sandbox_network (approved commands); NetworkUnasked is
	// whether the person set it to true themselves, which gives commands
	// auto approvals run the network too.
	Network, NetworkUnasked bool
	// Sockets are socket paths approved commands may reach
	// (sandbox_sockets).
	Sockets []string
}

// ProfileRights is what the commands of one profile may do.
type ProfileRights struct {
	Profile Profile `json:"profile"`
	// Writable are the paths they may change, besides a temp dir of the
	// jail's own.
	Writable []string `json:"writable"`
	// Copies are paths they see whole but change only in a copy of their
	// own (the build caches).
	Copies []string `json:"copies"`
	// Hidden are paths they may neither read nor write.
	Hidden []string `json:"hidden"`
	// Pinned are paths that stay read-only, and in place, even inside
	// Writable.
	Pinned []string `json:"pinned"`
	// GitGuard keeps read-only what git reads as settings or runs as
	// code (config, hooks, info, config.worktree) in every git dir of the
	// project, submodules' and nested repositories' too, though the
	// project is writable: what they plant there would run later in the
	// person's own git, outside any jail.
	GitGuard bool `json:"git_guard"`
	// MaskProjectSecrets hides the project's secret files too (.env,
	// keys, credentials: see MaskedSecret).
	MaskProjectSecrets bool `json:"mask_project_secrets"`
	// ScratchTemp empties the temp dir after each command.
	ScratchTemp bool `json:"scratch_temp"`
	// Network lets them reach other machines.
	Network bool `json:"network"`
	// Sockets says which Unix sockets they may use, and Listed which
	// outside the jail (with SocketsListed).
	Sockets SocketAccess `json:"sockets"`
	Listed  []string     `json:"listed,omitempty"`
	// HideHome hides the whole home directory but the project, the
	// caches and HomeKept, so a command that ran unasked cannot read
	// another project's files (~/src/other/.env), whatever their names.
	HideHome bool `json:"hide_home"`
	// HomeKept are the paths under home that stay in view, read-only,
	// when HideHome: what the toolchains need (git's settings, the
	// programs installed under home).
	HomeKept []string `json:"home_kept,omitempty"`
	// GitConfigs are git's settings files in home, which they read with
	// the settings that carry credentials left out (tokens in URLs,
	// Authorization headers, inline credential helpers), when HideHome.
	GitConfigs []string `json:"git_configs,omitempty"`
	// SettingsFiles are the toolchains' settings files they read without
	// the lines that carry credentials, when HideHome.
	SettingsFiles []string `json:"settings_files,omitempty"`
	// HomeNote says why home is not hidden when a profile that hides it
	// cannot ("" otherwise).
	HomeNote string `json:"home_note,omitempty"`
}

// Rights are what the commands of profile pr may do under the policy's
// mode; false when they run with no jail (mode off, or ProfileNone). In
// read-only mode every profile writes only its temp dir, and approved
// commands keep the configured network.
func (p SandboxPolicy) Rights(pr Profile) (ProfileRights, bool) {
	if p.Mode == SandboxOff || !pr.Valid() {
		return ProfileRights{}, false
	}
	network := p.Network && pr == ProfileWorkspace || p.Network && p.NetworkUnasked && pr == ProfileContained
	if p.Mode == SandboxReadOnly {
		pr = ProfileInspect
	}
	r := ProfileRights{Profile: pr, Hidden: p.hidden(), Pinned: p.pinned(), Network: network}
	switch pr {
	case ProfileInspect:
		r.Copies, r.MaskProjectSecrets, r.ScratchTemp, r.Sockets = abs(p.Caches), true, true, SocketsNone
		p.hideHome(&r)
	case ProfileContained:
		r.Writable, r.Copies, r.MaskProjectSecrets, r.Sockets = abs([]string{p.Root}), abs(p.Caches), true, SocketsOwn
		p.hideHome(&r)
		// What git reads as settings or runs as code later, unasked and
		// outside the jail, in every git dir of the project.
		r.GitGuard = true
	case ProfileWorkspace:
		r.Writable, r.Sockets, r.Listed = abs(append(append([]string{p.Root}, p.Writable...), p.Caches...)), SocketsListed, abs(p.Sockets)
	}
	return r, true
}

// hideHome hides home from a profile whose commands run unasked, but
// what the toolchains need. A project that is home, or holds it, leaves
// nothing to hide home around: home is the project then, seen whole,
// with its secret files masked wherever they lie (MaskProjectSecrets).
func (p SandboxPolicy) hideHome(r *ProfileRights) {
	switch {
	case p.Home == "" || !filepath.IsAbs(p.Home):
		return
	case p.Root != "" && HomeInProject(p.Root, p.Home):
		r.HomeNote = "the project is your home directory or holds it, so the project's secret files are masked wherever they lie in it, but its other files stay readable"
		return
	}
	home := filepath.Clean(p.Home)
	r.HideHome = true
	notBelowHome := func(t string) bool { return !within(home, t) || t == home }
	r.HomeKept = slices.DeleteFunc(abs(p.Toolchains), notBelowHome)
	r.GitConfigs = slices.DeleteFunc(abs(p.GitConfigs), notBelowHome)
	// Patterns: home is written in them quoted (see globQuote).
	quoted := globQuote(home)
	r.SettingsFiles = slices.DeleteFunc(abs(p.SettingsFiles), func(t string) bool { return !within(quoted, t) || t == quoted })
}

// HomeInProject reports whether the project root is the home directory
// or holds it, so home cannot be hidden around the project.
func HomeInProject(root, home string) bool {
	return within(filepath.Clean(root), filepath.Clean(home))
}

// hidden lists what no jailed command may read or write: credentials
// under the home directory (those named here always; the jail looks for
// more near the top of home with MaskedSecret) and pincer's own config,
// data and trust list.
func (p SandboxPolicy) hidden() []string {
	var out []string
	if p.Home != "" {
		for _, rel := range []string{".ssh", ".aws", ".gnupg", ".config/gcloud", ".netrc", ".git-credentials", ".cache/git/credential", ".git-credential-cache"} {
			out = append(out, filepath.Join(p.Home, filepath.FromSlash(rel)))
		}
	}
	return append(out, abs([]string{p.Own.ConfigDir, p.Own.ConfigFile, p.Own.DataDir, p.Own.Store, p.Own.TrustFile})...)
}

// pinned lists what no jailed command may change or move: pincer's own
// program and themes (its config and data are hidden outright).
func (p SandboxPolicy) pinned() []string {
	return abs(append([]string{p.Binary, p.Own.ThemeDir}, p.Own.HookScripts...))
}

// MaskedSecret reports whether the jail hides a file or directory from
// commands that run unasked: the classifier's own test of what is a
// secret (secretLoc), so the two never disagree. path is relative to the
// project and slash-separated when inProject, else absolute with the
// home directory written "~".
func MaskedSecret(path string, inProject bool) bool {
	return secretLoc(loc{path: path, project: inProject}) != ""
}

// abs cleans the absolute paths of ps, dropping the rest and repeats.
func abs(ps []string) []string {
	out := []string{}
	for _, w := range ps {
		if w != "" && filepath.IsAbs(w) && !slices.Contains(out, filepath.Clean(w)) {
			out = append(out, filepath.Clean(w))
		}
	}
	return out
}
