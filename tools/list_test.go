package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// listProject is a project whose ignore rules exercise every layer:
// .git/info/exclude, the root .gitignore, nested ones, negation and
// directory-only rules.
func listProject(t *testing.T) string {
	t.Helper()
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{
		".gitignore":             "*.log\n!keep.log\n/dist/\ncache/\n",
		".git/HEAD":              "ref: refs/heads/main\n",
		".git/info/exclude":      "private.txt\n",
		"private.txt":            "x",
		"README.md":              "x",
		"app.log":                "x",
		"keep.log":               "x",
		"b.go":                   "x",
		"a.go":                   "x",
		"dist/out.js":            "x",
		"cache":                  "a file, so the directory-only rule does not hide it",
		"pkg/.gitignore":         "*.tmp\n!wanted.tmp\ngen/\nkeep.log\n",
		"pkg/main.go":            "x",
		"pkg/x.tmp":              "x",
		"pkg/wanted.tmp":         "x",
		"pkg/keep.log":           "x",
		"pkg/gen/z.go":           "x",
		"pkg/dist/kept.js":       "x", // /dist/ is anchored to the root
		"pkg/sub/cache/c.bin":    "x",
		"pkg/sub/deep/trace.log": "x",
		"pkg/sub/deep/d.go":      "x",
		"pkg/sub/.gitignore":     "!trace.log\n",
		"empty/":                 "",
	})
	return root
}

func TestListDir(t *testing.T) {
	root := listProject(t)
	tests := []struct {
		rel  string
		want []Entry
	}{
		{"", []Entry{
			{Name: "empty", Rel: "empty", IsDir: true},
			{Name: "pkg", Rel: "pkg", IsDir: true},
			{Name: ".gitignore", Rel: ".gitignore"},
			{Name: "README.md", Rel: "README.md"},
			{Name: "a.go", Rel: "a.go"},
			{Name: "b.go", Rel: "b.go"},
			{Name: "cache", Rel: "cache"},
			{Name: "keep.log", Rel: "keep.log"},
		}},
		{".", nil}, // same as "": filled in below
		{"pkg", []Entry{
			{Name: "dist", Rel: "pkg/dist", IsDir: true},
			{Name: "sub", Rel: "pkg/sub", IsDir: true},
			{Name: ".gitignore", Rel: "pkg/.gitignore"},
			{Name: "main.go", Rel: "pkg/main.go"},
			{Name: "wanted.tmp", Rel: "pkg/wanted.tmp"},
		}},
		// The root's cache/ rule reaches two levels down.
		{"pkg/sub", []Entry{
			{Name: "deep", Rel: "pkg/sub/deep", IsDir: true},
			{Name: ".gitignore", Rel: "pkg/sub/.gitignore"},
		}},
		// Listed directly, pkg/sub/deep still honours the root's *.log and
		// pkg/sub's negation of it.
		{"pkg/sub/deep", []Entry{
			{Name: "d.go", Rel: "pkg/sub/deep/d.go"},
			{Name: "trace.log", Rel: "pkg/sub/deep/trace.log"},
		}},
		{"pkg/sub/deep/", nil}, // a trailing slash is the same directory
		{"empty", []Entry{}},
	}
	tests[1].want = tests[0].want
	tests[5].want = tests[4].want
	for _, tt := range tests {
		got, err := ListDir(root, tt.rel)
		if err != nil {
			t.Errorf("ListDir(%q): %v", tt.rel, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ListDir(%q) =\n %v\nwant\n %v", tt.rel, got, tt.want)
		}
	}
}

func TestListDirErrors(t *testing.T) {
	root := listProject(t)
	tests := []struct {
		rel    string
		target error  // errors.Is target, or nil
		substr string // part of the message
	}{
		{"..", ErrOutsideRoot, "outside the project root"},
		{"../x", ErrOutsideRoot, "outside the project root"},
		{"pkg/../../x", ErrOutsideRoot, "outside the project root"},
		{"/etc", ErrOutsideRoot, "outside the project root"},
		{"missing", fs.ErrNotExist, "list missing"},
		{"a.go", nil, "list a.go"},
	}
	for _, tt := range tests {
		got, err := ListDir(root, tt.rel)
		if err == nil {
			t.Errorf("ListDir(%q) = %v, want an error", tt.rel, got)
			continue
		}
		if tt.target != nil && !errors.Is(err, tt.target) {
			t.Errorf("ListDir(%q) error %v is not %v", tt.rel, err, tt.target)
		}
		if !strings.Contains(err.Error(), tt.substr) {
			t.Errorf("ListDir(%q) error %q does not mention %q", tt.rel, err, tt.substr)
		}
	}
}

func TestListDirRelativeRoot(t *testing.T) {
	root := listProject(t)
	t.Chdir(root)
	got, err := ListDir(".", "pkg/sub")
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "deep", Rel: "pkg/sub/deep", IsDir: true}, {Name: ".gitignore", Rel: "pkg/sub/.gitignore"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ListDir(\".\", \"pkg/sub\") = %v, want %v", got, want)
	}
}

func TestListDirDoesNotFollowSymlinkedDirs(t *testing.T) {
	root := listProject(t)
	if err := os.Symlink(filepath.Join(root, "pkg"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	got, err := ListDir(root, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got {
		if e.Name == "link" && e.IsDir {
			t.Errorf("the link to a directory is listed as a directory: %+v", e)
		}
	}
	var files []string
	if err := WalkFiles(context.Background(), root, 0, func(rel string) error {
		files = append(files, rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasPrefix(f, "link/") {
			t.Errorf("WalkFiles followed the link: %s", f)
		}
	}
}

func TestWalkFiles(t *testing.T) {
	root := listProject(t)
	all := []string{
		".gitignore", "README.md", "a.go", "b.go", "cache", "keep.log",
		"pkg/.gitignore", "pkg/dist/kept.js", "pkg/main.go", "pkg/sub/.gitignore",
		"pkg/sub/deep/d.go", "pkg/sub/deep/trace.log", "pkg/wanted.tmp",
	}
	tests := []struct {
		limit   int
		wantN   int
		wantErr error
	}{
		{0, len(all), nil},
		{-1, len(all), nil},
		{len(all), len(all), nil}, // exactly the limit: nothing left out
		{len(all) + 5, len(all), nil},
		{3, 3, ErrLimitReached},
		{1, 1, ErrLimitReached},
	}
	for _, tt := range tests {
		var got []string
		err := WalkFiles(context.Background(), root, tt.limit, func(rel string) error {
			got = append(got, rel)
			return nil
		})
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
			t.Errorf("limit %d: error %v, want %v", tt.limit, err, tt.wantErr)
		}
		if len(got) != tt.wantN {
			t.Errorf("limit %d: %d files %v, want %d", tt.limit, len(got), got, tt.wantN)
		}
		sorted := append([]string(nil), got...)
		sort.Strings(sorted)
		if tt.wantN == len(all) && !reflect.DeepEqual(sorted, all) {
			t.Errorf("limit %d: files\n %v\nwant\n %v", tt.limit, sorted, all)
		}
		for _, f := range got {
			if !slices.Contains(all, f) {
				t.Errorf("limit %d: delivered ignored file %s", tt.limit, f)
			}
		}
	}
}

func TestWalkFilesStops(t *testing.T) {
	root := listProject(t)
	stop := errors.New("stop")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		fn      func(n int, cancel func()) error
		wantErr error
		maxN    int
	}{
		{"fn error is returned unchanged", context.Background(),
			func(n int, _ func()) error {
				if n == 2 {
					return stop
				}
				return nil
			}, stop, 2},
		{"cancelled before the walk", cancelled,
			func(int, func()) error { return nil }, context.Canceled, 0},
		{"cancelled during the walk", nil,
			func(n int, cancel func()) error {
				if n == 1 {
					cancel()
				}
				return nil
			}, context.Canceled, 1},
	}
	for _, tt := range tests {
		ctx, cancel := tt.ctx, func() {}
		if ctx == nil {
			ctx, cancel = context.WithCancel(context.Background())
		}
		n := 0
		err := WalkFiles(ctx, root, 0, func(string) error {
			n++
			return tt.fn(n, cancel)
		})
		cancel()
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.wantErr)
		}
		if n > tt.maxN {
			t.Errorf("%s: fn called %d times after the stop, want at most %d", tt.name, n, tt.maxN)
		}
	}
}

func TestWalkFilesCancelInLargeDirectory(t *testing.T) {
	root := tempRoot(t)
	files := map[string]string{}
	for i := range 2000 {
		files["big/f"+itoa(i)] = ""
	}
	writeFiles(t, root, files)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	err := WalkFiles(ctx, root, 0, func(string) error {
		n++
		if n == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if n != 10 {
		t.Errorf("%d files delivered, want the walk to stop right after the 10th, where ctx was cancelled", n)
	}
}

func TestWalkFilesBadRoot(t *testing.T) {
	root := listProject(t)
	tests := []struct {
		root   string
		target error
		substr string
	}{
		{filepath.Join(root, "missing"), fs.ErrNotExist, "walk"},
		{filepath.Join(root, "a.go"), nil, "is a file, not a directory"},
	}
	for _, tt := range tests {
		called := false
		err := WalkFiles(context.Background(), tt.root, 0, func(string) error { called = true; return nil })
		if err == nil || !strings.Contains(err.Error(), tt.substr) {
			t.Errorf("WalkFiles(%s) error %v, want one mentioning %q", tt.root, err, tt.substr)
		}
		if tt.target != nil && !errors.Is(err, tt.target) {
			t.Errorf("WalkFiles(%s) error %v is not %v", tt.root, err, tt.target)
		}
		if called {
			t.Errorf("WalkFiles(%s) delivered a file", tt.root)
		}
	}
}
