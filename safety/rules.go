package safety

import (
	"errors"
	"fmt"
	"strings"
)

// Rules are the user's configuration of the classifier.
//
// A rule is a program name followed by argument patterns, separated by
// spaces: "go test *", "npm run *", "git push origin main". Each argument
// pattern matches one word; `*` inside a pattern matches any run of
// characters and `?` any one character. A final lone `*` matches any
// remaining arguments, including none. The program is matched by its name,
// whatever path or case it is spelled with, so "rm *" also matches
// /bin/rm, \rm and RM.
//
// Rules apply to each simple command of a script separately, including the
// command a wrapper runs (sudo, env, timeout, xargs, …) and the commands
// inside bash -c strings and substitutions. Deny rules are checked first: a
// deny match anywhere refuses the whole command. An allow rule lowers the
// command it matches from Confirm to Safe; it never lowers Dangerous.
type Rules struct {
	// Allow lists patterns whose commands run without asking unless they are dangerous.
	Allow []string
	// Deny lists patterns whose commands are refused without asking.
	Deny []string
	// UnknownCommands is how programs the classifier does not know are treated;
	// the zero value asks first.
	UnknownCommands UnknownPolicy
}

// ErrInvalidRule is wrapped by every *RuleError, for callers that only need
// to know that the configuration holds a malformed rule.
var ErrInvalidRule = errors.New("invalid rule")

// RuleError reports a malformed allow or deny pattern and how to fix it.
type RuleError struct {
	List    string // "allow" or "deny"
	Rule    string // the pattern as written
	Problem string // what is wrong
	Fix     string // what to write instead
}

// Error returns one sentence naming the rule, the problem and the fix.
func (e *RuleError) Error() string {
	return fmt.Sprintf("%s rule %q %s; %s", e.List, e.Rule, e.Problem, e.Fix)
}

// Unwrap returns ErrInvalidRule.
func (e *RuleError) Unwrap() error { return ErrInvalidRule }

// pattern is one compiled rule.
type pattern struct {
	text string
	prog string   // normalised program name
	args []string // argument globs, without a trailing lone "*"
	rest bool     // a trailing lone "*": any further arguments match
}

const ruleMeta = ";&|<>()$`'\"\\{}[]!#"

func compilePatterns(list string, rules []string) ([]pattern, error) {
	out := make([]pattern, 0, len(rules))
	for _, r := range rules {
		p, err := compilePattern(list, r)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func compilePattern(list, rule string) (pattern, error) {
	fail := func(problem, fix string) (pattern, error) {
		return pattern{}, &RuleError{List: list, Rule: rule, Problem: problem, Fix: fix}
	}
	words := strings.Fields(rule)
	if len(words) == 0 {
		return fail("is empty", `write a program name followed by argument patterns, e.g. "go test *"`)
	}
	if i := strings.IndexAny(rule, ruleMeta); i >= 0 {
		return fail(fmt.Sprintf("contains %q, which rules do not understand", rule[i:i+1]),
			"write only a program name and argument patterns separated by spaces, e.g. \"npm run *\" (one rule per command)")
	}
	if strings.ContainsAny(words[0], "*?") {
		return fail("does not start with a program name",
			`start the rule with the program, e.g. "npm run *" rather than "* run *"`)
	}
	p := pattern{text: rule, prog: progName(words[0])}
	args := words[1:]
	if n := len(args); n > 0 && args[n-1] == "*" {
		p.rest = true
		args = args[:n-1]
	}
	p.args = args
	if p.prog == WebRuleProgram && !(len(args) == 1 && !p.rest || len(args) == 0 && p.rest) {
		return fail("does not name one domain",
			`write one domain per rule, e.g. "read_web example.com" or "read_web *.example.com"`)
	}
	return p, nil
}

// match reports whether argv (program first) matches the pattern.
func (p pattern) match(argv []field) bool {
	if p.prog == WebRuleProgram {
		return false // a rule about fetching pages, never about a command
	}
	if len(argv) == 0 || !argv[0].known() || progName(argv[0].s) != p.prog {
		return false
	}
	args := argv[1:]
	if len(args) < len(p.args) || (!p.rest && len(args) != len(p.args)) {
		return false
	}
	for i, g := range p.args {
		a := args[i]
		if g == "*" {
			continue
		}
		if !a.known() || !globMatch(g, a.s) {
			return false
		}
	}
	return true
}

// globMatch matches s against a pattern where * is any run and ? any one byte.
func globMatch(pat, s string) bool {
	// Iterative matcher with single-star backtracking: linear in practice.
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(pat) && (pat[pi] == '?' || pat[pi] == s[si]):
			pi++
			si++
		case pi < len(pat) && pat[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

func firstMatch(ps []pattern, argv []field) (string, bool) {
	for _, p := range ps {
		if p.match(argv) {
			return p.text, true
		}
	}
	return "", false
}
