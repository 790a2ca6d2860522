package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// next waits for the watcher's next batch, failing after a generous limit:
// the batch is what is asserted, not how fast it came.
func next(t *testing.T, w *Watcher) ChangedMsg {
	t.Helper()
	got := make(chan ChangedMsg, 1)
	go func() {
		if m, ok := w.Wait()().(ChangedMsg); ok {
			got <- m
		}
	}()
	select {
	case m := <-got:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no change was reported within 10 s")
		return ChangedMsg{}
	}
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newWatcher(t *testing.T, root string, o Options) *Watcher {
	t.Helper()
	if o.Quiet == 0 {
		o.Quiet = 300 * time.Millisecond
	}
	w, err := New(root, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestReportsCreationsInWatchedDirectories(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	os.Mkdir(filepath.Join(root, "closed"), 0o755)
	w := newWatcher(t, root, Options{})

	write(t, filepath.Join(root, "new.txt"))
	if m := next(t, w); !reflect.DeepEqual(m.Dirs, []string{""}) {
		t.Fatalf("a file made in the root reported %v, want the root", m.Dirs)
	}

	w.Watch([]string{"sub"})
	// The watch set is applied by the watcher's own goroutine; a file made
	// in the root afterwards is a marker that it has been.
	write(t, filepath.Join(root, "marker1"))
	next(t, w)
	write(t, filepath.Join(root, "closed", "x.txt")) // not watched: the tree has it closed
	write(t, filepath.Join(root, "sub", "a.txt"))
	if m := next(t, w); !reflect.DeepEqual(m.Dirs, []string{"sub"}) {
		t.Fatalf("a file made in sub reported %v, want [sub] only", m.Dirs)
	}

	if err := os.Remove(filepath.Join(root, "sub", "a.txt")); err != nil {
		t.Fatal(err)
	}
	if m := next(t, w); !reflect.DeepEqual(m.Dirs, []string{"sub"}) {
		t.Fatalf("a removal in sub reported %v, want [sub]", m.Dirs)
	}

	w.Watch(nil)
	write(t, filepath.Join(root, "marker2"))
	next(t, w)
	write(t, filepath.Join(root, "sub", "b.txt")) // sub is closed again
	write(t, filepath.Join(root, "marker3"))
	if m := next(t, w); !reflect.DeepEqual(m.Dirs, []string{""}) {
		t.Fatalf("after sub was closed, changes reported %v, want the root only", m.Dirs)
	}
}

func TestIgnoredPathsAloneReportNothing(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	w := newWatcher(t, root, Options{Ignored: func(rel string, isDir bool) bool {
		return strings.HasSuffix(rel, ".log")
	}})
	w.Watch([]string{"sub"})
	write(t, filepath.Join(root, "marker"))
	next(t, w)

	write(t, filepath.Join(root, "debug.log"))
	os.MkdirAll(filepath.Join(root, ".git", "objects"), 0o755)
	write(t, filepath.Join(root, "sub", "kept.txt"))
	if m := next(t, w); !reflect.DeepEqual(m.Dirs, []string{"sub"}) {
		t.Fatalf("reported %v, want [sub]: debug.log is ignored and .git is never shown", m.Dirs)
	}
}

func TestManyChangesComeAsFewBatches(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow; go test without -short (or .ci/run) runs it")
	}
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "s"), 0o755)
	w := newWatcher(t, root, Options{Quiet: 3 * time.Second, Longest: 20 * time.Second})
	w.Watch([]string{"s"})
	write(t, filepath.Join(root, "marker"))
	next(t, w)

	for i := range 300 {
		write(t, filepath.Join(root, fmt.Sprintf("f%03d", i)))
	}
	write(t, filepath.Join(root, "s", "sentinel"))
	batches := 0
	for {
		m := next(t, w)
		batches++
		if slices.Contains(m.Dirs, "s") {
			break
		}
	}
	if batches > 2 {
		t.Fatalf("301 creations came as %d batches, want at most 2", batches)
	}
}

func TestWatchNeverBlocks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	w := newWatcher(t, root, Options{})
	done := make(chan struct{})
	go func() {
		for range 1000 {
			w.Watch([]string{"a", "b"})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Watch blocked")
	}
}
