// Command pincer is a full-screen terminal coding assistant that works with
// any OpenAI-compatible model. `pincer` opens the screen; `pincer run` does
// the same work headless, for scripts and CI.
//
// Everything but this entry point lives in internal/cli: the commands, one
// file per subcommand, and the composition root (internal/cli/wire.go)
// that puts the packages together. docs/architecture.md is the map.
package main

import (
	"os"

	"pincer/internal/cli"
)

func main() {
	os.Exit(cli.Main())
}
