package tools

import (
	"io"
	"os"
	"regexp"
	"sync"
)

// privateKeySniff is how much of a file HoldsPrivateKey looks at.
const privateKeySniff = 64 << 10

// privateKeyBegin is the first line of a PEM private key block (PKCS#1
// and #8, OpenSSH, EC, encrypted) or of an armoured PGP secret key.
var privateKeyBegin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
})

// IsPrivateKeyText reports whether text holds the first line of a
// private key block.
func IsPrivateKeyText(text []byte) bool { return privateKeyBegin().Match(text) }

// HoldsPrivateKey reports whether the regular file p holds a private key
// block in its first 64 KiB, whatever its name (a deploy_key, a key
// pasted into a settings file): names alone miss those, so reading one
// is asked about.
func HoldsPrivateKey(p string) bool {
	info, err := os.Stat(p)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, privateKeySniff))
	return IsPrivateKeyText(head)
}
