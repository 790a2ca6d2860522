package transcript

import (
	"fmt"
	"strings"
	"testing"

	"pincer/themes"
)

// longCode is a code block of n lines with nothing that spans lines, so
// that rendering it in pieces highlights it exactly as a whole.
func longCode(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "x%d := compute(%d, \"s%d\") // step %d\n", i, i, i, i)
	}
	return b.String()
}

func TestOpenFence(t *testing.T) {
	tests := []struct {
		tail, fence, code string
		ok                bool
	}{
		{"```go\na\nb", "```go", "a\nb", true},
		{"```go\na\n```\n", "", "", false},         // closed
		{"```go\na\n```", "```go", "a\n```", true}, // the closing line has not ended yet
		{"~~~\na\n```\n", "~~~", "a\n```\n", true},
		{"Text\n```go\na", "", "", false}, // not at the start
		{"  ```go\na", "", "", false},     // indented
		{"```go", "", "", false},          // no newline yet
	}
	for _, tt := range tests {
		fence, _, code, ok := openFence(tt.tail)
		if fence != tt.fence || code != tt.code || ok != tt.ok {
			t.Errorf("openFence(%q) = %q, %q, %v; want %q, %q, %v", tt.tail, fence, code, ok, tt.fence, tt.code, tt.ok)
		}
	}
}

// TestOpenCodeBlockRendersInSegments streams a long code block and checks
// that each frame renders a bounded amount, that the preview looks exactly
// like the block rendered whole, and that closing it renders it whole once.
func TestOpenCodeBlockRendersInSegments(t *testing.T) {
	for _, first := range []bool{true, false} {
		c := &countingRenderer{inner: newGlamourRenderer(themes.Dark())}
		intro := ""
		if !first {
			intro = "The file:\n\n"
		}
		lines := 70
		if testing.Short() {
			lines = 3*segmentLines + 5 // three segments and a tail
		}
		code := longCode(lines)
		d := newStreamDoc(intro + "```go\n")
		for i := 0; i < len(code); i += 9 {
			before := c.calls
			d.append(code[i:min(i+9, len(code))])
			d.render(0, 70, c)
			if n := c.calls - before; n > 2 {
				t.Fatalf("a delta inside the block rendered %d times", n)
			}
			if strings.Count(c.last, "\n") > 2*segmentLines+8 {
				t.Fatalf("a frame rendered %d lines of the open block", strings.Count(c.last, "\n"))
			}
		}
		preview := append([]string(nil), d.render(0, 70, c)...)
		d.append("```\n\nAfter.")
		d.finish()
		final := d.render(0, 70, c)
		whole := trimBlank(c.inner.Render(intro+"```go\n"+code+"```\n\nAfter.", 70))
		if diff := firstDiff(final, whole); diff != "" {
			t.Fatalf("first=%v: the finished answer differs from a whole render: %s", first, diff)
		}
		if diff := firstDiff(preview, final[:min(len(preview), len(final))]); diff != "" {
			t.Errorf("first=%v: the preview differs from the final block: %s", first, diff)
		}
		if len(preview) < lines {
			t.Errorf("first=%v: the preview has %d lines, want the %d code lines", first, len(preview), lines)
		}
	}
}
