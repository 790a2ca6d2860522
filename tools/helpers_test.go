package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tempRoot returns a fresh project root with symbolic links resolved, so
// paths compare equal on systems whose temp dir is a link (macOS).
func tempRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// writeFiles creates files under root; a name ending in "/" is a directory.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// builtin returns the built-in tool called name for opts.
func builtin(t testing.TB, opts Options, name string) Tool {
	t.Helper()
	r, err := NewRegistry(Builtins(opts)...)
	if err != nil {
		t.Fatal(err)
	}
	tool, ok := r.Get(name)
	if !ok {
		t.Fatalf("no built-in %q", name)
	}
	return tool
}

// decode decodes args for the built-in name, failing the test on error.
func decode(t *testing.T, opts Options, name, args string) Call {
	t.Helper()
	call, err := builtin(t, opts, name).Decode(args)
	if err != nil {
		t.Fatalf("Decode(%s) of %s: %v", args, name, err)
	}
	return call
}

// run decodes and runs one call of a built-in.
func run(t *testing.T, opts Options, name, args string) Result {
	t.Helper()
	res, err := decode(t, opts, name, args).Run(context.Background())
	if err != nil {
		t.Fatalf("Run(%s) of %s: %v", args, name, err)
	}
	return res
}

// readFile returns a file's content, failing the test when it is missing.
func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// containsAll reports the first of wants missing from s, or "".
func missing(s string, wants ...string) string {
	for _, w := range wants {
		if !strings.Contains(s, w) {
			return w
		}
	}
	return ""
}

// itoa formats n in decimal.
func itoa(n int) string { return strconv.Itoa(n) }
