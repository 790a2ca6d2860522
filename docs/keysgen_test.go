package docs_test

import (
	"os"
	"strings"
	"testing"

	"pincer/ui"
)

// TestKeysTablesAreGenerated: every key table of keys.md that the screen's
// key maps can write (the input, the screen, the panes, completion, the
// approval dialog and the edit review) is marked and is what the key maps
// say now; after changing a binding, run go generate ./docs.
func TestKeysTablesAreGenerated(t *testing.T) {
	data, err := os.ReadFile("keys.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	for _, name := range []string{"input", "screen", "transcript", "tree", "completion", "approval", "edit"} {
		if !strings.Contains(md, "<!-- keys:"+name+" -->") {
			t.Errorf("keys.md has no generated table %q", name)
		}
	}
	want, err := ui.RewriteKeyDoc(md)
	if err != nil {
		t.Fatal(err)
	}
	if want != md {
		t.Error("keys.md is out of date with the key maps; run go generate ./docs")
	}
}
