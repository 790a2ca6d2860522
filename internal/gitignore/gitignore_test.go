package gitignore

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ignoreCases are patterns with paths and whether git ignores them. They
// are checked against pincer's matcher and, where git is installed, against
// git itself, so the expected answers are git's and not pincer's.
var ignoreCases = []struct {
	pattern string
	path    string
	isDir   bool
	want    bool
}{
	{"*.log", "a.log", false, true},
	{"*.log", "deep/er/a.log", false, true},
	{"*.log", "a.log.txt", false, false},
	{"build/", "build", true, true},
	{"build/", "build", false, false}, // a file named build is not a directory
	{"build/", "src/build", true, true},
	{"/build", "build", true, true},
	{"/build", "src/build", true, false},
	{"doc/frotz", "doc/frotz", true, true},
	{"doc/frotz", "a/doc/frotz", true, false}, // a middle slash anchors
	{"frotz/", "a/frotz", true, true},
	{"**/foo", "foo", false, true},
	{"**/foo", "x/y/foo", false, true},
	{"**/foo/bar", "x/foo/bar", false, true},
	{"abc/**", "abc/x/y", false, true},
	{"abc/**", "abc", true, false},
	{"a/**/b", "a/b", false, true},
	{"a/**/b", "a/x/y/b", false, true},
	{"a/**/b", "a/xb", false, false},
	{"foo*bar", "foo/bar", false, false}, // * does not cross "/"
	{"foo?", "fooa", false, true},
	{"foo?", "foo", false, false},
	{"[abc].txt", "b.txt", false, true},
	{"[!abc].txt", "b.txt", false, false},
	{"[!abc].txt", "d.txt", false, true},
	{"[a-c]x", "bx", false, true},
	{`\#hash`, "#hash", false, true},
	{`\!bang`, "!bang", false, true},
	{"# comment", "# comment", false, false},
	{"trailing   ", "trailing", false, true},
	{`space\ `, "space ", false, true},
	{"a.b", "axb", false, false}, // "." is literal
	{"(x)+", "(x)+", false, true},
}

func TestIgnoreRules(t *testing.T) {
	for _, tt := range ignoreCases {
		f := Parse("", []byte(tt.pattern+"\n"))
		got := Stack{f}.Ignored(tt.path, tt.isDir)
		if got != tt.want {
			t.Errorf("pattern %q, path %q (dir %v): ignored = %v, want %v", tt.pattern, tt.path, tt.isDir, got, tt.want)
		}
	}
}

// TestIgnoreCasesAgreeWithGit asks git check-ignore about every case of the
// table, so a wrong expectation cannot hide a wrong matcher.
func TestIgnoreCasesAgreeWithGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git once per case; the full suite runs it")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed to check the gitignore table and is missing")
		}
		t.Skip("git is not installed")
	}
	for _, tt := range ignoreCases {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(tt.pattern+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, filepath.FromSlash(tt.path))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if tt.isDir {
			err = os.Mkdir(target, 0o755)
		} else {
			err = os.WriteFile(target, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		initRepo := exec.Command(git, "init", "-q", ".")
		initRepo.Dir, initRepo.Env = dir, env
		if out, err := initRepo.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
		cmd := exec.Command(git, "-c", "core.excludesFile=", "check-ignore", "-q", "--no-index", tt.path)
		cmd.Dir, cmd.Env = dir, env
		err = cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			if !tt.want {
				t.Errorf("pattern %q, path %q: git ignores it, the table says it is kept", tt.pattern, tt.path)
			}
		case errors.As(err, &exit) && exit.ExitCode() == 1:
			if tt.want {
				t.Errorf("pattern %q, path %q: git keeps it, the table says it is ignored", tt.pattern, tt.path)
			}
		default:
			t.Fatalf("git check-ignore for %q: %v", tt.path, err)
		}
	}
}

func TestIgnoreStackPrecedence(t *testing.T) {
	root := Parse("", []byte("*.log\n!keep.log\n"))
	sub := Parse("sub", []byte("keep.log\n!debug.log\n/local\n"))
	stack := Stack{}.Push(root).Push(sub)
	tests := []struct {
		path string
		want bool
	}{
		{"a.log", true},
		{"keep.log", false},      // negated in the root file
		{"sub/keep.log", true},   // the nested file ignores it again
		{"sub/debug.log", false}, // the nested file re-includes it
		{"sub/x/debug.log", false},
		{"sub/local", true},
		{"local", false}, // /local is anchored to sub/
		{"other/local", false},
	}
	for _, tt := range tests {
		if got := stack.Ignored(tt.path, false); got != tt.want {
			t.Errorf("ignored(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
	if len(Stack{}.Push(root)) != 1 || len(stack) != 2 {
		t.Fatal("push changed the stack it was called on")
	}
}
