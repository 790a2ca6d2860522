package ui

import (
	"context"
	"fmt"

	"pincer/tools"
	"pincer/ui/termscreen"
	"pincer/ui/watch"
)

// screenFPS caps how often the screen is redrawn. Bubble Tea's renderer
// wakes at this rate even when nothing changes, and on the machines pincer
// was measured on each wake costs about 0.025% of a core: 30 frames a
// second idled at 0.75%, 15 at 0.35%. Fifteen frames a second still echo a
// keystroke within 67 ms and stream text smoothly.
const screenFPS = 15

// Run shows the screen until the person quits. It returns when they do.
func Run(ctx context.Context, o Options) error {
	w, err := watch.New(o.Root, watch.Options{Ignored: func(rel string, isDir bool) bool {
		return tools.Ignored(o.Root, rel, isDir)
	}})
	if err == nil {
		defer w.Close()
		o.Watcher = w
	} // without a watcher the tree still refreshes after every tool run
	app := New(o)
	o.Agent.SetApprover(approver{b: app.bridge})
	_, err = termscreen.New(app, termscreen.Options{FPS: screenFPS}).Run(ctx)
	app.cancelTurn()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("the screen failed: %w", err)
	}
	return nil
}
