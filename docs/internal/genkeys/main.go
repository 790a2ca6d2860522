// Command genkeys writes the key tables of docs/keys.md from the screen's
// key maps (see ui.RewriteKeyDoc).
package main

import (
	"flag"
	"fmt"
	"os"

	"pincer/ui"
)

func main() {
	path := flag.String("o", "keys.md", "the keys page to rewrite")
	flag.Parse()
	md, err := os.ReadFile(*path)
	if err == nil {
		var out string
		if out, err = ui.RewriteKeyDoc(string(md)); err == nil {
			err = os.WriteFile(*path, []byte(out), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genkeys:", err)
		os.Exit(1)
	}
}
