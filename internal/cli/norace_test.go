//go:build !race

package cli

// raceEnabled says the tests run under the race detector, so the binary
// they drive is built with it too.
const raceEnabled = false
