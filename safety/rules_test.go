package safety

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestRuleErrors(t *testing.T) {
	for _, tc := range []struct {
		rule    string
		problem string
	}{
		{"", "is empty"},
		{"   ", "is empty"},
		{"* run *", "does not start with a program name"},
		{"?m -rf", "does not start with a program name"},
		{"go test; rm -rf ~", `contains ";"`},
		{"npm run $(x)", `contains "$"`},
		{"ls | sh", `contains "|"`},
		{"git log 'x y'", `contains "'"`},
		{"rm [abc]", `contains "["`},
		{"echo `id`", "contains \"`\""},
	} {
		for _, list := range []string{"allow", "deny"} {
			r := Rules{}
			if list == "allow" {
				r.Allow = []string{"go test *", tc.rule}
			} else {
				r.Deny = []string{tc.rule}
			}
			c, err := NewClassifier(r)
			if err == nil || c != nil {
				t.Errorf("%s rule %q: accepted", list, tc.rule)
				continue
			}
			if !errors.Is(err, ErrInvalidRule) {
				t.Errorf("%s rule %q: error %v does not wrap ErrInvalidRule", list, tc.rule, err)
			}
			var re *RuleError
			if !errors.As(err, &re) || re.Rule != tc.rule || re.List != list {
				t.Errorf("%s rule %q: error %#v does not name the rule", list, tc.rule, err)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.problem) || !strings.Contains(msg, list+" rule ") || !strings.Contains(msg, "e.g.") {
				t.Errorf("%s rule %q: message %q lacks the problem %q or an example fix", list, tc.rule, msg, tc.problem)
			}
		}
	}
}

func TestWithAllowRejectsBadRuleAndKeepsOriginal(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"go test *"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WithAllow("ok *", "bad;rule"); !errors.Is(err, ErrInvalidRule) {
		t.Fatalf("WithAllow with a bad rule: %v", err)
	}
	more, err := c.WithAllow("npm run *")
	if err != nil {
		t.Fatal(err)
	}
	if got := more.Classify("npm run build").Tier; got != Safe {
		t.Errorf("with the session rule, npm run build is %v", got)
	}
	if got := c.Classify("npm run build").Tier; got != Confirm {
		t.Errorf("WithAllow changed the original classifier: npm run build is %v", got)
	}
	if got := c.Classify("go test ./...").Tier; got != Safe {
		t.Errorf("the original allow rule stopped working: %v", got)
	}
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rules     Rules
		cmd       string
		want      Tier
		denied    bool
		rule      string
		reasonHas string
	}{
		{"allow lowers confirm", Rules{Allow: []string{"go test *"}}, "go test ./pkg/...", Safe, false, "go test *", ""},
		{"trailing star matches no arguments", Rules{Allow: []string{"go test *"}}, "go test", Safe, false, "go test *", ""},
		{"allow needs the words it names", Rules{Allow: []string{"go test *"}}, "go build ./...", Confirm, false, "", "go build"},
		{"exact rule", Rules{Allow: []string{"make lint"}}, "make lint", Safe, false, "make lint", ""},
		{"exact rule does not take more words", Rules{Allow: []string{"make lint"}}, "make lint fix", Confirm, false, "", ""},
		{"glob inside a word", Rules{Allow: []string{"git push origin feature-*"}}, "git push origin feature-login", Safe, false, "git push origin feature-*", ""},
		{"glob inside a word does not match others", Rules{Allow: []string{"git push origin feature-*"}}, "git push origin main", Confirm, false, "", ""},
		{"lone star is one word", Rules{Allow: []string{"npm * build"}}, "npm run build", Safe, false, "npm * build", ""},
		{"program by name whatever the path", Rules{Allow: []string{"make *"}}, "/usr/bin/make all", Safe, false, "make *", ""},
		{"allow never lowers dangerous", Rules{Allow: []string{"rm *"}}, "rm -rf build", Dangerous, false, "", "recursive"},
		{"allow never lowers dangerous git", Rules{Allow: []string{"git *"}}, "git push --force", Dangerous, false, "", "force push"},
		{"allow covers the part's ordinary redirect", Rules{Allow: []string{"go test *"}}, "go test ./... > test.log", Safe, false, "go test *", ""},
		{"allow does not cover a dangerous redirect", Rules{Allow: []string{"go test *"}}, "go test ./... > /etc/x", Dangerous, false, "", "/etc/x"},
		{"allow through a wrapper", Rules{Allow: []string{"go test *"}}, "timeout 60 go test ./...", Safe, false, "go test *", ""},
		{"allow does not lower a library injection", Rules{Allow: []string{"go test *"}}, "LD_PRELOAD=x.so go test ./...", Dangerous, false, "", "LD_PRELOAD"},
		{"allow does not lower a changed PATH", Rules{Allow: []string{"go test *"}}, "PATH=/tmp/bin:$PATH go test ./...", Confirm, false, "", "PATH"},
		{"allow lowers only its own part", Rules{Allow: []string{"go test *"}}, "go test ./... && npm install", Confirm, false, "", "npm install"},
		{"allow each part", Rules{Allow: []string{"go test *", "npm install"}}, "go test ./... && npm install", Safe, false, "go test *", ""},
		{"allow a wrapper lowers what it runs", Rules{Allow: []string{"xargs *"}}, "ls | xargs touch", Safe, false, "xargs *", ""},
		{"allow a wrapper never lowers dangerous", Rules{Allow: []string{"xargs *"}}, "ls | xargs rm", Dangerous, false, "", ""},
		{"allow nested command", Rules{Allow: []string{"npm run *"}}, "bash -c 'npm run build'", Safe, false, "npm run *", ""},
		{"dynamic program never matches", Rules{Allow: []string{"go test *"}}, "$GO test ./...", Confirm, false, "", "run time"},
		{"a program named by a substitution still asks", Rules{Allow: []string{"go test *"}}, "$(echo go) test ./...", Confirm, false, "", "substitution"},
		{"deny refuses", Rules{Deny: []string{"git push *"}}, "git push origin main", Confirm, true, "git push *", `denied by rule "git push *"`},
		{"deny beats allow", Rules{Allow: []string{"git *"}, Deny: []string{"git push *"}}, "git push origin main", Confirm, true, "git push *", "denied"},
		{"deny a safe command", Rules{Deny: []string{"cat *"}}, "cat README.md", Safe, true, "cat *", "denied"},
		{"deny inside a pipeline", Rules{Deny: []string{"curl *"}}, "ls && curl https://x | jq .", Confirm, true, "curl *", "denied"},
		{"deny inside bash -c", Rules{Deny: []string{"rm *"}}, "bash -c 'rm notes.txt'", Confirm, true, "rm *", "denied"},
		{"deny inside a substitution", Rules{Deny: []string{"rm *"}}, "echo $(rm notes.txt)", Confirm, true, "rm *", "denied"},
		{"deny through sudo", Rules{Deny: []string{"rm *"}}, "sudo rm notes.txt", Dangerous, true, "rm *", "denied"},
		{"deny through env", Rules{Deny: []string{"rm *"}}, "env rm x", Confirm, true, "rm *", "denied"},
		{"deny by name whatever the spelling", Rules{Deny: []string{"rm *"}}, `\RM x`, Confirm, true, "rm *", "denied"},
		{"deny a possible value", Rules{Deny: []string{"rm *"}}, "${X:-rm} x", Confirm, true, "rm *", "denied"},
		{"deny does not match others", Rules{Deny: []string{"rm *"}}, "ls", Safe, false, "", ""},
		{"unknown programs ask by default", Rules{}, "frobnicate", Confirm, false, "", "does not know"},
		{"unknown programs may be safe", Rules{UnknownCommands: UnknownSafe}, "frobnicate", Safe, false, "", ""},
		{"known risks stay with unknown safe", Rules{UnknownCommands: UnknownSafe}, "frobnicate > /etc/passwd", Dangerous, false, "", "/etc/passwd"},
		{"known programs stay with unknown safe", Rules{UnknownCommands: UnknownSafe}, "git commit -m x", Confirm, false, "", ""},
		{"dynamic programs still ask with unknown safe", Rules{UnknownCommands: UnknownSafe}, "$CMD x", Confirm, false, "", "run time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewClassifier(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			v := c.Classify(tc.cmd)
			if v.Tier != tc.want || v.Denied != tc.denied || v.Rule != tc.rule {
				t.Fatalf("%q = %+v; want tier %v, denied %v, rule %q", tc.cmd, v, tc.want, tc.denied, tc.rule)
			}
			if tc.reasonHas != "" && !strings.Contains(strings.Join(v.Reasons, "\n"), tc.reasonHas) {
				t.Fatalf("%q reasons %q lack %q", tc.cmd, v.Reasons, tc.reasonHas)
			}
		})
	}
}

func TestInvalidUnknownPolicy(t *testing.T) {
	if _, err := NewClassifier(Rules{UnknownCommands: UnknownPolicy(9)}); !errors.Is(err, ErrInvalidTier) {
		t.Fatalf("NewClassifier with UnknownPolicy(9): %v", err)
	}
}

func TestReasonFormat(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, reason string }{
		{"rm -rf build/", "rm -rf build/: recursive forced delete"},
		{"ls && rm -rf build/", "rm -rf build/: recursive forced delete"},
		{"git push -f", "git push -f: force push: rewrites history on the remote"},
		{"echo hi > out.txt", "echo hi > out.txt: writes out.txt"},
		{"frobnicate", "frobnicate: runs frobnicate, a program pincer does not know"},
	} {
		v := c.Classify(tc.cmd)
		if len(v.Reasons) == 0 || v.Reasons[0] != tc.reason {
			t.Errorf("%q reasons = %q, want first %q", tc.cmd, v.Reasons, tc.reason)
		}
	}
	// Dangerous reasons come before the ones that only need one approval.
	v := c.Classify("npm install; rm -rf x")
	if len(v.Reasons) != 2 || !strings.HasPrefix(v.Reasons[0], "rm -rf x") {
		t.Errorf("reasons = %q, want the dangerous one first", v.Reasons)
	}
	// A safe command has no reasons.
	if v := c.Classify("ls -la"); len(v.Reasons) != 0 {
		t.Errorf("ls -la has reasons %q", v.Reasons)
	}
	// Long commands are shortened for the dialog.
	v = c.Classify("rm -rf " + strings.Repeat("very/long/path/", 20))
	if r := v.Reasons[0]; len([]rune(r)) > 120 || !strings.Contains(r, "…") {
		t.Errorf("long reason not shortened: %q", r)
	}
}

func TestClassifierConcurrentUse(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"go test *"}})
	if err != nil {
		t.Fatal(err)
	}
	c = c.WithFiles(cleanProject())
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			session, err := c.WithAllow("npm run *")
			if err != nil {
				errs <- err.Error()
				return
			}
			for j := 0; j < 50; j++ {
				for _, tc := range commandCases[:40] {
					if got := c.Classify(tc.cmd).Tier; got != tc.want {
						errs <- tc.cmd + ": " + got.String()
						return
					}
				}
				if session.Classify("npm run build").Tier != Safe || c.Classify("npm run build").Tier != Confirm {
					errs <- "session rule leaked or was lost"
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
