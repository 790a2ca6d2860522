// Package eventdoc writes the README's table of the JSON lines that
// `pincer run --json` prints, from the printer's own list
// (headless.JSONLines), so the page and the program cannot disagree; a
// test in package docs fails until `go generate ./docs` has been run.
package eventdoc

import (
	"fmt"
	"strings"

	"pincer/ui/headless"
)

// The markers around the generated table.
const (
	begin = "<!-- events: written by go generate ./docs from headless.JSONLines; do not edit -->"
	end   = "<!-- /events -->"
)

// Rewrite returns the README md with the table between the markers
// written afresh; md must hold the markers once.
func Rewrite(md string) (string, error) {
	i := strings.Index(md, begin)
	j := strings.Index(md, end)
	if i < 0 || j < i || strings.Count(md, begin) != 1 || strings.Count(md, end) != 1 {
		return "", fmt.Errorf("the README must hold %q and then %q, once each", begin, end)
	}
	return md[:i+len(begin)] + "\n" + Table() + md[j:], nil
}

// Table is the Markdown table of the JSON lines.
func Table() string {
	var b strings.Builder
	b.WriteString("| `type` | fields | printed |\n| --- | --- | --- |\n")
	for _, l := range headless.JSONLines() {
		fields := make([]string, len(l.Fields))
		for i, f := range l.Fields {
			fields[i] = "`" + f.Name + "`"
			if f.Optional {
				fields[i] += " (optional)"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", l.Type, strings.Join(fields, ", "), strings.ReplaceAll(l.About, "|", `\|`))
	}
	return b.String()
}
