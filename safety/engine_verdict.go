package safety

import (
	"strings"
	"unicode/utf8"
)

// Verdict is the decision for one command or path access.
type Verdict struct {
	// Tier is the approval the action needs: the highest tier of any part.
	Tier Tier `json:"tier"`
	// Reasons are readable in a dialog, one per part that raised the tier,
	// in the form "<the part>: <why>", dangerous parts first. A Safe verdict
	// has none (an empty slice) unless a deny rule matched.
	Reasons []string `json:"reasons"`
	// Denied is set when a user deny rule matched: the agent refuses without asking.
	Denied bool `json:"denied,omitempty"`
	// Rule is the deny rule that refused the command, or the allow rule that
	// made it safe, when one decided.
	Rule string `json:"rule,omitempty"`
	// Proven names, for each part the closed list proved harmless, the
	// entry that proved it: "<the part>: <entry>".
	Proven []string `json:"proven,omitempty"`
	// Secret, for a file tool's access, says it reads a secret or
	// pincer's own files: what the jail hides from every command, the
	// approved ones included. A blanket yes (pincer run --yes) does not
	// cover it; the tools run outside the jail.
	Secret bool `json:"secret,omitempty"`
}

// acc collects what every part of one classification found.
type acc struct {
	dangerous []string
	confirm   []string
	seen      map[string]bool
	top       Tier
	denied    bool
	denyRule  string
	allowRule string
	allowed   bool // an allow rule lowered some part to Safe
	proven    []string
}

func newAcc() *acc { return &acc{seen: map[string]bool{}} }

// add records one part's tier and reason.
func (a *acc) add(t Tier, reason string) {
	if t > a.top {
		a.top = t
	}
	if t == Safe || a.seen[reason] {
		return
	}
	a.seen[reason] = true
	if t == Dangerous {
		a.dangerous = append(a.dangerous, reason)
	} else {
		a.confirm = append(a.confirm, reason)
	}
}

// prove records the allowlist entry that proved one part.
func (a *acc) prove(entry string) {
	if !a.seen["\x00proof"+entry] {
		a.seen["\x00proof"+entry] = true
		a.proven = append(a.proven, entry)
	}
}

func (a *acc) deny(rule, part string) {
	if !a.denied {
		a.denied, a.denyRule = true, rule
	}
	r := display(part) + ": denied by rule \"" + rule + "\""
	if !a.seen[r] {
		a.seen[r] = true
		a.dangerous = append([]string{r}, a.dangerous...)
	}
}

func (a *acc) verdict() Verdict {
	// Reasons is never nil, so it marshals as [] rather than null.
	v := Verdict{Tier: a.top, Denied: a.denied, Reasons: []string{}}
	if a.top > Safe || a.denied {
		v.Reasons = make([]string, 0, len(a.dangerous)+len(a.confirm))
		v.Reasons = append(v.Reasons, a.dangerous...)
		v.Reasons = append(v.Reasons, a.confirm...)
	}
	v.Proven = a.proven
	switch {
	case a.denied:
		v.Rule = a.denyRule
	case a.top == Safe && a.allowed:
		v.Rule = a.allowRule
	}
	return v
}

// display shortens a command for a dialog line: whitespace runs become one
// space and long text is cut with an ellipsis. A carriage return is not
// whitespace to bash but part of a word, so it is kept: the screen's
// sanitiser shows it (as ␍) where a reason is drawn.
func display(s string) string {
	const max = 72
	var b strings.Builder
	space := false
	n := 0
	s = strings.ReplaceAll(s, unknownParam, "…")
	for _, r := range strings.TrimSpace(s) {
		if r == ' ' || r == '\t' || r == '\n' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= max {
			b.WriteString("…")
			return b.String()
		}
		if r == utf8.RuneError || (r < 0x20 && r != '\r') || r == 0x7f {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
