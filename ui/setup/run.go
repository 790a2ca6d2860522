package setup

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// Run shows the setup screen until the person saves or leaves. saved is
// true only when they confirmed; then the caller writes r to ConfigPath.
// Leaving (Esc on the first step, Ctrl+C, or an interrupt) returns saved
// false and no error; a cancelled ctx returns its error.
func Run(ctx context.Context, o Options) (r Result, saved bool, err error) {
	return run(ctx, o)
}

// run is Run with extra program options, for tests.
func run(ctx context.Context, o Options, opts ...tea.ProgramOption) (Result, bool, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	m := New(o)
	m.ctx = ctx
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, opts...)...)
	final, err := p.Run()
	fm, ok := final.(Model)
	if ok {
		fm.stopFetch()
	}
	switch {
	case err == nil && ok:
		r, saved := fm.Result()
		return r, saved, nil
	case errors.Is(err, tea.ErrInterrupted):
		return Result{}, false, nil
	case ctx.Err() != nil:
		return Result{}, false, fmt.Errorf("setup: %w", ctx.Err())
	case err != nil:
		return Result{}, false, fmt.Errorf("the setup screen failed: %w", err)
	}
	return Result{}, false, nil
}
