package ui

import "testing"

// TestSpinnerFrame: the frames come in the spinner's order, one character
// each, and start again after the last.
func TestSpinnerFrame(t *testing.T) {
	frames := []rune(spinner)
	for i := range 3*len(frames) + 1 {
		if got, want := spinnerFrame(i), string(frames[i%len(frames)]); got != want {
			t.Errorf("spinnerFrame(%d) = %q, want %q", i, got, want)
		}
	}
}
