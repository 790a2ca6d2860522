package safety

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPathPolicy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the table uses Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	const root, home = "/home/u/proj", "/home/u"
	for _, tc := range []struct {
		path   string
		write  bool
		want   Tier
		reason string
	}{
		{"/home/u/proj/main.go", false, Safe, ""},
		{"/home/u/proj/main.go", true, Safe, ""},
		{"/home/u/proj/internal/x/y.go", true, Safe, ""},
		{"/home/u/proj/.bashrc", true, Safe, ""},
		{"/home/u/proj/.env.example", false, Safe, ""},
		{"/home/u/proj/.env", false, Confirm, "secret-looking"},
		{"/home/u/proj/.env.local", true, Confirm, "secret-looking"},
		{"/home/u/proj/certs/server.pem", false, Confirm, "secret-looking"},
		{"/home/u/proj/deploy/id_rsa", false, Confirm, "SSH key"},
		{"/home/u/proj/tls.key", true, Confirm, "secret-looking"},
		{"/home/u/proj/.netrc", false, Confirm, "credentials"},
		{"/home/u/proj/credentials.json", false, Confirm, "credentials"},
		{"/home/u/proj/.git/HEAD", false, Confirm, "inside .git/"},
		{"/home/u/proj/.git/info/exclude", true, Confirm, "inside .git/"},
		{"/home/u/proj/.git/hooks/pre-commit", true, Dangerous, "git hook"},
		{"/home/u/proj/.git/config", true, Dangerous, "git configuration"},
		{"/home/u/other/main.go", false, Confirm, "outside the project"},
		{"/home/u/proj-evil/x", false, Confirm, "outside the project"},
		{"/tmp/out.txt", true, Confirm, "outside the project"},
		{"/etc/hosts", false, Confirm, "outside the project"},
		{"/etc/hosts", true, Dangerous, "system configuration"},
		{"/etc/shadow", false, Confirm, "secret-looking"},
		{"/home/u/.ssh/authorized_keys", true, Dangerous, "SSH keys"},
		{"/home/u/.ssh/id_ed25519", false, Confirm, "secret-looking"},
		{"/home/u/.ssh/config", false, Confirm, "secret-looking"},
		{"/home/u/.bashrc", true, Dangerous, "start-up file"},
		{"/home/u/.bashrc", false, Confirm, "outside the project"},
		{"/home/u/.zshrc", true, Dangerous, "start-up file"},
		{"/home/u/.config/fish/config.fish", true, Dangerous, "start-up file"},
		{"/home/u/.gitconfig", true, Dangerous, "credentials or login configuration"},
		{"/home/u/.aws/credentials", false, Confirm, "secret-looking"},
		{"/home/u/.aws/credentials", true, Dangerous, "cloud credentials"},
		{"/home/u/Library/LaunchAgents/x.plist", true, Dangerous, "login start-up item"},
		{"/var/spool/cron/crontabs/u", true, Dangerous, "crontab"},
		{"/dev/sda", true, Dangerous, "device"},
		{"/usr/local/bin/tool", true, Dangerous, "system directory"},
		{"relative/path.go", false, Confirm, "not an absolute path"},
		{"", true, Confirm, "not an absolute path"},
	} {
		v := c.Path(PathAccess{Root: root, Home: home, Path: tc.path, Write: tc.write})
		if v.Tier != tc.want {
			t.Errorf("Path(%q, write=%v) = %v %q; want %v", tc.path, tc.write, v.Tier, v.Reasons, tc.want)
			continue
		}
		if tc.want == Safe {
			if len(v.Reasons) != 0 {
				t.Errorf("Path(%q) is safe but has reasons %q", tc.path, v.Reasons)
			}
			continue
		}
		if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], tc.reason) || !strings.Contains(v.Reasons[0], ": ") {
			t.Errorf("Path(%q, write=%v) reasons %q; want one containing %q", tc.path, tc.write, v.Reasons, tc.reason)
		}
	}
}

// TestPathPolicyCodeLoadedLater: outside the project, writing a file that
// programs read as settings or run as code later (a hidden file of home,
// a directory of programs or packages, a place above the project) is
// dangerous, as a whole family, not file by file.
func TestPathPolicyCodeLoadedLater(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		root, path string
		want       Tier
		reason     string
	}{
		{"/home/u/proj", "/home/u/.cargo/config.toml", Dangerous, "hidden file of your home"},
		{"/home/u/proj", "/home/u/.config/go/env", Dangerous, "hidden file of your home"},
		{"/home/u/proj", "/home/u/.local/bin/ls", Dangerous, "hidden file of your home"},
		{"/home/u/proj", "/home/u/.gradle/init.d/x.gradle", Dangerous, "hidden file of your home"},
		{"/home/u/proj", "/home/u/.pythonrc", Dangerous, "hidden file of your home"},
		{"/home/u/proj", "/home/u/bin/git", Dangerous, "programs or packages"},
		{"/home/u/proj", "/home/u/go/bin/gopls", Dangerous, "programs or packages"},
		{"/home/u/proj", "/home/u/venv/lib/python3.12/site-packages/x.pth", Dangerous, "programs or packages"},
		{"/home/u/proj", "/home/u/go/pkg/mod/golang.org/x/net@v1/http.go", Dangerous, "module cache"},
		{"/home/u/proj", "/home/u/go.work", Dangerous, "above the project"},
		{"/home/u/work/proj", "/home/u/work/.envrc", Dangerous, "hidden file"},
		{"/home/u/work/proj", "/home/u/work/AGENTS.md", Dangerous, "above the project"},
		{"/srv/work/proj", "/srv/work/go.work", Dangerous, "above the project"},
		{"/srv/work/proj", "/srv/node_modules/lodash/index.js", Dangerous, "above the project"},
		{"/home/u", "/home/u/.cargo/config.toml", Dangerous, "hidden file of your home"},
		// Ordinary places stay confirm, and the project's own files safe.
		{"/home/u/proj", "/home/u/other/notes.txt", Confirm, "outside the project"},
		{"/home/u/proj", "/tmp/out.txt", Confirm, "outside the project"},
		{"/srv/work/proj", "/srv/other/go.work", Confirm, "outside the project"},
		{"/home/u/proj", "/home/u/proj/.cargo/config.toml", Safe, ""},
		{"/home/u/proj", "/home/u/proj/bin/tool", Safe, ""},
		{"/home/u/dotfiles", "/home/u/dotfiles/.zshrc", Safe, ""},
		{"/home/u", "/home/u/notes.txt", Safe, ""},
	} {
		v := c.Path(PathAccess{Root: tc.root, Home: "/home/u", Path: tc.path, Write: true})
		if v.Tier != tc.want || !strings.Contains(strings.Join(v.Reasons, "\n"), tc.reason) {
			t.Errorf("root %s, write %s = %v %q; want %v with %q", tc.root, tc.path, v.Tier, v.Reasons, tc.want, tc.reason)
		}
	}
}

// TestPathPolicyFoldsCase: on macOS and Windows a name matches whatever
// its case, so .GIT/Hooks is git's hooks directory and ~/.SSH the SSH one.
func TestPathPolicyFoldsCase(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path   string
		write  bool
		want   Tier
		reason string
	}{
		{"/Users/u/proj/.GIT/hooks/pre-commit", true, Dangerous, "git hook"},
		{"/Users/u/proj/.git/HOOKS/pre-commit", true, Dangerous, "git hook"},
		{"/Users/u/proj/.Git/Config", true, Dangerous, "git configuration"},
		{"/Users/u/proj/.GIT/HEAD", false, Confirm, "inside .git/"},
		{"/Users/u/.SSH/config", false, Confirm, "SSH"},
		{"/Users/u/.Config/GH/hosts.yml", false, Confirm, "credentials"},
		{"/Users/u/Library/launchagents/x.plist", true, Dangerous, "login start-up item"},
		{"/Users/u/proj/.ENV", false, Confirm, "secret-looking"},
	} {
		v := c.Path(PathAccess{Root: "/Users/u/proj", Home: "/Users/u", Path: tc.path, Write: tc.write})
		if v.Tier != tc.want || !strings.Contains(strings.Join(v.Reasons, "\n"), tc.reason) {
			t.Errorf("Path(%q, write=%v) = %v %q; want %v with %q", tc.path, tc.write, v.Tier, v.Reasons, tc.want, tc.reason)
		}
	}
}

func TestPathPolicyRootAtHome(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	// pincer started in the home directory: the user's start-up files are
	// inside the root but still not project files.
	for _, tc := range []struct {
		root, path string
		want       Tier
	}{
		{"/home/u", "/home/u/.bashrc", Dangerous},
		{"/", "/home/u/.profile", Dangerous},
		{"/home/u", "/home/u/notes.txt", Safe},
		{"/home/u/dotfiles", "/home/u/dotfiles/.zshrc", Safe},
	} {
		v := c.Path(PathAccess{Root: tc.root, Home: "/home/u", Path: tc.path, Write: true})
		if v.Tier != tc.want {
			t.Errorf("root %s, write %s = %v %q; want %v", tc.root, tc.path, v.Tier, v.Reasons, tc.want)
		}
	}
}

// TestPathPolicyHomeInASystemDir: pincer run as root keeps its home (and
// projects) under /root. Only the home itself becomes the user's own place:
// a project there is edited like any other, while its start-up files,
// keys, programs and pincer's own files stay dangerous, and so does the
// rest of the system directory that holds it, or a home that holds the
// system (HOME=/).
func TestPathPolicyHomeInASystemDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		home, root, path string
		want             Tier
	}{
		{"/root", "/root/proj", "/root/proj/big.txt", Safe},
		{"/var/root/h", "/var/root/h/proj", "/var/root/h/proj/main.go", Safe},
		{"/root", "/root/proj", "/root/other/x.txt", Confirm},
		{"/root", "/root/proj", "/root/.bashrc", Dangerous},
		{"/root", "/root/proj", "/root/.ssh/authorized_keys", Dangerous},
		{"/root", "/root/proj", "/root/.config/pincer/config.toml", Dangerous},
		{"/root", "/root/proj", "/root/.local/bin/git", Dangerous},
		{"/root", "/root/proj", "/root/bin/git", Dangerous},
		{"/root", "/root/proj", "/root/other/.git/hooks/pre-commit", Dangerous},
		{"/root", "/root/proj", "/root/proj/../.profile", Dangerous},
		{"/root", "/root/proj", "/usr/lib/x.so", Dangerous},
		// A home elsewhere in /root does not make the rest of /root the user's.
		{"/root/try/home", "/root/try/proj", "/root/try/proj/big.txt", Dangerous},
		{"/root/try/home", "/root/try/proj", "/root/other/x.txt", Dangerous},
		{"/home/u", "/home/u/proj", "/root/x.txt", Dangerous},
		// A home inside a system directory frees only itself.
		{"/var/lib/jenkins", "/var/lib/jenkins/ws", "/var/lib/jenkins/ws/main.go", Safe},
		{"/var/lib/jenkins", "/var/lib/jenkins/ws", "/var/lib/dpkg/status", Dangerous},
		{"/var/spool/news", "/var/spool/news/p", "/var/spool/cron/crontabs/root", Dangerous},
		// A home that holds the system does not hide it.
		{"/", "/srv/proj", "/etc/passwd", Dangerous},
		{"/", "/srv/proj", "/usr/bin/ls", Dangerous},
		{"/var", "/var/proj", "/var/lib/dpkg/status", Dangerous},
	} {
		v := c.Path(PathAccess{Root: tc.root, Home: tc.home, Path: tc.path, Write: true})
		if v.Tier != tc.want {
			t.Errorf("home %s, root %s, write %s = %v %q; want %v", tc.home, tc.root, tc.path, v.Tier, v.Reasons, tc.want)
		}
	}
}

// TestCommandsHomeInASystemDir: a shell command's absolute path inside the
// home is judged as the same path spelled with ~, so a project under root's
// /root is written with one question, while start-up files, keys, programs
// and pincer's own files there stay dangerous however they are spelled,
// and the rest of the system stays the system's.
func TestCommandsHomeInASystemDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	base, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		home, command string
		want          Tier
	}{
		{"/root", "touch /root/proj/big.txt", Confirm},
		{"/root", "cd /root/proj && sed -i s/a/b/ main.go", Confirm},
		{"", "touch /root/proj/big.txt", Dangerous},
		{"/home/u", "touch /root/proj/big.txt", Dangerous},
		{"/root/try/home", "touch /root/try/proj/big.txt", Dangerous},
		{"/root", "echo x >> /root/.bashrc", Dangerous},
		{"/root", "cp k /root/.ssh/authorized_keys", Dangerous},
		{"/root", "echo x > /root/.config/pincer/config.toml", Dangerous},
		{"/root", "echo x > /root/.local/share/pincer/pincer.db", Dangerous},
		{"/root", "cp evil /root/.local/bin/git", Dangerous},
		{"/root", "cp evil /root/bin/git", Dangerous},
		{"/root", "cp evil /root/go/bin/gopls", Dangerous},
		{"/root", "echo x > /root/other/.git/hooks/pre-commit", Dangerous},
		{"/home/u", "cp evil /home/u/.local/bin/git", Dangerous},
		{"/root", "cat /root/.config/pincer/config.toml", Confirm},
		{"/home/u", "cat /home/u/.local/share/pincer/pincer.db", Confirm},
		{"/root", "touch /usr/lib/x.so", Dangerous},
		{"/var/lib/jenkins", "echo x > /var/lib/dpkg/status", Dangerous},
		{"/var/spool/news", "echo x > /var/spool/cron/crontabs/root", Dangerous},
		{"/", "echo x > /usr/bin/ls", Dangerous},
	} {
		c := base.WithHome(tc.home)
		if v := c.Classify(tc.command); v.Tier != tc.want {
			t.Errorf("home %q: %s = %v %q; want %v", tc.home, tc.command, v.Tier, v.Reasons, tc.want)
		}
	}
}

func TestPathPolicyNativePaths(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	inside := filepath.Join(root, "src", "main.go")
	if v := c.Path(PathAccess{Root: root, Home: filepath.Dir(root), Path: inside, Write: true}); v.Tier != Safe {
		t.Errorf("native path inside the root = %v %q", v.Tier, v.Reasons)
	}
	if v := c.Path(PathAccess{Root: root, Path: filepath.Join(root, ".git", "hooks", "pre-push"), Write: true}); v.Tier != Dangerous {
		t.Errorf("native git hook = %v %q", v.Tier, v.Reasons)
	}
	if v := c.Path(PathAccess{Root: "", Path: inside}); v.Tier != Confirm {
		t.Errorf("no root: %v %q", v.Tier, v.Reasons)
	}
}

// TestPathPolicyOwnFiles: pincer's config, data, trust file and themes are
// dangerous to write wherever they are (even inside the project), and
// reading them needs approval.
func TestPathPolicyOwnFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	own := OwnFiles{
		ConfigDir:  "/home/u/.config/pincer",
		ConfigFile: "/home/u/dotfiles/pincer.json",
		DataDir:    "/home/u/proj/.data", // PINCER_DATA_DIR inside the project
		Store:      "/home/u/proj/.data/pincer.db",
		TrustFile:  "/home/u/.config/pincer/trusted-projects.json",
		ThemeDir:   "/home/u/.config/pincer/themes",
	}
	for _, tc := range []struct {
		path   string
		write  bool
		want   Tier
		reason string
	}{
		{"/home/u/.config/pincer/config.json", true, Dangerous, "pincer's configuration directory"},
		{"/home/u/.config/pincer/AGENT.md", true, Dangerous, "pincer's configuration directory"},
		{"/home/u/.config/pincer/trusted-projects.json", true, Dangerous, "trusted projects"},
		{"/home/u/.config/pincer/themes/x.json", true, Dangerous, "pincer's themes"},
		{"/home/u/dotfiles/pincer.json", true, Dangerous, "pincer's configuration"},
		{"/home/u/proj/.data/pincer.db", true, Dangerous, "session store"},
		{"/home/u/proj/.data/other", true, Dangerous, "data directory"},
		{"/home/u/proj/.data/pincer.db", false, Confirm, "reads pincer's session store"},
		{"/home/u/.config/pincer/config.json", false, Confirm, "reads pincer's configuration directory"},
		{"/home/u/.config/pincerx/config.json", true, Dangerous, "hidden file of your home"}, // not pincer's, but settings all the same
		{"/home/u/dotfiles/pincer.jsonx", true, Confirm, "outside the project"},
		{"/home/u/proj/.datax", true, Safe, ""},
		{"/home/u/proj/main.go", true, Safe, ""},
	} {
		v := c.Path(PathAccess{Root: "/home/u/proj", Home: "/home/u", Path: tc.path, Own: own, Write: tc.write})
		if v.Tier != tc.want {
			t.Errorf("Path(%q, write=%v) = %v %q; want %v", tc.path, tc.write, v.Tier, v.Reasons, tc.want)
			continue
		}
		if tc.want != Safe && (len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], tc.reason)) {
			t.Errorf("Path(%q, write=%v) reasons %q; want one containing %q", tc.path, tc.write, v.Reasons, tc.reason)
		}
	}
	// Without the locations the policy cannot know them: nothing is made up.
	if v := c.Path(PathAccess{Root: "/home/u/proj", Home: "/home/u", Path: "/home/u/proj/.data/pincer.db", Write: true}); v.Tier != Safe {
		t.Errorf("no OwnFiles: %v %q", v.Tier, v.Reasons)
	}
}

// TestPathPolicyMarksSecretReads checks which accesses are marked Secret:
// reads of what the jail hides from every command (secrets, pincer's own
// files), which a blanket yes does not approve; writes and ordinary reads
// are not marked.
func TestPathPolicyMarksSecretReads(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	own := OwnFiles{ConfigDir: "/home/u/.config/pincer", Store: "/home/u/.local/share/pincer/pincer.db"}
	for _, tc := range []struct {
		path  string
		write bool
		want  bool
	}{
		{"/home/u/.aws/credentials", false, true},
		{"/home/u/.ssh/id_ed25519", false, true},
		{"/home/u/proj/.env", false, true},
		{"/proc/self/environ", false, true},
		{"/home/u/.config/pincer/config.json", false, true},
		{"/home/u/.local/share/pincer/pincer.db", false, true},
		{"/home/u/proj/.env", true, false},
		{"/home/u/proj/main.go", false, false},
		{"/home/u/other/notes.txt", false, false},
		{"/etc/hosts", false, false},
	} {
		v := c.Path(PathAccess{Root: "/home/u/proj", Home: "/home/u", Own: own, Path: tc.path, Write: tc.write})
		if v.Secret != tc.want {
			t.Errorf("Path(%q, write=%v).Secret = %v, want %v (%v %q)", tc.path, tc.write, v.Secret, tc.want, v.Tier, v.Reasons)
		}
	}
}
