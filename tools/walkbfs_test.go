package tools

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestWalkFilesBreadthFirstSameFiles: level by level, the walk finds the
// same files as WalkFiles (the .gitignore rules of every level honoured),
// every file of a level before any deeper one.
func TestWalkFilesBreadthFirstSameFiles(t *testing.T) {
	root := listProject(t)
	var depth, breadth []string
	if err := WalkFiles(context.Background(), root, 0, func(rel string) error { depth = append(depth, rel); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := WalkFilesBreadthFirst(context.Background(), root, 0, func(rel string) error { breadth = append(breadth, rel); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(breadth); i++ {
		if strings.Count(breadth[i], "/") < strings.Count(breadth[i-1], "/") {
			t.Errorf("%s comes after the deeper %s", breadth[i], breadth[i-1])
		}
	}
	sort.Strings(depth)
	sort.Strings(breadth)
	if !reflect.DeepEqual(depth, breadth) {
		t.Errorf("breadth first found\n %v\ndepth first\n %v", breadth, depth)
	}
}

// TestWalkFilesBreadthFirstKeepsTheTopUnderALimit: a project whose first
// directory is deep and large. Depth first, a limit is spent there and
// the files at the root are never listed; breadth first they all are.
func TestWalkFilesBreadthFirstKeepsTheTopUnderALimit(t *testing.T) {
	root := tempRoot(t)
	files := map[string]string{"main.go": "x", "zz.go": "x", "web/app.ts": "x"}
	for i := range 50 {
		files[fmt.Sprintf("a/b/c/gen%02d.go", i)] = "x"
	}
	writeFiles(t, root, files)
	var got []string
	err := WalkFilesBreadthFirst(context.Background(), root, 10, func(rel string) error { got = append(got, rel); return nil })
	if !errors.Is(err, ErrLimitReached) {
		t.Errorf("error %v, want ErrLimitReached", err)
	}
	if len(got) != 10 {
		t.Errorf("%d files, want 10", len(got))
	}
	for _, want := range []string{"main.go", "zz.go", "web/app.ts"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("%s is not among the first 10: %v", want, got)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WalkFilesBreadthFirst(cancelled, root, 0, func(string) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled walk: %v", err)
	}
}
