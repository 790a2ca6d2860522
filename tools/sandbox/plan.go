package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// setup is what one helper builds: the Spec with every path resolved,
// and where the jail's own parts live. pincer sends it as the helper's
// first message.
type setup struct {
	Spec
	// Namespaces: the helper was started in namespaces of its own and
	// builds the mount tree below.
	Namespaces bool `json:"namespaces"`
	// Temp is a directory pincer made: flat, the command's TMPDIR; in the
	// namespaces, what the jail sees at /tmp ("" for a fresh tmpfs).
	Temp string `json:"temp,omitempty"`
	// TempRoots are the machine's temp dirs, which the jail's private one
	// replaces.
	TempRoots []string `json:"temp_roots,omitempty"`
	// Uppers are pincer's directories that take the changes to Copies,
	// one per copy (the overlay's upper and work dirs are made in it).
	Uppers []string `json:"uppers,omitempty"`
	// Covers are directories where other programs keep their sockets
	// (/run, $XDG_RUNTIME_DIR): the jail sees them empty, with Keep.
	Covers []string `json:"covers,omitempty"`
	// Keep are the paths inside TempRoots and Covers that stay as they
	// are: the project, home, the writable paths and copies, the programs
	// on PATH, the resolver's configuration, the allowed sockets.
	Keep []string `json:"keep,omitempty"`
	// HomeShown are the paths under Home that stay in view when HideHome
	// (the project, the writable paths and copies in home, the programs on
	// PATH there, HomeKeep), outermost only; flat, Landlock grants reading
	// these and nothing else of home. Empty when home is not hidden.
	HomeShown []string `json:"home_shown,omitempty"`
	// HomeLinks are the symbolic links on the way to the paths kept of a
	// hidden home (~/.gitconfig leading to ~/dotfiles/gitconfig): the
	// jail's empty home gets them again, so what they lead to, kept in
	// HomeShown, is found where tools look.
	HomeLinks []link `json:"home_links,omitempty"`
	// HiddenHome is the home directory, its links resolved, when HideHome
	// holds here ("" when home stays in view).
	HiddenHome string `json:"hidden_home,omitempty"`
	// GitFiles are git's settings files in the hidden home (GitConfigs
	// and what they include from home), filtered: in the namespaces each
	// is mounted where it lies, in place of the real one; flat, the real
	// ones are hidden and the command's GIT_CONFIG_GLOBAL names copies.
	GitFiles []filteredFile `json:"git_files,omitempty"`
	// Settings are the SettingsFiles in the hidden home that hold a
	// credential, filtered: in the namespaces each is mounted in place of
	// the real one; flat, the real ones are hidden.
	Settings []filteredFile `json:"settings,omitempty"`
	// ProjectGit are the project's git settings files that hold a
	// credential, filtered, when HideHome: in the namespaces each is
	// mounted in place of the real one; flat, the real ones are hidden.
	ProjectGit []filteredFile `json:"project_git,omitempty"`
	// Seccomp applies the system call filter.
	Seccomp bool `json:"seccomp"`
	// watch is what of home this view was built from (pincer's side
	// only): the helper is not used again once it changes.
	watch homeWatch
	// UnixByPath: Landlock limits connecting to Unix sockets by path.
	UnixByPath bool `json:"unix_by_path"`
}

// plan resolves spec for one helper on this machine: the hidden paths
// (with the secrets found and the sockets named in env), and with
// namespaces the directories to replace and the paths to keep in them.
func plan(spec Spec, sup Support, environ []string, found []string) setup {
	getenv := func(k string) string {
		for _, kv := range environ {
			if key, v, ok := strings.Cut(kv, "="); ok && key == k {
				return v
			}
		}
		return ""
	}
	root := spec.Root
	st := setup{Spec: spec, Namespaces: sup.Namespaces && !spec.Flat, Seccomp: sup.Seccomp, UnixByPath: sup.UnixByPath}
	st.Hidden = cleanAll(append(append(slices.Clone(spec.Hidden), found...), envSockets(environ, spec.Sockets)...))
	st.Writable, st.Pinned, st.Copies, st.Sockets = cleanAll(spec.Writable), cleanAll(spec.Pinned), existing(cleanAll(spec.Copies)), cleanAll(spec.Sockets)
	home := realDir(spec.Home)
	if st.HideHome = spec.HideHome && home != "" && home != "/" && (root == "" || !within(home, filepath.Clean(root))); st.HideHome {
		st.HiddenHome = home
		st.HomeShown = homeShown(st, getenv("PATH"))
		for _, k := range cleanAll(st.HomeKeep) {
			st.HomeLinks = append(st.HomeLinks, linksOnTheWay(home, k)...)
		}
		skip := append(append([]string{root}, st.Writable...), st.Copies...)
		secret := func(real string) bool { // hidden already: never shown filtered
			rel, _ := filepath.Rel(home, real)
			return inAny(real, st.Hidden) || spec.IsSecret != nil && spec.IsSecret("~/"+filepath.ToSlash(rel), false)
		}
		st.watch = homeWatch{}
		var stores []string
		st.GitFiles, stores = homeGitFiles(cleanAll(spec.GitConfigs), spec.Home, home, skip, secret, st.watch)
		st.Settings = homeSettingsFiles(cleanAll(spec.SettingsFiles), home, skip, secret, st.watch)
		st.Hidden = append(st.Hidden, credentialFilesIn(stores, home, st.watch)...)
		for _, g := range append(slices.Clone(st.GitFiles), st.Settings...) {
			// The real file is never in view: the filtered one takes its place.
			st.HomeShown = slices.DeleteFunc(st.HomeShown, func(p string) bool { return p == g.Real })
			if st.Namespaces {
				st.HomeLinks = append(st.HomeLinks, linksOnTheWay(home, inHome(g.Path, spec.Home, home))...)
			} else {
				st.Hidden = append(st.Hidden, g.Real)
			}
		}
	} else {
		st.HideHome, st.HomeKeep = false, nil
	}
	if root != "" && (spec.GitGuard || st.HideHome) {
		g := findProjectGit(filepath.Clean(root))
		if spec.GitGuard {
			pins, res := gitGuarded(g, filepath.Clean(root), cleanAll(spec.GitConfigs))
			if st.Namespaces {
				makeReserved(res) // flat, nothing can be added beside them
			}
			for _, r := range res {
				pins = append(pins, r.Path)
			}
			st.Pinned = cleanAll(append(st.Pinned, pins...))
		}
		if st.HideHome {
			st.ProjectGit = projectGitFiles(g)
			if !st.Namespaces {
				for _, f := range st.ProjectGit {
					st.Hidden = append(st.Hidden, f.Real)
				}
			}
		}
	}
	if !st.Namespaces {
		return st
	}
	for _, t := range []string{"/tmp", getenv("TMPDIR")} {
		// A temp dir the person made writable is shared, not replaced.
		if t = realDir(t); t != "" && t != "/" && !slices.ContainsFunc(st.TempRoots, func(r string) bool { return within(t, r) }) &&
			!slices.ContainsFunc(st.Writable, func(w string) bool { return within(t, w) }) {
			st.TempRoots = append(st.TempRoots, t)
		}
	}
	keepers := append(append(append(append([]string{root, spec.Home}, st.Writable...), st.Copies...), st.Sockets...), spec.SecretRoots...)
	if st.HideHome {
		keepers = append(append([]string{root}, st.HomeShown...), st.Writable...)
		keepers = append(append(append(keepers, st.Copies...), st.Sockets...), spec.SecretRoots...)
	}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir = realDir(dir); dir != "" && (!st.HideHome || !within(dir, home)) {
			if filepath.Base(dir) == "bin" {
				dir = filepath.Dir(dir) // a toolchain: its bin and the rest of it
			}
			keepers = append(keepers, dir)
		}
	}
	if spec.Network {
		if r, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil {
			keepers = append(keepers, r)
		}
	}
	keepers = cleanAll(keepers)
	inside := func(p string, dirs []string) bool {
		return slices.ContainsFunc(dirs, func(d string) bool { return within(p, d) })
	}
	for _, c := range []string{"/run", "/var/run", getenv("XDG_RUNTIME_DIR"), getenv("TMUX_TMPDIR"), getenv("SCREENDIR")} {
		c = realDir(c)
		// A cover over the project or home would take them away.
		if c == "" || c == "/" || inside(c, st.TempRoots) || inside(c, st.Covers) ||
			slices.ContainsFunc([]string{root, spec.Home}, func(k string) bool { return k != "" && within(k, c) }) {
			continue
		}
		st.Covers = append(st.Covers, c)
	}
	if st.HideHome && !inside(home, st.TempRoots) && !inside(home, st.Covers) {
		// An empty directory in its place, the paths shown put back.
		st.Covers = append(st.Covers, home)
	}
	replaced := append(slices.Clone(st.TempRoots), st.Covers...)
	for _, k := range keepers {
		if k != "" && inside(k, replaced) && !slices.ContainsFunc(replaced, func(r string) bool { return r == k }) && exists(k) {
			st.Keep = append(st.Keep, k)
		}
	}
	st.Keep = outermost(st.Keep)
	return st
}

// credentialFilesIn are the files of stores (what git's credential
// helpers name) that lie in home (its links resolved) and are not
// programs, their links resolved: the jail hides them. w records each,
// so one made later is hidden by the next helper.
func credentialFilesIn(stores []string, home string, w homeWatch) []string {
	var out []string
	for _, p := range stores {
		w.stamp(p)
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !within(real, home) || real == home {
			continue
		}
		if info, err := os.Stat(real); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 == 0 {
			out = append(out, real)
		}
	}
	return out
}

// inHome is p, which lies in home as written, under home's real path.
func inHome(p, home, real string) string {
	if !within(p, home) {
		return p
	}
	rel, _ := filepath.Rel(home, p)
	return filepath.Join(real, rel)
}

// homeShown are the paths of home that stay in view when it is hidden:
// the project, the writable paths, copies and allowed sockets in it,
// HomeKeep, and the directories on PATH in it (each alone: ~/.cargo/bin,
// not ~/.cargo; but a toolchain's bin deeper down, ~/opt/go1.24/bin,
// brings the toolchain, ~/opt/go1.24, when it looks like one), outermost
// first.
func homeShown(st setup, path string) []string {
	var out []string
	for _, p := range append(append(append(append([]string{st.Root}, st.Writable...), st.Copies...), st.Sockets...), cleanAll(st.HomeKeep)...) {
		if r, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(r) {
			p = r // where it really is, as home is
		}
		if p != "" && within(p, st.HiddenHome) && p != st.HiddenHome && exists(p) {
			out = append(out, p)
		}
	}
	for _, dir := range filepath.SplitList(path) {
		dir = realDir(dir)
		if dir == "" || dir == st.HiddenHome || !within(dir, st.HiddenHome) {
			continue
		}
		if parent := filepath.Dir(dir); filepath.Base(dir) == "bin" && filepath.Dir(parent) != st.HiddenHome && parent != st.HiddenHome && toolchainDir(parent) {
			dir = parent
		}
		out = append(out, dir)
	}
	return outermost(cleanAll(out))
}

// toolchainDir reports whether dir, the parent of a bin on PATH, looks
// like an installed toolchain (lib, libexec or pkg beside bin: Go, Node,
// a JDK) rather than a project with its scripts in bin (a .git in it),
// whose other files must stay hidden.
func toolchainDir(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		return false
	}
	for _, d := range []string{"lib", "libexec", "pkg"} {
		if info, err := os.Stat(filepath.Join(dir, d)); err == nil && info.IsDir() {
			return true
		}
	}
	return false
}

// link is a symbolic link to make in the jail: Path leads to Target.
type link struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// linksOnTheWay lists the symbolic links between home (its links
// resolved) and p below it, as they are on disk.
func linksOnTheWay(home, p string) []link {
	rel, err := filepath.Rel(home, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	var out []link
	cur := home
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		next := filepath.Join(cur, part)
		info, err := os.Lstat(next)
		if err != nil {
			return out
		}
		if info.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return out
		}
		out = append(out, link{Path: next, Target: target})
		if cur, err = filepath.EvalSymlinks(next); err != nil || !within(cur, home) {
			return out // beyond home the rest is in view anyway
		}
	}
	return out
}

// envSockets are the Unix sockets named in pincer's environment (the
// SSH agent, tmux, D-Bus, Docker, an editor's server), left out of the
// jail unless allowed lists them. A value may name several, and wrap one
// as unix:path=…, unix://… or "path,pid,…" as tmux does.
func envSockets(environ []string, allowed []string) []string {
	var out []string
	for _, kv := range environ {
		_, v, _ := strings.Cut(kv, "=")
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ',' || r == ';' || r == ' ' }) {
			f = strings.TrimPrefix(strings.TrimPrefix(f, "//"), "path=")
			if !filepath.IsAbs(f) {
				continue
			}
			if info, err := os.Stat(f); err == nil && info.Mode()&os.ModeSocket != 0 && !slices.Contains(allowed, filepath.Clean(f)) {
				out = append(out, filepath.Clean(f))
			}
		}
	}
	return out
}

// outermost drops the paths that lie inside another of them.
func outermost(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !slices.ContainsFunc(paths, func(q string) bool { return q != p && within(p, q) }) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	return out
}

// cleanAll cleans absolute paths, dropping the rest and repeats.
func cleanAll(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p != "" && filepath.IsAbs(p) && !slices.Contains(out, filepath.Clean(p)) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// existing keeps the paths that exist.
func existing(paths []string) []string {
	return slices.DeleteFunc(paths, func(p string) bool { return !exists(p) })
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// realDir is the directory p with its links resolved, "" when it is not
// an absolute path to a directory.
func realDir(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	if info, err := os.Stat(r); err != nil || !info.IsDir() {
		return ""
	}
	return r
}
