package safetext

import "testing"

// TestMixesScripts checks that identifiers mixing Latin with look-alike
// letters of another script are found, and ordinary text in one script is
// not.
func TestMixesScripts(t *testing.T) {
	cases := []struct {
		word string
		want bool
	}{
		{"p\u0430ypal", true},   // Cyrillic а
		{"is\u0391dmin", true},  // Greek Α
		{"\uff41\uff44", false}, // full-width alone: one script
		{"\uff41dmin", true},    // full-width with Latin
		{"проверка", false},     // Russian
		{"λόγος", false},        // Greek
		{"café", false},         // Latin with an accent
		{"straße", false},       // Latin
		{"isAdmin", false},
		{"Δt", false},       // Greek that looks like no Latin letter
		{"dαta", false},     // α is drawn unlike a
		{"c\u043ent", true}, // Cyrillic о in Latin
	}
	for _, tc := range cases {
		if got := MixesScripts(tc.word); got != tc.want {
			t.Errorf("MixesScripts(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
}
