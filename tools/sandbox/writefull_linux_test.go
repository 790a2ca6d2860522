//go:build linux

package sandbox

import (
	"errors"
	"io"
	"syscall"
	"testing"
)

// TestWriteFull: the filtered settings files are written whole or not
// at all: a writer that takes less than it was given is called again
// for the rest, and one that stops (no progress, or an error such as a
// full file system) fails the write instead of leaving a copy cut short.
func TestWriteFull(t *testing.T) {
	data := []byte("[user]\n\tname = T\n[core]\n\teditor = vi\n")
	for _, tc := range []struct {
		name    string
		write   func(got *[]byte) func([]byte) (int, error)
		wantErr error
	}{
		{"whole", func(got *[]byte) func([]byte) (int, error) {
			return func(b []byte) (int, error) { *got = append(*got, b...); return len(b), nil }
		}, nil},
		{"three bytes a call", func(got *[]byte) func([]byte) (int, error) {
			return func(b []byte) (int, error) { n := min(3, len(b)); *got = append(*got, b[:n]...); return n, nil }
		}, nil},
		{"short, then the file system is full", func(got *[]byte) func([]byte) (int, error) {
			return func(b []byte) (int, error) {
				if len(*got) >= 10 {
					return 0, syscall.ENOSPC
				}
				n := min(10, len(b))
				*got = append(*got, b[:n]...)
				return n, nil
			}
		}, syscall.ENOSPC},
		{"short, then nothing and no error", func(got *[]byte) func([]byte) (int, error) {
			return func(b []byte) (int, error) {
				if len(*got) >= 10 {
					return 0, nil
				}
				n := min(10, len(b))
				*got = append(*got, b[:n]...)
				return n, nil
			}
		}, io.ErrShortWrite},
		{"more than it was given", func(got *[]byte) func([]byte) (int, error) {
			return func(b []byte) (int, error) { return len(b) + 1, nil }
		}, io.ErrShortWrite},
	} {
		var got []byte
		err := writeFull(tc.write(&got), data)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.wantErr)
		}
		if tc.wantErr == nil && string(got) != string(data) {
			t.Errorf("%s: wrote %q, want %q", tc.name, got, data)
		}
	}
}
