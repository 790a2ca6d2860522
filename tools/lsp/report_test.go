package lsp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestItemStringIsOneValidLine: a server's message reaches the model on one
// line, cut at whole characters however long or multi-line it is.
func TestItemStringIsOneValidLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, msg string
	}{
		{"long multibyte", "x" + strings.Repeat("é", 400)},
		{"many lines", "first\nsecond\r\nthird"},
		{"long with tabs", strings.Repeat("x\t", 300)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Item{Path: "a.go", Line: 1, Column: 2, Severity: SeverityError, Message: tt.msg}.String()
			if !utf8.ValidString(got) {
				t.Errorf("not valid UTF-8: %q", got)
			}
			if strings.ContainsAny(got, "\r\n\t") {
				t.Errorf("not one line: %q", got)
			}
			if n := utf8.RuneCountInString(got); n > maxLine+40 {
				t.Errorf("%d characters, want about %d at most", n, maxLine)
			}
		})
	}
}
