package safety

import (
	"regexp"
	"testing"
)

// TestRegexpsCompile: the package's regular expressions are compiled on
// first use, not when the program starts (most runs never classify a
// command that needs them), so a broken one would only show when a
// command reached it. Each is compiled here.
func TestRegexpsCompile(t *testing.T) {
	for _, re := range []func() *regexp.Regexp{
		pipeToShellRe, awkSystemRe, awkWriteRe, awkStrRe, awkOutRe, networkCodeRe, evalRe,
		literalRe, concatRe, reverseShellRe, sqlDropRe, sqlTruncRe, sqlAlterDrop, sqlNoSQLRe,
		sqlStmtHeadRe, sqlWhereRe, secretVarRe, secretNameRe, jqEnvRe, makeShellRe, makeRefRe,
	} {
		re() // MustCompile panics on a broken expression, failing the test
	}
	for lang, rules := range codeRules() {
		for _, r := range rules {
			if r.re == nil {
				t.Errorf("%s: a code rule (%s) has no expression", lang, r.why)
			}
		}
	}
	for lang, re := range shellOut() {
		if re == nil {
			t.Errorf("%s: no shell-out expression", lang)
		}
	}
}
