// Package human writes values the way a person reads them in a list or a
// status line: how long ago, a path under the home directory, one line of
// a long text, a count with its noun.
package human

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Ago says briefly how long before now t was: "just now", "5 min ago",
// "3 h ago", "4 days ago", or the date after two weeks.
func Ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	case d < 14*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d.Hours()/24))
	}
	return t.Local().Format("2006-01-02")
}

// Tilde writes dir with the home directory as "~".
func Tilde(dir, home string) string {
	if home != "" && (dir == home || strings.HasPrefix(dir, home+string(filepath.Separator))) {
		return "~" + dir[len(home):]
	}
	return dir
}

// OneLine folds s onto one line (see Fold) and cuts it to max characters
// with "…".
func OneLine(s string, max int) string {
	s = Fold(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// Fold puts s on one line: every run of white space, line breaks
// included, becomes one space, and the ends are trimmed.
func Fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// Plural writes a count with its noun: "1 message", "3 messages".
func Plural(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, Noun(n, noun))
}

// Noun is the noun alone, in the plural unless n is 1, for a sentence
// that names the count elsewhere or not at all: "the missing packages".
func Noun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Dollars writes an amount of money for a person: "$1.25", or with the
// digits that matter when it is under a cent ("$0.0042"), so a cheap
// turn does not read as free.
func Dollars(x float64) string {
	switch {
	case x == 0:
		return "$0"
	case x < 0.01:
		return fmt.Sprintf("$%.4f", x)
	case x < 1000:
		return fmt.Sprintf("$%.2f", x)
	}
	return fmt.Sprintf("$%.0f", x)
}

// Count writes a whole number with thousands separated by commas:
// "12,345".
func Count(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Bytes writes a size for a person in one unit system, the binary one
// pincer's limits are given in: "812 bytes", "4.2 KiB", "16 MiB" (a whole
// number of units without a decimal), "1.3 GiB".
func Bytes(n int64) string {
	units := []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}}
	for _, u := range units {
		if n < 1<<u.shift {
			continue
		}
		if n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
		return fmt.Sprintf("%.1f %s", float64(n)/float64(int64(1)<<u.shift), u.name)
	}
	return Plural(int(n), "byte")
}
