package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// notFound words the error for a path that does not exist, suggesting names
// in its directory that are close to the one asked for, or saying which
// part of the path is missing.
func notFound(root, abs, what string) string {
	msg := fmt.Sprintf("%s not found: %s", what, displayPath(root, abs))
	dir := filepath.Dir(abs)
	des, err := os.ReadDir(dir)
	if err != nil {
		return msg + fmt.Sprintf(". Its directory %s does not exist either; use tree_view or glob to find the right path.", displayPath(root, dir))
	}
	names := make([]string, 0, len(des))
	for _, d := range des {
		n := d.Name()
		if d.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	if close := closestNames(filepath.Base(abs), names, 3); len(close) > 0 {
		return msg + fmt.Sprintf(". Similar names in %s: %s.", displayPath(root, dir)+"/", strings.Join(close, ", "))
	}
	return msg + ". Use tree_view or glob to find the right path."
}

// closestNames returns up to n names that are close to want: equal but for
// case, one containing the other, or within a small edit distance.
func closestNames(want string, names []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	lw := strings.ToLower(want)
	var out []scored
	for _, name := range names {
		ln := strings.ToLower(strings.TrimSuffix(name, "/"))
		d := editDistance(lw, ln)
		limit := max(2, len(lw)/3)
		ws, ns := strings.TrimSuffix(lw, filepath.Ext(lw)), strings.TrimSuffix(ln, filepath.Ext(ln))
		switch {
		case ln == lw:
			d = 0
		case (strings.Contains(ln, lw) && len(lw) >= 3) || (strings.Contains(lw, ln) && len(ln) >= 3):
			d = min(d, 1)
		case ns == ws:
			d = min(d, 1) // same stem, other extension
		case len(ns) >= 4 && len(ws) >= 4 && (strings.HasPrefix(ws, ns) || strings.HasPrefix(ns, ws)):
			d = min(d, 2) // stream.go for stream_test.go
		}
		if d <= limit {
			out = append(out, scored{name, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].name < out[j].name
	})
	res := make([]string, 0, n)
	for i := 0; i < len(out) && i < n; i++ {
		res = append(res, out[i].name)
	}
	return res
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
