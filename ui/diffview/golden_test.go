package diffview

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// storeChange is the fixture of the golden files: a Go file whose edit has
// four hunks, the last one ending without a line break.
func storeChange(t testing.TB, w, h int) Model {
	t.Helper()
	before, err := os.ReadFile("testdata/before.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile("testdata/after.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	return newModel("store/store.go", string(before), string(after), w, h)
}

// TestGolden compares whole views, without colours, with the files in
// testdata/TestGolden (go test -update writes them). Each line is closed
// with "|", so a file shows the view's exact shape. The other tests assert
// the properties that matter; these files catch layout changes.
func TestGolden(t *testing.T) {
	scenes := []struct {
		name string
		w, h int
		keys []string
		note string
	}{
		{"unified_80x20", 80, 20, nil, ""},
		{"unified_second_hunk_rejected_80x20", 80, 20, []string{"j", "space"}, ""},
		{"side_by_side_160x20", 160, 20, []string{"j", "space"}, ""},
		{"side_by_side_last_hunk_160x20", 160, 20, []string{"end"}, ""},
		{"unified_note_narrow_50x12", 50, 12, []string{"j", "j"}, "The file changed on disk since the model read it; this is the diff against the file as it is now."},
	}
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			m := storeChange(t, sc.w, sc.h)
			m.SetNote(sc.note)
			m = press(m, sc.keys...)
			v := m.View()
			checkFrame(t, v, sc.w, sc.h)
			golden.RequireEqual(t, framed(v))
		})
	}
}

// framed strips colours and closes each line with "|".
func framed(view string) string {
	var b strings.Builder
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		b.WriteString(l)
		b.WriteString("|\n")
	}
	return b.String()
}
