package safety

import (
	"path"
	"path/filepath"
	"strings"
)

// PathAccess is one read or write a file tool is about to make. The caller
// has already resolved ".." and symbolic links.
type PathAccess struct {
	Root  string // project root, absolute, symbolic links resolved
	Home  string // the user's home directory
	Path  string // absolute path, symbolic links resolved as far as the path exists
	Write bool
}

// Path decides a file tool's access. Reading or writing an ordinary file
// inside the project is Safe (edits are reviewed as diffs by the agent).
// Anything outside the project, inside .git/, or secret-looking (.env,
// id_rsa*, *.pem, *.key, ~/.ssh/*, .netrc, credentials) needs approval;
// writing where a shell command's write would be dangerous (/etc, ~/.ssh,
// shell start-up files, crontabs, git hooks, devices) is Dangerous.
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
	if home != "" && within(home, p) {
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
	if a.Write {
		if t, why := writeRisk(l); t == Dangerous {
			found = append(found, raise{tier: Dangerous, why: "writes " + why})
		}
	}
	verb := "reads"
	if a.Write {
		verb = "writes"
	}
	if why := secretLoc(l); why != "" {
		found = append(found, raise{tier: Confirm, why: verb + " a secret-looking file (" + why + ")"})
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
	return acc.verdict()
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
		if c == ".git" {
			return true
		}
	}
	return false
}
