package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// cover splits the tree at top into rules that grant it whole except the
// hidden subtrees, because Landlock only grants (it cannot say "all of /
// but ~/.ssh"). whole are paths granted with their subtrees; parents are
// the directories on the way from top to a hidden path, which get no
// subtree grant (only the listing of names, for reads). list returns the
// full paths of a directory's entries.
//
// A hidden path equal to or above top hides top entirely.
func cover(top string, hidden []string, list func(dir string) ([]string, error)) (whole, parents []string) {
	top = filepath.Clean(top)
	var inside []string
	for _, h := range hidden {
		h = filepath.Clean(h)
		if within(top, h) {
			return nil, nil
		}
		if within(h, top) {
			inside = append(inside, h)
		}
	}
	if len(inside) == 0 {
		return []string{top}, nil
	}
	parents = append(parents, top)
	entries, err := list(top)
	if err != nil {
		// Cannot look inside: grant nothing below rather than too much.
		return nil, parents
	}
	for _, e := range entries {
		if slices.Contains(inside, filepath.Clean(e)) {
			continue
		}
		w, p := cover(e, inside, list)
		whole = append(whole, w...)
		parents = append(parents, p...)
	}
	return whole, parents
}

// within reports whether p is dir or lies beneath it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}
