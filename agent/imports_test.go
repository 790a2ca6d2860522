package agent

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTheModelClientStaysBehindItsSeam: the loop knows the model client
// only through Model and llm's plain types, never langchaingo; the client
// knows nothing of the agent, only the conversation's types.
func TestTheModelClientStaysBehindItsSeam(t *testing.T) {
	for _, tt := range []struct {
		dir     string
		allowed func(path string) bool
	}{
		{".", func(p string) bool { return !strings.Contains(p, "langchaingo") }},
		{"llm", func(p string) bool { return !strings.HasPrefix(p, "pincer/") || p == "pincer/chat" }},
	} {
		files, err := filepath.Glob(filepath.Join(tt.dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", tt.dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if !tt.allowed(p) {
					t.Errorf("%s imports %s", f, p)
				}
			}
		}
	}
}
