//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// homeFixture is a home directory with another project in it, toolchain
// files the jail must keep, and a project of its own (in home, or
// beside it as /srv/proj would be).
type homeFixture struct {
	home, root string
	otherEnv   string // ~/src/other/.env: a secret deeper than the scan looks
	otherNotes string // ~/src/other/notes.txt: no secret by its name
	gitconfig  string
	cargoCred  string // ~/.cargo/credentials.toml
	goBinTool  string // ~/go/bin/hello, a program go install made
}

func newHomeFixture(t *testing.T, projectInHome bool) homeFixture {
	t.Helper()
	tr := newTreeOutsideTemp(t)
	fx := homeFixture{home: tr.home, root: tr.root}
	if projectInHome {
		fx.root = filepath.Join(tr.home, "src", "proj")
	}
	fx.otherEnv = filepath.Join(fx.home, "src", "other", ".env")
	fx.otherNotes = filepath.Join(fx.home, "src", "other", "notes.txt")
	fx.gitconfig = filepath.Join(fx.home, ".gitconfig")
	fx.cargoCred = filepath.Join(fx.home, ".cargo", "credentials.toml")
	fx.goBinTool = filepath.Join(fx.home, "go", "bin", "hello")
	for _, f := range []struct {
		path, content string
		mode          os.FileMode
	}{
		{fx.otherEnv, "OTHER_TOKEN=other-secret\n", 0o600},
		{fx.otherNotes, "other-notes\n", 0o644},
		{fx.gitconfig, "[user]\n\tname = Jail Tester\n\temail = jail@example.com\n", 0o644},
		{fx.cargoCred, "[registry]\ntoken = \"cargo-secret\"\n", 0o600},
		{filepath.Join(fx.home, ".cargo", "bin", "cargo-hello"), "#!/bin/sh\necho cargo-bin-ran\n", 0o755},
		{fx.goBinTool, "#!/bin/sh\necho go-bin-ran\n", 0o755},
		{filepath.Join(fx.root, "README"), "readme\n", 0o644},
		{filepath.Join(fx.root, ".env"), "PROJECT_TOKEN=project-secret\n", 0o600},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.content), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

// spec is the jail of a command that runs unasked: inspect (read-only)
// or contained (the project writable), home hidden as asked.
func (fx homeFixture) spec(contained, hide, flat bool) Spec {
	isSecret := func(p string, _ bool) bool {
		return strings.HasSuffix(p, ".env") || strings.HasSuffix(p, "credentials.toml")
	}
	s := Spec{Root: fx.root, Home: fx.home, SecretRoots: []string{fx.root}, IsSecret: isSecret, Flat: flat,
		HideHome: hide, HomeKeep: []string{fx.gitconfig, filepath.Join(fx.home, ".config", "git"), filepath.Join(fx.home, ".cargo", "bin")},
		GitConfigs: []string{filepath.Join(fx.home, ".config", "git", "config"), fx.gitconfig}}
	if contained {
		s.Writable = []string{fx.root}
	} else {
		s.ScratchTemp = true
	}
	return s
}

// TestJailHidesHome: a command that runs unasked reads no file of another
// project in home, secret by name (~/src/other/.env, deeper than the home
// scan looks) or not, while git's settings, the programs on PATH in home
// and the project stay; with home in view (workspace, and as before)
// both are readable. Flat, Landlock refuses the contents but not the
// names.
func TestJailHidesHome(t *testing.T) {
	for _, layout := range layouts {
		for _, tc := range []struct {
			name                   string
			contained, hide, inHom bool
		}{
			{"inspect, project in home", false, true, true},
			{"contained, project in home", true, true, true},
			{"inspect, project outside home", false, true, false},
			{"contained, project outside home", true, true, false},
			{"home in view", false, false, true},
		} {
			t.Run(layout.name+"/"+tc.name, func(t *testing.T) {
				fx := newHomeFixture(t, tc.inHom)
				// ~/go/bin stays because it is on pincer's PATH, ~/.cargo/bin
				// because HomeKeep names it.
				path := filepath.Join(fx.home, "go", "bin") + ":" + os.Getenv("PATH")
				t.Setenv("PATH", path)
				path = filepath.Join(fx.home, ".cargo", "bin") + ":" + path
				l := testLauncher(t, fx.spec(tc.contained, tc.hide, layout.flat))
				script := strings.Join([]string{
					"echo env: $(cat " + fx.otherEnv + " 2>&1)",
					"echo notes: $(cat " + fx.otherNotes + " 2>&1)",
					"echo ls: $(ls " + filepath.Join(fx.home, "src", "other") + " 2>&1)",
					"echo gitconfig: $(git config --global user.name 2>&1)",
					"echo cred: $(cat " + fx.cargoCred + " 2>&1)",
					"echo readme: $(cat README)",
					"echo projenv: $(cat .env 2>&1)",
					"echo gobin: $(hello 2>&1)",
					"echo cargobin: $(cargo-hello 2>&1)",
				}, "; ")
				out, _, err := runEnv(t, l, []string{"PATH=" + path, "HOME=" + fx.home}, script)
				if err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				lines := parseProbe(out)
				hidden := tc.hide
				if got := strings.Contains(lines["env"], "other-secret"); got == hidden {
					t.Errorf("another project's .env read = %v, want %v: %q", got, !hidden, lines["env"])
				}
				if got := strings.Contains(lines["notes"], "other-notes"); got == hidden {
					t.Errorf("another project's notes read = %v, want %v: %q", got, !hidden, lines["notes"])
				}
				// Flat, Landlock can refuse contents only: the directories
				// on the way to a hidden path are listable with all below.
				if got := strings.Contains(lines["ls"], "notes.txt"); got == (hidden && !layout.flat) {
					t.Errorf("another project's files listed = %v, want %v: %q", got, !got, lines["ls"])
				}
				for _, want := range []struct{ key, value string }{{"gitconfig", "Jail Tester"}, {"readme", "readme"}, {"gobin", "go-bin-ran"}, {"cargobin", "cargo-bin-ran"}} {
					if lines[want.key] != want.value {
						t.Errorf("%s = %q, want %q (what the toolchains need must stay)\n%s", want.key, lines[want.key], want.value, out)
					}
				}
				if strings.Contains(lines["cred"], "cargo-secret") && hidden {
					t.Errorf("cargo's credentials are readable: %q", lines["cred"])
				}
				if strings.Contains(lines["projenv"], "project-secret") {
					t.Errorf("the project's .env is readable: %q", lines["projenv"])
				}
			})
		}
	}
}

// TestJailHomeToolchains: git and go work in a project in a hidden home,
// reading git's settings from ~/.gitconfig and Go's caches from under
// home (go vet needs its build cache).
func TestJailHomeToolchains(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git and go in the jail")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			agenttest.Missing(t, "the test needs "+tool)
		}
	}
	for _, layout := range layouts {
		for _, contained := range []bool{false, true} {
			name := layout.name + "/inspect"
			if contained {
				name = layout.name + "/contained"
			}
			t.Run(name, func(t *testing.T) {
				fx := newHomeFixture(t, true)
				gocache, gomod := filepath.Join(fx.home, ".cache", "go-build"), filepath.Join(fx.home, "go", "pkg", "mod")
				env := []string{"HOME=" + fx.home, "GOCACHE=" + gocache, "GOPATH=" + filepath.Join(fx.home, "go"), "GOPROXY=off", "GOTOOLCHAIN=local",
					"GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH")}
				for _, d := range []string{gocache, gomod} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				files := map[string]string{
					"go.mod": "module example.com/proj\n\ngo 1.21\n",
					// Not a command, nothing imported: vet then builds
					// nothing of the standard library into the empty cache.
					"proj.go": "package proj\n\n// Hi says hi.\nfunc Hi() string { return \"hi\" }\n",
				}
				for name, content := range files {
					if err := os.WriteFile(filepath.Join(fx.root, name), []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				git := exec.Command("sh", "-c", "git init -q && git add go.mod proj.go && git commit -q -m first")
				git.Dir, git.Env = fx.root, env
				if out, err := git.CombinedOutput(); err != nil {
					t.Fatalf("git outside the jail: %v\n%s", err, out)
				}
				spec := fx.spec(contained, true, layout.flat)
				spec.Copies = []string{gocache, gomod}
				l := testLauncher(t, spec)
				script := strings.Join([]string{
					"echo name: $(git config --global user.name 2>&1)",
					"echo log: $(git log --format=%s 2>&1)",
					"echo gomodcache: $(go env GOMODCACHE 2>&1)",
					"echo list: $(go list ./... 2>/dev/null)", // flat, the read-only module cache gets a warning
					"echo vet: $(go vet ./... 2>&1 && echo clean)",
				}, "; ")
				out, _, err := runEnv(t, l, env, script)
				if err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				lines := parseProbe(out)
				for _, want := range []struct{ key, value string }{
					{"name", "Jail Tester"}, {"log", "first"}, {"gomodcache", gomod}, {"list", "example.com/proj"}, {"vet", "clean"},
				} {
					if lines[want.key] != want.value {
						t.Errorf("%s = %q, want %q\n%s", want.key, lines[want.key], want.value, out)
					}
				}
			})
		}
	}
}

// TestPlanHidesHome: what a plan keeps of a hidden home, and that a
// project that is home, or holds it, leaves home in view.
func TestPlanHidesHome(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	for _, d := range []string{"src/proj", "src/other", ".config/git", ".cargo/bin", "go/bin", "sdk/go1.24/bin", "sdk/go1.24/pkg", ".local/bin", ".cache/go-build",
		"src/scripts/bin", "src/scripts/lib", "src/scripts/.git"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + strings.Join([]string{filepath.Join(home, "go/bin"), filepath.Join(home, ".cargo/bin"), filepath.Join(home, "sdk/go1.24/bin"), filepath.Join(home, ".local/bin"), filepath.Join(home, "src/scripts/bin"), "/usr/bin"}, ":")
	in := func(p string) string { return filepath.Join(home, p) }
	spec := Spec{Root: in("src/proj"), Home: home, HideHome: true, HomeKeep: []string{in(".gitconfig"), in(".config/git"), in("missing")}, Copies: []string{in(".cache/go-build")}}
	sup := Support{Files: true, Namespaces: true, Seccomp: true}
	realHome, _ := filepath.EvalSymlinks(home)
	for _, tc := range []struct {
		name     string
		root     string
		flat     bool
		hidden   bool
		shown    []string
		notShown []string
	}{
		{"project in home", in("src/proj"), false, true,
			[]string{"src/proj", ".gitconfig", ".config/git", "go/bin", ".cargo/bin", "sdk/go1.24", ".local/bin", ".cache/go-build", "src/scripts/bin"},
			// A project's bin on PATH brings no more of the project.
			[]string{"", "src", "src/other", "go", ".cargo", ".local", "missing", "src/scripts"}},
		{"project outside home", filepath.Join(base, "srv-proj"), false, true,
			[]string{".gitconfig", "go/bin"}, []string{"src/proj"}},
		{"flat", in("src/proj"), true, true, []string{"src/proj", ".gitconfig", "go/bin"}, []string{"src"}},
		{"the project is home", home, false, false, nil, nil},
		{"the project holds home", base, false, false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := spec
			s.Root, s.Flat = tc.root, tc.flat
			st := plan(s, sup, []string{path}, nil)
			if st.HideHome != tc.hidden || (st.HiddenHome != "") != tc.hidden {
				t.Fatalf("HideHome = %v (%q), want %v", st.HideHome, st.HiddenHome, tc.hidden)
			}
			rel := func(p string) string { return filepath.Join(realHome, p) }
			for _, p := range tc.shown {
				if !slices.Contains(st.HomeShown, rel(p)) {
					t.Errorf("HomeShown lacks ~/%s: %v", p, st.HomeShown)
				}
			}
			for _, p := range tc.notShown {
				if slices.Contains(st.HomeShown, rel(p)) || slices.Contains(st.Keep, rel(p)) {
					t.Errorf("~/%s is shown: %v %v", p, st.HomeShown, st.Keep)
				}
			}
			replaced := slices.ContainsFunc(append(slices.Clone(st.TempRoots), st.Covers...), func(r string) bool { return within(realHome, r) })
			if tc.hidden && !tc.flat && !replaced {
				t.Errorf("home is not replaced: covers %v, temp roots %v", st.Covers, st.TempRoots)
			}
			if !replaced {
				return
			}
			kept := func(p string) bool { return slices.ContainsFunc(st.Keep, func(k string) bool { return within(p, k) }) }
			for _, p := range tc.shown {
				if !kept(rel(p)) {
					t.Errorf("~/%s is not kept: %v", p, st.Keep)
				}
			}
			if !tc.hidden && !kept(realHome) {
				t.Errorf("home in view is not kept whole: %v", st.Keep)
			}
		})
	}
}

// TestJailHomeKeepsLinks: a kept path that is a link into another part
// of home (a dotfiles repository) is found where tools look, and what it
// leads to is readable, while the rest of that part stays hidden.
func TestJailHomeKeepsLinks(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			fx := newHomeFixture(t, true)
			dotfiles := filepath.Join(fx.home, "dotfiles")
			for name, content := range map[string]string{"gitconfig": "[user]\n\tname = Linked Tester\n", "private": "dotfiles-private\n"} {
				if err := os.MkdirAll(dotfiles, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dotfiles, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Remove(fx.gitconfig); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("dotfiles/gitconfig", fx.gitconfig); err != nil {
				t.Fatal(err)
			}
			l := testLauncher(t, fx.spec(false, true, layout.flat))
			env := []string{"HOME=" + fx.home, "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH")}
			out, _, err := runEnv(t, l, env, "echo config: $(cat "+fx.gitconfig+" 2>&1 | grep -c 'Linked Tester'); echo git: $(git config --global user.name 2>&1); echo private: $(cat "+filepath.Join(dotfiles, "private")+" 2>&1)")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			lines := parseProbe(out)
			// Flat, git reads a filtered copy (GIT_CONFIG_GLOBAL) and the
			// real file is refused: only the namespaces can put the copy
			// in its place.
			if want := map[bool]string{false: "1", true: "0"}[layout.flat]; lines["config"] != want {
				t.Errorf("~/.gitconfig, a link, read through: %q, want %q\n%s", lines["config"], want, out)
			}
			if lines["git"] != "Linked Tester" {
				t.Errorf("git does not find its settings through the link: %q\n%s", lines["git"], out)
			}
			if strings.Contains(lines["private"], "dotfiles-private") {
				t.Errorf("the rest of ~/dotfiles is readable: %q", lines["private"])
			}
		})
	}
}

// TestJailGitConfigHidesTokens: with home hidden, git's settings and the
// files they include from home (~/ and relative paths, a kept directory
// or not) are read without the credentials in them, by cat and by git,
// while git still finds every other setting and works in the project.
// With home in view the files are as they are.
func TestJailGitConfigHidesTokens(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git in the jail")
	}
	if _, err := exec.LookPath("git"); err != nil {
		agenttest.Missing(t, "the test needs git")
	}
	for _, layout := range layouts {
		for _, tc := range []struct {
			name            string
			contained, hide bool
		}{{"inspect", false, true}, {"contained", true, true}, {"home in view", false, false}} {
			t.Run(layout.name+"/"+tc.name, func(t *testing.T) {
				fx := newHomeFixture(t, true)
				xdg := filepath.Join(fx.home, ".config", "git", "config")
				extra := filepath.Join(fx.home, ".config", "git", "extra.inc")
				work := filepath.Join(fx.home, "gitinc", "work.inc")
				files := map[string]string{
					fx.gitconfig: "[user]\n\tname = Jail Tester\n" +
						"[url \"https://jail:SECRET-url@github.com/\"]\n\tinsteadOf = https://github.com/\n" +
						"[http]\n\textraHeader = Authorization: Bearer SECRET-header\n" +
						"[include]\n\tpath = ~/.config/git/extra.inc\n" +
						"[includeIf \"gitdir:" + fx.home + "/\"]\n\tpath = gitinc/work.inc\n",
					xdg:   "[core]\n\tabbrev = 12\n[github]\n\ttoken = SECRET-xdg\n",
					extra: "[color]\n\tui = never\n[credential]\n\thelper = \"!echo password=SECRET-helper\"\n",
					work:  "[user]\n\temail = work@example.com\n\tpassword = SECRET-work\n",
					filepath.Join(fx.home, "gitinc", "leak.env"): "[leak]\n\tvalue = LEAKED\n",
				}
				if tc.hide {
					// A secret, hidden: never shown, even filtered. (With
					// home in view it is masked, and git refuses to go on.)
					files[fx.gitconfig] += "[include]\n\tpath = ~/gitinc/leak.env\n"
				}
				for p, content := range files {
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				env := []string{"HOME=" + fx.home, "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(fx.home, ".config")}
				git := exec.Command("sh", "-c", "git init -q && git add README && git -c user.email=a@b commit -q -m first")
				git.Dir, git.Env = fx.root, env
				if out, err := git.CombinedOutput(); err != nil {
					t.Fatalf("git outside the jail: %v\n%s", err, out)
				}
				l := testLauncher(t, fx.spec(tc.contained, tc.hide, layout.flat))
				script := strings.Join([]string{
					"echo cat: $(cat " + fx.gitconfig + " " + xdg + " " + extra + " " + work + " 2>/dev/null | grep -c SECRET)",
					"echo list: $(git config --list 2>&1 | grep -c SECRET)",
					"echo name: $(git config user.name 2>&1)",
					"echo email: $(git config user.email 2>&1)",
					"echo abbrev: $(git config core.abbrev 2>&1)",
					"echo color: $(git config color.ui 2>&1)",
					"echo log: $(git log --format=%s 2>&1)",
					"echo leak: $(git config leak.value; cat " + filepath.Join(fx.home, "gitinc", "leak.env") + " 2>/dev/null)",
				}, "; ")
				out, _, err := runEnv(t, l, env, script)
				if err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				lines := parseProbe(out)
				secrets := "0"
				if !tc.hide {
					secrets = "5" // in view, the files are as they are
				}
				for _, want := range []struct{ key, value string }{
					{"cat", secrets}, {"name", "Jail Tester"}, {"email", "work@example.com"}, {"abbrev", "12"}, {"color", "never"}, {"log", "first"},
				} {
					if lines[want.key] != want.value {
						t.Errorf("%s = %q, want %q\n%s", want.key, lines[want.key], want.value, out)
					}
				}
				if tc.hide && lines["leak"] != "" {
					t.Errorf("a secret git's settings include is readable: %q", lines["leak"])
				}
				if tc.hide && lines["list"] != "0" {
					t.Errorf("git config --list shows %s credentials\n%s", lines["list"], out)
				}
			})
		}
	}
}
