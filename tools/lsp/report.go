package lsp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"pincer/internal/human"
)

// Item is one problem a language server reported.
type Item struct {
	// Path is relative to the project root with forward slashes
	// (absolute outside it).
	Path string `json:"path"`
	// Line and Column are 1-based; Column counts characters.
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Source   string   `json:"source,omitempty"`
	// New marks a problem the change introduced: the server did not
	// report it before.
	New bool `json:"new,omitempty"`
}

// Report is what the servers said about files after they changed.
type Report struct {
	// Servers names the servers that answered, e.g. "gopls".
	Servers []string `json:"servers,omitempty"`
	// Files are the changed files the report covers, relative.
	Files []string `json:"files,omitempty"`
	// Items are the errors and warnings of the changed files, and the
	// new errors of other files, errors first.
	Items []Item `json:"items,omitempty"`
	// Errors and Warnings count Items by severity; New counts those the
	// change introduced.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	New      int `json:"new"`
	// Total is how many errors the servers know of in the project now,
	// in every file they reported on: what the status line shows.
	Total int `json:"total"`
	// Problems are those errors by file (relative), for the tree.
	Problems map[string]int `json:"-"`
	// Pending are changed files whose diagnostics did not come in time.
	Pending []string `json:"pending,omitempty"`
	// Notices are for the person: a server was left off, or is missing.
	Notices []string `json:"-"`
	// Baseline says whether problems could be told apart as new (the
	// server had reported on the files before the change).
	Baseline bool `json:"-"`
}

// Checked reports whether any server answered for the changed files.
func (r Report) Checked() bool { return len(r.Servers) > 0 }

// Label is the card's count: "2 errors", "1 error, 3 warnings", "no
// problems"; "" when no server checked the files.
func (r Report) Label() string {
	if !r.Checked() {
		return ""
	}
	var parts []string
	if r.Errors > 0 {
		parts = append(parts, human.Plural(r.Errors, "error"))
	}
	if r.Warnings > 0 {
		parts = append(parts, human.Plural(r.Warnings, "warning"))
	}
	if len(parts) == 0 {
		if len(r.Pending) > 0 {
			return "diagnostics pending"
		}
		return "no problems"
	}
	return strings.Join(parts, ", ")
}

// Limits of the text the model is given.
const (
	// DefaultBudget is the most characters of diagnostics added to one
	// tool result (about 500 tokens).
	DefaultBudget = 2000
	// maxWarnings is the most warnings listed.
	maxWarnings = 5
	// maxLine is the most characters of one problem's message.
	maxLine = 240
)

// Text is the report for the model, at most budget characters (0 means
// DefaultBudget): one line per problem as file:line:column: severity:
// message, new ones marked, and what did not fit counted. "" when no
// server checked the files.
func (r Report) Text(budget int) string {
	if !r.Checked() {
		return ""
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	var b strings.Builder
	who := strings.Join(r.Servers, ", ")
	files := strings.Join(r.Files, ", ")
	if len(r.Files) > 3 {
		files = fmt.Sprintf("%s and %d more files", strings.Join(r.Files[:3], ", "), len(r.Files)-3)
	}
	switch {
	case r.Errors == 0 && r.Warnings == 0 && len(r.Pending) > 0:
		fmt.Fprintf(&b, "Diagnostics (%s): none arrived in time for %s.", who, strings.Join(r.Pending, ", "))
		return b.String()
	case r.Errors == 0 && r.Warnings == 0:
		fmt.Fprintf(&b, "Diagnostics (%s): no errors in %s.", who, files)
		return b.String()
	}
	fmt.Fprintf(&b, "Diagnostics (%s) after this change: %s", who, r.Label())
	if r.Baseline && r.New > 0 {
		fmt.Fprintf(&b, " (%d introduced by this change, marked [new])", r.New)
	} else if r.Baseline && r.Errors > 0 {
		b.WriteString(" (none introduced by this change)")
	}
	b.WriteString(":")
	shown, warnings := 0, 0
	for i, it := range r.Items {
		if it.Severity == SeverityWarning {
			if warnings == maxWarnings {
				continue
			}
			warnings++
		}
		line := "\n" + it.String()
		if b.Len()+len(line) > budget-60 && i < len(r.Items) {
			break
		}
		b.WriteString(line)
		shown++
	}
	if rest := len(r.Items) - shown; rest > 0 {
		fmt.Fprintf(&b, "\n… %d more not shown", rest)
	}
	if len(r.Pending) > 0 {
		fmt.Fprintf(&b, "\n(No diagnostics arrived in time for %s.)", strings.Join(r.Pending, ", "))
	}
	return b.String()
}

// MarshalJSON writes the severity as its word ("error", "warning").
func (it Item) MarshalJSON() ([]byte, error) {
	type plain Item
	return json.Marshal(struct {
		plain
		Severity string `json:"severity"`
	}{plain(it), it.Severity.String()})
}

// String is the item as the model reads it: file:line:col: severity: message.
func (it Item) String() string {
	msg := human.OneLine(it.Message, maxLine)
	s := fmt.Sprintf("%s:%d:%d: %s: %s", it.Path, it.Line, it.Column, it.Severity, msg)
	if it.New {
		s += " [new]"
	}
	return s
}

// sortItems puts errors first, then the changed files in their order,
// then by position.
func sortItems(items []Item, order map[string]int) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if (a.Severity == SeverityError) != (b.Severity == SeverityError) {
			return a.Severity == SeverityError
		}
		oa, oka := order[a.Path]
		ob, okb := order[b.Path]
		switch {
		case oka != okb:
			return oka
		case oa != ob:
			return oa < ob
		case a.Path != b.Path:
			return a.Path < b.Path
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// key identifies a problem across edits that move it: lines shift, the
// message and its source stay.
func key(d wireDiagnostic) string {
	return strconv.Itoa(int(d.Severity)) + "\x00" + d.Source + "\x00" + d.Message
}

// markNew reports, for each of after, whether it is new: more problems
// with its key than before had.
func markNew(before, after []wireDiagnostic) []bool {
	count := map[string]int{}
	for _, d := range before {
		count[key(d)]++
	}
	out := make([]bool, len(after))
	for i, d := range after {
		k := key(d)
		if count[k] > 0 {
			count[k]--
			continue
		}
		out[i] = true
	}
	return out
}
