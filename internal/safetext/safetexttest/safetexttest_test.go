package safetexttest

import (
	"strings"
	"testing"

	"pincer/internal/safetext"
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
	for _, own := range []string{
		"\x1b[1;38;2;1;2;3mstyled\x1b[m\n",
		"\x1b]8;id=1;http://x/␛]52\alink\x1b]8;;\a",
	} {
		if err := Check(own); err != nil {
			t.Errorf("pincer's own styling %q: %v", own, err)
		}
	}
	for _, bad := range []string{
		"\x1b]8;;http://x/\x1b[2J\a",
		"\x1b]8;;http://x/\u202e\a",
		"\x1b]8;;http://x/",
		"\x1b]8;;http://x/\x1b\\",
		"\x1b]8;id=1;http://x/\x1b\\",
		"\x1b]52;c;eA==\a",
	} {
		if Check(bad) == nil {
			t.Errorf("Check passes %q", bad)
		}
	}
}
