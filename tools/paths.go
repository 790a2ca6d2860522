package tools

import (
	"os"
	"path/filepath"
	"strings"
)

// resolvePath turns a path argument into a cleaned absolute path: "~" and
// "~/..." expand to the home directory, relative paths join root, absolute
// paths stay as they are (the caller's path policy decides about them).
func resolvePath(root, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if p == "" {
		p = "."
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return filepath.Clean(p)
}

// displayPath is how a path is shown to the model and the person: relative to
// root with forward slashes when inside it, else absolute.
func displayPath(root, abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}

// realPath resolves symbolic links in p, walking up to the deepest existing
// ancestor when p does not exist.
func realPath(p string) (string, bool) {
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r, true
			}
			return filepath.Join(r, rest), true
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", false
		}
		if rest == "" {
			rest = filepath.Base(cur)
		} else {
			rest = filepath.Join(filepath.Base(cur), rest)
		}
		cur = parent
	}
}
