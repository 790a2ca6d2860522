package session

import "testing"

// TestSecretPatternsCompile: each secret pattern is compiled the first
// time text holds one of its literals, so a broken one would only show
// then. Each is compiled here.
func TestSecretPatternsCompile(t *testing.T) {
	for _, p := range secretPatterns {
		p.re() // MustCompile panics on a broken expression, failing the test
	}
}
