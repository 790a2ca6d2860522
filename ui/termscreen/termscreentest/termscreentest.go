// Package termscreentest holds what the screen's tests share: a terminal
// emulator to play the bytes pincer writes through.
package termscreentest

import (
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/vt"
)

// Emulator is a w×h terminal emulator for a test. Its answers to queries
// (cursor position, colours) are read and dropped, so that what is
// written to it never blocks on them. It is closed when the test ends,
// once that reader has stopped: vt's Close and Read share a flag without
// a lock, so closing while a Read waits is a data race the race detector
// reports.
func Emulator(t testing.TB, w, h int) *vt.Emulator {
	t.Helper()
	emu := vt.NewEmulator(w, h)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1024)
		for {
			// Read first: the reader may start only after the test has
			// ended, and the byte that wakes it must still be taken.
			if _, err := emu.Read(buf); err != nil || stop.Load() {
				return
			}
		}
	}()
	t.Cleanup(func() {
		stop.Store(true)
		// A byte to wake the reader to see stop. It may have left already,
		// on an answer that arrived after stop was set: then this write
		// waits until Close ends it.
		go func() { _, _ = emu.InputPipe().Write([]byte{0}) }()
		<-done
		_ = emu.Close()
	})
	return emu
}
