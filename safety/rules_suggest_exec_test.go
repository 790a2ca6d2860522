package safety

import "testing"

// TestSuggestRuleExecCases holds the dialog's promise for the commands of
// execCases: a suggested rule makes the same command safe, and is never
// offered for a command it could not make safe.
func TestSuggestRuleExecCases(t *testing.T) {
	base := tableClassifier()
	suggested := 0
	for _, tc := range execCases {
		rule := base.suggest(tc.cmd)
		if rule == "" {
			continue
		}
		suggested++
		if tc.want != Confirm {
			t.Errorf("SuggestRule(%q) = %q for a %v command", tc.cmd, rule, tc.want)
			continue
		}
		c, err := base.WithAllow(rule)
		if err != nil {
			t.Errorf("SuggestRule(%q) = %q, which does not compile: %v", tc.cmd, rule, err)
			continue
		}
		if got := c.Classify(tc.cmd).Tier; got != Safe {
			t.Errorf("with the suggested rule %q, %q is still %v", rule, tc.cmd, got)
		}
	}
	if suggested == 0 {
		t.Fatal("no command of the table got a suggested rule: nothing was checked")
	}
}
