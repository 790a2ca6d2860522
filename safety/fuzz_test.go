package safety

import "testing"

// FuzzClassify checks that the classifier never panics and never calls
// input it could not parse safe.
func FuzzClassify(f *testing.F) {
	for _, tc := range commandCases {
		f.Add(tc.cmd)
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		v := c.classify(cmd) // the variant without the panic guard
		if _, perr := parseScript(cmd); perr != nil && v.Tier == Safe {
			t.Fatalf("%q does not parse (%v) but was classified safe", cmd, perr)
		}
		if v.Tier < Safe || v.Tier > Dangerous {
			t.Fatalf("%q: tier %d out of range", cmd, int(v.Tier))
		}
		if v.Tier > Safe && len(v.Reasons) == 0 {
			t.Fatalf("%q: %v without a reason", cmd, v.Tier)
		}
	})
}
