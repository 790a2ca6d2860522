package ui

import (
	"context"
	"fmt"

	"pincer/themes"
	"pincer/tools"
	"pincer/ui/termscreen"
	"pincer/ui/watch"
)

// screenFPS caps how often the screen is redrawn while changes keep
// coming (an answer streaming). A change after a quiet spell, a keystroke
// at the idle prompt say, is drawn at once, and a screen where nothing
// moves is not redrawn at all (see ui/termscreen); fifteen frames a second
// stream text smoothly and keep what a slow link carries down.
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
	themes.RegisterCodeStyles() // before anything is drawn: see there
	themes.CacheHighlighting()  // likewise
	app := New(o)
	o.Agent.SetApprover(approver{b: app.bridge})
	if o.AskServers != nil {
		o.AskServers(screenElicitor{b: app.bridge}.ask)
		defer o.AskServers(nil)
	}
	screen := termscreen.New(app, termscreen.Options{FPS: screenFPS})
	app.bridge.frameDue = screen.FrameDue // events come as a frame may be drawn
	_, err = screen.Run(ctx)
	app.cancelTurn()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("the screen failed: %w", err)
	}
	return nil
}
