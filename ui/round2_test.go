package ui

import (
	"strings"
	"testing"
)

// TestCtrlCClearingLinesGivesTheRowsBack: Ctrl+C on a multi-line input
// shrinks the input box, and the transcript takes the rows back at once:
// no blank rows are left under the status line.
func TestCtrlCClearingLinesGivesTheRowsBack(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 24}, {60, 20}} {
		a := newTestApp(t, size[0], size[1])
		typeText(a, "one")
		press(a, "ctrl+j")
		typeText(a, "two")
		press(a, "ctrl+j")
		typeText(a, "three")
		if h := a.input.Height(); h != 3 {
			t.Fatalf("%v: the input is %d rows high with three lines", size, h)
		}
		press(a, "ctrl+c")
		checkShape(t, a)
		lines := strings.Split(screen(a), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "idle") {
			t.Errorf("%v: the last row is %q, not the status line", size, last)
		}
		if got := strings.Count(a.transcript.View(), "\n") + 1; got != a.bodyHeight() {
			t.Errorf("%v: the transcript is %d rows high, the body %d", size, got, a.bodyHeight())
		}
	}
}
