package docs_test

import (
	"testing"

	"pincer/docs/internal/eventdoc"
)

// TestReadmeEventsUpToDate: the README's table of `pincer run --json`
// lines is what the printer's list gives (go generate ./docs rewrites it).
func TestReadmeEventsUpToDate(t *testing.T) {
	got := readDoc(t, "../README.md")
	want, err := eventdoc.Rewrite(got)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("README.md's list of JSON lines differs from ui/headless.JSONLines; run go generate ./docs. It should read:\n%s", eventdoc.Table())
	}
}
