// Command genevents writes the README's table of `pincer run --json` lines
// from the printer's list (see eventdoc).
package main

import (
	"flag"
	"fmt"
	"os"

	"pincer/docs/internal/eventdoc"
)

func main() {
	path := flag.String("o", "../README.md", "the README to rewrite")
	flag.Parse()
	md, err := os.ReadFile(*path)
	if err == nil {
		var out string
		if out, err = eventdoc.Rewrite(string(md)); err == nil {
			err = os.WriteFile(*path, []byte(out), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genevents:", err)
		os.Exit(1)
	}
}
