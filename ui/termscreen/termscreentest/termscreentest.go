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

// StrictREP plays bytes into an emulator as a strict terminal takes REP
// (repeat the preceding character): only straight after a printable ASCII
// character, as tmux 3.3 does, which forgets the character at any control
// sequence or control character (a style, a move, another REP) and does
// not repeat one of several bytes. The emulator used in tests repeats the
// last character whatever came between, so a REP separated from its
// character passes there and leaves stale text in tmux.
type StrictREP struct {
	Emu *vt.Emulator
	// after says the last byte played was a printable ASCII character.
	after bool
	carry []byte // an escape sequence cut at the end of the last write
}

// WriteString plays s, dropping each REP a strict terminal ignores.
func (w *StrictREP) WriteString(s string) {
	b := append(w.carry, s...)
	w.carry = nil
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			n := escapeEnd(b, i)
			if n < 0 {
				w.carry = append([]byte(nil), b[i:]...)
				i = len(b)
				continue
			}
			seq := b[i:n]
			rep := len(seq) >= 3 && seq[1] == '[' && seq[len(seq)-1] == 'b' && isDigits(seq[2:len(seq)-1])
			if !rep || w.after {
				out = append(out, seq...)
			}
			w.after = false
			i = n
		case c >= 0x20 && c < 0x7f:
			out = append(out, c)
			w.after = true
			i++
		default:
			out = append(out, c)
			w.after = false
			i++
		}
	}
	w.Emu.WriteString(string(out))
}

// isDigits reports whether b holds only decimal digits (or nothing).
func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// escapeEnd is the index just past the escape sequence at b[i], or -1
// when b ends before it does.
func escapeEnd(b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch b[i+1] {
	case '[':
		for j := i + 2; j < len(b); j++ {
			if b[j] >= 0x40 && b[j] <= 0x7e {
				return j + 1
			}
		}
		return -1
	case ']', 'P', '_', '^', 'X':
		// A string, ended by BEL or ST.
		for j := i + 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2
			}
		}
		return -1
	}
	for j := i + 1; j < len(b); j++ {
		if b[j] < 0x20 || b[j] > 0x2f {
			return j + 1
		}
	}
	return -1
}
