package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMissingGoCache: a command in a jail gets a Go build cache in its
// temp dir exactly when the one go would use does not exist.
func TestMissingGoCache(t *testing.T) {
	home, tmp := t.TempDir(), "/jail-tmp"
	made := filepath.Join(t.TempDir(), "cache")
	if err := os.MkdirAll(filepath.Join(made, "go-build"), 0o700); err != nil {
		t.Fatal(err)
	}
	inTmp := "GOCACHE=" + filepath.Join(tmp, ".cache", "go-build")
	for _, tc := range []struct {
		name string
		env  []string
		want string // the GOCACHE entry expected, "" for none
	}{
		{"fresh home", []string{"PATH=/bin"}, inTmp},
		{"XDG cache without go-build", []string{"XDG_CACHE_HOME=" + filepath.Join(home, "x")}, inTmp},
		{"XDG cache with go-build", []string{"XDG_CACHE_HOME=" + made}, ""},
		{"GOCACHE that exists", []string{"GOCACHE=" + filepath.Join(made, "go-build")}, "GOCACHE=" + filepath.Join(made, "go-build")},
		{"GOCACHE missing", []string{"GOCACHE=" + filepath.Join(home, "nope")}, inTmp},
		{"GOCACHE off", []string{"GOCACHE=off"}, "GOCACHE=off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := missingGoCache(slices.Clone(tc.env), home, tmp)
			var have string
			for _, kv := range got {
				if len(kv) > 8 && kv[:8] == "GOCACHE=" {
					have = kv
				}
			}
			if have != tc.want {
				t.Errorf("GOCACHE entry %q, want %q (env %v)", have, tc.want, got)
			}
		})
	}
}
