package cli

import (
	"bytes"
	"strings"
	"testing"

	"pincer/tools/mcp"
)

// TestMCPWarningsAreShownOnOneLine: what pincer left out of a ready
// server (refused names, tools past the limits) is said in /mcp, in
// 'pincer mcp list' and in a headless run's warnings, one line each,
// whatever the server put in the names it quotes.
func TestMCPWarningsAreShownOnOneLine(t *testing.T) {
	in := []mcp.Info{{Name: "evil", Transport: "http", Status: mcp.StatusReady, Tools: []string{"mcp__evil__ok"},
		Warnings: []string{"refused 1 tool(s): \"a\nb\x1b[2J\"", "it offers 3000 tools"}}}
	got := describeMCP(in, false)
	if !strings.Contains(got, "\n  left out: refused 1 tool(s): \"a␊b␛[2J\"") || !strings.Contains(got, "\n  left out: it offers 3000 tools") {
		t.Errorf("/mcp:\n%s", got)
	}
	var w bytes.Buffer
	warnMCP(&w, in)
	if lines := strings.Split(strings.TrimSpace(w.String()), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "3000 tools") {
		t.Errorf("headless warnings:\n%s", w.String())
	}
	var alerts []string
	a := mcpAlerts{alert: func(s string) { alerts = append(alerts, s) }}
	a.changed(in)
	a.changed(in)
	if len(alerts) != 2 || strings.ContainsAny(strings.Join(alerts, ""), "\n\x1b") {
		t.Errorf("alerts %q; want each warning once, on one line", alerts)
	}
}
