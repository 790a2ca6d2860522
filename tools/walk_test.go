package tools

import (
	"context"
	"reflect"
	"sort"
	"testing"
)

func TestWalkFilesHonoursGitignore(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{
		".gitignore":              "*.log\n/dist/\nnode_modules/\n!important.log\n",
		".git/config":             "x",
		".git/info/exclude":       "secret.txt\n",
		"secret.txt":              "x",
		"a.go":                    "x",
		"app.log":                 "x",
		"important.log":           "x",
		"dist/bundle.js":          "x",
		"node_modules/m/index.js": "x",
		"pkg/.gitignore":          "generated/\n*.tmp\n!keep.tmp\n",
		"pkg/a.go":                "x",
		"pkg/x.tmp":               "x",
		"pkg/keep.tmp":            "x",
		"pkg/generated/gen.go":    "x",
		"pkg/dist/inner.js":       "x", // /dist/ is anchored to the root
		"pkg/sub/trace.log":       "x",
		"pkg/sub/important.log":   "x",
	})
	collect := func(start string) []string {
		var got []string
		err := walkFiles(context.Background(), root, start, func(e dirEntry) error {
			got = append(got, e.rel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(got)
		return got
	}
	want := []string{".gitignore", "a.go", "important.log", "pkg/.gitignore", "pkg/a.go", "pkg/dist/inner.js", "pkg/keep.tmp", "pkg/sub/important.log"}
	if got := collect(root); !reflect.DeepEqual(got, want) {
		t.Errorf("walk from root = %v\nwant %v", got, want)
	}
	// Starting below the root still applies the root's rules.
	wantSub := []string{"pkg/sub/important.log"}
	if got := collect(root + "/pkg/sub"); !reflect.DeepEqual(got, wantSub) {
		t.Errorf("walk from pkg/sub = %v, want %v", got, wantSub)
	}
}
