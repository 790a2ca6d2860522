package safetexttest

import (
	"strings"
	"testing"

	"pincer/ui/safetext"
)

func TestCheck(t *testing.T) {
	for _, tc := range Cases() {
		if Check(tc.Raw) == nil {
			t.Errorf("%s: Check passes the raw string %q", tc.Name, tc.Raw)
		}
		for _, m := range []safetext.Mode{safetext.Line, safetext.Text, safetext.Exact} {
			got := safetext.Sanitize(tc.Raw, m)
			if err := Check(got); err != nil {
				t.Errorf("%s: sanitised %q: %v", tc.Name, got, err)
			}
			if !strings.Contains(got, tc.Visible) {
				t.Errorf("%s: sanitised %q lacks %q", tc.Name, got, tc.Visible)
			}
		}
	}
	if err := Check("\x1b[1;38;2;1;2;3mstyled\x1b[m\n"); err != nil {
		t.Errorf("SGR styling: %v", err)
	}
}
