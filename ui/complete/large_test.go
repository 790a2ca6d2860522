package complete

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLoadFilesKeepsTheTopOfALargeProject: a project whose first folder
// alone holds more files than the limit. The files at the root and one
// level down are all offered, the list says it is partial, and "main"
// finds main.go first (a depth-first walk offered none of them).
func TestLoadFilesKeepsTheTopOfALargeProject(t *testing.T) {
	root := t.TempDir()
	write := func(name string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 300 {
		write(fmt.Sprintf("aaa/generated/deep/gen%03d.go", i))
	}
	for _, name := range []string{"main.go", "go.mod", "README.md", "cmd/pincer/main.go", "web/index.ts"} {
		write(name)
	}
	msg := LoadFiles(context.Background(), root, 200)().(FilesMsg)
	if msg.Err != nil || !msg.Truncated {
		t.Fatalf("err %v truncated %v", msg.Err, msg.Truncated)
	}
	got := map[string]bool{}
	for _, it := range msg.Items {
		got[it.Value] = true
	}
	for _, want := range []string{"main.go", "go.mod", "README.md", "cmd/pincer/main.go", "web/index.ts"} {
		if !got[want] {
			t.Errorf("%s is not offered", want)
		}
	}
	m := New()
	m.SetSize(60, 8)
	m.OpenIndex(msg.Index, "main")
	m.SetPartial(msg.Truncated)
	if it, _ := m.Selected(); it.Value != "main.go" {
		t.Errorf("@main selects %q, want main.go", it.Value)
	}
	if v := m.View(); !strings.Contains(v, "only the first 200 files") {
		t.Errorf("the partial list does not say so:\n%s", v)
	}
}

// TestFooterSaysWhatIsLeftOut: a query that matches more than the popup
// keeps says how many it matched.
func TestFooterSaysWhatIsLeftOut(t *testing.T) {
	m := New()
	m.SetSize(70, 8)
	m.Open(fileItems(syntheticPaths(3000, 3)), "")
	if v := m.View(); !strings.Contains(v, "200 of 3,000 shown: type to narrow") {
		t.Errorf("an empty query's popup:\n%s", v)
	}
	if h := m.Height(); h != 9 {
		t.Errorf("height %d, want 8 rows and the footer", h)
	}
	m.SetQuery("user")
	if v := m.View(); !strings.Contains(v, "best 200 of ") {
		t.Errorf("a broad query's popup:\n%s", v)
	}
	m.SetQuery("usrsesstrmzz")
	if !m.Visible() {
		m.SetQuery("srvhnd")
	}
	if m.Total() <= 200 && strings.Contains(m.View(), "of ") {
		t.Errorf("a narrow query still has the footer:\n%s", m.View())
	}
	for _, line := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(line); w != 70 {
			t.Errorf("a line is %d cells wide, want 70: %q", w, line)
		}
	}
}

// TestPrepareSharesOnlyLowerCaseTexts: a candidate's lower-case runes
// are its text folded, whether they share the text's runes (no upper case)
// or not, and sharing never lets one candidate's runes run into another's.
func TestPrepareSharesOnlyLowerCaseTexts(t *testing.T) {
	paths := []string{"Makefile", "makefile.go", "cmd/Make.go", "docs/make.md", "ÄPFEL/ä.go", "x", ""}
	paths = append(paths, syntheticPaths(500, 9)...)
	for i := 0; i < len(paths); i += 7 {
		paths[i] = strings.ToUpper(paths[i][:min(len(paths[i]), 3)]) + paths[i][min(len(paths[i]), 3):]
	}
	cands := prepare(fileItems(paths))
	for i, c := range cands {
		if string(c.text) != paths[i] {
			t.Fatalf("candidate %d text %q, want %q", i, string(c.text), paths[i])
		}
		for j, r := range c.text {
			if c.lower[j] != fold(r) {
				t.Fatalf("candidate %q: lower %q", paths[i], string(c.lower))
			}
		}
		if shared := len(c.text) > 0 && &c.text[0] == &c.lower[0]; len(c.text) > 0 && shared == hasUpper(paths[i]) {
			t.Errorf("candidate %q: shared %v with upper case %v", paths[i], shared, hasUpper(paths[i]))
		}
	}
}

// BenchmarkNewIndex50k prepares the files of a 50,000-file project for
// ranking, as LoadFiles does off the screen's loop; -benchmem shows the
// memory the index holds.
func BenchmarkNewIndex50k(b *testing.B) {
	items := fileItems(syntheticPaths(50000, 1))
	b.ReportAllocs()
	for b.Loop() {
		_ = NewIndex(items)
	}
}
