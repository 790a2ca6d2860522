//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitFixture is a project in home with a submodule (its git dir in
// .git/modules/sub, its info dir gone), a linked worktree beside it, and
// a nested repository (nested/.git) with config.worktree turned on.
type gitFixture struct {
	homeFixture
	env []string
}

// token and header are the credentials CI leaves in a project's settings.
const (
	gitToken  = "ghs_PROJECTSECRET"
	gitHeader = "c3VwZXJzZWNyZXQ="
)

func newGitFixture(t *testing.T) gitFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	fx := gitFixture{homeFixture: newHomeFixture(t, true)}
	fx.env = []string{"HOME=" + fx.home, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + fx.gitconfig}
	lib := filepath.Join(filepath.Dir(fx.root), "lib")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), fx.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, d := range []string{lib, filepath.Join(fx.root, "nested")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte("f\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(d, "init", "-q")
		git(d, "add", "f")
		git(d, "commit", "-qm", "one")
	}
	git(filepath.Join(fx.root, "nested"), "config", "extensions.worktreeConfig", "true")
	git(fx.root, "init", "-q")
	git(fx.root, "add", "README")
	git(fx.root, "submodule", "add", "-q", lib, "sub")
	git(fx.root, "commit", "-qm", "one")
	git(fx.root, "worktree", "add", "-q", filepath.Join(filepath.Dir(fx.root), "wt"))
	git(fx.root, "remote", "add", "origin", "https://x-access-token:"+gitToken+"@github.com/o/r.git")
	git(fx.root, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic "+gitHeader)
	git(filepath.Join(fx.root, "sub"), "config", "http.extraheader", "AUTHORIZATION: basic "+gitHeader)
	if err := os.RemoveAll(filepath.Join(fx.root, ".git", "modules", "sub", "info")); err != nil {
		t.Fatal(err)
	}
	// What the settings name in the worktree: an included file, a hooks
	// dir that is not there yet, a program an alias runs.
	for name, content := range map[string]string{"shared.gitconfig": "[user]\n\tname = t\n", "tools/t.sh": "#!/bin/sh\necho t\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(fx.root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fx.root, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(fx.root, "config", "include.path", "../shared.gitconfig")
	git(fx.root, "config", "core.hooksPath", ".husky")
	git(fx.root, "config", "alias.t", "!./tools/t.sh")
	return fx
}

// snapshot reads what git would take as settings or code in the
// fixture: each path's content, "dir: names" for a directory, "-" when
// missing.
func (fx gitFixture) snapshot() map[string]string {
	out := map[string]string{}
	for _, rel := range []string{
		".git/config", ".git/config.worktree", ".git/hooks", ".git/info", ".git/modules/sub/config", ".git/modules/sub/hooks",
		".git/modules/sub/info", ".git/modules/sub/config.worktree", ".git/worktrees/wt/commondir", ".git/worktrees/wt/gitdir",
		".git/worktrees/wt/config.worktree", "sub/.git", "nested/.git/config", "nested/.git/config.worktree", "nested/.git/hooks", "nested/.git/info",
		"shared.gitconfig", "tools/t.sh", ".husky",
	} {
		p := filepath.Join(fx.root, rel)
		info, err := os.Lstat(p)
		switch {
		case err != nil:
			out[rel] = "-"
		case info.IsDir():
			entries, _ := os.ReadDir(p)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			out[rel] = "dir: " + strings.Join(names, " ")
		default:
			b, _ := os.ReadFile(p)
			out[rel] = string(b)
		}
	}
	return out
}

// TestJailGitGuard: a command that may write the project (contained)
// cannot change or add what the person's own git later reads as settings
// or runs as code, in the project's git dir, a submodule's, a linked
// worktree's or a nested repository's, whether by writing, by making
// what is missing, or by renaming a directory away and putting another
// in its place; while git's ordinary writes (add, commit, checkout -b,
// stash, a commit in the submodule) still work. Flat, the git dirs take
// no new entries at all, so the attacks fail there too.
func TestJailGitGuard(t *testing.T) {
	attacks := []string{
		"git config core.fsmonitor 'touch PWNED'",
		"git -C sub config core.fsmonitor 'touch PWNED'",
		"git -C nested config core.fsmonitor 'touch PWNED'",
		"echo 'touch PWNED' > .git/modules/sub/hooks/post-checkout; chmod +x .git/modules/sub/hooks/post-checkout",
		"echo 'touch PWNED' > .git/hooks/pre-commit",
		"echo 'touch PWNED' > nested/.git/hooks/pre-commit",
		"mkdir -p .git/modules/sub/info; echo '* filter=x' > .git/modules/sub/info/attributes",
		"mkdir -p .git/info; echo '* filter=x' > .git/info/attributes",
		"printf '[core]\\n\\tfsmonitor = touch PWNED\\n' > nested/.git/config.worktree",
		"echo /tmp/evil > .git/worktrees/wt/commondir",
		"echo 'gitdir: /tmp/evil' > sub/.git",
		"mv .git/modules/sub .git/modules/sub.old && mkdir -p .git/modules/sub && cp -r .git/modules/sub.old/. .git/modules/sub/ && echo '[core]' > .git/modules/sub/config",
		"mv .git/modules .git/m && mkdir -p .git/modules/sub/hooks && echo x > .git/modules/sub/hooks/post-checkout",
		"mv .git/hooks .git/hooks.old && mkdir .git/hooks && echo x > .git/hooks/pre-commit",
		"mv .git/modules/sub/hooks .git/modules/sub/h && mkdir .git/modules/sub/hooks && echo x > .git/modules/sub/hooks/post-checkout",
		"mv .git .git.old && mkdir .git && echo '[core]' > .git/config",
		"mv nested nested.old && mkdir -p nested/.git && echo '[core]' > nested/.git/config",
		"mv sub sub.old && mkdir sub && echo 'gitdir: /tmp/evil' > sub/.git",
		"mv .git/worktrees/wt .git/worktrees/w2 && mkdir .git/worktrees/wt && echo /tmp/evil > .git/worktrees/wt/commondir",
		"rm -rf .git/modules/sub/hooks .git/hooks .git/info",
		"printf '[core]\\n\\tfsmonitor = touch PWNED\\n' >> shared.gitconfig",
		"echo 'touch PWNED' > tools/t.sh",
		"mv tools tools.old && mkdir tools && echo 'touch PWNED' > tools/t.sh",
		"mkdir -p .husky; echo 'touch PWNED' > .husky/pre-commit",
	}
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			fx := newGitFixture(t)
			spec := fx.spec(true, false, layout.flat)
			spec.GitGuard = true
			l := testLauncher(t, spec)
			before := fx.snapshot()
			if before[".git/modules/sub/info"] != "-" {
				t.Fatalf("the fixture's submodule has an info dir: %q", before[".git/modules/sub/info"])
			}
			if !layout.flat {
				// What git would read, made empty where it was missing.
				before[".git/modules/sub/info"], before["nested/.git/config.worktree"], before[".husky"] = "dir: ", "", "dir: "
			}
			for _, a := range attacks {
				out, _, err := runEnv(t, l, fx.env, a)
				if err != nil {
					t.Fatal(err)
				}
				after := fx.snapshot()
				for k, v := range before {
					if after[k] != v {
						t.Errorf("%s: %s became %q (was %q):\n%s", a, k, after[k], v, out)
					}
				}
				before = after
			}
			if layout.flat {
				return
			}
			for _, ok := range []string{
				"git status --short",
				"echo more >> README && git add README && git commit -qm two",
				"git checkout -qb topic && git checkout -q main",
				"echo stash >> README && git stash -q && git stash pop -q && git checkout -q README",
				"cd sub && echo s >> f && git add f && git commit -qm sub",
				"git add sub && git commit -qm bump && git log --oneline | wc -l",
				"cd nested && echo n >> f && git commit -qam nested",
			} {
				if out, exit, err := runEnv(t, l, fx.env, ok); err != nil || exit != (Exit{}) {
					t.Errorf("%s: %+v %v:\n%s", ok, exit, err, out)
				}
			}
		})
	}
}

// TestJailProjectGitHidesTokens: a command that runs unasked (inspect,
// contained) reads the project's git settings, and a submodule's, without
// the credentials CI left there (a token in the remote's URL, an
// Authorization header), whether by cat or by git; git status and git
// remote -v still work, the remote without its user and password. In
// workspace they are as they are. Flat, settings that hold one are
// hidden whole.
func TestJailProjectGitHidesTokens(t *testing.T) {
	for _, layout := range layouts {
		for _, tc := range []struct {
			name      string
			contained bool
			hide      bool
		}{{"inspect", false, true}, {"contained", true, true}, {"workspace", true, false}} {
			t.Run(layout.name+"/"+tc.name, func(t *testing.T) {
				fx := newGitFixture(t)
				spec := fx.spec(tc.contained, tc.hide, layout.flat)
				spec.GitGuard = tc.contained && tc.hide
				l := testLauncher(t, spec)
				out, _, err := runEnv(t, l, fx.env, "cat .git/config .git/modules/sub/config; git config -l; git -C sub config -l; git remote -v")
				if err != nil {
					t.Fatal(err)
				}
				leaked := strings.Contains(out, gitToken) || strings.Contains(out, gitHeader)
				if leaked == tc.hide {
					t.Errorf("the project's git credentials readable: %v, want %v:\n%s", leaked, !tc.hide, out)
				}
				if layout.flat {
					return
				}
				out, exit, err := runEnv(t, l, fx.env, "git status --short && git remote -v && git -C sub status --short")
				if err != nil || exit != (Exit{}) {
					t.Fatalf("git: %+v %v:\n%s", exit, err, out)
				}
				if want := "origin\thttps://github.com/o/r.git (fetch)"; tc.hide && !strings.Contains(out, want) {
					t.Errorf("git remote -v lacks %q:\n%s", want, out)
				}
			})
		}
	}
}

// BenchmarkFindProjectGit measures the walk a helper of contained or
// inspect makes when it starts, over this repository (a worktree: its
// .git is a file).
func BenchmarkFindProjectGit(b *testing.B) {
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		findProjectGit(root)
	}
}
