package session

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// secretPatterns match text that looks like a credential: the prefixes
// well-known services give their keys and tokens, private key blocks, JSON
// web tokens, "password = …" style assignments and bearer headers. What
// they match is never indexed, so it can never be recalled into another
// conversation or shown as a search snippet.
var secretPatterns = []secretPattern{
	{lazyRegexp(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)`), []string{"private key"}},
	{lazyRegexp(`\b(sk|pk|rk)-(proj-|live-|test-|ant-)?[A-Za-z0-9_\-]{16,}`), []string{"sk-", "pk-", "rk-"}},
	{lazyRegexp(`\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}`), []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}},
	{lazyRegexp(`\bglpat-[A-Za-z0-9_\-]{16,}`), []string{"glpat-"}},
	{lazyRegexp(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`), []string{"akia", "asia"}},
	{lazyRegexp(`\bAIza[0-9A-Za-z_\-]{30,}`), []string{"aiza"}},
	{lazyRegexp(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`), []string{"xox"}},
	{lazyRegexp(`\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}`), []string{"_live_", "_test_"}},
	{lazyRegexp(`\bnpm_[A-Za-z0-9]{30,}`), []string{"npm_"}},
	{lazyRegexp(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), []string{"eyj"}},
	{lazyRegexp(`(?i)\b(bearer|token)[ \t]+[A-Za-z0-9_\-\.=+/]{16,}`), []string{"bearer", "token"}},
	{lazyRegexp(`(?i)(password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|credentials?)[a-z_\-]*["']?[ \t]*[:=][ \t]*["']?[^\s"',;]{6,}`),
		[]string{"password", "passwd", "pwd", "secret", "token", "key", "credential"}},
	{lazyRegexp(`(?i)\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:[^\s@/]{3,}@`), []string{"://"}},
}

// secretPattern is a pattern and the literals (lower case) one of which
// any match contains, so that the pattern runs only on text that has one:
// most messages have none, and indexing and every search snippet pass
// through here.
type secretPattern struct {
	re       func() *regexp.Regexp // compiled the first time a literal is met
	literals []string
}

// lazyRegexp is expr compiled on the first call.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// redactSecrets returns text with everything that looks like a secret
// blanked out, and whether there was any.
func redactSecrets(text string) (string, bool) {
	out, n := redactWith(text, " ")
	return out, n > 0
}

// RedactMark is what an export writes in place of secret-looking text.
const RedactMark = "[redacted]"

// RedactSecrets returns text with everything that looks like a secret —
// what the recall index never holds — replaced by RedactMark, and how
// many pieces were replaced.
func RedactSecrets(text string) (string, int) { return redactWith(text, RedactMark) }

// LooksSecret reports whether text holds something that looks like a
// secret: such text is never indexed, so it is never recalled.
func LooksSecret(text string) bool {
	_, n := redactWith(text, " ")
	return n > 0
}

// SecretNoteWarning is what pincer says when note id looks like it holds
// a secret, wherever it was saved.
func SecretNoteWarning(id uint64) string {
	return fmt.Sprintf("note %d looks like it holds a secret (a key, a token, a password). Secret-looking text is never indexed, so that part will never be recalled; keep secrets out of notes (pincer memory edit %d or rm %d changes it).", id, id, id)
}

// redactWith replaces each secret-looking piece of text with mark and
// counts them. A mark other than a space is put in at the end, so that a
// later pattern cannot take a mark for a secret ("key = [redacted]") and
// count it twice.
func redactWith(text, mark string) (string, int) {
	final := mark
	if mark != " " {
		// No pattern can take NULs and semicolons for part of a secret;
		// the placeholder is made longer until the text does not hold it.
		mark = "\x00;\x00"
		for strings.Contains(text, mark) {
			mark += ";\x00"
		}
	}
	found := 0
	lower := strings.ToLower(text)
	for _, p := range secretPatterns {
		if !containsAny(lower, p.literals) {
			continue
		}
		if n := len(p.re().FindAllStringIndex(text, -1)); n > 0 {
			found += n
			text = p.re().ReplaceAllLiteralString(text, mark)
			lower = strings.ToLower(text)
		}
	}
	out, n := redactRandomTokens(text, mark)
	if final != mark {
		out = strings.ReplaceAll(out, mark, final)
	}
	return out, found + n
}

// redactRandomTokens replaces words of 32 or more characters that mix
// upper case, lower case and digits, as generated keys do, with mark;
// hashes (hex, one case) and identifiers (no digits) are left alone.
func redactRandomTokens(text, mark string) (string, int) {
	var b strings.Builder
	found := 0
	start := -1
	flush := func(end int) {
		word := text[start:end]
		if looksRandom(word) {
			found++
			b.WriteString(mark)
		} else {
			b.WriteString(word)
		}
		start = -1
	}
	for i, r := range text {
		keyRune := r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '+' || r == '/' || r == '=')
		switch {
		case keyRune && start < 0:
			start = i
		case !keyRune && start >= 0:
			flush(i)
			b.WriteRune(r)
		case !keyRune:
			b.WriteRune(r)
		}
	}
	if start >= 0 {
		flush(len(text))
	}
	if found == 0 {
		return text, 0
	}
	return b.String(), found
}

// looksRandom reports whether word looks like a generated key.
func looksRandom(word string) bool {
	if len(word) < 32 || strings.Contains(word, "/") && strings.Count(word, "/") > 2 {
		return false
	}
	var upper, lower, digit int
	for _, r := range word {
		switch {
		case r >= 'A' && r <= 'Z':
			upper++
		case r >= 'a' && r <= 'z':
			lower++
		case r >= '0' && r <= '9':
			digit++
		}
	}
	return upper >= 3 && lower >= 3 && digit >= 3
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
