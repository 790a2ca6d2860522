//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pincer/safety"
)

// TestJailHidesCredentialFiles: none of the files tools keep their
// credentials in is readable by a command that runs unasked, even where
// its directory is a toolchain the jail keeps (~/.cargo, ~/.gem, ~/.nvm,
// ~/.config/go, ~/.config/git), and even when it was made after the
// jail's helper was built (late: a git credential store written by a
// push outside, a Node version installed with its own npmrc, a token
// added to Go's env file): home, the kept paths, the hidden paths and
// the secrets are those pincer's own policy gives the jail.
func TestJailHidesCredentialFiles(t *testing.T) {
	creds := []struct {
		rel, content string
		late         bool
	}{
		{".cargo/credentials.toml", "[registry]\ntoken = \"SECRET\"\n", false},
		{".cargo/credentials", "[registry]\ntoken = \"SECRET\"\n", false},
		{".cargo/config.toml", "[build]\njobs = 2\n[registries.corp]\nindex = \"https://corp.example/index\"\ntoken = \"SECRET\"\n", false},
		{".npmrc", "//registry.npmjs.org/:_authToken=SECRET\n", false},
		{".nvm/versions/node/v20.0.0/etc/npmrc", "//registry.npmjs.org/:_authToken=SECRET\nfund=false\n", false},
		{".nvm/versions/node/v22.1.0/etc/npmrc", "//registry.npmjs.org/:_authToken=SECRET\nfund=false\n", true},
		{".nvm/versions/node/v20.0.0/lib/node_modules/npm/npmrc", "//registry.npmjs.org/:_authToken=SECRET\n", true},
		{".m2/settings.xml", "<settings><servers><server><password>SECRET</password></server></servers></settings>\n", false},
		{".m2/settings-security.xml", "<settingsSecurity><master>SECRET</master></settingsSecurity>\n", false},
		{".gradle/gradle.properties", "mavenPassword=SECRET\n", false},
		{".config/gh/hosts.yml", "github.com:\n  oauth_token: SECRET\n", false},
		{".docker/config.json", "{\"auths\":{\"x\":{\"auth\":\"SECRET\"}}}\n", false},
		{".netrc", "machine x login u password SECRET\n", false},
		{".pypirc", "[pypi]\npassword = SECRET\n", false},
		{".gem/credentials", "---\n:rubygems_api_key: SECRET\n", false},
		{".local/share/keyrings/login.keyring", "SECRET\n", false},
		{".config/git/credentials", "https://u:SECRET@example.com\n", true},
		{".config/git/corp-tokens", "https://u:SECRET@corp.example\n", false},
		{".config/git/late-tokens", "https://u:SECRET@late.example\n", true},
		{".config/git/pat", "SECRET\n", false},
		{".git-credentials", "https://u:SECRET@example.com\n", false},
		{".config/go/env", "GOPROXY=https://u:SECRET@goproxy.corp.example\nGOFLAGS=-mod=mod\n", true},
		{".config/pip/pip.conf", "[global]\nindex-url = https://u:SECRET@pypi.corp.example/simple\n", false},
		{".terraform.d/credentials.tfrc.json", "{\"credentials\":{\"app.terraform.io\":{\"token\":\"SECRET\"}}}\n", false},
		{".kube/config", "users:\n- user:\n    token: SECRET\n", false},
		{".aws/credentials", "[default]\naws_secret_access_key = SECRET\n", false},
		{".aws/config", "[default]\ncredential_process = echo SECRET\n", false},
		{".ssh/id_ed25519", "SECRET\n", false},
		{".ssh/config", "Host x\n  IdentityFile ~/.ssh/SECRET\n", false},
		{".config/gcloud/application_default_credentials.json", "{\"refresh_token\": \"SECRET\"}\n", false},
		{".config/gcloud/credentials.db", "SECRET\n", false},
		{".password-store/web.gpg", "SECRET\n", false},
		{".vault-token", "SECRET\n", false},
		{".pgpass", "host:5432:db:user:SECRET\n", false},
		{".my.cnf", "[client]\npassword=SECRET\n", false},
		{".pip/pip.conf", "[global]\nindex-url = https://u:SECRET@pypi.corp.example/simple\n", false},
		{".yarnrc.yml", "npmAuthToken: SECRET\n", false},
		{".cache/huggingface/token", "SECRET\n", false},
		{".local/share/gem/credentials", "---\n:rubygems_api_key: SECRET\n", false},
		{".bash_history", "export TOKEN=SECRET\n", false},
	}
	// git's settings name a store and a file an inline helper reads; a
	// later change names another store.
	gitconfig := "[user]\n\tname = T\n[credential \"https://corp.example\"]\n\thelper = store --file ~/.config/git/corp-tokens\n" +
		"[credential \"https://pat.example\"]\n\thelper = \"!f() { echo password=$(cat ~/.config/git/pat); }; f\"\n"
	lateGitconfig := gitconfig + "[credential \"https://late.example\"]\n\thelper = store --file=$HOME/.config/git/late-tokens\n"
	toolchainDirs := []string{".cargo/bin", ".gem/gems", ".nvm/versions/node/v20.0.0/bin", ".nvm/versions/node/v20.0.0/lib", ".m2/repository", ".gradle/caches", ".config/go", ".config/git", ".local/bin", ".local/lib"}
	write := func(t *testing.T, p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, layout := range layouts {
		for _, profile := range []safety.Profile{safety.ProfileInspect, safety.ProfileContained} {
			t.Run(layout.name+"/"+string(profile), func(t *testing.T) {
				fx := newHomeFixture(t, true)
				for _, d := range toolchainDirs {
					if err := os.MkdirAll(filepath.Join(fx.home, d), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				write(t, filepath.Join(fx.home, ".config", "git", "config"), gitconfig)
				for _, c := range creds {
					if !c.late {
						write(t, filepath.Join(fx.home, c.rel), c.content)
					}
				}
				getenv := func(k string) string {
					if k == "NVM_DIR" {
						return filepath.Join(fx.home, ".nvm")
					}
					return ""
				}
				var keep []string
				for _, p := range safety.HomeToolchains(fx.home, getenv) {
					if exists(p) {
						keep = append(keep, p)
					}
				}
				pol := safety.SandboxPolicy{Mode: safety.SandboxWorkspace, Root: fx.root, Home: fx.home, Toolchains: keep,
					GitConfigs: safety.GitConfigFiles(fx.home, getenv), SettingsFiles: safety.HomeSettingsFiles(fx.home, getenv)}
				r, _ := pol.Rights(profile)
				spec := Spec{Root: fx.root, Home: fx.home, IsSecret: safety.MaskedSecret, SecretRoots: []string{fx.root}, Flat: layout.flat,
					Writable: r.Writable, Hidden: r.Hidden, ScratchTemp: r.ScratchTemp,
					HideHome: r.HideHome, HomeKeep: r.HomeKept, GitConfigs: r.GitConfigs, SettingsFiles: r.SettingsFiles}
				l := testLauncher(t, spec)
				env := []string{"HOME=" + fx.home, "PATH=" + os.Getenv("PATH")}
				// The helper is built, and idle, before the late files are made.
				if out, _, err := runEnv(t, l, env, "true"); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				write(t, filepath.Join(fx.home, ".config", "git", "config"), lateGitconfig)
				for _, c := range creds {
					if c.late {
						write(t, filepath.Join(fx.home, c.rel), c.content)
					}
				}
				var script []string
				for i, c := range creds {
					script = append(script, "echo c"+strconv.Itoa(i)+": $(cat "+filepath.Join(fx.home, c.rel)+" 2>/dev/null | grep -c SECRET)")
				}
				// What the tools need of the files kept filtered stays (with
				// the namespaces; flat, a file that holds a credential is
				// refused whole).
				kept := map[string]string{".cargo/config.toml": "jobs = 2", ".config/go/env": "GOFLAGS=-mod=mod",
					".nvm/versions/node/v20.0.0/etc/npmrc": "fund=false", ".nvm/versions/node/v22.1.0/etc/npmrc": "fund=false"}
				for rel, line := range kept {
					script = append(script, "echo kept"+strings.ReplaceAll(rel, "/", "_")+": $(grep -c -- '"+line+"' "+filepath.Join(fx.home, rel)+" 2>/dev/null)")
				}
				out, _, err := runEnv(t, l, env, strings.Join(script, "; "))
				if err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				lines := parseProbe(out)
				for i, c := range creds {
					if got := lines["c"+strconv.Itoa(i)]; got != "0" {
						t.Errorf("~/%s (late %v): %s lines with the secret are readable", c.rel, c.late, got)
					}
				}
				want := map[bool]string{false: "1", true: ""}[layout.flat] // flat, grep is refused the file
				for rel := range kept {
					if got := lines["kept"+strings.ReplaceAll(rel, "/", "_")]; got != want {
						t.Errorf("~/%s: %q lines of its settings readable, want %s\n%s", rel, got, want, out)
					}
				}
			})
		}
	}
}
