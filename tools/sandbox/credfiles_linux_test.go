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
// ~/.config/go, ~/.config/git): home, the kept paths and the secrets are
// those pincer's own policy gives the jail.
func TestJailHidesCredentialFiles(t *testing.T) {
	creds := []struct{ rel, content string }{
		{".cargo/credentials.toml", "[registry]\ntoken = \"SECRET\"\n"},
		{".cargo/credentials", "[registry]\ntoken = \"SECRET\"\n"},
		{".cargo/config.toml", "[build]\njobs = 2\n[registries.corp]\nindex = \"https://corp.example/index\"\ntoken = \"SECRET\"\n"},
		{".npmrc", "//registry.npmjs.org/:_authToken=SECRET\n"},
		{".nvm/versions/node/v20.0.0/etc/npmrc", "//registry.npmjs.org/:_authToken=SECRET\nfund=false\n"},
		{".m2/settings.xml", "<settings><servers><server><password>SECRET</password></server></servers></settings>\n"},
		{".m2/settings-security.xml", "<settingsSecurity><master>SECRET</master></settingsSecurity>\n"},
		{".gradle/gradle.properties", "mavenPassword=SECRET\n"},
		{".config/gh/hosts.yml", "github.com:\n  oauth_token: SECRET\n"},
		{".docker/config.json", "{\"auths\":{\"x\":{\"auth\":\"SECRET\"}}}\n"},
		{".netrc", "machine x login u password SECRET\n"},
		{".pypirc", "[pypi]\npassword = SECRET\n"},
		{".gem/credentials", "---\n:rubygems_api_key: SECRET\n"},
		{".local/share/keyrings/login.keyring", "SECRET\n"},
		{".config/git/credentials", "https://u:SECRET@example.com\n"},
		{".git-credentials", "https://u:SECRET@example.com\n"},
		{".config/go/env", "GOPROXY=https://u:SECRET@goproxy.corp.example\nGOFLAGS=-mod=mod\n"},
		{".config/pip/pip.conf", "[global]\nindex-url = https://u:SECRET@pypi.corp.example/simple\n"},
		{".terraform.d/credentials.tfrc.json", "{\"credentials\":{\"app.terraform.io\":{\"token\":\"SECRET\"}}}\n"},
		{".kube/config", "users:\n- user:\n    token: SECRET\n"},
		{".aws/credentials", "[default]\naws_secret_access_key = SECRET\n"},
		{".ssh/id_ed25519", "SECRET\n"},
		{".config/gcloud/application_default_credentials.json", "{\"refresh_token\": \"SECRET\"}\n"},
		{".password-store/web.gpg", "SECRET\n"},
		{".vault-token", "SECRET\n"},
		{".pgpass", "host:5432:db:user:SECRET\n"},
		{".my.cnf", "[client]\npassword=SECRET\n"},
		{".pip/pip.conf", "[global]\nindex-url = https://u:SECRET@pypi.corp.example/simple\n"},
		{".yarnrc.yml", "npmAuthToken: SECRET\n"},
		{".cache/huggingface/token", "SECRET\n"},
		{".local/share/gem/credentials", "---\n:rubygems_api_key: SECRET\n"},
		{".bash_history", "export TOKEN=SECRET\n"},
	}
	toolchainDirs := []string{".cargo/bin", ".gem/gems", ".nvm/versions/node/v20.0.0/bin", ".nvm/versions/node/v20.0.0/lib", ".m2/repository", ".gradle/caches", ".config/go", ".config/git", ".local/bin", ".local/lib"}
	for _, layout := range layouts {
		for _, contained := range []bool{false, true} {
			name := layout.name + "/inspect"
			if contained {
				name = layout.name + "/contained"
			}
			t.Run(name, func(t *testing.T) {
				fx := newHomeFixture(t, true)
				for _, d := range toolchainDirs {
					if err := os.MkdirAll(filepath.Join(fx.home, d), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				for _, c := range creds {
					p := filepath.Join(fx.home, c.rel)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(c.content), 0o600); err != nil {
						t.Fatal(err)
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
				spec := Spec{Root: fx.root, Home: fx.home, IsSecret: safety.MaskedSecret, SecretRoots: []string{fx.root}, Flat: layout.flat,
					HideHome: true, HomeKeep: keep, GitConfigs: safety.GitConfigFiles(fx.home, getenv),
					SettingsFiles: safety.HomeSettingsFiles(fx.home, getenv),
					Hidden:        []string{filepath.Join(fx.home, ".netrc"), filepath.Join(fx.home, ".git-credentials")}}
				if contained {
					spec.Writable = []string{fx.root}
				} else {
					spec.ScratchTemp = true
				}
				l := testLauncher(t, spec)
				var script []string
				for i, c := range creds {
					script = append(script, "echo c"+strconv.Itoa(i)+": $(cat "+filepath.Join(fx.home, c.rel)+" 2>/dev/null | grep -c SECRET)")
				}
				// What the tools need of the files kept filtered stays (with
				// the namespaces; flat, a file that holds a credential is
				// refused whole).
				kept := map[string]string{".cargo/config.toml": "jobs = 2", ".config/go/env": "GOFLAGS=-mod=mod", ".nvm/versions/node/v20.0.0/etc/npmrc": "fund=false"}
				for rel, line := range kept {
					script = append(script, "echo kept"+strings.ReplaceAll(rel, "/", "_")+": $(grep -c -- '"+line+"' "+filepath.Join(fx.home, rel)+" 2>/dev/null)")
				}
				out, _, err := runEnv(t, l, []string{"HOME=" + fx.home, "PATH=" + os.Getenv("PATH")}, strings.Join(script, "; "))
				if err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				lines := parseProbe(out)
				for i, c := range creds {
					if got := lines["c"+strconv.Itoa(i)]; got != "0" {
						t.Errorf("~/%s: %s lines with the secret are readable", c.rel, got)
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
