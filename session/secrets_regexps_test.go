package session

import "testing"

// TestSecretPatternsCompile: each secret pattern is compiled the first
// time text holds one of its literals, so a broken one would only show
// then. Each is compiled here.
func TestSecretPatternsCompile(t *testing.T) {
	for _, p := range secretPatterns {
		if p.re() == nil {
			t.Errorf("the pattern for %q compiled to nil", p.literals)
		}
	}
}
