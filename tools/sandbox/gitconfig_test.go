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

// trickyGitConfig holds every kind of credential git's settings carry,
// each marked SECRET, among settings in every form git's syntax allows.
const trickyGitConfig = "\ufeff# a comment with a SECRET-comment in it\n" +
	"[user]\n\tname = Jail Tester ; trailing comment SECRET-trailing\n\temail = \"jail@example.com\"\n\tsigningkey = ~/.ssh/id_ed25519.pub\n" +
	"[core] editor = vim\n" +
	"\tpager = \"less -R\" \\\n  # not a comment: continued\n" +
	"[alias]\n\tlg = log --oneline \"--format=%h #%s\"\n\tup = !git fetch && git rebase\n" +
	"\tapi = !curl -H \"Authorization: token SECRET-alias\" https://api.example.com\n" +
	"[url \"https://user:SECRET-url@github.com/\"]\n\tinsteadOf = https://github.com/\n" +
	"[url \"https://SECRET-user-token@gitlab.com/\"]\n\tinsteadOf = gl:\n" +
	"[url \"ssh://git@github.com/\"]\n\tpushInsteadOf = https://github.com/\n" +
	"[http]\n\textraHeader = Authorization: Basic SECRET-header\n\tsslVerify = true\n" +
	"[http \"https://example.com\"]\n\textraheader = \"Bearer SECRET-bearer\"\n\tproxy = http://proxy:SECRET-proxy@proxy.example:3128\n" +
	"[credential]\n\thelper = \"!f() { echo password=SECRET-helper; }; f\"\n\tusername = jail\n" +
	"[credential \"https://example.com\"]\n\thelper = store\n" +
	"[github]\n\tuser = jail\n\ttoken = SECRET-github\n" +
	"[hub]\n\toauthtoken = SECRET-hub\n" +
	"[sendemail]\n\tsmtpserver = smtp.example.com\n\tsmtpPass = SECRET-smtp\n" +
	"[Section.Dotted]\n\tKey = value\n" +
	"[weird \"sub \\\"quoted\\\" \\\\ part\"]\n\tflag\n\tmulti = one\\\n two\n" +
	"[include]\n\tpath = ~/.config/git/extra.inc\n" +
	"[includeIf \"gitdir:~/work/\"]\n\tpath = work.inc\n"

// TestFilterGitConfig: the filtered settings hold none of the
// credentials, and git reads every other setting from them exactly as
// from the original.
func TestFilterGitConfig(t *testing.T) {
	out, includes, err := filterGitConfig(trickyGitConfig, nil)
	if err != nil {
		t.Fatalf("filterGitConfig: %v", err)
	}
	if strings.Contains(out, "SECRET") {
		t.Errorf("a credential is left:\n%s", out)
	}
	for _, want := range []string{"Jail Tester", "jail@example.com", "signingkey", "ssh://git@github.com/", "sslVerify", "username = \"jail\"", "helper = \"store\"", "smtpserver", "Key = \"value\"", "flag"} {
		if !strings.Contains(out, want) {
			t.Errorf("the filtered settings lack %q:\n%s", want, out)
		}
	}
	if want := []string{"~/.config/git/extra.inc", "work.inc"}; !slices.Equal(includes, want) {
		t.Errorf("includes = %q, want %q", includes, want)
	}
	if _, err := exec.LookPath("git"); err != nil {
		agenttest.Missing(t, "the test needs git to read the settings back")
	}
	dir := t.TempDir()
	list := func(text string) []string {
		t.Helper()
		p := filepath.Join(dir, "config")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "config", "--file", p, "--list")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git config --list: %v\n%s", err, b)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	orig := list(trickyGitConfig)
	var want []string
	for _, kv := range orig {
		if !strings.Contains(kv, "SECRET") {
			want = append(want, kv)
		}
	}
	if got := list(out); !slices.Equal(got, want) {
		t.Errorf("git reads from the filtered settings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseGitConfigErrors: what git refuses to read is refused with the
// line, and the entries before it are kept.
func TestParseGitConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		text, err string
		kept      int
	}{
		{"[user]\n\tname = a\n[broken\n", "line 3", 2},
		{"key = before any section\n", "before any section", 0},
		{"[a]\n\tk = \"unterminated\n", "quoted value", 1},
		{"[a]\n\tk = bad \\q escape\n", "bad escape", 1},
		{"[a \"sub]\n", "subsection", 0},
		{"[a]\n\t9k = v\n", "unexpected", 1},
	} {
		entries, err := parseGitConfig(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want one saying %q", tc.text, err, tc.err)
		}
		if len(entries) != tc.kept {
			t.Errorf("%q: %d entries kept, want %d", tc.text, len(entries), tc.kept)
		}
	}
}

// TestResolveGitInclude: include paths resolve as git resolves them.
func TestResolveGitInclude(t *testing.T) {
	for _, tc := range []struct{ path, from, want string }{
		{"~/.config/git/extra", "/h/.gitconfig", "/h/.config/git/extra"},
		{"work.inc", "/h/.gitconfig", "/h/work.inc"},
		{"../shared/inc", "/h/.config/git/config", "/h/.config/shared/inc"},
		{"/etc/gitconfig.d/x", "/h/.gitconfig", "/etc/gitconfig.d/x"},
		{"~other/x", "/h/.gitconfig", ""},
		{"", "/h/.gitconfig", ""},
	} {
		if got := resolveGitInclude(tc.path, tc.from, "/h"); got != tc.want {
			t.Errorf("resolveGitInclude(%q, %q) = %q, want %q", tc.path, tc.from, got, tc.want)
		}
	}
}

// TestFilterSettingsLines: the lines of a key = value settings file that
// carry a credential go, with a TOML string running over lines; the
// rest stays as it was.
func TestFilterSettingsLines(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		changed        bool
	}{
		{"cargo", "[build]\njobs = 2\n[registries.corp]\nindex = \"https://corp.example/index\"\ntoken = \"SECRET\"\n", "[build]\njobs = 2\n[registries.corp]\nindex = \"https://corp.example/index\"\n", true},
		{"npmrc", "//registry.npmjs.org/:_authToken=SECRET\nfund=false\n_auth = SECRET\n", "fund=false\n", true},
		{"go env", "GOPROXY=https://u:SECRET@goproxy.example\nGOFLAGS=-mod=mod\n", "GOFLAGS=-mod=mod\n", true},
		{"yaml", "github.com:\n  oauth_token: SECRET\n  user: me\n", "github.com:\n  user: me\n", true},
		{"a TOML string over lines", "password = \"\"\"\nSECRET\n\"\"\"\nkeep = 1\n", "keep = 1\n", true},
		{"a header", "[x]\nextra = Authorization: Bearer SECRET\n", "[x]\n", true},
		{"nothing to leave out", "a = 1\nurl = ssh://git@host/x\n", "a = 1\nurl = ssh://git@host/x\n", false},
	} {
		got, changed := filterSettingsLines(tc.in)
		if got != tc.want || changed != tc.changed {
			t.Errorf("%s: got %q (changed %v), want %q (%v)", tc.name, got, changed, tc.want, tc.changed)
		}
	}
}

// TestHomeGitFiles: the files git's settings include are followed as git
// follows them — ~/ and relative paths, each file once however it is
// reached (an include cycle, a link) — but not out of home, into the
// project, or into a secret, which stay as they are.
func TestHomeGitFiles(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	outside := filepath.Join(base, "elsewhere.inc")
	files := map[string]string{
		".gitconfig":       "[user]\n\tname = n\n[include]\n\tpath = ~/inc/a\n\tpath = " + outside + "\n\tpath = src/proj/p.inc\n\tpath = ~/.secret.env\n\tpath = missing\n",
		"inc/a":            "[include]\n\tpath = b\n\tpath = link\n[github]\n\ttoken = SECRET\n",
		"inc/b":            "[include]\n\tpath = a\n[core]\n\tabbrev = 9\n",
		"src/proj/p.inc":   "[x]\n\ty = 1\n",
		".secret.env":      "[x]\n\ty = SECRET\n",
		"../elsewhere.inc": "[x]\n\ty = 2\n",
	}
	for rel, content := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", filepath.Join(home, "inc", "link")); err != nil {
		t.Fatal(err)
	}
	realHome, _ := filepath.EvalSymlinks(home)
	secret := func(p string) bool { return strings.HasSuffix(p, ".env") }
	got, _ := homeGitFiles([]string{filepath.Join(home, ".config", "git", "config"), filepath.Join(home, ".gitconfig")}, home, realHome, []string{filepath.Join(realHome, "src", "proj")}, secret, nil)
	var reals []string
	for _, f := range got {
		rel, _ := filepath.Rel(realHome, f.Real)
		reals = append(reals, rel)
		if strings.Contains(f.Data, "SECRET") {
			t.Errorf("~/%s keeps a credential:\n%s", rel, f.Data)
		}
	}
	if want := []string{".gitconfig", "inc/a", "inc/b"}; !slices.Equal(reals, want) {
		t.Errorf("filtered %v, want %v", reals, want)
	}
}
