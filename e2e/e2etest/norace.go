//go:build !race

package e2etest

// RaceEnabled says the tests run under the race detector, so the binary
// they drive is built with it too.
const RaceEnabled = false
