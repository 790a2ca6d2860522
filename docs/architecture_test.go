package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codeSpan is text in backquotes on one line of a Markdown page.
var codeSpan = regexp.MustCompile("`([^`\n]+)`")

// repoRef is a code span that names something in the repository: a path
// relative to its root, a file, or `file.go:Name` / `file.go:Type.Method`.
var repoRef = regexp.MustCompile(`^([a-z][\w-]*(?:/[\w.-]+)*/?)(?::([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?)?$`)

// brokenRefs checks every repository reference in doc against the tree at
// root, and says which do not exist. top is the set of the root's entries:
// a span counts as a reference only when it starts with one of them, so
// commands and flags in backquotes are left alone. It returns how many
// references it checked.
func brokenRefs(root, doc string, top map[string]bool) (checked int, broken []string) {
	for i, line := range strings.Split(doc, "\n") {
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			ref := repoRef.FindStringSubmatch(m[1])
			if ref == nil || !top[strings.SplitN(ref[1], "/", 2)[0]] {
				continue
			}
			checked++
			if err := refExists(root, ref[1], ref[2], ref[3]); err != nil {
				broken = append(broken, fmt.Sprintf("line %d: `%s`: %v", i+1, m[1], err))
			}
		}
	}
	return checked, broken
}

// refExists says why path (and the name in it, if any) cannot be found.
func refExists(root, path, name, method string) error {
	info, err := os.Stat(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		return fmt.Errorf("no such file or directory")
	}
	if strings.HasSuffix(path, "/") && !info.IsDir() {
		return fmt.Errorf("not a directory")
	}
	if name == "" {
		return nil
	}
	if !strings.HasSuffix(path, ".go") {
		return fmt.Errorf("a name can only be looked up in a Go file")
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, path), nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	if !declares(f, name, method) {
		if method != "" {
			return fmt.Errorf("declares no method %s.%s", name, method)
		}
		return fmt.Errorf("declares no %s", name)
	}
	return nil
}

// declares reports whether f declares name at top level, or, with method,
// a method method on type name (pointer receiver or not).
func declares(f *ast.File, name, method string) bool {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if method == "" && d.Recv == nil && d.Name.Name == name {
				return true
			}
			if method != "" && d.Recv != nil && d.Name.Name == method && receiverType(d.Recv.List[0].Type) == name {
				return true
			}
		case *ast.GenDecl:
			if method != "" {
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == name {
						return true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// receiverType is the name of a method's receiver type: T for T, *T, T[P].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// topLevel is the set of names at the root of the repository.
func topLevel(t *testing.T, root string) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		top[e.Name()] = true
	}
	return top
}

// TestArchitectureNamesExist: every file, directory, function and method
// docs/architecture.md sends a newcomer to exists, so the page cannot
// drift from the code unnoticed.
func TestArchitectureNamesExist(t *testing.T) {
	root := ".."
	checked, broken := brokenRefs(root, readDoc(t, "architecture.md"), topLevel(t, root))
	for _, b := range broken {
		t.Errorf("architecture.md %s; fix the page (or the move)", b)
	}
	// The page is made of references: far fewer means the pattern stopped
	// matching them, not that they went away.
	if checked < 60 {
		t.Errorf("only %d references found in architecture.md; the check no longer reads the page", checked)
	}
}

// TestBrokenRefs: the check finds what is missing, and leaves commands and
// what lies outside the repository alone.
func TestBrokenRefs(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte(`package pkg

type T struct{}

func (t *T) Method() {}

func (G[X]) Generic() {}

type G[X any] struct{}

func Func() {}

var V, W = 1, 2
`), 0o644)
	top := map[string]bool{"pkg": true}
	for _, tc := range []struct {
		doc    string
		broken int
	}{
		{"`pkg/` `pkg/a.go` `pkg/a.go:T` `pkg/a.go:T.Method` `pkg/a.go:Func` `pkg/a.go:W` `pkg/a.go:G.Generic`", 0},
		{"`pkg/b.go`", 1},
		{"`pkg/a.go/`", 1},
		{"`pkg/a.go:Gone`", 1},
		{"`pkg/a.go:T.Gone`", 1},
		{"`pkg/a.go:Method`", 1}, // a method is named with its type
		{"`pkg/a.go:Func.Method`", 1},
		{"`go test ./...` `other/x.go` `pincer run` `llms/openai`", 0},
	} {
		_, broken := brokenRefs(root, tc.doc, top)
		if len(broken) != tc.broken {
			t.Errorf("%s: %d broken %q, want %d", tc.doc, len(broken), broken, tc.broken)
		}
	}
}
