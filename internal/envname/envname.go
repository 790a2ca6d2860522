// Package envname decides what may be the name of an environment variable
// that a person sets, such as the variable that holds an API key. The
// configuration and the setup screen ask the same question, so they must
// get the same answer.
package envname

// MaxLen is the longest name accepted. Keys are often made of the same
// characters as names (gsk_…, long runs of letters and digits), so a
// longer "name" is more likely a key pasted into the wrong field, and is
// neither accepted nor shown.
const MaxLen = 40

// Valid reports whether s can be such a name: a letter or _ first, then
// letters, digits and _, at most MaxLen of them.
func Valid(s string) bool {
	if s == "" || len(s) > MaxLen {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
