//go:build linux

package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/safety"
)

// TestRunCommandWarnsOfANewRepository: a command that ran unasked in
// contained and made a new git repository in the project (which git
// would enter later and run the settings of, outside any jail) is
// reported, inside a directory named like a secret too; one that only
// changes files, or runs approved, is not. Both ways of listing the git
// dirs are tried: from the jail's scan of the project (which reads again
// only what changed) and, where the jail masks no secrets, by walking it.
func TestRunCommandWarnsOfANewRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, scanned := range []bool{true, false} {
		t.Run(map[bool]string{true: "scan", false: "walk"}[scanned], func(t *testing.T) {
			root := tempRoot(t)
			if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			if err := os.MkdirAll(filepath.Join(root, "deep", "er"), 0o755); err != nil {
				t.Fatal(err)
			}
			sb := testSandbox(t, root, filepath.Dir(root))
			spec := sb.Specs[safety.ProfileContained]
			spec.GitGuard = true
			if scanned {
				spec.SecretRoots, spec.IsSecret = []string{root}, safety.MaskedSecret
			}
			sb.Specs[safety.ProfileContained] = spec
			defer sb.Close()
			o := Options{Root: root, Sandbox: sb, MaxOutput: 1 << 16}
			for _, tc := range []struct {
				name    string
				profile safety.Profile
				cmd     string
				warn    string
			}{
				{"edit", safety.ProfileContained, "echo x > a.txt", ""},
				{"nested repository", safety.ProfileContained, "mkdir -p evil/.git && echo '[core]' > evil/.git/config && touch evil/.git/HEAD", "evil/.git"},
				{"git init", safety.ProfileContained, "git init -q planted", "planted/.git"},
				{"git init deep down", safety.ProfileContained, "git init -q deep/er/x", "deep/er/x/.git"},
				{"a .git file", safety.ProfileContained, "mkdir -p sub2 && echo 'gitdir: ../x' > sub2/.git", "sub2/.git"},
				{"inside a secret-looking dir", safety.ProfileContained, "mkdir -p credentials.d && git init -q credentials.d/r", "credentials.d/r/.git"},
				{"a submodule's git dir", safety.ProfileContained, "mkdir -p .git/modules/m/objects && touch .git/modules/m/HEAD", ".git/modules/m"},
				{"nothing new after those", safety.ProfileContained, "echo y >> a.txt", ""},
				{"approved", safety.ProfileWorkspace, "git init -q mine", ""},
			} {
				res := runIn(t, o, tc.profile, tc.cmd)
				got := strings.Contains(res.Content, "WARNING: the command made a new git repository")
				if got != (tc.warn != "") || tc.warn != "" && !strings.Contains(res.Content, tc.warn) {
					t.Errorf("%s: warned %v, want %q:\n%s", tc.name, got, tc.warn, res.Content)
				}
			}
			if _, err := os.Stat(filepath.Join(root, "planted", ".git")); err != nil {
				t.Errorf("git init did not run in contained: %v", err)
			}
		})
	}
}
