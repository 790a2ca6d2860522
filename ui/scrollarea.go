package ui

import "image"

// ScrollArea is the transcript's part of the screen, and how many lines
// the transcript moved up since the last frame. When a streaming answer
// pushes the transcript up, the screen moves this part with the
// terminal's own scrolling and writes only the new lines, instead of
// writing every line of the pane again on each frame.
func (a *App) ScrollArea() (image.Rectangle, int) {
	x := 0
	if tw := a.treeWidth(); tw > 0 {
		x = tw + 1 // the tree and its rule stay put
	}
	return image.Rect(x, 0, a.width, a.bodyHeight()), a.transcript.Moved()
}

// DeferOutput lets a frame drawn for a keystroke leave the answer that is
// streaming for the next frame, which is due anyway (see
// termscreen.OutputDeferrer): typing echoes as fast during an answer as at
// an idle prompt.
func (a *App) DeferOutput(on bool) { a.transcript.DeferOutput(on) }
