//go:build unix

package tools

import (
	"os"
	"path/filepath"
	"pincer/internal/safefile"
	"strings"
	"testing"
)

// fakeReadCheck stands in for the path policy: outside the scope, or a
// .env file, needs approval.
func fakeReadCheck(scope, p string, _ []byte) string {
	if !safefile.Within(scope, p) {
		return p + ": reads outside the project"
	}
	if strings.HasPrefix(filepath.Base(p), ".env") {
		return p + ": reads a secret-looking file"
	}
	return ""
}

// TestGrepSkipsFilesThatNeedApproval: grep does not show what read_file
// would ask about — a .env file, a link to a secret outside the project —
// and names what it skipped so the model can ask with read_file.
func TestGrepSkipsFilesThatNeedApproval(t *testing.T) {
	base := tempRoot(t)
	root := filepath.Join(base, "proj")
	writeFiles(t, base, map[string]string{
		"proj/main.go":         "token := os.Getenv(\"TOKEN\")\n",
		"proj/.env":            "TOKEN=sk-env-secret\n",
		"outside/credentials":  "TOKEN=sk-outside-secret\n",
		"outside/dir/deep.txt": "TOKEN=sk-deep-secret\n",
	})
	if err := os.Symlink(filepath.Join(base, "outside", "credentials"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside", "dir"), filepath.Join(root, "dirlink")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		check func(scope, p string, head []byte) string
		want  string
	}{
		{"with the policy", fakeReadCheck, "skipped 2 files that need approval to read: .env, link → " + filepath.Join(base, "outside", "credentials") + "; read one with read_file to ask the user"},
		{"without one", nil, "skipped 1 file that needs approval to read: link → "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, Options{Root: root, ReadCheck: tc.check}, "grep", `{"pattern":"TOKEN"}`)
			if strings.Contains(res.Content, "sk-outside-secret") || strings.Contains(res.Content, "sk-deep-secret") {
				t.Fatalf("grep returned a file outside the project:\n%s", res.Content)
			}
			if tc.check != nil && strings.Contains(res.Content, "sk-env-secret") {
				t.Fatalf("grep returned .env:\n%s", res.Content)
			}
			if !strings.Contains(res.Content, "main.go:1:") {
				t.Errorf("grep lost the project's match:\n%s", res.Content)
			}
			if !strings.Contains(res.Content, tc.want) {
				t.Errorf("result:\n%s\nwant the note %q", res.Content, tc.want)
			}
		})
	}
	// A file the person approved by name is searched.
	res := run(t, Options{Root: root, ReadCheck: fakeReadCheck}, "grep", `{"pattern":"TOKEN","path":".env"}`)
	if !strings.Contains(res.Content, "sk-env-secret") {
		t.Errorf("grep of an approved single file:\n%s", res.Content)
	}
}
