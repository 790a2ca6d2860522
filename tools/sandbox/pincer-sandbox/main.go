// Command pincer-sandbox is the sandbox helper on its own: pincer uses it,
// when it is installed next to the pincer binary, instead of re-executing
// itself for every command, because this small binary starts in a
// fraction of the time pincer's own start-up takes. Build it with
// CGO_ENABLED=0: it needs no C, and a static binary starts faster (the
// restriction is applied to the one thread that starts the command, so it
// does not depend on cgo's all-threads mechanism).
//
// It is not meant to be run by hand.
package main

import (
	"fmt"
	"os"

	"pincer/tools/sandbox"
)

func main() {
	if !sandbox.IsHelper(os.Args) {
		fmt.Fprintln(os.Stderr, "pincer-sandbox runs commands for pincer; it is not meant to be run by hand")
		os.Exit(2)
	}
	os.Exit(sandbox.HelperMain(os.Args))
}
