package checkpoint

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"
)

// TestStoredZlib: trees and commits are written as zlib streams of stored
// deflate blocks; every reader of the store (git's and go-git's) reads
// them with an ordinary zlib reader, across the 64 KB block boundary too.
func TestStoredZlib(t *testing.T) {
	for _, n := range []int{0, 1, 300, 0xffff, 0x10000, 200_000} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i/300)
		}
		z := storedZlib([]byte("kept"), data)
		if !bytes.HasPrefix(z, []byte("kept")) {
			t.Fatalf("%d bytes: the stream did not append to what b held", n)
		}
		r, err := zlib.NewReader(bytes.NewReader(z[4:]))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%d bytes: reading back: %v", n, err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%d bytes: read back %d bytes that differ", n, len(got))
		}
	}
}
