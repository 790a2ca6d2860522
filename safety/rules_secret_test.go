package safety

import (
	"strings"
	"testing"
)

// TestAllowRulesDoNotCoverSecrets checks that an allow rule, which names a
// program and its arguments, never lowers a read of a secret: "always
// allow" given for git commit -m x must not let git commit -F .env run
// unasked. Reads a changing git command makes through its options are
// judged like any other read.
func TestAllowRulesDoNotCoverSecrets(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"git notes *", "cat *", "sort *", "grep *", "git commit *", "git add *", "git tag *", "rg *", "git log *"}})
	if err != nil {
		t.Fatal(err)
	}
	c = c.WithFiles(keyProject())
	cases := []struct {
		cmd  string
		want Tier
		why  string
	}{
		{"cat .env", Confirm, "reads .env"},
		{"cat ~/.aws/credentials", Confirm, "reads ~/.aws/credentials"},
		{"cat < .env", Confirm, "reads .env"},
		{"sort ~/.config/gh/hosts.yml", Confirm, "credentials"},
		{"grep -f ~/.config/gh/hosts.yml x", Confirm, "credentials"},
		{"cat deploy_key", Confirm, "holds a private key"},
		{"rg foo", Confirm, "holds a private key"},
		{"git log -p -- .env", Confirm, "shows .env"},
		{"git commit -F .env", Confirm, "reads .env"},
		{"git commit -aF.env", Confirm, "reads .env"},
		{"git commit --file=.env", Confirm, "reads .env"},
		{"git commit --fil .env", Confirm, "reads .env"},
		{"git commit -t ~/.netrc", Confirm, "reads ~/.netrc"},
		{"git tag -a v1 -F .env", Confirm, "reads .env"},
		{"git add --pathspec-from-file=.env", Confirm, "reads .env"},
		{"git notes add -F .env", Confirm, "reads .env"},
		// What the rules do cover stays safe.
		{"cat main.go", Safe, ""},
		{"git commit -m -F", Safe, ""},
		{"git commit -m x -F notes", Safe, ""},
		{"git commit -F -", Safe, ""},
		{"git add -A", Safe, ""},
	}
	for _, tc := range cases {
		v := c.Classify(tc.cmd)
		if v.Tier != tc.want || !strings.Contains(strings.Join(v.Reasons, "\n"), tc.why) {
			t.Errorf("%s: %s %q, want %s with %q", tc.cmd, v.Tier, v.Reasons, tc.want, tc.why)
		}
	}
}

// TestNoRuleSuggestedForASecretRead checks that "always allow" offers no
// rule for a command whose question is a secret read: the rule would not
// cover it.
func TestNoRuleSuggestedForASecretRead(t *testing.T) {
	for _, cmd := range []string{"git commit -F .env", "cat .env", "npm run build < .env"} {
		if r := SuggestRule(cmd); r != "" {
			t.Errorf("SuggestRule(%q) = %q, want none", cmd, r)
		}
	}
	if r := SuggestRule("git commit -m x"); r != "git commit *" {
		t.Errorf("SuggestRule(git commit -m x) = %q", r)
	}
}

// TestAllowRulesDoNotCoverProgramsNamedInArguments checks that a rule for
// make or npm run does not vouch for a program named in the arguments:
// make SHELL=… runs every recipe with it, npm --script-shell every script.
func TestAllowRulesDoNotCoverProgramsNamedInArguments(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"make *", "npm run *"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		want Tier
		why  string
	}{
		{"make SHELL=/tmp/evil", Confirm, "sets SHELL"},
		{"make test SHELL:=./evil.sh", Confirm, "sets SHELL"},
		{"make MAKE=/tmp/evil all", Confirm, "sets MAKE"},
		{"make CC=/tmp/evil", Confirm, "sets CC"},
		{"make GOFLAGS=-toolexec=/tmp/x", Confirm, "GOFLAGS"},
		{"make .SHELLFLAGS=-c", Confirm, ".SHELLFLAGS"},
		{"make SHELL='rm -rf ~'", Dangerous, "rm"},
		{"npm run x --script-shell=/tmp/evil", Confirm, "--script-shell"},
		{"npm run x --script-shell /tmp/evil", Confirm, "--script-shell"},
		// npm takes a shortened option name; a config file or node's
		// options choose code too.
		{"npm run x --script-shel=/tmp/evil", Confirm, "--script-shel"},
		{"npm run x --userconfig ./evil.npmrc", Confirm, "--userconfig"},
		{"npm run x --globalc=./evil.npmrc", Confirm, "--globalconfig"},
		{"npm run x --node-options=--require=./evil.js", Confirm, "--node-options"},
		{"npm run x --shell=/tmp/evil", Confirm, "--shell"},
		// Makefiles from outside the project, by option or variable.
		{"make -f /tmp/evil.mk", Confirm, "/tmp/evil.mk"},
		{"make --file=/tmp/evil.mk all", Confirm, "/tmp/evil.mk"},
		{"make -I /tmp x", Confirm, "(-I)"},
		{"make -C /tmp/evil", Confirm, "(-C)"},
		{"make MAKEFILES=/tmp/e.mk", Confirm, "MAKEFILES"},
		{"make MAKEFLAGS=-f/tmp/e.mk", Confirm, "MAKEFLAGS"},
		{"make -C sub -f build.mk test", Safe, ""},
		{"npm run build --silent", Safe, ""},
		{"make", Safe, ""},
		{"make DEBUG=1 -j4 test", Safe, ""},
		{"npm run build", Safe, ""},
	}
	for _, tc := range cases {
		v := c.Classify(tc.cmd)
		if v.Tier != tc.want || !strings.Contains(strings.Join(v.Reasons, "\n"), tc.why) {
			t.Errorf("%s: %s %q, want %s with %q", tc.cmd, v.Tier, v.Reasons, tc.want, tc.why)
		}
	}
}
