package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitWalkLimit bounds the entries of the project looked at for nested
// repositories when a helper starts.
const gitWalkLimit = 20000

// projectGit is what a helper found of git in the project: its git dirs
// (the project's own .git, the submodules' dirs in .git/modules, the
// linked worktrees' dirs in .git/worktrees, nested repositories' .git) and
// the .git files that point a worktree at one.
type projectGit struct {
	dirs  []string
	links []string
}

// findProjectGit looks for git's directories in root: its .git, nested
// .git dirs and files down the tree (at most gitWalkLimit entries, links
// not followed), and within every git dir its modules and worktrees.
func findProjectGit(root string) projectGit {
	var g projectGit
	if root == "" {
		return g
	}
	seen := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > gitWalkLimit {
			return filepath.SkipAll
		}
		if d.Name() != ".git" || p == root {
			return nil
		}
		switch {
		case d.IsDir():
			g.addDir(p)
			return filepath.SkipDir
		case d.Type().IsRegular():
			g.links = append(g.links, p)
		}
		return nil
	})
	return g
}

// addDir adds the git dir dir, and the git dirs within it: a submodule's
// in modules (at any depth of names, and its own modules), a linked
// worktree's in worktrees.
func (g *projectGit) addDir(dir string) {
	if slices.Contains(g.dirs, dir) {
		return
	}
	g.dirs = append(g.dirs, dir)
	var walkModules func(d string, depth int)
	walkModules = func(d string, depth int) {
		entries, err := os.ReadDir(d)
		if err != nil || depth > 8 {
			return
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			p := filepath.Join(d, e.Name())
			if isGitDir(p) {
				g.addDir(p)
				continue
			}
			walkModules(p, depth+1) // a submodule named a/b
		}
	}
	walkModules(filepath.Join(dir, "modules"), 0)
	if entries, err := os.ReadDir(filepath.Join(dir, "worktrees")); err == nil {
		for _, e := range entries {
			if e.IsDir() {
				g.dirs = append(g.dirs, filepath.Join(dir, "worktrees", e.Name()))
			}
		}
	}
}

// isGitDir reports whether d looks like a git dir (a HEAD and objects).
func isGitDir(d string) bool {
	_, errHead := os.Lstat(filepath.Join(d, "HEAD"))
	_, errObj := os.Lstat(filepath.Join(d, "objects"))
	return errHead == nil && errObj == nil
}

// reserved is a path to keep read-only that may not exist yet: when it is
// missing an empty one is made, so that nothing else can be put there.
type reserved struct {
	Path string `json:"path"`
	Dir  bool   `json:"dir"`
}

// gitGuarded are the paths of g that git reads as settings or runs as
// code, to keep read-only where the project is writable: in every git dir
// config, config.worktree, hooks, info (attributes, exclude,
// sparse-checkout, grafts) and a linked worktree's commondir and gitdir
// (which say where its settings are); the .git files that point a
// worktree at its git dir; and what the settings name in the project
// (settingsNamed). Everything else git writes (objects, refs,
// logs, the index, HEAD, lock files) stays writable. The missing ones
// that git would read are made empty first: hooks and info, and
// config.worktree when the settings turn it on.
func gitGuarded(g projectGit, root string, global []string) (pins []string, res []reserved) {
	p, r := settingsNamed(global, root, root)
	pins, res = append(pins, p...), append(res, r...)
	for _, d := range g.dirs {
		p, r := settingsNamed([]string{filepath.Join(d, "config"), filepath.Join(d, "config.worktree")}, worktreeOf(d, root), root)
		pins, res = append(pins, p...), append(res, r...)
		pins = append(pins, filepath.Join(d, "config"), filepath.Join(d, "commondir"), filepath.Join(d, "gitdir"))
		res = append(res, reserved{filepath.Join(d, "hooks"), true}, reserved{filepath.Join(d, "info"), true})
		wt := filepath.Join(d, "config.worktree")
		if _, err := os.Lstat(wt); err == nil || worktreeConfigOn(d) {
			res = append(res, reserved{wt, false})
		}
	}
	return append(pins, g.links...), res
}

// worktreeConfigOn reports whether the settings of git dir d (or of the
// common dir a linked worktree's names) may turn config.worktree on.
func worktreeConfigOn(d string) bool {
	cfg := filepath.Join(d, "config")
	if b, err := readSettingsFile(filepath.Join(d, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(d, c)
		}
		cfg = filepath.Join(c, "config")
	}
	b, err := readSettingsFile(cfg)
	return err == nil && strings.Contains(strings.ToLower(string(b)), "worktreeconfig")
}

// makeReserved makes the missing reserved paths whose parent exists,
// empty.
func makeReserved(res []reserved) {
	for _, r := range res {
		if _, err := os.Lstat(r.Path); err == nil {
			continue
		}
		if info, err := os.Stat(filepath.Dir(r.Path)); err != nil || !info.IsDir() {
			continue
		}
		if r.Dir {
			_ = os.Mkdir(r.Path, 0o755)
			continue
		}
		if f, err := os.OpenFile(r.Path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
			f.Close()
		}
	}
}

// projectGitFiles are the settings files of g's git dirs that hold a
// credential (a token in a remote's URL, an Authorization header left by
// CI), filtered as git's settings in home are.
func projectGitFiles(g projectGit) []filteredFile {
	var out []filteredFile
	for _, d := range g.dirs {
		for _, name := range []string{"config", "config.worktree"} {
			p := filepath.Join(d, name)
			info, err := os.Lstat(p)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			data, err := readSettingsFile(p)
			if errors.Is(err, errSettingsTooLarge) {
				out = append(out, filteredFile{Path: p, Real: p})
				continue
			}
			if err != nil || !gitCredentialIn(string(data)) {
				continue
			}
			filtered, _, _ := filterGitConfig(string(data), nil)
			out = append(out, filteredFile{Path: p, Real: p, Data: filtered})
		}
	}
	return out
}

// settingsNamed are the paths in the project that git's settings files
// name, which git would read as settings or run as code: a file an
// include brings in (include.path = ../.gitconfig), the hooks dir
// core.hooksPath names (.husky), and the program any other setting runs
// when it is a path (core.fsmonitor = ./tools/watch, an alias
// !./scripts/x). Only settings that name data (a remote's url, a
// submodule's path, refspecs, core.worktree) are left out. Each file is
// read once; worktree is where git resolves a relative program or hooks
// dir. A hooks dir that is missing is made empty (reserved), so none can
// be put there.
func settingsNamed(files []string, worktree, root string) (pins []string, res []reserved) {
	data := map[string]bool{"url": true, "pushurl": true, "worktree": true, "fetch": true, "push": true, "merge": true,
		"insteadof": true, "pushinsteadof": true, "gitdir": true}
	inProject := func(p string) bool { return p != "" && within(p, root) && p != root }
	seen := map[string]bool{}
	var visit func(file string, depth int)
	visit = func(file string, depth int) {
		if seen[file] || depth > maxGitIncludeDepth {
			return
		}
		seen[file] = true
		b, err := readSettingsFile(file)
		if err != nil {
			return
		}
		entries, _ := parseGitConfig(string(b))
		for _, e := range entries {
			if e.header || !e.hasValue {
				continue
			}
			key := strings.ToLower(e.key)
			switch {
			case isInclude(e):
				inc := resolveGitInclude(e.value, file, "")
				if inProject(inc) {
					pins = append(pins, inc)
					visit(inc, depth+1)
				}
			case e.section == "core" && key == "hookspath":
				if p := projectPath(e.value, worktree); inProject(p) {
					res = append(res, reserved{p, true})
				}
			case data[key] || e.section == "submodule" && key == "path":
			default:
				// The program a setting runs: its first word, past a "!".
				fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(e.value), "!"))
				if len(fields) == 0 || !strings.Contains(fields[0], "/") {
					continue
				}
				if p := projectPath(strings.Trim(fields[0], `"'`), worktree); inProject(p) && exists(p) {
					pins = append(pins, p)
				}
			}
		}
	}
	for _, f := range files {
		visit(f, 0)
	}
	return pins, res
}

// projectPath is p as git resolves it from worktree ("" for ~user
// paths).
func projectPath(p, worktree string) string {
	switch {
	case p == "" || strings.HasPrefix(p, "~"):
		return ""
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(worktree, p)
}

// worktreeOf is where git works for git dir d: the parent of a .git
// dir, or core.worktree of a submodule's dir in .git/modules (relative
// to d); root when neither says.
func worktreeOf(d, root string) string {
	if filepath.Base(d) == ".git" {
		return filepath.Dir(d)
	}
	b, err := readSettingsFile(filepath.Join(d, "config"))
	if err != nil {
		return root
	}
	entries, _ := parseGitConfig(string(b))
	for _, e := range entries {
		if !e.header && e.section == "core" && strings.EqualFold(e.key, "worktree") && e.value != "" {
			return projectPath(e.value, d)
		}
	}
	return root
}

// GitPlaces lists the git dirs and .git files in root (see
// findProjectGit). A command that may write the project can make a new
// one, which no jail built before it guards: comparing the lists before
// and after tells the person.
func GitPlaces(root string) []string {
	g := findProjectGit(filepath.Clean(root))
	return append(g.dirs, g.links...)
}
