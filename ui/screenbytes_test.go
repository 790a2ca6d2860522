package ui

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/themes"
	"pincer/ui/termscreen"
)

// TestBodyTextInTheTerminalsColour: once a dark terminal has said what its
// background is, the dark theme's body text (a grey, the terminal's own
// text colour in all but name) is drawn with no colour code: on the
// answer's lines, in the tree's file names, and with no colours for the
// terminal to take either.
func TestBodyTextInTheTerminalsColour(t *testing.T) {
	a := newTestApp(t, 120, 30)
	a.Update(tea.BackgroundColorMsg{Color: themes.Dark().Palette.Background})
	a.Update(eventsMsg{agent.TextDelta{Text: "Plain words of the answer, then `code` and **bold**.\n\nMore plain words.\n"}})
	v := a.View()
	if v.ForegroundColor != nil || v.BackgroundColor != nil {
		t.Errorf("the screen sets the terminal's colours on a terminal of the theme's kind")
	}
	for _, want := range []string{"Plain words of the answer", "More plain words", "main.go"} {
		line := lineWith(t, v.Content, want)
		before := line[:strings.Index(line, want)+len(want)]
		if i := strings.LastIndex(before, "\x1b["); i >= 0 && !strings.HasPrefix(before[i:], "\x1b[m") && !strings.HasPrefix(before[i:], "\x1b[0m") {
			t.Errorf("%q is drawn in a style of its own: %q", want, line)
		}
	}
	fg := strings.TrimPrefix(ansi.Style{}.ForegroundColor(themes.Dark().Palette.Foreground).String(), "\x1b[")
	fg = strings.TrimSuffix(fg, "m")
	if strings.Contains(v.Content, fg) {
		t.Errorf("the screen still names the theme's text colour (%q) somewhere", fg)
	}
}

// TestDividerIsPlain: the line between the tree and the transcript has no
// style, so that writing it again beside each new line of an answer (on a
// terminal that scrolls whole rows) costs one character.
func TestDividerIsPlain(t *testing.T) {
	a := newTestApp(t, 120, 30)
	v := a.View()
	tw := a.treeWidth()
	for y, line := range strings.Split(v.Content, "\n")[:a.bodyHeight()] {
		r, sgr := cellAt(line, tw)
		if r != '│' {
			t.Fatalf("row %d has %q at column %d, not the divider: %q", y, r, tw, line)
		}
		if sgr != "" && sgr != "\x1b[m" && sgr != "\x1b[0m" {
			t.Errorf("row %d draws the divider in the style %q: %q", y, sgr, line)
		}
	}
}

// cellAt is the character in column x of a line of one-column characters,
// and the last style sequence before it.
func cellAt(line string, x int) (r rune, sgr string) {
	col := 0
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if j < len(line) && line[j] == 'm' {
				sgr = line[i : j+1]
			}
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		if col == x {
			return r, sgr
		}
		col++
		i += n
	}
	return 0, sgr
}

// TestTranscriptStepsBesideTheTree: beside the tree the transcript moves in
// steps, unless the terminal scrolls between margins; without the tree it
// follows line by line.
func TestTranscriptStepsBesideTheTree(t *testing.T) {
	a := newTestApp(t, 120, 30)
	if !a.transcript.SteppedScroll() {
		t.Error("beside the tree, on a terminal not known to have margins, the transcript does not step")
	}
	a.Update(termscreen.MarginsMsg{})
	if a.transcript.SteppedScroll() {
		t.Error("with margins the transcript still steps")
	}
	b := newTestApp(t, 80, 30) // too narrow for the tree
	if b.transcript.SteppedScroll() {
		t.Error("without the tree the transcript steps")
	}
}

// lineWith is the line of s that contains want.
func lineWith(t *testing.T, s, want string) string {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(ansi.Strip(l), want) {
			return l
		}
	}
	t.Fatalf("no line holds %q", want)
	return ""
}

// TestSpinnerSlowsWhileOutputArrives: while an answer's text keeps
// arriving (and no elapsed time is shown) the spinner turns once a second
// (each turn costs the terminal a move to the status line and back); once
// the output pauses it turns at every tick again, so a stalled answer
// still shows that pincer is alive.
func TestSpinnerSlowsWhileOutputArrives(t *testing.T) {
	for _, tc := range []struct {
		name       string
		output     bool // text arrives before each tick
		ticks      int
		maxChanges int
		minChanges int
	}{
		{"text arriving", true, 20, 3, 1},
		{"no output", false, 20, 20, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 30)
			a.busy = true
			now := time.Unix(1000, 0)
			frame := func() string {
				line := ansi.Strip(a.statusLine())
				return strings.Fields(line)[2] // after the mode and a dot
			}
			last, changes := frame(), 0
			for range tc.ticks {
				if tc.output {
					a.Update(eventsMsg{agent.TextDelta{Text: "words "}})
				}
				now = now.Add(tickInterval)
				a.Update(tickMsg(now))
				if f := frame(); f != last {
					changes++
					last = f
				}
			}
			if changes > tc.maxChanges || changes < tc.minChanges {
				t.Errorf("the spinner turned %d times in %d ticks, want %d to %d", changes, tc.ticks, tc.minChanges, tc.maxChanges)
			}
		})
	}
}

// TestTicksOnlyWhenTheStatusChanges: while output arrives the screen is
// woken only when the status line changes (the elapsed time moves on, and
// the spinner with it; the output pauses), not ten times a second; the
// spinner and the clock change together, in one write to the status line;
// the clock shows what ticking every tickInterval showed.
func TestTicksOnlyWhenTheStatusChanges(t *testing.T) {
	a := newTestApp(t, 120, 30)
	t0 := time.Unix(1000, 0)
	now := t0
	a.clock = func() time.Time { return now }
	a.busy, a.turnStart, a.now = true, t0, t0
	const step = 10 * time.Millisecond
	outputEnds := t0.Add(2 * time.Second) // then the answer stalls
	due := t0.Add(tickInterval)
	spinner := func() string { return strings.Fields(ansi.Strip(a.statusLine()))[2] }
	type tickAt struct {
		at      time.Duration
		turned  bool
		elapsed string
		clocked bool // the clock shown moved on at this tick
	}
	var ticks []tickAt
	for now = t0; now.Before(t0.Add(3 * time.Second)); now = now.Add(step) {
		if now.Before(outputEnds) && now.Sub(t0)%(30*time.Millisecond) == 0 {
			a.Update(eventsMsg{agent.TextDelta{Text: "words "}})
		}
		if now.Before(due) {
			continue
		}
		before, clockWas := spinner(), elapsed(a.now.Sub(t0))
		a.Update(tickMsg(now))
		ticks = append(ticks, tickAt{now.Sub(t0), spinner() != before, elapsed(a.now.Sub(t0)), elapsed(a.now.Sub(t0)) != clockWas})
		if !strings.Contains(ansi.Strip(a.statusLine()), elapsed(now.Sub(t0))) {
			t.Fatalf("at %s the status line shows %q, not the elapsed %s", now.Sub(t0), ansi.Strip(a.statusLine()), elapsed(now.Sub(t0)))
		}
		due = now.Add(a.nextTick(now))
	}
	var streaming, turns, fastTicks, fastTurns int
	clockAt := map[string]time.Duration{}
	for _, tk := range ticks {
		if _, ok := clockAt[tk.elapsed]; !ok {
			clockAt[tk.elapsed] = tk.at
		}
		switch {
		case tk.at >= 500*time.Millisecond && tk.at < 2*time.Second:
			streaming++
			if tk.turned {
				turns++
			}
			if tk.turned != tk.clocked {
				t.Errorf("at %s the spinner turned %v but the clock moved on %v: while output arrives they change together", tk.at, tk.turned, tk.clocked)
			}
		case tk.at >= 2600*time.Millisecond:
			fastTicks++
			if tk.turned {
				fastTurns++
			}
		}
	}
	// 1.5 s of output (0.5 s to 2 s): the clock moves on at 0.5 s and
	// 1.5 s, and the spinner with it; a tick or two in between looks for
	// a pause in the output, and changes nothing.
	if streaming > 5 {
		t.Errorf("%d ticks in 1.5 s of output, want at most 5 (ticking every %s takes 15): %+v", streaming, tickInterval, ticks)
	}
	if turns != 2 {
		t.Errorf("the spinner turned %d times in 1.5 s of output, want 2 (with the clock): %+v", turns, ticks)
	}
	// Stalled for 0.6 s: the spinner turns at every tick again.
	if fastTicks < 3 || fastTurns != fastTicks {
		t.Errorf("after the output stalled: %d ticks, %d turns; want a tick and a turn every %s: %+v", fastTicks, fastTurns, tickInterval, ticks)
	}
	// The clock moves on at each half second: at once while output
	// arrives, within a tick once it stalled.
	for s, at := range map[string]time.Duration{"0:01": 500 * time.Millisecond, "0:02": 1500 * time.Millisecond, "0:03": 2500 * time.Millisecond} {
		late := step
		if at > 2*time.Second {
			late = tickInterval
		}
		if got, ok := clockAt[s]; !ok || got < at || got > at+late {
			t.Errorf("the clock showed %s first at %s, want at %s: %+v", s, got, at, ticks)
		}
	}
}
