package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScanFindsGitPlaces: the project's scan finds every git dir and
// .git file as findProjectGit's walk does, inside a directory named like
// a secret too, and sees one made later after a refresh; a secret inside
// a secret directory is not listed apart (the directory is hidden whole).
func TestScanFindsGitPlaces(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".git/objects", ".git/modules/sub/objects", "a/b/.git/objects", "credentials.d/r/.git/objects", "secrets.d/x"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", ".git/modules/sub/HEAD", "a/b/.git/HEAD", "credentials.d/r/.git/HEAD", "secrets.d/x/.env", "sub/.git"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	isSecret := func(rel string) bool {
		base := filepath.Base(rel)
		return strings.HasPrefix(base, "credentials.") || strings.HasPrefix(base, "secrets.") || base == ".env"
	}
	s := scanWith(root, isSecret, noWatcher{})
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, r)
		}
		slices.Sort(out)
		return out
	}
	walked := rel(GitPlaces(root))
	for _, tc := range []struct {
		name      string
		got, want []string
	}{
		{"git places", rel(s.gitPlaces()), []string{".git", ".git/modules/sub", "a/b/.git", "credentials.d/r/.git", "sub/.git"}},
		{"as the walk finds", rel(s.gitPlaces()), walked},
		{"secrets, outermost", rel(s.found()), []string{"credentials.d", "secrets.d"}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "a", "new", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.refresh()
	if got := rel(s.gitPlaces()); !slices.Contains(got, "a/new/.git") {
		t.Errorf("after a refresh, the new repository is not found: %q", got)
	}
}
