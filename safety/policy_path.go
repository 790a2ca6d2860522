package safety

import (
	"path"
	"path/filepath"
	"strings"

	"pincer/internal/privatekey"
)

// PathAccess is one read or write a file tool is about to make. The caller
// has already resolved ".." and symbolic links.
type PathAccess struct {
	Root  string   // project root, absolute, symbolic links resolved
	Home  string   // the user's home directory
	Path  string   // absolute path, symbolic links resolved as far as the path exists
	Own   OwnFiles // where pincer keeps its own files
	Write bool
	// ByName judges a read by the path alone, looking at nothing the file
	// holds: for a search that opens the file next and has what it read
	// judged then, with Head.
	ByName bool
	// Head is what the caller has read of the file from its start (at
	// least privatekey.SniffLimit bytes, or all of it): a read is judged by
	// what it holds there, so the file is opened once. Without it the
	// classifier's view of the disk (WithFiles) looks.
	Head []byte
}

// OwnFiles are the places pincer keeps its own state: absolute paths with
// their symbolic links resolved, "" for a place not known. The caller finds
// them (the policy does no I/O). Writing into any of them is Dangerous — a
// model that edits pincer's config, trust file or store could lift its own
// limits or destroy the person's sessions — and reading them needs
// approval, since the config may hold an API key and the store every
// conversation.
type OwnFiles struct {
	ConfigDir  string // the user config directory (config.json, AGENT.md, SKILLS.md)
	ConfigFile string // the config file PINCER_CONFIG names, when set
	DataDir    string // the directory of the session store
	Store      string // the session store file (pincer.db)
	TrustFile  string // the list of trusted projects
	ThemeDir   string // the user's theme files
}

// what names the part of pincer's own files p is in, or "".
func (o OwnFiles) what(p string) string {
	for _, f := range []struct{ path, what string }{
		{o.Store, "pincer's session store"},
		{o.TrustFile, "pincer's list of trusted projects"},
		{o.ConfigFile, "pincer's configuration"},
		{o.ThemeDir, "pincer's themes"},
		{o.DataDir, "pincer's data directory"},
		{o.ConfigDir, "pincer's configuration directory"},
	} {
		if dir := cleanAbs(f.path); dir != "" && within(dir, p) {
			return f.what
		}
	}
	return ""
}

// Path decides a file tool's access. Reading or writing an ordinary file
// inside the project is Safe (edits are reviewed as diffs by the agent).
// Anything outside the project, inside .git/, or secret-looking (.env,
// id_rsa*, *.pem, *.key, ~/.ssh/*, .netrc, credentials), and a read of a
// file that holds a private key whatever its name (see PathAccess.Head),
// needs approval;
// writing where a shell command's write would be dangerous (/etc, ~/.ssh,
// shell start-up files, crontabs, git hooks, devices) or into pincer's own
// files (a.Own) is Dangerous; reading pincer's own files needs approval.
func (c *Classifier) Path(a PathAccess) Verdict {
	acc := newAcc()
	if a.Path == "" || !filepath.IsAbs(a.Path) {
		acc.add(Confirm, display(a.Path)+": not an absolute path, so pincer cannot place it")
		return acc.verdict()
	}
	p := filepath.Clean(a.Path)
	root, home := cleanAbs(a.Root), cleanAbs(a.Home)
	inRoot := root != "" && within(root, p)
	logical := filepath.ToSlash(p)
	if homeTakes(filepath.ToSlash(home)) && within(home, p) {
		rel, _ := filepath.Rel(home, p)
		logical = path.Clean("~/" + filepath.ToSlash(rel))
	}
	if isWindowsPath(logical) {
		logical = strings.ToLower(logical)
	}
	// A root at or above the home directory holds the user's own start-up
	// files: those are not project files.
	project := inRoot && !(home != "" && within(root, home))
	l := loc{path: logical, project: project}
	shown := display(logical)

	var found []raise
	if own := a.Own.what(p); own != "" {
		if a.Write {
			found = append(found, raise{tier: Dangerous, why: "writes " + own + "; pincer's own files are not the model's to change"})
		} else {
			found = append(found, raise{tier: Confirm, why: "reads " + own})
		}
	}
	if a.Write {
		if t, why := writeRisk(l); t == Dangerous {
			found = append(found, raise{tier: Dangerous, why: "writes " + why})
		} else if why := loadedLater(root, home, p, inRoot, project); why != "" {
			found = append(found, raise{tier: Dangerous, why: "writes " + why})
		}
	}
	verb := "reads"
	if a.Write {
		verb = "writes"
	}
	secret := false
	if why := secretLoc(l); why != "" {
		found = append(found, raise{tier: Confirm, why: verb + " a secret-looking file (" + why + ")"})
		secret = !a.Write
	}
	if !a.Write && a.Own.what(p) != "" {
		secret = true
	}
	if !a.Write && !a.ByName && c.holdsKey(p, a.Head) {
		// Whatever its name: a deploy_key is known by what it holds.
		found = append(found, raise{tier: Confirm, why: "reads a file that holds a private key"})
		secret = true
	}
	if inGit(root, p, inRoot) {
		found = append(found, raise{tier: Confirm, why: verb + " inside .git/"})
	}
	if !inRoot {
		found = append(found, raise{tier: Confirm, why: verb + " outside the project"})
	}
	// One reason for the access, naming what raised it to its tier.
	top := Safe
	for _, r := range found {
		if r.tier > top {
			top = r.tier
		}
	}
	var whys []string
	for _, r := range found {
		if r.tier == top {
			whys = append(whys, r.why)
		}
	}
	acc.add(top, shown+": "+strings.Join(whys, "; "))
	v := acc.verdict()
	v.Secret = secret
	return v
}

// loadedLater names why a file outside the project is one that programs
// read as settings or run as code later, with nobody asking: a hidden file
// or directory of the home directory (every tool's settings live there:
// ~/.cargo/config.toml names a compiler wrapper, ~/.config/go/env a
// -toolexec), a directory of programs or packages under home (~/bin,
// ~/go/bin, site-packages), or a place beside or above the project, where
// tools run in it look for settings (go.work, .envrc, node_modules,
// AGENTS.md). A rule for the whole family, so that no one file needs to
// be listed; "" for an ordinary file.
func loadedLater(root, home, p string, inRoot, project bool) string {
	if home != "" && !project && within(home, p) && p != home {
		rel, _ := filepath.Rel(home, p)
		if why := homeLoadedLater(filepath.ToSlash(rel)); why != "" {
			return why
		}
	}
	if root == "" || inRoot {
		return ""
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if d == filepath.Dir(p) && within(d, root) || filepath.Base(d) == "node_modules" && within(filepath.Dir(d), root) {
			return "a file beside or above the project, where tools run in the project look for settings or code (go.work, .envrc, node_modules, AGENTS.md)"
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// homeLoadedLater names what a path inside the home directory (rel, slash-
// separated and relative to the home) holds when programs read or run it
// later: hidden files, directories of programs and packages, Go's module
// cache. It returns "" for the user's ordinary files. The file tools and
// shell commands share it, so that neither is the easier way to plant code.
func homeLoadedLater(rel string) string {
	comps := strings.Split(rel, "/")
	for i, c := range comps {
		switch {
		case strings.HasPrefix(c, "."):
			return "a hidden file of your home directory, where programs keep settings they read, or code they run, later"
		case i < len(comps)-1 && (c == "bin" || c == "sbin" || c == "site-packages" || c == "dist-packages" || c == "node_modules"):
			return "a directory of programs or packages that other programs run or load"
		case i < len(comps)-2 && c == "go" && comps[i+1] == "pkg":
			return "Go's module cache, whose code builds use"
		}
	}
	return ""
}

// holdsKey reports whether the file at p (absolute) holds a private key
// block near its top: in head when the caller read it, else as the
// classifier's view of the disk finds it; without one, none is found.
func (c *Classifier) holdsKey(p string, head []byte) bool {
	if head != nil {
		return privatekey.IsText(head[:min(len(head), privatekey.SniffLimit)])
	}
	if c.files == nil {
		return false
	}
	holds, _ := c.files.HoldsPrivateKey(filepath.ToSlash(p))
	return holds
}

func cleanAbs(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// inGit reports a path inside a .git directory (of the project, or any
// when the path is outside the project).
func inGit(root, p string, inRoot bool) bool {
	rel := p
	if inRoot {
		rel, _ = filepath.Rel(root, p)
	}
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(c, ".git") { // .GIT is .git where names fold
			return true
		}
	}
	return false
}
