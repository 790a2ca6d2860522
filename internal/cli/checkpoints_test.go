package cli

import "testing"

func TestUnrecordable(t *testing.T) {
	for _, tc := range []struct {
		root, home string
		want       bool
	}{
		{"/", "/home/u", true},
		{"/home/u", "/home/u", true},
		{"/home/u/", "/home/u", true},
		{"/home/u/src/app", "/home/u", false},
		{"/srv/app", "", false},
	} {
		if got := unrecordable(tc.root, tc.home) != ""; got != tc.want {
			t.Errorf("unrecordable(%q, %q) = %v, want %v", tc.root, tc.home, got, tc.want)
		}
	}
}
