// Package privatekey recognises a private key by what a file holds rather
// than by its name: a deploy_key or a key pasted into a settings file has
// no telling name. The file tools and the command classifier (through the
// view of the disk the composition root gives it) share this one rule, so
// a key that needs a yes to be read needs it whichever way it is read.
package privatekey

import (
	"regexp"
	"sync"

	"pincer/internal/safefile"
)

// SniffLimit is how much of a file InFile looks at: a key block starts
// near the top of any file that is one.
const SniffLimit = 64 << 10

// begin is the first line of a PEM private key block (PKCS#1 and #8,
// OpenSSH, EC, encrypted) or of an armoured PGP secret key.
var begin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
})

// IsText reports whether text holds the first line of a private key block.
func IsText(text []byte) bool { return begin().Match(text) }

// InFile reports whether the regular file at path (links followed) holds a
// private key block in its first SniffLimit bytes, and how many bytes it
// read, so that a caller can bound what it reads in all. It opens the file
// through safefile: anything but a regular file is not opened at all, and
// the open never waits on a named pipe swapped in after the check.
func InFile(path string) (holds bool, read int64) {
	head, err := safefile.Head(path, SniffLimit)
	if err != nil {
		return false, 0
	}
	return IsText(head), int64(len(head))
}
