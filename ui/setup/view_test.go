package setup

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"pincer/themes"
)

// scenes reach each step in a typical state.
var scenes = []struct {
	name    string
	env     env
	replies []reply
	play    func(d *driver)
}{
	{"presets", nil, nil, func(d *driver) {}},
	{"presets_scrolled", nil, nil, func(d *driver) { d.down(atCustom) }},
	{"url_error", nil, nil, func(d *driver) {
		d.down(atCustom)
		d.press("enter")
		d.typeText("localhost:8080/v1")
		d.press("enter")
	}},
	{"key_typed", nil, nil, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
	}},
	{"key_variable", env{"OPENAI_API_KEY": "sk-from-env"}, nil, func(d *driver) { d.press("enter") }},
	{"key_missing", nil, nil, func(d *driver) { d.press("enter", "enter") }},
	{"fetching", nil, nil, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
		d.sendOnly(keyMsg("enter"))
	}},
	{"fetch_error", nil, []reply{{err: errors.New("list models at https://api.openai.com/v1: the server answered 401 Unauthorized")}}, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
		d.press("enter")
	}},
	{"models", nil, []reply{{models: manyModels()}}, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
		d.press("enter")
	}},
	{"models_filtered", nil, []reply{{models: manyModels()}}, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
		d.press("enter")
		d.typeText("mini")
	}},
	{"manual", nil, []reply{{err: errors.New("connection refused")}}, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
		d.press("enter", "m")
	}},
	{"confirm_key", nil, []reply{{models: serverModels}}, func(d *driver) {
		d.press("enter")
		d.typeText(typedKey)
		d.press("enter", "enter")
	}},
	{"confirm_variable", env{"OPENAI_API_KEY": "sk-from-env"}, []reply{{models: serverModels}}, func(d *driver) {
		d.press("enter", "enter", "enter")
	}},
	{"confirm_local", nil, []reply{{models: []string{"qwen3:8b"}}}, func(d *driver) {
		d.down(atOllama)
		d.press("enter", "enter")
	}},
}

// manyModels is a list longer than the screen.
func manyModels() []string {
	return []string{
		"gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-codex", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano",
		"gpt-4o", "gpt-4o-mini", "o3", "o3-mini", "o4-mini", "chatgpt-4o-latest", "gpt-image-1",
		"text-embedding-3-large", "text-embedding-3-small", "whisper-1", "tts-1", "tts-1-hd", "dall-e-3",
		"omni-moderation-latest", "gpt-realtime", "gpt-audio", "computer-use-preview",
	}
}

// TestGolden compares each step at 80×24 and 60×15, without colours, with
// the files in testdata/TestGolden (go test -update writes them). Lines
// are padded to the width and closed with "|" so the files show the exact
// shape. Key properties are asserted in the other tests; these catch
// layout changes.
func TestGolden(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"60x15", 60, 15}} {
		for _, sc := range scenes {
			t.Run(sc.name+"_"+size.name, func(t *testing.T) {
				d := newDriver(t, &lister{replies: sc.replies}, sc.env, size.w, size.h)
				d.secret = []string{typedKey, "sk-from-env"}
				sc.play(d)
				checkFits(t, d.m.View().Content, size.w, size.h)
				d.checkNoSecret()
				golden.RequireEqual(t, framed(d.m.View().Content, size.w))
			})
		}
	}
}

// framed strips colours and pads each line to width, closing it with "|".
func framed(view string, width int) string {
	var b strings.Builder
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", max(width-ansi.StringWidth(l), 0)))
		b.WriteString("|\n")
	}
	return b.String()
}

// checkFits fails if the view is wider or taller than the screen.
func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("the view has %d lines, the screen %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d columns wide, the screen %d: %q", i, n, w, ansi.Strip(l))
		}
	}
}

// TestEveryStepFitsEverySize draws each scene at sizes from tiny to wide,
// checking that nothing spills over the edges and the keys stay on the
// last line when there is room for them.
func TestEveryStepFitsEverySize(t *testing.T) {
	sizes := [][2]int{{60, 15}, {80, 24}, {120, 40}, {200, 60}, {40, 10}, {20, 5}, {1, 1}}
	for _, sc := range scenes {
		for _, sz := range sizes {
			d := newDriver(t, &lister{replies: sc.replies}, sc.env, sz[0], sz[1])
			sc.play(d)
			view := d.m.View().Content
			checkFits(t, view, sz[0], sz[1])
			if sz[0] >= 60 && sz[1] >= 15 {
				lines := strings.Split(ansi.Strip(view), "\n")
				if len(lines) != sz[1] || !strings.Contains(lines[len(lines)-1], "Esc") {
					t.Errorf("%s at %dx%d: the keys are not on the last line:\n%s", sc.name, sz[0], sz[1], ansi.Strip(view))
				}
			}
		}
	}
}

// TestListKeepsTheCursorInView moves through a list longer than the screen
// and checks the selected model is always drawn.
func TestListKeepsTheCursorInView(t *testing.T) {
	d := newDriver(t, &lister{replies: []reply{{models: manyModels()}}}, nil, 60, 15)
	d.press("enter")
	d.typeText("k")
	d.press("enter")
	d.wantStep(stepModel)
	moves := []string{"down", "down", "pgdown", "pgdown", "down", "pgup", "up", "up", "up", "pgdown", "pgdown", "pgdown", "pgdown"}
	for _, k := range moves {
		d.press(k)
		name := d.m.models[d.m.shown[d.m.modelIdx]]
		d.wantScreen("› " + name)
	}
	d.press("enter")
	if d.m.chosen != d.m.models[d.m.shown[d.m.modelIdx]] {
		t.Errorf("chose %q, the cursor was on another", d.m.chosen)
	}
}

// TestViewUsesTheTheme checks that the screen is drawn in the theme's
// colours and that the zero theme falls back to the default one.
func TestViewUsesTheTheme(t *testing.T) {
	for _, th := range []themes.Theme{themes.Light(), themes.Dracula()} {
		m := New(Options{Presets: testPresets(), Theme: th})
		view := m.View().Content
		if want := sgrFg(th.Palette.Accent); !strings.Contains(view, want) {
			t.Errorf("%s: the view lacks the accent colour %q", th.Name, want)
		}
		if !m.View().AltScreen {
			t.Errorf("%s: the view is not full screen", th.Name)
		}
	}
	m := New(Options{Presets: testPresets()})
	if want := sgrFg(themes.Dark().Palette.Accent); !strings.Contains(m.View().Content, want) {
		t.Error("the zero theme does not fall back to the dark one")
	}
}

func sgrFg(c interface{ RGBA() (r, g, b, a uint32) }) string {
	r, g, b, _ := c.RGBA()
	return "38;2;" + itoa(int(r>>8)) + ";" + itoa(int(g>>8)) + ";" + itoa(int(b>>8))
}

func itoa(v int) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}

// TestWindowSizeBeforeAnything checks that a resize at any moment keeps
// the screen within bounds.
func TestWindowSizeBeforeAnything(t *testing.T) {
	d := newDriver(t, &lister{replies: []reply{{models: manyModels()}}}, nil, 80, 24)
	d.press("enter")
	d.typeText("k")
	d.press("enter")
	for _, sz := range [][2]int{{60, 15}, {0, 0}, {300, 5}, {61, 16}} {
		d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		checkFits(t, d.m.View().Content, max(sz[0], 1), max(sz[1], 1))
	}
}

// TestWindow checks the paging of long lists: the cursor is always drawn,
// the lines never exceed rows, and every item appears on some page.
func TestWindow(t *testing.T) {
	st := themes.Dark().Styles()
	for _, n := range []int{1, 5, 9, 10, 11, 24} {
		for _, rows := range []int{1, 2, 3, 4, 7, 10} {
			items := make([]string, n)
			for i := range items {
				items[i] = "item" + itoa(i)
			}
			seen := map[string]bool{}
			for cursor := range n {
				out := window(st, n, cursor, rows, func(i int) string { return items[i] })
				if len(out) > max(rows, 1) {
					t.Errorf("n=%d rows=%d cursor=%d: %d lines", n, rows, cursor, len(out))
				}
				joined := "\n" + ansi.Strip(strings.Join(out, "\n")) + "\n"
				if !strings.Contains(joined, "\n"+items[cursor]+"\n") {
					t.Errorf("n=%d rows=%d cursor=%d: the cursor's item is not drawn: %q", n, rows, cursor, out)
				}
				for _, l := range out {
					seen[l] = true
				}
				if rows >= 3 && n > rows && len(out) != rows {
					t.Errorf("n=%d rows=%d cursor=%d: %d lines, want all %d used", n, rows, cursor, len(out), rows)
				}
			}
			for _, it := range items {
				if !seen[it] {
					t.Errorf("n=%d rows=%d: %s is on no page", n, rows, it)
				}
			}
		}
	}
}
