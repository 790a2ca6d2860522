//go:build unix

package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestWriteRaceWithSwappedLink: a background process flips d between a
// real directory and a link to .git/hooks while write_file writes d/x 200
// times. Each write is judged as the agent judges it (a write whose paths
// touch .git/ is refused) and run when allowed; none may land in
// .git/hooks.
func TestWriteRaceWithSwappedLink(t *testing.T) {
	for _, mode := range []string{"dir-and-link", "link-and-link"} {
		t.Run(mode, func(t *testing.T) {
			root := tempRoot(t)
			hooks := filepath.Join(root, ".git", "hooks")
			writeFiles(t, root, map[string]string{".git/hooks/": "", "real/": ""})
			d := filepath.Join(root, "d")
			opts := Options{Root: root}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					switch mode {
					case "dir-and-link":
						// d is a real directory, then a link to .git/hooks.
						os.Remove(d)
						os.RemoveAll(d)
						if i%2 == 0 {
							os.Mkdir(d, 0o755)
						} else {
							os.Symlink(hooks, d)
						}
					default:
						// d is atomically re-pointed between two directories.
						tmp := d + ".tmp"
						os.Remove(tmp)
						target := filepath.Join(root, "real")
						if i%2 == 1 {
							target = hooks
						}
						os.Symlink(target, tmp)
						os.Rename(tmp, d)
					}
				}
			}()
			allowed := 0
			write := builtin(t, opts, "write_file")
			for i := 0; i < 200; i++ {
				call, err := write.Decode(`{"path":"d/x","content":"#!/bin/sh\necho owned\n"}`)
				if err != nil {
					t.Fatal(err)
				}
				judged := true
				for _, p := range call.Access().Writes {
					if strings.Contains(p, string(filepath.Separator)+".git"+string(filepath.Separator)) {
						judged = false // the policy asks; the person says no
					}
				}
				if !judged {
					continue
				}
				allowed++
				call.Run(context.Background())
				// A later write must find d/x gone or it fails as "created
				// meanwhile"; clear it so every write is a fresh attempt.
				os.Remove(filepath.Join(root, "real", "x"))
			}
			if allowed == 0 {
				t.Fatal("every write was judged as one into .git: the race was never run")
			}
			close(stop)
			wg.Wait()
			entries, _ := os.ReadDir(hooks)
			for _, e := range entries {
				t.Errorf("a write landed in .git/hooks: %s", e.Name())
			}
			t.Logf("%d of 200 writes judged safe and run", allowed)
		})
	}
}

// TestApplyRefusesSwappedDirectory: a directory along the planned path
// that became a link before Apply makes Apply refuse, writing nothing.
func TestApplyRefusesSwappedDirectory(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{".git/hooks/": "", "d/": ""})
	call := decode(t, Options{Root: root}, "write_file", `{"path":"d/x","content":"evil"}`)
	ch, err := call.(Planner).Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, ".git", "hooks"), filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	err = Apply(ch, ch.After)
	if !errors.Is(err, errSwapped) {
		t.Fatalf("Apply = %v; want the swapped-link refusal", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "x")); err == nil {
		t.Fatal("the write landed in .git/hooks")
	}
}

// TestReadFileRefusesSwappedDirectory: read_file reads the path the policy
// judged; a directory swapped for a link to a secret place in between is
// not followed.
func TestReadFileRefusesSwappedDirectory(t *testing.T) {
	base := tempRoot(t)
	root := filepath.Join(base, "proj")
	writeFiles(t, base, map[string]string{"proj/d/x.txt": "ordinary", "outside/x.txt": "SECRET"})
	call := decode(t, Options{Root: root}, "read_file", `{"path":"d/x.txt"}`)
	_ = call.Access() // judged now: inside the project
	if err := os.RemoveAll(filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	res, err := call.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Content, "SECRET") || !res.IsError {
		t.Fatalf("read_file followed a swapped link:\n%s", res.Content)
	}
}

// TestSearchesRefuseSwappedStart: grep, glob and tree_view walk the
// directory the policy judged; swapped for a link to another place in
// between, it is not walked.
func TestSearchesRefuseSwappedStart(t *testing.T) {
	for _, tc := range []struct{ tool, args string }{
		{"grep", `{"pattern":"SECRET","path":"d"}`},
		{"glob", `{"pattern":"d/**"}`},
		{"tree_view", `{"path":"d"}`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			base := tempRoot(t)
			root := filepath.Join(base, "proj")
			writeFiles(t, base, map[string]string{"proj/d/x.txt": "ordinary", "outside/secret-name.txt": "SECRET"})
			call := decode(t, Options{Root: root}, tc.tool, tc.args)
			_ = call.Access()
			os.RemoveAll(filepath.Join(root, "d"))
			if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d")); err != nil {
				t.Fatal(err)
			}
			res, err := call.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(res.Content, "SECRET") || strings.Contains(res.Content, "secret-name") || !res.IsError {
				t.Fatalf("%s walked a swapped link:\n%s", tc.tool, res.Content)
			}
		})
	}
}
