package transcript

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/themes"
)

// TestFinishedDocMatchesWholeRender: a loaded answer is cut into chunks
// that render on their own; its lines are those of the whole answer
// rendered in one go, and its last lines, rendered from the end alone,
// are the whole render's last lines.
func TestFinishedDocMatchesWholeRender(t *testing.T) {
	g := newGlamourRenderer(themes.Dark())
	docs := append([]string{longAnswer(9000)}, splitCorpus...)
	for di, doc := range docs {
		for _, width := range []int{40, 100} {
			whole := trimBlank(g.Render(doc, width))
			if got := finishedDoc(doc).render(0, width, g); firstDiff(got, whole) != "" {
				t.Errorf("doc %d width %d (%d chunks): %s", di, width, len(finishedDoc(doc).chunks), firstDiff(got, whole))
			}
			for _, need := range []int{1, 7, 30, len(whole), len(whole) + 5} {
				got, all := finishedDoc(doc).lastLines(0, width, g, need)
				want := whole[max(len(whole)-need, 0):]
				if diff := firstDiff(got, want); diff != "" {
					t.Errorf("doc %d width %d last %d lines: %s", di, width, need, diff)
				}
				if all != (need >= len(whole)) {
					t.Errorf("doc %d width %d last %d of %d lines: whole %v", di, width, need, len(whole), all)
				}
			}
		}
	}
	if n := len(finishedDoc(longAnswer(9000)).chunks); n < 4 {
		t.Errorf("a 9 KB answer is %d chunks, want at least 4", n)
	}
}

// TestResizeRendersOnlyWhatThePageShows: after a width change the pane,
// at the bottom of a long answer, renders the chunks it shows, not the
// whole answer; scrolling up then renders the rest.
func TestResizeRendersOnlyWhatThePageShows(t *testing.T) {
	for _, how := range []string{"loaded", "streamed"} {
		t.Run(how, func(t *testing.T) {
			m := newTestModel(100, 30)
			c := countRenders(&m)
			answer := longAnswer(40000)
			if how == "loaded" {
				m.Load(Entry{Kind: KindUser, Text: "question"}, Entry{Kind: KindAssistant, Text: answer})
			} else {
				m.AddUser("question")
				for k := 0; k < len(answer); k += 500 {
					m.AppendText(answer[k:min(k+500, len(answer))])
					m.View()
				}
				m.FinishAssistant(false)
			}
			m.View()
			before := viewLines(m)
			c.bytes = 0
			m.SetSize(90, 30)
			m.View()
			if c.bytes > len(answer)/5 {
				t.Errorf("a width change rendered %d bytes of a %d-byte answer to show its end", c.bytes, len(answer))
			}
			m.SetSize(100, 30)
			if got := viewLines(m); firstDiff(got, before) != "" {
				t.Errorf("the end of the answer, back at the first width: %s", firstDiff(got, before))
			}
			m = press(m, "home")
			if got := strings.Join(viewLines(m), "\n"); !strings.Contains(got, "question") {
				t.Errorf("the top of the transcript after scrolling up:\n%s", got)
			}
		})
	}
}

// TestMovedIsWhatWasAppended: while the view follows, Moved is the number
// of lines the frame added at the bottom, so the pane's old lines are the
// new ones moved up by that much.
func TestMovedIsWhatWasAppended(t *testing.T) {
	m := newTestModel(80, 20)
	m.AddUser("question")
	answer := longAnswer(6000)
	prev := viewLines(m)
	moves := 0
	for k := 0; k < len(answer); k += 90 {
		m.AppendText(answer[k:min(k+90, len(answer))])
		cur := viewLines(m)
		n := m.Moved()
		if n > 0 {
			moves++
			// Every line but the last few (the tail, which may change as it
			// grows) is the previous frame's line n rows further down.
			for y := 0; y+n < len(cur)-4; y++ {
				if cur[y] != prev[y+n] {
					t.Fatalf("after %d bytes Moved said %d, but row %d is %q, not %q", k, n, y, cur[y], prev[y+n])
				}
			}
		}
		prev = cur
	}
	if moves < 10 {
		t.Errorf("the view moved %d times while a long answer streamed", moves)
	}
	m.View()
	if m.Moved() != 0 {
		t.Errorf("a frame with nothing new moved %d lines", m.Moved())
	}
}

// TestSteppedScrollHolds: a stepped view holds its first line while the
// answer fills the pane, moves at most once a half second, and then keeps
// only the line being written in sight, on the top row; when the answer
// ends it shows the end at the bottom. A view that is not stepped (the
// terminal has margins, or no tree stands beside) follows line by line,
// the end always on the bottom row.
func TestSteppedScrollHolds(t *testing.T) {
	for _, stepped := range []bool{true, false} {
		t.Run(fmt.Sprint("stepped=", stepped), func(t *testing.T) {
			now := time.Unix(1000, 0)
			m := newTestModel(80, 30)
			m.s.now = func() time.Time { return now }
			m.SetSteppedScroll(stepped)
			m.AddUser("question")
			m.View()
			line := 0
			feed := func(n int) {
				for range n {
					m.AppendText(fmt.Sprintf("line %03d\n\n", line))
					line++
				}
				m.View()
			}
			feed(3)
			first := viewLines(m)[0]
			feed(4) // the end still fits: the view holds
			if got := viewLines(m)[0]; got != first {
				t.Fatalf("the view moved while the end fitted: top %q, was %q", got, first)
			}
			feed(8) // past the bottom, too soon to step
			lines := viewLines(m)
			if got, end := lines[0], lastNonEmpty(lines); stepped && got != first {
				t.Fatalf("the view moved before half a second passed: top %q", got)
			} else if !stepped && end != 29 {
				t.Fatalf("a view that does not step has its end on row %d, not the bottom one", end)
			}
			now = now.Add(600 * time.Millisecond)
			feed(1)
			moved := m.Moved()
			lines = viewLines(m)
			end, want := lastNonEmpty(lines), 29
			if stepped {
				want = 0
			}
			if !strings.Contains(lines[end], fmt.Sprintf("line %03d", line-1)) || end != want {
				t.Errorf("the end %q is on row %d, want the last line on row %d:\n%s", lines[end], end, want, strings.Join(lines, "\n"))
			}
			if !stepped && moved != 2 {
				t.Errorf("following line by line, the view said it moved %d lines, want 2", moved)
			}
			m.FinishAssistant(false)
			lines = viewLines(m)
			if end := lastNonEmpty(lines); end != 29 {
				t.Errorf("the finished answer ends on row %d, want the bottom row", end)
			}
		})
	}
}

// TestDeferredOutputWaitsForItsFrame: while output is deferred, a frame
// leaves out the answer that arrived since the last one, but not what the
// person did; when the deferral ends the answer is drawn.
func TestDeferredOutputWaitsForItsFrame(t *testing.T) {
	m := newTestModel(80, 20)
	m.AddUser("question")
	m.AppendText("First words. ")
	before := m.View()
	m.AppendText(" More words. ")
	m.DeferOutput(true)
	if got := m.View(); got != before {
		t.Errorf("a deferred frame drew the new output:\n%s", got)
	}
	m.DeferOutput(false)
	if got := m.View(); !strings.Contains(got, "More words.") {
		t.Errorf("the frame after the deferral lacks the output:\n%s", got)
	}
	m.AppendText(" Even more. ")
	m.AddNotice("a notice from the screen")
	m.DeferOutput(true)
	if got := m.View(); !strings.Contains(got, "a notice from the screen") {
		t.Errorf("a deferred frame left out what was not output:\n%s", got)
	}
}

// TestBlocksFinishedBetweenFramesRenderTogether: blocks that finish in
// pieces between two renders are rendered in one call, and the chunks
// rendered before stay as they were.
func TestBlocksFinishedBetweenFramesRenderTogether(t *testing.T) {
	c := &countingRenderer{inner: newGlamourRenderer(themes.Dark())}
	d := newStreamDoc("")
	d.append("Intro.\n\nStill")
	d.render(0, 60, c)
	for _, p := range []string{" the intro.\n\n", "## Two\n\n", "Three.\n", "\n- four\n", "\nFive\n"} {
		d.append(p)
	}
	before := c.calls
	got := d.render(0, 60, c)
	if n := c.calls - before; n != 2 {
		t.Errorf("four blocks finished between two renders took %d renders, want 2 (them, then the tail)", n)
	}
	whole := trimBlank(c.inner.Render(d.text(), 60))
	if diff := firstDiff(got, whole); diff != "" {
		t.Errorf("the lines differ from a render of the whole: %s", diff)
	}
}

// TestHeldViewSkipsUnseenOutput: while a stepped view holds still and the
// answer's growing end is below the pane, frames render nothing and stay
// exactly what drawing them anew gives; the end is rendered when the view
// steps. The answer is fed as the screen feeds it, one piece a frame, to
// two transcripts: one draws as usual, the other is made to draw every
// frame anew.
func TestHeldViewSkipsUnseenOutput(t *testing.T) {
	for _, c := range []struct {
		name    string
		piece   int
		stepped bool
	}{
		{"fast, stepped", 530, true},
		{"slow, stepped", 96, true},
		{"fast, following", 530, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := time.Unix(1000, 0)
			answer := longAnswer(20_000)
			var models [2]Model
			var counts [2]*countingRenderer
			for k := range models {
				models[k] = newTestModel(100, 30)
				models[k].s.now = func() time.Time { return now }
				models[k].SetSteppedScroll(c.stepped)
				counts[k] = countRenders(&models[k])
				models[k].AddUser("question")
				models[k].View()
			}
			held := 0
			for i := 0; i < len(answer); i += c.piece {
				now = now.Add(time.Second / 15)
				var frames [2]string
				for k := range models {
					models[k].AppendText(answer[i:min(i+c.piece, len(answer))])
					if k == 1 {
						models[k].s.changed() // drawn anew
					}
					frames[k] = models[k].View()
				}
				if frames[0] != frames[1] {
					t.Fatalf("after %d bytes the frame differs from one drawn anew:\n%s\n----\n%s", i+c.piece, frames[0], frames[1])
				}
				if models[0].Moved() != models[1].Moved() {
					t.Fatalf("after %d bytes Moved says %d, drawn anew %d", i+c.piece, models[0].Moved(), models[1].Moved())
				}
				if models[0].s.holdsStill() {
					held++
				}
			}
			for k := range models {
				models[k].FinishAssistant(false)
			}
			if a, b := models[0].View(), models[1].View(); a != b {
				t.Fatalf("the finished answer differs from one drawn anew:\n%s\n----\n%s", a, b)
			}
			saved := counts[1].bytes - counts[0].bytes
			switch {
			case c.name == "fast, stepped" && (held == 0 || saved < counts[1].bytes/4):
				t.Errorf("a fast answer beside a held view: %d frames held, rendered %d bytes against %d drawn anew", held, counts[0].bytes, counts[1].bytes)
			case !c.stepped && held > 0:
				t.Errorf("a view that follows the end held %d frames", held)
			}
		})
	}
}
