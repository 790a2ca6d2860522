package tools

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"pincer/chat"
)

func TestReadFile(t *testing.T) {
	root := tempRoot(t)
	long := strings.Repeat("x", 3000)
	writeFiles(t, root, map[string]string{
		"five.txt":      "one\ntwo\nthree\nfour\nfive\n",
		"nonl.txt":      "a\nb",
		"crlf.txt":      "a\r\nb\r\n",
		"empty.txt":     "",
		"long.txt":      long + "\nend\n",
		"latin1.txt":    "caf\xe9\n",
		"bin.dat":       "PK\x03\x04\x00\x00binary",
		"dir/inner.txt": "x",
		"agent/loop.go": "x",
	})
	tests := []struct {
		name    string
		args    string
		want    string
		isErr   bool
		substr  bool
		touched bool
	}{
		{"whole file", `{"path": "five.txt"}`, "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive", false, false, true},
		{"no final newline", `{"path": "nonl.txt"}`, "     1\ta\n     2\tb", false, false, true},
		{"crlf shown without CR", `{"path": "crlf.txt"}`, "     1\ta\n     2\tb", false, false, true},
		{"offset and limit", `{"path": "five.txt", "offset": 2, "limit": 2}`, "     2\ttwo\n     3\tthree\n\n[lines 2–3 of 5; use offset=4 to read more]", false, false, true},
		{"offset to the end", `{"path": "five.txt", "offset": 4}`, "     4\tfour\n     5\tfive\n\n[lines 4–5 of 5]", false, false, true},
		{"limit cuts", `{"path": "five.txt", "limit": 1}`, "     1\tone\n\n[lines 1–1 of 5; use offset=2 to read more]", false, false, true},
		{"offset past end", `{"path": "five.txt", "offset": 9}`, "offset 9 is past the end of five.txt, which has 5 lines.", true, false, false},
		{"empty file", `{"path": "empty.txt"}`, "(empty.txt is empty)", false, false, true},
		{"long line cut", `{"path": "long.txt"}`, "… [line cut: 1000 more bytes]\n     2\tend", false, true, true},
		{"invalid UTF-8 replaced", `{"path": "latin1.txt"}`, "     1\tcaf\uFFFD", false, false, true},
		{"binary refused", `{"path": "bin.dat"}`, "bin.dat is a binary file (12 bytes); read_file only shows text.", true, true, false},
		{"directory", `{"path": "dir"}`, "dir is a directory; use tree_view to list it", true, true, false},
		{"missing with suggestion", `{"path": "agent/lopp.go"}`, "file not found: agent/lopp.go. Similar names in agent/: loop.go.", true, false, false},
		{"case suggestion", `{"path": "FIVE.TXT"}`, "Similar names in ./: five.txt", true, true, false},
		{"missing directory", `{"path": "nowhere/x.go"}`, "Its directory nowhere does not exist either", true, true, false},
	}
	opts := Options{Root: root}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, opts, "read_file", tt.args)
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tt.isErr, res.Content)
			}
			if tt.substr && !strings.Contains(res.Content, tt.want) || !tt.substr && res.Content != tt.want {
				t.Errorf("output:\n%q\nwant:\n%q", res.Content, tt.want)
			}
			if got := len(res.Touched) == 1 && res.Touched[0].Kind == chat.TouchRead; got != tt.touched {
				t.Errorf("Touched = %v, want a read mark: %v", res.Touched, tt.touched)
			}
		})
	}
}

func TestReadFileByteCap(t *testing.T) {
	root := tempRoot(t)
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString(strings.Repeat("y", 99) + "\n")
	}
	writeFiles(t, root, map[string]string{"big.txt": b.String()})
	res := run(t, Options{Root: root, MaxOutput: 10000}, "read_file", `{"path": "big.txt"}`)
	if len(res.Content) > 10000 {
		t.Errorf("read %d bytes, more than MaxOutput", len(res.Content))
	}
	// Each numbered line is 107 bytes; about 92 fit in 10000-160.
	if w := missing(res.Content, "    91\t", "[lines 1–", " of 5000 (output limit of about 10000 bytes reached); use offset="); w != "" {
		t.Fatalf("capped read lacks %q:\n…%s", w, res.Content[len(res.Content)-200:])
	}
	last := strings.Count(res.Content, "\t")
	if !strings.Contains(res.Content, "use offset="+itoa(last+1)+" ") && !strings.HasSuffix(res.Content, "use offset="+itoa(last+1)+" to read more]") {
		t.Errorf("offset hint does not continue after line %d:\n%s", last, res.Content[len(res.Content)-120:])
	}
}

func TestReadFileAccessFollowsLinks(t *testing.T) {
	root := tempRoot(t)
	outside := tempRoot(t)
	writeFiles(t, outside, map[string]string{"secret.txt": "s"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	c := decode(t, Options{Root: root}, "read_file", `{"path": "link.txt"}`)
	want := []string{filepath.Join(root, "link.txt"), filepath.Join(outside, "secret.txt")}
	if got := c.Access().Reads; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Access().Reads = %v, want %v", got, want)
	}
	if got := c.Summary(); got != "read_file link.txt" {
		t.Errorf("Summary = %q", got)
	}
}

func TestReadFileCancelled(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"a.txt": "a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := decode(t, Options{Root: root}, "read_file", `{"path": "a.txt"}`).Run(ctx); err != context.Canceled {
		t.Fatalf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestReadFileHugeLineIsNotHeld checks that a file of one enormous line
// (a minified bundle, or a project's trap) costs read_file about one
// shown line of memory, not the line twice over: before, a 300 MB line
// took pincer to 630 MB, so a larger one could end it. The cut is still
// counted exactly, line end left out.
func TestReadFileHugeLineIsNotHeld(t *testing.T) {
	const size = 32 << 20
	root := tempRoot(t)
	huge := strings.Repeat("z", size)
	writeFiles(t, root, map[string]string{
		"lf.txt":   huge + "\nend\n",
		"crlf.txt": huge + "\r\nend\r\n",
		"nonl.txt": huge,
		"cut.txt":  strings.Repeat("é", maxLineBytes) + "\n", // multi-byte text
	})
	tests := []struct {
		path string
		want string
	}{
		{"lf.txt", "… [line cut: " + itoa(size-maxLineBytes) + " more bytes]\n     2\tend"},
		{"crlf.txt", "… [line cut: " + itoa(size-maxLineBytes) + " more bytes]\n     2\tend"},
		{"nonl.txt", "… [line cut: " + itoa(size-maxLineBytes) + " more bytes]"},
		{"cut.txt", strings.Repeat("é", maxLineBytes/2) + "… [line cut: " + itoa(2*maxLineBytes-maxLineBytes) + " more bytes]"},
	}
	huge = ""
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := run(t, Options{Root: root}, "read_file", `{"path": "`+tt.path+`"}`)
			runtime.ReadMemStats(&after)
			if res.IsError || !strings.Contains(res.Content, tt.want) {
				t.Errorf("output ends %q, want it to hold %q", res.Content[max(0, len(res.Content)-120):], tt.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > size/4 {
				t.Errorf("reading a %d-byte line allocated %d bytes; the line must not be held whole", size, got)
			}
		})
	}
}
