//go:build !unix

package checkpoint

// openReadFlags are added when opening a file to record it.
const openReadFlags = 0
