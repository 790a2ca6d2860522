package checkpoint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// genTree writes files files of 1–20 KB spread over about files/100
// directories (two levels), with settled mtimes so that the stat cache
// trusts them, and returns their paths.
func genTree(b testing.TB, root string, files int) []string {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	dirs := max(files/100, 1)
	buf := make([]byte, 20<<10)
	for i := range buf {
		buf[i] = byte('a' + rng.IntN(26))
		if i%64 == 63 {
			buf[i] = '\n'
		}
	}
	paths := make([]string, 0, files)
	for i := range files {
		d := i % dirs
		rel := filepath.Join(fmt.Sprintf("pkg%02d", d%10), fmt.Sprintf("sub%03d", d), fmt.Sprintf("file%05d.go", i))
		full := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		size := 1<<10 + rng.IntN(19<<10)
		off := rng.IntN(len(buf) - size + 1)
		data := append([]byte(fmt.Sprintf("// file %d\n", i)), buf[off:off+size]...)
		if err := os.WriteFile(full, data, 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, rel)
	}
	age(b, root)
	return paths
}

// BenchmarkSnapshotFirst: the first snapshot of a 5,000-file tree, into an
// empty store.
func BenchmarkSnapshotFirst(b *testing.B) {
	root := b.TempDir()
	genTree(b, root, 5000)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), fmt.Sprint("cp", i)), root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Snapshot(context.Background(), "first"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

// BenchmarkSnapshotSecond: a later snapshot of a 5,000-file tree with one
// file changed since the last.
func BenchmarkSnapshotSecond(b *testing.B) {
	root := b.TempDir()
	paths := genTree(b, root, 5000)
	s, err := Open(filepath.Join(b.TempDir(), "cp"), root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Snapshot(context.Background(), "first"); err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(root, paths[len(paths)/2])
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if err := os.WriteFile(target, []byte(fmt.Sprintf("change %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Snapshot(context.Background(), "second"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRestore: one turn's worth of change undone (10 files of a
// 5,000-file tree: 6 modified, 2 created, 2 deleted), including the
// snapshot Restore takes first.
func BenchmarkRestore(b *testing.B) {
	root := b.TempDir()
	paths := genTree(b, root, 5000)
	s, err := Open(filepath.Join(b.TempDir(), "cp"), root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	start, err := s.Snapshot(context.Background(), "start")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		for j := range 6 {
			os.WriteFile(filepath.Join(root, paths[j*700]), []byte(fmt.Sprintf("turn %d\n", i)), 0o644)
		}
		os.WriteFile(filepath.Join(root, "new1.go"), []byte("new"), 0o644)
		os.WriteFile(filepath.Join(root, "pkg01/new2.go"), []byte("new"), 0o644)
		os.Remove(filepath.Join(root, paths[10]))
		os.Remove(filepath.Join(root, paths[4000]))
		b.StartTimer()
		res, err := s.Restore(context.Background(), start.ID, RestoreOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Changes) != 10 {
			b.Fatalf("restored %d changes, want 10", len(res.Changes))
		}
	}
}

// BenchmarkSnapshotFirst20k: the first snapshot of a 20,000-file tree (run
// once: -bench SnapshotFirst20k -benchtime 1x).
func BenchmarkSnapshotFirst20k(b *testing.B) {
	root := b.TempDir()
	genTree(b, root, 20000)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), fmt.Sprint("cp", i)), root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Snapshot(context.Background(), "first"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

// BenchmarkSnapshotSecondIgnored is BenchmarkSnapshotSecond with the
// .gitignore files of a real project (rules at the root and in every
// package), so the cost of matching every path against them shows.
func BenchmarkSnapshotSecondIgnored(b *testing.B) {
	root := b.TempDir()
	paths := genTree(b, root, 5000)
	rootRules := "# build output\n/bin/\n/dist/\n*.o\n*.a\n*.so\n*.exe\n*.test\n*.out\ncoverage.*\n" +
		"node_modules/\n.cache/\n*.log\n!keep.log\n.env\n.env.*\n!.env.example\n**/testdata/golden/*.new\n" +
		"[Bb]uild/\n*.sw[!a]\n*~\n.DS_Store\nvendor/**\n!vendor/modules.txt\n"
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(rootRules), 0o644); err != nil {
		b.Fatal(err)
	}
	for d := range 10 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("pkg%02d", d), ".gitignore"), []byte("*.gen.go\n/tmp/\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	age(b, root)
	s, err := Open(filepath.Join(b.TempDir(), "cp"), root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Snapshot(context.Background(), "first"); err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(root, paths[len(paths)/2])
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if err := os.WriteFile(target, []byte(fmt.Sprintf("change %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Snapshot(context.Background(), "second"); err != nil {
			b.Fatal(err)
		}
	}
}
