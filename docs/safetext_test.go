package docs_test

import (
	"strconv"
	"strings"
	"testing"

	"pincer/internal/safetext"
)

// TestSanitisingTable checks the examples of the sanitising policy in
// safety.md against the sanitiser: each "sent" cell, a Go string literal
// in backquotes, must be shown as its "shown" cell.
func TestSanitisingTable(t *testing.T) {
	tables := markedTables(readDoc(t, "safety.md"), "safetext")
	if len(tables) != 1 || len(tables[0].rows) == 0 {
		t.Fatalf("safety.md has %d safetext tables, want one with rows", len(tables))
	}
	for _, row := range tables[0].rows {
		sent, err := strconv.Unquote(`"` + strings.Trim(row[0], "`") + `"`)
		if err != nil {
			t.Errorf("line %d: %s is not a Go string: %v", tables[0].line, row[0], err)
			continue
		}
		want := strings.Trim(row[1], "`")
		if got := safetext.Sanitize(sent, safetext.Text); got != want {
			t.Errorf("safety.md says %s is shown as %s; it is shown as %q", row[0], row[1], got)
		}
	}
}
