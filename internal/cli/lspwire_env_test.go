package cli

import (
	"slices"
	"testing"
)

// TestLSPEnvironHasNoSecrets: language servers, started without asking,
// get the environment less the variables named like secrets.
func TestLSPEnvironHasNoSecrets(t *testing.T) {
	in := []string{"PATH=/bin", "GOPATH=/go", "GITHUB_TOKEN=t", "DB_PASSWORD=p", "AWS_SECRET_ACCESS_KEY=s", "HOME=/h"}
	got := lspEnviron(in)
	if want := []string{"PATH=/bin", "GOPATH=/go", "HOME=/h"}; !slices.Equal(got, want) {
		t.Errorf("lspEnviron = %v, want %v", got, want)
	}
	if len(in) != 6 || in[2] != "GITHUB_TOKEN=t" {
		t.Errorf("the caller's environment was changed: %v", in)
	}
}
