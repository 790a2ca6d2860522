package safety

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestProfileFor(t *testing.T) {
	tests := []struct {
		name  string
		v     Verdict
		asked bool
		want  Profile
	}{
		{"safe, unasked: inspects only", Verdict{Tier: Safe}, false, ProfileInspect},
		{"confirm, unasked (auto)", Verdict{Tier: Confirm}, false, ProfileContained},
		{"confirm, approved", Verdict{Tier: Confirm}, true, ProfileWorkspace},
		{"dangerous, approved twice", Verdict{Tier: Dangerous}, true, ProfileWorkspace},
		{"safe, but a hook made pincer ask", Verdict{Tier: Safe}, true, ProfileWorkspace},
		{"safe by the person's allow rule", Verdict{Tier: Safe, Rule: "npm install"}, false, ProfileWorkspace},
		{"a deny rule's name is no approval", Verdict{Tier: Safe, Rule: "rm *", Denied: true}, false, ProfileInspect},
	}
	for _, tt := range tests {
		if got := ProfileFor(tt.v, tt.asked); got != tt.want {
			t.Errorf("%s: ProfileFor(%+v, %v) = %s, want %s", tt.name, tt.v, tt.asked, got, tt.want)
		}
	}
}

func TestSandboxPolicyRights(t *testing.T) {
	p := SandboxPolicy{Mode: SandboxWorkspace, Root: "/p", Home: "/h", Writable: []string{"/w", "rel"}, Caches: []string{"/h/.cache/go-build"},
		Own:    OwnFiles{ConfigDir: "/h/.config/pincer", DataDir: "/h/.local/share/pincer", TrustFile: "/h/.local/share/pincer/trusted", ThemeDir: "/h/.config/pincer/themes"},
		Binary: "/p/bin/pincer", Network: true, Sockets: []string{"/run/user/1/ssh.sock"}}
	type want struct {
		writable, copies string
		network, mask    bool
		sockets          SocketAccess
		scratch          bool
	}
	check := func(name string, p SandboxPolicy, pr Profile, w want) {
		t.Helper()
		r, ok := p.Rights(pr)
		if !ok {
			t.Fatalf("%s: no rights", name)
		}
		if got := strings.Join(r.Writable, " "); got != w.writable {
			t.Errorf("%s: Writable = %q, want %q", name, got, w.writable)
		}
		if got := strings.Join(r.Copies, " "); got != w.copies {
			t.Errorf("%s: Copies = %q, want %q", name, got, w.copies)
		}
		if r.Network != w.network || r.MaskProjectSecrets != w.mask || r.Sockets != w.sockets || r.ScratchTemp != w.scratch {
			t.Errorf("%s: network %v mask %v sockets %s scratch %v, want %+v", name, r.Network, r.MaskProjectSecrets, r.Sockets, r.ScratchTemp, w)
		}
		for _, h := range []string{"/h/.ssh", "/h/.aws", "/h/.gnupg", "/h/.netrc", "/h/.config/pincer", "/h/.local/share/pincer", "/h/.local/share/pincer/trusted"} {
			if !slices.Contains(r.Hidden, h) {
				t.Errorf("%s: Hidden lacks %s: %v", name, h, r.Hidden)
			}
		}
		if !slices.Contains(r.Pinned, "/p/bin/pincer") {
			t.Errorf("%s: pincer's binary is not pinned: %v", name, r.Pinned)
		}
	}
	check("inspect", p, ProfileInspect, want{"", "/h/.cache/go-build", false, true, SocketsNone, true})
	check("contained", p, ProfileContained, want{"/p", "/h/.cache/go-build", false, true, SocketsOwn, false})
	check("workspace", p, ProfileWorkspace, want{"/p /w /h/.cache/go-build", "", true, false, SocketsListed, false})
	for _, pr := range Profiles() {
		// Only a profile that writes the project unasked needs it.
		if r, _ := p.Rights(pr); r.GitGuard != (pr == ProfileContained) {
			t.Errorf("%s: GitGuard %v: contained commands may change what git runs later", pr, r.GitGuard)
		}
	}
	if r, _ := p.Rights(ProfileWorkspace); !slices.Equal(r.Listed, []string{"/run/user/1/ssh.sock"}) {
		t.Errorf("workspace sockets %v", r.Listed)
	}
	// The network reaches commands that ran unasked only when the person
	// turned it on themselves.
	p.NetworkUnasked = true
	check("contained with sandbox_network: true", p, ProfileContained, want{"/p", "/h/.cache/go-build", true, true, SocketsOwn, false})
	check("inspect with sandbox_network: true", p, ProfileInspect, want{"", "/h/.cache/go-build", false, true, SocketsNone, true})
	p.NetworkUnasked = false
	// Read-only mode: nothing but the temp dir, whatever the profile.
	p.Mode = SandboxReadOnly
	check("read-only mode, approved", p, ProfileWorkspace, want{"", "/h/.cache/go-build", true, true, SocketsNone, true})
	check("read-only mode, contained", p, ProfileContained, want{"", "/h/.cache/go-build", false, true, SocketsNone, true})
	p.Mode = SandboxOff
	for _, pr := range append(Profiles(), ProfileNone) {
		if _, ok := p.Rights(pr); ok {
			t.Errorf("mode off gives %s a jail", pr)
		}
	}
	p.Mode = SandboxWorkspace
	if _, ok := p.Rights(ProfileNone); ok {
		t.Error("ProfileNone has a jail")
	}
}

func TestMaskedSecret(t *testing.T) {
	tests := []struct {
		path      string
		inProject bool
		want      bool
	}{
		{".env", true, true},
		{"sub/.env.production", true, true},
		{".env.example", true, false},
		{"certs/server.key", true, true},
		{"deploy/id_ed25519", true, true},
		{"deploy/id_ed25519.pub", true, false},
		{"main.go", true, false},
		{"README.md", true, false},
		{"~/.ssh", false, true},
		{"~/.aws", false, true},
		{"~/.bash_history", false, true},
		{"~/.docker/config.json", false, true},
		{"~/.config/gh", false, true},
		{"~/.gitconfig", false, false},
		{"~/projects", false, false},
	}
	for _, tt := range tests {
		if got := MaskedSecret(tt.path, tt.inProject); got != tt.want {
			t.Errorf("MaskedSecret(%q, %v) = %v, want %v", tt.path, tt.inProject, got, tt.want)
		}
	}
}

// TestSandboxPolicyHidesHome: commands that run unasked see of home only
// what the toolchains need; approved ones all of it; a project that is
// home, or holds it, leaves home in view and says why.
func TestSandboxPolicyHidesHome(t *testing.T) {
	tools := []string{"/h/.gitconfig", "/h/go/bin", "/opt/go", "/h"}
	for _, tc := range []struct {
		name, root string
		pr         Profile
		mode       SandboxMode
		hide       bool
		note       bool
	}{
		{"inspect, project in home", "/h/src/p", ProfileInspect, SandboxWorkspace, true, false},
		{"contained, project in home", "/h/src/p", ProfileContained, SandboxWorkspace, true, false},
		{"inspect, project outside home", "/srv/proj", ProfileInspect, SandboxWorkspace, true, false},
		{"workspace sees home", "/h/src/p", ProfileWorkspace, SandboxWorkspace, false, false},
		{"read-only mode: approved commands are inspect's", "/h/src/p", ProfileWorkspace, SandboxReadOnly, true, false},
		{"the project is home", "/h", ProfileInspect, SandboxWorkspace, false, true},
		{"the project holds home", "/", ProfileContained, SandboxWorkspace, false, true},
		{"a sibling named like home is no parent", "/h2", ProfileInspect, SandboxWorkspace, true, false},
	} {
		p := SandboxPolicy{Mode: tc.mode, Root: tc.root, Home: "/h", Toolchains: tools, GitConfigs: GitConfigFiles("/h", func(string) string { return "" })}
		r, _ := p.Rights(tc.pr)
		if r.HideHome != tc.hide || (r.HomeNote != "") != tc.note {
			t.Errorf("%s: HideHome %v note %q, want %v, a note %v", tc.name, r.HideHome, r.HomeNote, tc.hide, tc.note)
		}
		if tc.hide && !slices.Equal(r.HomeKept, []string{"/h/.gitconfig", "/h/go/bin"}) {
			t.Errorf("%s: HomeKept = %v, want the toolchain paths in home but home itself", tc.name, r.HomeKept)
		}
		if wantGit := []string{"/h/.config/git/config", "/h/.gitconfig"}; tc.hide != slices.Equal(r.GitConfigs, wantGit) {
			t.Errorf("%s: GitConfigs = %v, want %v filtered only when home is hidden", tc.name, r.GitConfigs, wantGit)
		}
	}
}

func TestHomeToolchains(t *testing.T) {
	env := map[string]string{"GOPATH": "/h/gp1:/h/gp2", "CARGO_HOME": "/h/cargo", "XDG_CONFIG_HOME": "relative", "GOROOT": "/h/sdk/go1.24", "GOENV": "off"}
	got := HomeToolchains("/h", func(k string) string { return env[k] })
	for _, want := range []string{"/h/.gitconfig", "/h/.config/git", "/h/.config/go", "/h/gp1/bin", "/h/gp2/bin", "/h/cargo/bin", "/h/cargo/config.toml", "/h/.rustup", "/h/sdk/go1.24", "/h/.local/bin"} {
		if !slices.Contains(got, want) {
			t.Errorf("HomeToolchains lacks %s: %v", want, got)
		}
	}
	for _, not := range []string{"/h/cargo", "/h/cargo/credentials.toml", "/h/.npmrc", "/h", "off", "/h/go/bin"} {
		if slices.Contains(got, not) {
			t.Errorf("HomeToolchains holds %s: %v", not, got)
		}
	}
	if HomeToolchains("", func(string) string { return "" }) != nil {
		t.Error("no home, yet toolchains in it")
	}
}

// TestHomeSettingsFiles: the toolchains' settings files that may hold a
// credential are named where the environment moves them, as patterns
// that match the npmrc of every Node version, one installed after they
// were made too, and nothing else even where home's name reads as a
// pattern.
func TestHomeSettingsFiles(t *testing.T) {
	for _, homeName := range []string{"home", "h[1]*?"} {
		home := filepath.Join(t.TempDir(), homeName)
		env := map[string]string{"CARGO_HOME": filepath.Join(home, "cargo"), "NVM_DIR": filepath.Join(home, "nvm"), "GOENV": "relative"}
		got := HomeSettingsFiles(home, func(k string) string { return env[k] })
		files := []string{"cargo/config.toml", "cargo/config", ".config/go/env", "nvm/versions/node/v18.0.0/etc/npmrc", "nvm/versions/node/v20.0.0/etc/npmrc", ".volta/tools/image/node/22.1.0/etc/npmrc", "nvm/versions/node/v18.0.0/lib/node_modules/npm/npmrc"}
		for _, rel := range append(files, "nvm/versions/node/v18.0.0/etc/npmrc.bak", "nvm/versions/node/v1/etc/x/npmrc") {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, rel), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// Made after the patterns, as nvm install does while pincer runs.
		late := filepath.Join(home, "nvm", "versions", "node", "v22.0.0", "etc", "npmrc")
		if err := os.MkdirAll(filepath.Dir(late), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(late, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		var matched []string
		for _, pattern := range got {
			m, err := filepath.Glob(pattern)
			if err != nil {
				t.Fatalf("%s: %v", pattern, err)
			}
			matched = append(matched, m...)
		}
		slices.Sort(matched)
		var want []string
		for _, rel := range append(files, "nvm/versions/node/v22.0.0/etc/npmrc") {
			want = append(want, filepath.Join(home, rel))
		}
		slices.Sort(want)
		if !slices.Equal(matched, want) {
			t.Errorf("home %q: HomeSettingsFiles matches\n%v\nwant\n%v", homeName, matched, want)
		}
		// The jails that hide home keep every pattern.
		r, _ := SandboxPolicy{Mode: SandboxWorkspace, Root: filepath.Join(home, "proj"), Home: home, SettingsFiles: got}.Rights(ProfileContained)
		if !slices.Equal(r.SettingsFiles, got) {
			t.Errorf("home %q: contained filters\n%v\nof\n%v", homeName, r.SettingsFiles, got)
		}
	}
	if HomeSettingsFiles("", func(string) string { return "" }) != nil {
		t.Error("no home, yet settings files in it")
	}
}
