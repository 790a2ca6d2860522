package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"pincer/internal/human"
)

// TestRoundTrip changes a recorded tree in one way and checks that Restore
// brings back exactly what was recorded, and that Changes names the change.
func TestRoundTrip(t *testing.T) {
	base := spec{
		"a.txt":          "alpha\n",
		"run.sh*":        "#!/bin/sh\necho hi\n",
		"dir/b.txt":      "bravo\n",
		"dir/sub/c.txt":  "charlie\n",
		"link":           "->a.txt",
		"dirlink":        "->dir",
		"keep/empty.txt": "",
	}
	tests := []struct {
		name    string
		mutate  func(t *testing.T, root string)
		changed []string // paths Changes(from now to the recorded tree) must list
	}{
		{"add file", func(t *testing.T, root string) { build(t, root, spec{"new.txt": "n"}) }, []string{"new.txt"}},
		{"modify file", func(t *testing.T, root string) { build(t, root, spec{"a.txt": "changed"}) }, []string{"a.txt"}},
		{"delete file", func(t *testing.T, root string) { os.Remove(filepath.Join(root, "dir/b.txt")) }, []string{"dir/b.txt"}},
		{"exec bit removed", func(t *testing.T, root string) { os.Chmod(filepath.Join(root, "run.sh"), 0o644) }, []string{"run.sh"}},
		{"exec bit added", func(t *testing.T, root string) { os.Chmod(filepath.Join(root, "a.txt"), 0o755) }, []string{"a.txt"}},
		{"link retargeted", func(t *testing.T, root string) { build(t, root, spec{"link": "->dir/b.txt"}) }, []string{"link"}},
		{"link becomes file", func(t *testing.T, root string) { build(t, root, spec{"link": "plain"}) }, []string{"link"}},
		{"file becomes link", func(t *testing.T, root string) { build(t, root, spec{"a.txt": "->/etc/passwd"}) }, []string{"a.txt"}},
		{"link removed", func(t *testing.T, root string) { os.Remove(filepath.Join(root, "dirlink")) }, []string{"dirlink"}},
		{"nested dirs created", func(t *testing.T, root string) {
			build(t, root, spec{"x/y/z/deep.txt": "d", "dir/sub/more/m.txt": "m"})
		}, []string{"dir/sub/more/m.txt", "x/y/z/deep.txt"}},
		{"nested dir deleted", func(t *testing.T, root string) { os.RemoveAll(filepath.Join(root, "dir")) }, []string{"dir/b.txt", "dir/sub/c.txt"}},
		{"dir becomes file", func(t *testing.T, root string) {
			os.RemoveAll(filepath.Join(root, "dir/sub"))
			build(t, root, spec{"dir/sub": "now a file"})
		}, []string{"dir/sub", "dir/sub/c.txt"}},
		{"file becomes dir", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "a.txt"))
			build(t, root, spec{"a.txt/inner": "i"})
		}, []string{"a.txt", "a.txt/inner"}},
		{"everything at once", func(t *testing.T, root string) {
			os.RemoveAll(filepath.Join(root, "keep"))
			os.Chmod(filepath.Join(root, "run.sh"), 0o600)
			build(t, root, spec{"a.txt": "x", "n1": "1", "q/n2*": "2", "link": "->nowhere"})
		}, []string{"a.txt", "keep/empty.txt", "link", "n1", "q/n2", "run.sh"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, root := newStore(t, base, Options{})
			want := state(t, root)
			first := snap(t, s)
			tc.mutate(t, root)
			mid := snap(t, s)
			changes, err := s.Changes(context.Background(), mid.ID, first.ID)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, c := range changes {
				paths = append(paths, c.Path)
			}
			if !slices.Equal(paths, tc.changed) {
				t.Errorf("Changes = %v, want %v", paths, tc.changed)
			}
			res, err := s.Restore(context.Background(), first.ID, RestoreOptions{Expect: mid.ID})
			if err != nil {
				t.Fatal(err)
			}
			if d := diffSpec(want, state(t, root)); d != "" {
				t.Errorf("after Restore:\n%s", d)
			}
			if len(res.Changes) != len(changes) {
				t.Errorf("Restore changed %d paths, Changes listed %d", len(res.Changes), len(changes))
			}
			// The tree before restoring is a snapshot of its own: going
			// back to it is the redo.
			if res.Before.ID == "" {
				t.Fatal("Restore kept no Before snapshot")
			}
			tc.mutate(t, root)
			mutated := state(t, root)
			if _, err := s.Restore(context.Background(), first.ID, RestoreOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Restore(context.Background(), res.Before.ID, RestoreOptions{}); err != nil {
				t.Fatal(err)
			}
			if d := diffSpec(mutated, state(t, root)); d != "" {
				t.Errorf("after redo:\n%s", d)
			}
		})
	}
}

// TestChangesDetail checks the kinds, modes and hashes a Change carries and
// that Blob returns the recorded content, cut at the limit.
func TestChangesDetail(t *testing.T) {
	s, root := newStore(t, spec{"m.txt": "old", "gone.txt": "bye", "x.sh": "echo"}, Options{})
	a := snap(t, s)
	build(t, root, spec{"m.txt": "new content", "add.txt": "hi", "x.sh*": "echo"})
	os.Remove(filepath.Join(root, "gone.txt"))
	b := snap(t, s)
	changes, err := s.Changes(context.Background(), a.ID, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Path: "add.txt", Kind: Added, NewMode: 0o644, NewHash: blobHash([]byte("hi")).String()},
		{Path: "gone.txt", Kind: Removed, OldMode: 0o644, OldHash: blobHash([]byte("bye")).String()},
		{Path: "m.txt", Kind: Modified, OldMode: 0o644, NewMode: 0o644, OldHash: blobHash([]byte("old")).String(), NewHash: blobHash([]byte("new content")).String()},
		{Path: "x.sh", Kind: Modified, OldMode: 0o644, NewMode: 0o755, OldHash: blobHash([]byte("echo")).String(), NewHash: blobHash([]byte("echo")).String()},
	}
	if !slices.Equal(changes, want) {
		t.Fatalf("Changes =\n%+v\nwant\n%+v", changes, want)
	}
	data, cut, err := s.Blob(changes[2].NewHash, 3)
	if err != nil || string(data) != "new" || !cut {
		t.Errorf("Blob(limit 3) = %q, %v, %v; want \"new\", true", data, cut, err)
	}
	data, cut, err = s.Blob(changes[2].NewHash, 100)
	if err != nil || string(data) != "new content" || cut {
		t.Errorf("Blob(limit 100) = %q, %v, %v; want whole, false", data, cut, err)
	}
	if _, _, err := s.Blob("nothex", 10); err == nil {
		t.Error("Blob accepted a malformed hash")
	}
	if _, err := s.Changes(context.Background(), a.ID, strings.Repeat("0", 40)); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Changes to an unknown id: %v", err)
	}
}

// TestIgnoredUntouched: ignored files (root and nested .gitignore and
// .git/info/exclude) are neither recorded nor touched by Restore.
func TestIgnoredUntouched(t *testing.T) {
	s, root := newStore(t, spec{
		".gitignore":        "*.log\nbuild/\n",
		"src/.gitignore":    "gen.go\n",
		".git/info/exclude": "secret.env\n",
		"main.go":           "package main",
		"app.log":           "log 1",
		"build/out.bin":     "bin 1",
		"src/gen.go":        "generated 1",
		"src/keep.go":       "keep",
		"secret.env":        "KEY=1",
	}, Options{})
	first := snap(t, s)
	if first.Files != 4 { // .gitignore, src/.gitignore, main.go, src/keep.go
		t.Errorf("Files = %d, want 4", first.Files)
	}
	build(t, root, spec{"app.log": "log 2", "build/out.bin": "bin 2", "build/new.bin": "new", "src/gen.go": "generated 2", "secret.env": "KEY=2", "main.go": "changed", "other.log": "o"})
	want := state(t, root)
	want["main.go"] = "package main"
	mid := snap(t, s)
	changes, err := s.Changes(context.Background(), first.ID, mid.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "main.go" {
		t.Errorf("Changes = %+v, want only main.go", changes)
	}
	if _, err := s.Restore(context.Background(), first.ID, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := diffSpec(want, state(t, root)); d != "" {
		t.Errorf("after Restore:\n%s", d)
	}
}

// TestIgnoredInTargetKept: a file the target's .gitignore ignored was not
// recorded there, so Restore must not delete it even though the tree now
// records it (the ignore rule was dropped since).
func TestIgnoredInTargetKept(t *testing.T) {
	s, root := newStore(t, spec{".gitignore": "*.log\n", "x.log": "precious"}, Options{})
	first := snap(t, s)
	build(t, root, spec{".gitignore": "# nothing\n"})
	res, err := s.Restore(context.Background(), first.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := state(t, root)["x.log"]; got != "precious" {
		t.Errorf("x.log = %q after Restore, want it kept", got)
	}
	if !slices.Contains(res.Kept, "x.log") {
		t.Errorf("Kept = %v, want x.log", res.Kept)
	}
}

// TestOversize: files over the cap are skipped with a reason, and Restore
// neither deletes nor overwrites them.
func TestOversize(t *testing.T) {
	big := strings.Repeat("x", 200)
	s, root := newStore(t, spec{"big.bin": big, "small.txt": "s"}, Options{MaxFileSize: 100})
	first := snap(t, s)
	want := []Skipped{{Path: "big.bin", Size: 200, Reason: "larger than 100 bytes"}}
	if !slices.Equal(first.Skipped, want) {
		t.Errorf("Skipped = %+v, want %+v", first.Skipped, want)
	}
	got, err := s.Get(first.ID)
	if err != nil || !slices.Equal(got.Skipped, want) || got.Files != 1 {
		t.Errorf("Get = %+v, %v; want the same Skipped and 1 file", got, err)
	}
	bigger := strings.Repeat("y", 300)
	build(t, root, spec{"big.bin": bigger, "small.txt": strings.Repeat("z", 150)})
	res, err := s.Restore(context.Background(), first.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := state(t, root)
	if st["big.bin"] != bigger {
		t.Error("Restore touched a file too large to record")
	}
	// small.txt was recorded small but is too large now: it is not read,
	// so it is left alone, not overwritten blindly.
	if st["small.txt"] != strings.Repeat("z", 150) {
		t.Error("Restore overwrote a file that is now too large to record")
	}
	if !slices.Equal(res.Kept, []string{"big.bin", "small.txt"}) {
		t.Errorf("Kept = %v, want [big.bin small.txt]", res.Kept)
	}
	if len(res.Changes) != 0 {
		t.Errorf("Changes = %+v, want none", res.Changes)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "d"), root, Options{}); err != nil {
		t.Fatal(err)
	}
	s5, err := Open(filepath.Join(t.TempDir(), "d"), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s5.Close()
	if s5.maxSize != 5<<20 {
		t.Errorf("default cap = %d, want 5 MiB", s5.maxSize)
	}
	if got := "larger than " + human.Bytes(s5.maxSize); got != "larger than 5 MiB" {
		t.Errorf("reason = %q", got)
	}
}

// TestSpecialFilesSkipped: a FIFO is reported, not recorded, and never
// opened (which would block).
func TestSpecialFilesSkipped(t *testing.T) {
	s, root := newStore(t, spec{"a": "a"}, Options{})
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	sn := snap(t, s)
	if sn.Files != 1 || len(sn.Skipped) != 1 || sn.Skipped[0].Path != "pipe" || sn.Skipped[0].Reason != reasonSpecial {
		t.Errorf("Snapshot = %+v, want a and the pipe skipped", sn)
	}
}

// TestOutside: Restore refuses to overwrite files changed after Expect,
// names them, changes nothing; Force proceeds.
func TestOutside(t *testing.T) {
	s, root := newStore(t, spec{"a.txt": "a0", "b.txt": "b0", "c.txt": "c0"}, Options{})
	start := snap(t, s)
	build(t, root, spec{"a.txt": "a1 by the turn"})
	end := snap(t, s)
	build(t, root, spec{"b.txt": "b2 by the user", "new.txt": "by the user"})
	before := state(t, root)

	res, err := s.Restore(context.Background(), start.ID, RestoreOptions{Expect: end.ID})
	var oe *OutsideError
	if !errors.As(err, &oe) {
		t.Fatalf("Restore error = %v, want *OutsideError", err)
	}
	if !slices.Equal(oe.Paths, []string{"b.txt", "new.txt"}) {
		t.Errorf("OutsideError.Paths = %v, want [b.txt new.txt]", oe.Paths)
	}
	if len(res.Changes) != 3 || res.Before.ID != "" {
		t.Errorf("refused result = %+v, want the 3-change plan and no Before id", res)
	}
	if d := diffSpec(before, state(t, root)); d != "" {
		t.Errorf("a refused Restore changed the tree:\n%s", d)
	}
	if _, err := s.Restore(context.Background(), start.ID, RestoreOptions{Expect: end.ID, Force: true}); err != nil {
		t.Fatal(err)
	}
	if d := diffSpec(spec{"a.txt": "a0", "b.txt": "b0", "c.txt": "c0"}, state(t, root)); d != "" {
		t.Errorf("after a forced Restore:\n%s", d)
	}
}

// TestOutsideNotTouched: a file changed outside pincer that the restore
// does not touch is no reason to refuse.
func TestOutsideNotTouched(t *testing.T) {
	s, root := newStore(t, spec{"a.txt": "a0", "b.txt": "b0"}, Options{})
	start := snap(t, s)
	build(t, root, spec{"a.txt": "a1"})
	end := snap(t, s)
	build(t, root, spec{"b.txt": "b0"}) // rewritten with the same content
	if _, err := s.Restore(context.Background(), start.ID, RestoreOptions{Expect: end.ID}); err != nil {
		t.Fatalf("Restore = %v, want no refusal", err)
	}
}

// TestOutsideErrorText: one sentence, a few names, the fix.
func TestOutsideErrorText(t *testing.T) {
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"a"}, "1 file was changed outside pincer since the last checkpoint (a); confirm to overwrite them, or restore with --force"},
		{[]string{"a", "b", "c", "d", "e"}, "5 files were changed outside pincer since the last checkpoint (a, b, c and 2 more); confirm to overwrite them, or restore with --force"},
	}
	for _, tc := range tests {
		if got := (&OutsideError{Paths: tc.paths}).Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// TestDryRun changes nothing and records nothing but returns the plan.
func TestDryRun(t *testing.T) {
	s, root := newStore(t, spec{"a.txt": "a0", "d/b.txt": "b0"}, Options{})
	start := snap(t, s)
	build(t, root, spec{"a.txt": "a1", "n/new.txt": "n"})
	os.Remove(filepath.Join(root, "d/b.txt"))
	before := state(t, root)
	listed, _ := s.List()
	res, err := s.Restore(context.Background(), start.ID, RestoreOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range res.Changes {
		paths = append(paths, c.Kind.String()+" "+c.Path)
	}
	if want := []string{"modified a.txt", "added d/b.txt", "removed n/new.txt"}; !slices.Equal(paths, want) {
		t.Errorf("plan = %v, want %v", paths, want)
	}
	if d := diffSpec(before, state(t, root)); d != "" {
		t.Errorf("DryRun changed the tree:\n%s", d)
	}
	after, _ := s.List()
	if len(after) != len(listed) || res.Before.ID != "" {
		t.Errorf("DryRun recorded a snapshot: %d → %d, Before.ID %q", len(listed), len(after), res.Before.ID)
	}
}

// TestPrune removes old snapshots beyond the count but keeps keep, and
// deletes the blobs only they used while keeping shared ones.
func TestPrune(t *testing.T) {
	s, root := newStore(t, spec{"shared.txt": "shared"}, Options{})
	var ids []string
	for i := range 5 {
		build(t, root, spec{"v.txt": "version " + string(rune('0'+i))})
		ids = append(ids, snap(t, s).ID)
	}
	blob := func(i int) string { return objectPath(s.dir, blobHash([]byte("version "+string(rune('0'+i))))) }
	shared := objectPath(s.dir, blobHash([]byte("shared")))
	n, err := s.Prune([]string{ids[0]}, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("Prune removed %d, want 2", n)
	}
	left, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sn := range left {
		got = append(got, sn.ID)
	}
	if want := []string{ids[0], ids[3], ids[4]}; !slices.Equal(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
	for i, wantExist := range []bool{true, false, false, true, true} {
		_, err := os.Stat(blob(i))
		if exists := err == nil; exists != wantExist {
			t.Errorf("blob of version %d exists = %v, want %v", i, exists, wantExist)
		}
	}
	if _, err := os.Stat(shared); err != nil {
		t.Error("Prune deleted a blob live snapshots use")
	}
	if _, err := s.Restore(context.Background(), ids[1], RestoreOptions{}); err == nil {
		t.Error("Restore of a pruned snapshot succeeded")
	}
	// The kept old snapshot still restores whole.
	if _, err := s.Restore(context.Background(), ids[0], RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := state(t, root)["v.txt"]; got != "version 0" {
		t.Errorf("v.txt = %q after restoring the kept snapshot", got)
	}

	// By age: everything older than a moment goes, except keep.
	time.Sleep(10 * time.Millisecond)
	if _, err := s.Prune([]string{ids[4]}, time.Millisecond, 0); err != nil {
		t.Fatal(err)
	}
	left, _ = s.List()
	if len(left) != 1 || left[0].ID != ids[4] {
		t.Errorf("after pruning by age: %+v, want only %s", left, ids[4])
	}
	// A snapshot after pruning must not lean on the stat cache for blobs
	// that were deleted.
	sn := snap(t, s)
	res, err := s.Restore(context.Background(), ids[4], RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(context.Background(), res.Before.ID, RestoreOptions{}); err != nil {
		t.Fatalf("restoring a snapshot taken after Prune: %v", err)
	}
	if got := state(t, root)["v.txt"]; got != "version 0" {
		t.Errorf("v.txt = %q, want version 0 (snapshot %s)", got, sn.ID)
	}
}

// TestForget drops snapshots and their objects at once.
func TestForget(t *testing.T) {
	s, root := newStore(t, spec{"a": "a"}, Options{})
	keep := snap(t, s)
	build(t, root, spec{"b": "only in the second"})
	drop := snap(t, s)
	if err := s.Forget([]string{drop.ID, drop.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(objectPath(s.dir, blobHash([]byte("only in the second")))); err == nil {
		t.Error("Forget left the forgotten snapshot's blob")
	}
	if _, err := s.Get(drop.ID); err == nil {
		t.Error("Get found a forgotten snapshot")
	}
	if _, err := s.Get(keep.ID); err != nil {
		t.Errorf("Get of the other snapshot: %v", err)
	}
	if err := s.Forget([]string{"../../etc"}); err == nil {
		t.Error("Forget accepted a malformed id")
	}
}

// TestConcurrentSnapshots: several goroutines and two Stores on one dir.
func TestConcurrentSnapshots(t *testing.T) {
	s, root := newStore(t, spec{"a": "a", "d/b": "b"}, Options{})
	other, err := Open(s.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var readErr error
	reader := make(chan struct{})
	go func() {
		// Readers do not take the lock: listing while snapshots are
		// written must never see a half-written ref.
		defer close(reader)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.List(); err != nil {
				readErr = err
				return
			}
		}
	}()
	ids := make([]string, 8)
	errs := make([]error, 8)
	for i := range ids {
		st := s
		if i%2 == 1 {
			st = other
		}
		wg.Go(func() {
			sn, err := st.Snapshot(context.Background(), "concurrent")
			ids[i], errs[i] = sn.ID, err
		})
	}
	wg.Wait()
	close(stop)
	<-reader
	if readErr != nil {
		t.Errorf("List during snapshots: %v", readErr)
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
	}
	for _, id := range ids[1:] {
		changes, err := s.Changes(context.Background(), ids[0], id)
		if err != nil || len(changes) != 0 {
			t.Errorf("Changes(%s, %s) = %v, %v; want none", ids[0], id, changes, err)
		}
	}
	if list, _ := s.List(); len(list) != 8 {
		t.Errorf("List has %d snapshots, want 8", len(list))
	}
}

// TestLockHeldElsewhere: a lock another process holds is waited for
// briefly, then reported with the fix.
func TestLockHeldElsewhere(t *testing.T) {
	s, _ := newStore(t, spec{"a": "a"}, Options{})
	f, err := os.OpenFile(filepath.Join(s.dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := tryLock(f); err != nil {
		t.Fatal(err)
	}
	s.lockWait = 50 * time.Millisecond
	_, err = s.Snapshot(context.Background(), "x")
	if err == nil || !strings.Contains(err.Error(), "in use by another pincer process") {
		t.Fatalf("Snapshot with the lock held = %v", err)
	}
	unlock(f)
	snap(t, s)
}

// TestCancel: a cancelled context stops a snapshot and records nothing.
func TestCancel(t *testing.T) {
	sp := spec{}
	for i := range 600 {
		sp[filepath.Join("d", string(rune('a'+i%20)), "f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+".txt")] = "x"
	}
	s, _ := newStore(t, sp, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Snapshot(ctx, "cancelled")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Snapshot = %v, want context.Canceled", err)
	}
	if list, _ := s.List(); len(list) != 0 {
		t.Errorf("a cancelled Snapshot left %d snapshots", len(list))
	}
	first := snap(t, s)
	_, err = s.Restore(ctx, first.ID, RestoreOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Restore = %v, want context.Canceled", err)
	}
}

// TestCancelWhileWaiting: a Snapshot waiting for another one in the same
// process gives up when its context ends.
func TestCancelWhileWaiting(t *testing.T) {
	s, _ := newStore(t, spec{"a": "a"}, Options{})
	release, err := s.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.Snapshot(ctx, "waiting"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Snapshot = %v, want context.DeadlineExceeded", err)
	}
}

// TestStatCache: the second snapshot reads only the files whose stat
// changed; a change that keeps size and mtime is still seen (ctime, inode),
// and a file changed within the cache's second is hashed again (racy).
func TestStatCache(t *testing.T) {
	sp := spec{}
	for i := range 50 {
		sp["f"+string(rune('a'+i%26))+string(rune('a'+i/26))] = "content"
	}
	s, root := newStore(t, sp, Options{})
	age(t, root)
	release, _ := s.lock(context.Background())
	r1, err := s.record(context.Background(), "1", true)
	release()
	if err != nil {
		t.Fatal(err)
	}
	if r1.hashed != 50 {
		t.Errorf("first snapshot hashed %d files, want 50", r1.hashed)
	}
	// Same size, mtime put back: only ctime tells.
	p := filepath.Join(root, "fab")
	info, _ := os.Stat(p)
	os.WriteFile(p, []byte("CONTENT"), 0o644)
	os.Chtimes(p, info.ModTime(), info.ModTime())

	release, _ = s.lock(context.Background())
	r2, err := s.record(context.Background(), "2", true)
	release()
	if err != nil {
		t.Fatal(err)
	}
	if r2.hashed != 1 {
		t.Errorf("second snapshot hashed %d files, want 1", r2.hashed)
	}
	changes, _ := s.Changes(context.Background(), r1.snap.ID, r2.snap.ID)
	if len(changes) != 1 || changes[0].Path != "fab" {
		t.Errorf("Changes = %+v, want fab", changes)
	}

}

// TestFresh: a cache entry is trusted only when every stat value matches
// and the file's mtime is before the second the cache's walk started in
// (a later change within the clock's granularity could hide otherwise).
func TestFresh(t *testing.T) {
	scan := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	settled := scan.Add(-2 * time.Second).UnixNano()
	e := statEntry{size: 10, mtime: settled, ctime: settled, ino: 7, mode: 0o644, hash: blobHash([]byte("x"))}
	c := &statCache{scan: scan, entries: map[string]statEntry{"f": e}}
	tests := []struct {
		name string
		edit func(*statEntry)
		want bool
	}{
		{"unchanged", func(*statEntry) {}, true},
		{"size", func(e *statEntry) { e.size++ }, false},
		{"mtime", func(e *statEntry) { e.mtime++ }, false},
		{"ctime", func(e *statEntry) { e.ctime++ }, false},
		{"inode", func(e *statEntry) { e.ino++ }, false},
		{"mode", func(e *statEntry) { e.mode = 0o755 }, false},
		{"mtime just before the scan's second", func(e *statEntry) {
			e.mtime = scan.Truncate(time.Second).UnixNano() - 1
			c.entries["f"] = *e
		}, true},
		{"mtime in the scan's second (racy)", func(e *statEntry) {
			e.mtime = scan.Truncate(time.Second).UnixNano()
			c.entries["f"] = *e
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.entries["f"] = e
			now := e
			tc.edit(&now)
			h, ok := c.fresh("f", now.size, now.mtime, now.ctime, now.ino, now.mode)
			if ok != tc.want || (ok && h != e.hash) {
				t.Errorf("fresh = %v, %v; want %v", h, ok, tc.want)
			}
		})
	}
	if _, ok := c.fresh("other", 10, settled, settled, 7, 0o644); ok {
		t.Error("fresh trusted a path the cache does not have")
	}
}

// TestStatCacheRoundTrip: what save writes, loadCache reads back.
func TestStatCacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := &statCache{scan: time.Unix(0, 1234567890123), entries: map[string]statEntry{
		"a/b.txt": {size: 1, mtime: -5, ctime: 9, ino: 1 << 60, mode: 0o755, hash: blobHash([]byte("a"))},
		"ünï":     {size: 1 << 40, hash: blobHash([]byte("b"))},
	}}
	if err := c.save(dir); err != nil {
		t.Fatal(err)
	}
	got := loadCache(dir, nil)
	if !got.scan.Equal(c.scan) || !maps.Equal(got.entries, c.entries) {
		t.Errorf("loaded %+v, want %+v", got, c)
	}
	os.WriteFile(filepath.Join(dir, cacheName), []byte("pincer-stat-cache 1\n\x02\xff"), 0o600)
	if got := loadCache(dir, nil); len(got.entries) != 0 {
		t.Errorf("a truncated cache loaded %d entries", len(got.entries))
	}
}

// TestGitDirUntouched hashes the project's whole .git before and after
// Snapshot, Restore and Prune: not one byte, mode or time may change, and
// none of it is recorded.
func TestGitDirUntouched(t *testing.T) {
	s, root := newStore(t, spec{
		".git/HEAD":              "ref: refs/heads/main\n",
		".git/config":            "[core]\n\tbare = false\n",
		".git/index":             "DIRC binary",
		".git/objects/ab/cdef":   "object",
		".git/refs/heads/main":   "0123\n",
		".git/refs/stash":        "4567\n",
		".git/hooks/pre-commit*": "#!/bin/sh\nexit 1\n",
		".git/info/exclude":      "*.tmp\n",
		"sub/.git":               "gitdir: ../.git/modules/sub\n",
		"sub/file.go":            "package sub",
		"main.go":                "package main",
	}, Options{})
	before := hashDir(t, filepath.Join(root, ".git"))
	subGit := hashDir(t, filepath.Join(root, "sub/.git"))
	first := snap(t, s)
	build(t, root, spec{"main.go": "changed", "new.go": "new"})
	res, err := s.Restore(context.Background(), first.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Changes {
		if strings.Contains(c.Path, ".git") {
			t.Errorf("Restore touched %s", c.Path)
		}
	}
	if _, err := s.Prune(nil, 0, 1); err != nil {
		t.Fatal(err)
	}
	if first.Files != 2 {
		t.Errorf("Files = %d, want 2 (main.go, sub/file.go)", first.Files)
	}
	if after := hashDir(t, filepath.Join(root, ".git")); after != before {
		t.Error("the project's .git changed")
	}
	if after := hashDir(t, filepath.Join(root, "sub/.git")); after != subGit {
		t.Error("a nested .git file changed")
	}
}

// TestLinkSwap: a recorded directory replaced by a link to a directory
// outside the project must not lead Restore outside: the outside stays as
// it was and the directory comes back as a real one.
func TestLinkSwap(t *testing.T) {
	s, root := newStore(t, spec{"a/file.txt": "inside", "b.txt": "b"}, Options{})
	first := snap(t, s)
	outside := t.TempDir()
	build(t, outside, spec{"file.txt": "outside, must stay", "other": "o"})
	outsideHash := hashDir(t, outside)
	if err := os.RemoveAll(filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(context.Background(), first.ID, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := hashDir(t, outside); got != outsideHash {
		t.Error("Restore changed a directory outside the project")
	}
	info, err := os.Lstat(filepath.Join(root, "a"))
	if err != nil || !info.IsDir() {
		t.Fatalf("a is %v, %v; want a real directory", info, err)
	}
	if d := diffSpec(spec{"a/": "", "a/file.txt": "inside", "b.txt": "b"}, state(t, root)); d != "" {
		t.Errorf("after Restore:\n%s", d)
	}
}

// TestLinkSwapIgnored: when the swapped link is itself ignored (so not in
// the snapshot of now), Restore still cannot write through it: the path is
// kept and the outside untouched.
func TestLinkSwapIgnored(t *testing.T) {
	s, root := newStore(t, spec{"a/file.txt": "inside"}, Options{})
	first := snap(t, s)
	outside := t.TempDir()
	build(t, outside, spec{"x": "o"})
	outsideHash := hashDir(t, outside)
	os.RemoveAll(filepath.Join(root, "a"))
	os.Symlink(outside, filepath.Join(root, "a"))
	build(t, root, spec{".git/info/exclude": "a\n"})
	res, err := s.Restore(context.Background(), first.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := hashDir(t, outside); got != outsideHash {
		t.Error("Restore changed a directory outside the project")
	}
	if !slices.Contains(res.Kept, "a/file.txt") {
		t.Errorf("Kept = %v, want a/file.txt", res.Kept)
	}
}

// TestOpen covers creating, reopening and refusing stores.
func TestOpen(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(t.TempDir(), "cp")
	s, err := Open(dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(dir)
	if info.Mode().Perm() != 0o700 {
		t.Errorf("store mode %v, want 0700", info.Mode().Perm())
	}
	s.Close()
	if s, err = Open(dir, root, Options{}); err != nil {
		t.Fatalf("reopening: %v", err)
	}
	s.Close()

	tests := []struct {
		name  string
		setup func(t *testing.T) (dir, root string)
		want  string
	}{
		{"garbage stamp", func(t *testing.T) (string, string) {
			d := filepath.Join(t.TempDir(), "cp")
			Open(d, root, Options{})
			os.WriteFile(filepath.Join(d, stampName), []byte("{not json"), 0o600)
			return d, root
		}, "is damaged"},
		{"objects gone", func(t *testing.T) (string, string) {
			d := withSnapshot(t, root)
			os.RemoveAll(filepath.Join(d, "objects"))
			return d, root
		}, "is damaged"},
		{"broken config", func(t *testing.T) (string, string) {
			d := withSnapshot(t, root)
			os.WriteFile(filepath.Join(d, "config"), []byte("[core\n\x00"), 0o600)
			return d, root
		}, "is damaged"},
		{"HEAD gone", func(t *testing.T) (string, string) {
			d := withSnapshot(t, root)
			os.Remove(filepath.Join(d, "HEAD"))
			return d, root
		}, "is damaged"},
		{"someone else's directory", func(t *testing.T) (string, string) {
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "notes.txt"), []byte("mine"), 0o600)
			return d, root
		}, "is not a pincer checkpoint store"},
		{"another project's store", func(t *testing.T) (string, string) {
			return dir, t.TempDir()
		}, "belongs to project"},
		{"root is a file", func(t *testing.T) (string, string) {
			f := filepath.Join(t.TempDir(), "f")
			os.WriteFile(f, nil, 0o600)
			return filepath.Join(t.TempDir(), "cp"), f
		}, "is not a directory"},
	}
	// A creation cut short after the stamp is finished by the next Open.
	cut := filepath.Join(t.TempDir(), "cp")
	os.MkdirAll(cut, 0o700)
	os.WriteFile(filepath.Join(cut, stampName), []byte(`{"version":1,"root":"`+canonicalRoot(root)+`"}`), 0o600)
	if s, err := Open(cut, root, Options{}); err != nil {
		t.Errorf("Open after a cut-short creation: %v", err)
	} else {
		snap(t, s)
		s.Close()
	}

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, r := tc.setup(t)
			s, err := Open(d, r, Options{})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open = %v, want %q", err, tc.want)
			}
		})
	}
}

// withSnapshot makes a store for root holding one snapshot and returns
// its directory.
func withSnapshot(t *testing.T, root string) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "cp")
	s, err := Open(d, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap(t, s)
	s.Close()
	return d
}

// TestCorruptObject: a damaged object is reported when it is needed, as
// a clear error rather than a panic or a half restore.
func TestCorruptObject(t *testing.T) {
	s, root := newStore(t, spec{"a.txt": "a"}, Options{})
	first := snap(t, s)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("b"), 0o644)
	c, _ := s.resolve(s.st, first.ID)
	os.Chmod(objectPath(s.dir, c.TreeHash), 0o600)
	os.WriteFile(objectPath(s.dir, c.TreeHash), []byte("garbage"), 0o600)
	s.st.Close()
	s2, err := Open(s.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.Restore(context.Background(), first.ID, RestoreOptions{}); err == nil {
		t.Fatal("Restore from a damaged tree succeeded")
	}
	if got := state(t, root)["a.txt"]; got != "b" {
		t.Errorf("a failed Restore changed a.txt to %q", got)
	}
}

// TestKey: one directory, however spelled, has one key.
func TestKey(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(root, link)
	k := Key(root)
	if len(k) != 20 {
		t.Errorf("Key = %q, want 20 hex characters", k)
	}
	for _, other := range []string{root + "/.", root + "/", link, filepath.Join(root, "x", "..")} {
		if Key(other) != k {
			t.Errorf("Key(%s) = %s, want %s", other, Key(other), k)
		}
	}
	if Key(t.TempDir()) == k {
		t.Error("two directories share a key")
	}
}

// TestStoreInsideProject: a store kept inside the project is not recorded.
func TestStoreInsideProject(t *testing.T) {
	root := t.TempDir()
	build(t, root, spec{"a": "a"})
	s, err := Open(filepath.Join(root, ".pincer", "cp"), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sn := snap(t, s)
	snap(t, s)
	if sn.Files != 1 {
		t.Errorf("Files = %d, want 1 (the store itself recorded?)", sn.Files)
	}
}

// paths lists what snapshot id recorded.
func paths(t *testing.T, s *Store, id string) []string {
	t.Helper()
	c, err := s.resolve(s.st, id)
	if err != nil {
		t.Fatal(err)
	}
	all, err := diffTrees(context.Background(), s.st, plumbing.ZeroHash, c.TreeHash)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ch := range all {
		out = append(out, ch.Path)
	}
	return out
}

// TestWideTree: directories are walked concurrently; what is recorded is
// still exactly the files not ignored, in order, each with its content.
func TestWideTree(t *testing.T) {
	sp := spec{".gitignore": "*.o\n"}
	var want []string
	for d := range 40 {
		for f := range 6 {
			p := fmt.Sprintf("d%02d/s%d/f%d.txt", d, d%3, f)
			sp[p] = p
			want = append(want, p)
		}
		sp[fmt.Sprintf("d%02d/x.o", d)] = "object"
		if d%5 == 0 {
			sp[fmt.Sprintf("d%02d/.gitignore", d)] = "f5.txt\n"
			want = append(want, fmt.Sprintf("d%02d/.gitignore", d))
			want = slices.DeleteFunc(want, func(p string) bool {
				return strings.HasPrefix(p, fmt.Sprintf("d%02d/", d)) && strings.HasSuffix(p, "f5.txt")
			})
		}
	}
	want = append(want, ".gitignore")
	slices.Sort(want)
	s, root := newStore(t, sp, Options{})
	first := snap(t, s)
	if got := paths(t, s, first.ID); !slices.Equal(got, want) {
		t.Errorf("recorded %d paths, want %d:\n%v", len(got), len(want), got)
	}
	if first.Files != len(want) {
		t.Errorf("Files = %d, want %d", first.Files, len(want))
	}
	os.RemoveAll(filepath.Join(root, "d07"))
	if _, err := s.Restore(context.Background(), first.ID, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := state(t, root)["d07/s1/f3.txt"]; got != "d07/s1/f3.txt" {
		t.Errorf("d07/s1/f3.txt = %q after Restore", got)
	}
}

// TestKindJSON: kinds read as words in JSON.
func TestKindJSON(t *testing.T) {
	out, err := json.Marshal([]Kind{Added, Removed, Modified})
	if err != nil || string(out) != `["added","removed","modified"]` {
		t.Errorf("json = %s, %v", out, err)
	}
}

// TestExecPerm: the executable bit follows the read bits; the rest of the
// user's permissions stay.
func TestExecPerm(t *testing.T) {
	tests := []struct {
		perm fs.FileMode
		exec bool
		want fs.FileMode
	}{
		{0o644, true, 0o755},
		{0o600, true, 0o700},
		{0o640, true, 0o750},
		{0o755, false, 0o644},
		{0o700, false, 0o600},
		{0o751, false, 0o640},
	}
	for _, tc := range tests {
		if got := execPerm(tc.perm, tc.exec); got != tc.want {
			t.Errorf("execPerm(%o, %v) = %o, want %o", tc.perm, tc.exec, got, tc.want)
		}
	}
}

// TestPrivateModeKept: restoring a private file's content keeps it private.
func TestPrivateModeKept(t *testing.T) {
	s, root := newStore(t, spec{"secret": "v1"}, Options{})
	p := filepath.Join(root, "secret")
	os.Chmod(p, 0o600)
	first := snap(t, s)
	os.WriteFile(p, []byte("v2"), 0o600)
	if _, err := s.Restore(context.Background(), first.ID, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("secret is %v, %v after Restore; want 0600", info.Mode(), err)
	}
}

// TestUnreadable: a file pincer cannot read is skipped with the reason and
// kept by Restore.
func TestUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	s, root := newStore(t, spec{"a": "a", "locked": "l"}, Options{})
	p := filepath.Join(root, "locked")
	os.Chmod(p, 0)
	defer os.Chmod(p, 0o644)
	first := snap(t, s)
	if len(first.Skipped) != 1 || first.Skipped[0].Path != "locked" || !strings.HasPrefix(first.Skipped[0].Reason, "unreadable: ") {
		t.Fatalf("Skipped = %+v, want locked as unreadable", first.Skipped)
	}
	res, err := s.Restore(context.Background(), first.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Kept, []string{"locked"}) {
		t.Errorf("Kept = %v, want [locked]", res.Kept)
	}
	if _, err := os.Lstat(p); err != nil {
		t.Errorf("Restore removed the unreadable file: %v", err)
	}
}

// TestTreeOrder: tree entries are in git's order, where a directory sorts
// as its name plus "/", so the hashes match what git would compute.
func TestTreeOrder(t *testing.T) {
	s, _ := newStore(t, spec{"a/x": "x", "a.txt": "t", "a-b": "b", "B": "upper"}, Options{})
	sn := snap(t, s)
	c, err := s.resolve(s.st, sn.ID)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := object.GetTree(s.st, c.TreeHash)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range tree.Entries {
		names = append(names, e.Name)
	}
	if want := []string{"B", "a-b", "a.txt", "a"}; !slices.Equal(names, want) {
		t.Errorf("tree order %v, want %v", names, want)
	}
	one, err := s.putObject(&object.Tree{Entries: []object.TreeEntry{{Name: "x", Mode: filemode.Regular, Hash: blobHash([]byte("x"))}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := blobHash(nil).String(); got != "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" {
		t.Errorf("blob hash of nothing = %s, want git's e69de29b…", got)
	}
	if got, want := blobHash([]byte("x\n")), plumbing.ComputeHash(plumbing.BlobObject, []byte("x\n")); got != want {
		t.Errorf("blob hash of \"x\\n\" = %s, go-git says %s", got, want)
	}
	if got := tree.Entries[3].Hash; got != one {
		t.Errorf("tree a = %s, want %s", got, one)
	}
}

// TestPacks: a snapshot of many new files writes one pack; Prune drops a
// pack no snapshot uses and rewrites one that is partly used, keeping
// exactly the live blobs; another Store on the same directory sees packs
// the first one wrote.
func TestPacks(t *testing.T) {
	sp := spec{}
	content := func(i int, v string) string { return fmt.Sprintf("file %d %s", i, v) }
	for i := range 100 {
		sp[fmt.Sprintf("d%d/f%03d", i%7, i)] = content(i, "v1")
	}
	s, root := newStore(t, sp, Options{})
	v1 := snap(t, s)
	if got := packs(s.dir); len(got) != 1 {
		t.Fatalf("packs after a 100-file snapshot: %v, want 1", got)
	}
	if _, err := os.Stat(objectPath(s.dir, blobHash([]byte(content(5, "v1"))))); err == nil {
		t.Error("a packed snapshot also wrote loose blobs")
	}
	// Half the files change: the new blobs are few, so they go loose.
	for i := range 50 {
		build(t, root, spec{fmt.Sprintf("d%d/f%03d", i%7, i): content(i, "v2")})
	}
	v2 := snap(t, s)

	other, err := Open(s.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	changes, err := other.Changes(context.Background(), v1.ID, v2.ID)
	if err != nil || len(changes) != 50 {
		t.Fatalf("Changes from another Store: %d, %v; want 50", len(changes), err)
	}
	if data, _, err := other.Blob(changes[0].OldHash, 100); err != nil || !strings.HasPrefix(string(data), "file ") {
		t.Fatalf("Blob of a packed file from another Store = %q, %v", data, err)
	}

	if n, err := s.Prune(nil, 0, 1); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1", n, err)
	}
	// Whether the second snapshot packed its blobs depends on which files
	// the stat cache trusted; either way the packs must now hold only what
	// v2 uses, and the pack v1 had to itself is gone or rewritten.
	used := map[plumbing.Hash]bool{}
	for i := range 100 {
		v := "v1"
		if i < 50 {
			v = "v2"
		}
		used[blobHash([]byte(content(i, v)))] = true
	}
	inPacks := 0
	for _, name := range packs(s.dir) {
		hs, err := packHashes(s.dir, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			inPacks++
			if !used[h] {
				t.Errorf("pack %s still holds %s, which no snapshot uses", name, h)
			}
		}
	}
	if inPacks < 50 {
		t.Errorf("packs hold %d objects, want at least the 50 unchanged v1 blobs", inPacks)
	}
	for _, i := range []int{0, 49, 50, 99} {
		h := blobHash([]byte(content(i, "v1")))
		_, _, err := other.Blob(h.String(), 10)
		if wantLive := i >= 50; (err == nil) != wantLive {
			t.Errorf("blob of file %d v1 readable = %v, want %v", i, err == nil, wantLive)
		}
	}
	// v2 restores whole from the rewritten pack and the loose blobs.
	for i := range 100 {
		build(t, root, spec{fmt.Sprintf("d%d/f%03d", i%7, i): "scrambled"})
	}
	if _, err := s.Restore(context.Background(), v2.ID, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	st := state(t, root)
	for i := range 100 {
		want := content(i, "v1")
		if i < 50 {
			want = content(i, "v2")
		}
		if got := st[fmt.Sprintf("d%d/f%03d", i%7, i)]; got != want {
			t.Fatalf("file %d = %q after Restore, want %q", i, got, want)
		}
	}
	// Forgetting everything drops the packs.
	list, _ := s.List()
	var ids []string
	for _, sn := range list {
		ids = append(ids, sn.ID)
	}
	if err := s.Forget(ids); err != nil {
		t.Fatal(err)
	}
	if got := packs(s.dir); len(got) != 0 {
		t.Errorf("packs after forgetting every snapshot: %v", got)
	}
}

// TestPackEntryHeader: the pack entry header git reads.
func TestPackEntryHeader(t *testing.T) {
	tests := []struct {
		size int64
		want []byte
	}{
		{0, []byte{0x30}},
		{15, []byte{0x3f}},
		{16, []byte{0xb0, 0x01}},
		{100, []byte{0xb4, 0x06}},
		{1 << 20, []byte{0xb0, 0x80, 0x80, 0x04}},
	}
	for _, tc := range tests {
		if got := packEntryHeader(plumbing.BlobObject, tc.size); !slices.Equal(got, tc.want) {
			t.Errorf("header(blob, %d) = % x, want % x", tc.size, got, tc.want)
		}
	}
}

// TestPacksMerged: past maxPacks packs, Prune merges them into one that
// still holds every live blob.
func TestPacksMerged(t *testing.T) {
	s, root := newStore(t, spec{}, Options{})
	var last Snapshot
	for round := range maxPacks + 2 {
		sp := spec{}
		for i := range packMin {
			sp[fmt.Sprintf("r%02d/f%03d", round, i)] = fmt.Sprintf("round %d file %d", round, i)
		}
		build(t, root, sp)
		last = snap(t, s)
	}
	if got := len(packs(s.dir)); got != maxPacks+2 {
		t.Fatalf("%d packs before Prune, want %d", got, maxPacks+2)
	}
	if _, err := s.Prune(nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	got := packs(s.dir)
	if len(got) != 1 {
		t.Fatalf("packs after Prune: %d, want 1", len(got))
	}
	hs, _ := packHashes(s.dir, got[0])
	if len(hs) != (maxPacks+2)*packMin {
		t.Errorf("merged pack holds %d objects, want %d", len(hs), (maxPacks+2)*packMin)
	}
	os.RemoveAll(filepath.Join(root, "r00"))
	if _, err := s.Restore(context.Background(), last.ID, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := state(t, root)["r00/f007"]; got != "round 0 file 7" {
		t.Errorf("r00/f007 = %q after Restore from the merged pack", got)
	}
}
