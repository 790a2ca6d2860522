package complete

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// plain draws no escape codes.
func plain() Styles { return Styles{} }

func TestViewDimensions(t *testing.T) {
	items := append(fileItems([]string{
		"vendor/github.com/someone/very/deep/package/with/a/long/name/file_name.go",
		"文件/很长的文件名很长的文件名很长的文件名.go",
		"emoji/🚀-launch.md",
		"bad\nname.go",
		"esc\x1b[31m.go",
		"x",
	}), commands...)
	items = append(items, Item{Value: "wide", Label: "/wide", Detail: "説明文がとても長い説明文がとても長い"})
	styleSets := map[string]Styles{"plain": plain(), "default": DefaultStyles(), "layout": {
		Item:     lipgloss.NewStyle().Padding(0, 2),
		Selected: lipgloss.NewStyle().Reverse(true).Width(100).Border(lipgloss.NormalBorder()),
		Match:    lipgloss.NewStyle().Margin(1).Transform(strings.ToUpper),
		Detail:   lipgloss.NewStyle().MaxWidth(2),
	}}
	for name, styles := range styleSets {
		for _, w := range []int{1, 2, 3, 5, 10, 20, 40, 80} {
			for _, rows := range []int{1, 3, 8} {
				for _, q := range []string{"", "e", "go", "文件", "wide"} {
					m := New()
					m.SetStyles(styles)
					m.SetSize(w, rows)
					m.Open(items, q)
					m.HandleKey(keyPress("down"))
					view := m.View()
					label := fmt.Sprintf("%s %dx%d %q", name, w, rows, q)
					want := min(m.Total(), rows)
					if m.Height() != want {
						t.Errorf("%s: Height %d, want %d", label, m.Height(), want)
					}
					if want == 0 {
						if view != "" {
							t.Errorf("%s: nothing matches but View drew %q", label, view)
						}
						continue
					}
					lines := strings.Split(view, "\n")
					if len(lines) != want {
						t.Errorf("%s: %d lines, want %d", label, len(lines), want)
					}
					for i, l := range lines {
						if lipgloss.Width(l) != w || ansi.StringWidth(l) != w {
							t.Errorf("%s: line %d is %d cells, want %d: %q", label, i, ansi.StringWidth(l), w, l)
						}
						if strings.Contains(ansi.Strip(l), "\x1b") || strings.ContainsAny(ansi.Strip(l), "\n\t") {
							t.Errorf("%s: a control character reached the screen: %q", label, l)
						}
					}
				}
			}
		}
	}
}

// line is an expected plain row: a margin, the label, the detail flush
// right, a margin.
func line(w int, label, detail string) string {
	inner := w - 2
	return " " + label + strings.Repeat(" ", inner-ansi.StringWidth(label)-ansi.StringWidth(detail)) + detail + " "
}

func TestViewGolden(t *testing.T) {
	m := New()
	m.SetStyles(plain())
	m.SetSize(40, 4)
	m.Open(commands, "")
	want := strings.Join([]string{
		line(40, "/clear", "start a new session"),
		line(40, "/compact", "summarise the conversation …"),
		line(40, "/help", "show the keys"),
		line(40, "/model", "switch the model"),
	}, "\n")
	if got := m.View(); got != want {
		t.Errorf("popup:\n%s\nwant\n%s", got, want)
	}

	// Scrolled: the fifth row comes in, the first goes.
	for range 4 {
		m.HandleKey(keyPress("down"))
	}
	lines := strings.Split(m.View(), "\n")
	if lines[0] != line(40, "/compact", "summarise the conversation …") || lines[3] != line(40, "/quit", "leave pincer") {
		t.Errorf("scrolled popup:\n%s", m.View())
	}

	// Too narrow for details: they go, labels stay.
	m.SetSize(12, 4)
	m.Open(commands, "")
	if got := strings.Split(m.View(), "\n")[1]; got != line(12, "/compact", "") {
		t.Errorf("narrow popup line %q", got)
	}
}

func TestViewCutsLabelsFromTheLeft(t *testing.T) {
	m := New()
	m.SetStyles(plain())
	m.SetSize(20, 3)
	m.Open(fileItems([]string{"vendor/github.com/someone/pkg/file.go"}), "")
	if got, want := m.View(), line(20, "…meone/pkg/file.go", ""); got != want {
		t.Errorf("long path drawn as %q, want %q", got, want)
	}
}

func TestViewHighlightsMatches(t *testing.T) {
	u := lipgloss.NewStyle().Underline(true)
	r := lipgloss.NewStyle().Reverse(true)
	ur := u.Inherit(r)
	m := New()
	m.SetStyles(Styles{Match: u, Selected: r})
	m.SetSize(30, 3)
	m.Open(fileItems([]string{"tools/read_file.go", "tools/read_file_test.go", "vendor/x/reallyfar.go"}), "rf")

	lines := strings.Split(m.View(), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	// The selected row: reversed throughout, matches underlined too.
	wantSel := r.Render(" ") + r.Render("tools/") + ur.Render("r") + r.Render("ead_") + ur.Render("f") +
		r.Render("ile.go") + r.Render(strings.Repeat(" ", 28-18)) + r.Render(" ")
	if lines[0] != wantSel {
		t.Errorf("selected row\n%q\nwant\n%q", lines[0], wantSel)
	}
	wantRow := " tools/" + u.Render("r") + "ead_" + u.Render("f") + "ile_test.go" + strings.Repeat(" ", 28-23) + " "
	if lines[1] != wantRow {
		t.Errorf("second row\n%q\nwant\n%q", lines[1], wantRow)
	}

	// A match cut off on the left is not drawn; the rest still is.
	m.SetSize(14, 3)
	m.Open(fileItems([]string{"reallyfar/x/thing.go"}), "rthing")
	want := r.Render(" ") + r.Render("…") + r.Render("/x/") + ur.Render("thing") + r.Render(".go") + r.Render(" ")
	if got := m.View(); got != want {
		t.Errorf("cut row\n%q\nwant\n%q", got, want)
	}
}

// BenchmarkView draws eight rows of ranked paths with highlights.
func BenchmarkView(b *testing.B) {
	m := New()
	m.SetSize(60, 8)
	m.Open(fileItems(syntheticPaths(20000, 1)), "srvhnd")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.changed()
		_ = m.View()
	}
}

// BenchmarkViewIdle draws a popup that did not change: the cached frame.
func BenchmarkViewIdle(b *testing.B) {
	m := New()
	m.SetSize(60, 8)
	m.Open(fileItems(syntheticPaths(20000, 1)), "srvhnd")
	_ = m.View()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

// Every change to what the popup shows must reach View, cached or not.
func TestViewFollowsEveryChange(t *testing.T) {
	m := New()
	m.SetStyles(Styles{Selected: lipgloss.NewStyle().Reverse(true)})
	m.SetSize(30, 3)
	m.Open(commands, "")
	tests := []struct {
		name   string
		change func()
	}{
		{"key", func() { m.HandleKey(keyPress("down")) }},
		{"query", func() { m.SetQuery("m") }},
		{"styles", func() { m.SetStyles(Styles{Selected: lipgloss.NewStyle().Bold(true)}) }},
		{"size", func() { m.SetSize(32, 3) }},
		{"items", func() { m.SetItems(append(slices.Clone(commands), Item{Value: "mmm"})) }},
		{"open other items", func() { m.Open(fileItems([]string{"m.go"}), "m") }},
		{"close", func() { m.Close() }},
		{"reopen", func() { m.Open(commands, "") }},
	}
	for _, tt := range tests {
		before := m.View()
		tt.change()
		if after := m.View(); after == before {
			t.Errorf("%s: View did not change:\n%s", tt.name, after)
		}
	}
}
