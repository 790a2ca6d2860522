package envname

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"OPENAI_API_KEY", true},
		{"_x1", true},
		{"my_key", true},
		{"1ABC", false},
		{"A-B", false},
		{"MY KEY", false},
		{"ÄPI_KEY", false},
		{"", false},
		{"sk-abc", false},
		{strings.Repeat("K", MaxLen), true},
		{strings.Repeat("K", MaxLen+1), false},
		{"gsk_" + strings.Repeat("a1B2", 13), false}, // a key made of name characters
	} {
		if got := Valid(tt.s); got != tt.want {
			t.Errorf("Valid(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
