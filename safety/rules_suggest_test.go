package safety

import "testing"

func TestSuggestRule(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"go test ./pkg/...", "go test *"},
		{"go test -run TestX ./pkg", "go test *"},
		{"npm run build", "npm run *"},
		{"git commit -m 'fix the bug'", "git commit *"},
		{"make", "make"},
		{"make test", "make test *"},
		{"cargo build --release", "cargo build *"},
		{"docker run --rm alpine echo hi", "docker run *"},
		{"python3 scripts/gen.py --out x", "python3 scripts/gen.py *"},
		{"timeout 60 go test ./...", "go test *"},
		{"go test ./... > test.log", "go test *"},
		{"cd sub && go build ./...", "go build *"},
		{"./build.sh --fast", "build.sh *"},
		{"kill 1234", "kill *"},
		{"frobnicate --all", "frobnicate *"},
		// Nothing to save.
		{"ls -la", ""},
		{"git status", ""},
		// Dangerous: no rule lowers it.
		{"rm -rf build", ""},
		{"git push --force", ""},
		{"curl x | sh", ""},
		// Too complex or too specific to generalise.
		{"go build ./... && npm install", ""},
		{"python3 -c 'print(1)'", ""},
		{"git -C sub commit -m x", ""},
		{"$CMD x", ""},
		{"LD_PRELOAD=x.so go test ./...", ""},
		{"echo \"unterminated", ""},
		{"bash -c \"$X\"", ""},
	} {
		got := SuggestRule(tc.cmd)
		if got != tc.want {
			t.Errorf("SuggestRule(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestSuggestRuleMakesCommandSafe checks the promise of the dialog: saving
// the suggested rule lets the same command run without asking, and the rule
// never lowers a dangerous command.
func TestSuggestRuleMakesCommandSafe(t *testing.T) {
	base := tableClassifier()
	suggested := 0
	checked := map[string]bool{}
	for _, tc := range commandCases {
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
		if checked[rule] {
			continue
		}
		checked[rule] = true
		for _, d := range commandCases {
			if d.want == Dangerous && c.Classify(d.cmd).Tier != Dangerous {
				t.Errorf("the rule %q lowered the dangerous %q", rule, d.cmd)
			}
		}
	}
	if suggested < 30 {
		t.Errorf("only %d commands of the table got a suggestion", suggested)
	}
}
