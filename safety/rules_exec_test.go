package safety

import "testing"

// TestAllowDoesNotVouchForHiddenCode checks that an allow rule for a
// command does not lower what the rule cannot see: another repository's
// configuration, a program named in an option, text the shell evaluates.
func TestAllowDoesNotVouchForHiddenCode(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"git status *", "git log *", "go vet *", "pip list *", "read *", "git fetch *"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"cd /tmp/repo && git status",
		"git -C /tmp/repo status",
		"git --git-dir=/tmp/x.git log",
		"git -c core.fsmonitor=/tmp/x status",
		"git fetch --upload-pack=/tmp/x origin",
		"go vet -vettool=/tmp/x ./...",
		"pip list --python /tmp/py",
		"read 'a[$(touch /tmp/x)]' <<< x",
	} {
		if v := c.Classify(cmd); v.Tier == Safe {
			t.Errorf("%q: an allow rule made it safe (%s)", cmd, v.Rule)
		}
	}
	for _, cmd := range []string{"git status --short", "go vet ./...", "git fetch origin"} {
		if v := c.Classify(cmd); v.Tier != Safe {
			t.Errorf("%q: %v, want safe under its allow rule", cmd, v.Tier)
		}
	}
}
