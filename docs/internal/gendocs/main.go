// Command gendocs writes docs/configuration.md from the config package, so
// the page lists exactly the fields, defaults, variables and presets the
// code has. Run it with `go generate ./docs`.
package main

import (
	"flag"
	"fmt"
	"os"

	"pincer/docs/internal/configdoc"
)

func main() {
	out := flag.String("o", "configuration.md", "file to write")
	flag.Parse()
	page, err := configdoc.Render()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, page, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}
