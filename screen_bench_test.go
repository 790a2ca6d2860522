package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"pincer/agent/agenttest"
)

// ptyScreen runs the real binary behind a pseudo-terminal and keeps every
// byte it writes, so a benchmark can count what the screen costs a
// terminal (over SSH, that is what a person waits for).
type ptyScreen struct {
	cmd     *exec.Cmd
	master  *os.File
	start   time.Time
	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{} // closed and replaced on every read
	done    chan struct{} // closed when the terminal side closes
}

func startPTYScreen(tb testing.TB, s *sandbox, cols, rows uint16, args ...string) *ptyScreen {
	tb.Helper()
	bin := os.Getenv("PINCER_SCREEN_BIN") // another build, to compare
	if bin == "" {
		bin = binary(tb)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env
	ps := &ptyScreen{cmd: cmd, changed: make(chan struct{}), done: make(chan struct{})}
	ps.start = time.Now()
	m, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: cols, Rows: rows})
	if err != nil {
		tb.Fatalf("start pincer in a pty: %v", err)
	}
	ps.master = m
	go ps.read()
	return ps
}

func (ps *ptyScreen) read() {
	defer close(ps.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := ps.master.Read(buf)
		ps.mu.Lock()
		ps.out.Write(buf[:n])
		close(ps.changed)
		ps.changed = make(chan struct{})
		ps.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// written is how many bytes the program has written so far.
func (ps *ptyScreen) written() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.out.Len()
}

// waitFor waits until the output from offset on holds want, and returns
// the offset just past it.
func (ps *ptyScreen) waitFor(tb testing.TB, from int, want string) int {
	tb.Helper()
	deadline := time.After(30 * time.Second)
	for {
		ps.mu.Lock()
		i := bytes.Index(ps.out.Bytes()[from:], []byte(want))
		ch := ps.changed
		ps.mu.Unlock()
		if i >= 0 {
			return from + i + len(want)
		}
		select {
		case <-ch:
		case <-ps.done:
			tb.Fatalf("pincer ended before showing %q:\n%q", want, ps.tail())
		case <-deadline:
			tb.Fatalf("pincer never showed %q:\n%q", want, ps.tail())
		}
	}
}

func (ps *ptyScreen) tail() string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	b := ps.out.Bytes()
	return string(b[max(0, len(b)-2000):])
}

func (ps *ptyScreen) keys(s string) { ps.master.WriteString(s) }

// stop quits pincer with two Ctrl+C and waits for it.
func (ps *ptyScreen) stop() {
	ps.keys("\x03")
	time.Sleep(20 * time.Millisecond)
	ps.keys("\x03")
	exited := make(chan struct{})
	go func() { ps.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		ps.cmd.Process.Kill()
		<-exited
	}
	ps.master.Close()
}

// benchSandbox is newSandbox for a benchmark.
func benchSandbox(b *testing.B, baseURL string) *sandbox {
	t := &testing.T{}
	s := &sandbox{t: t, dir: b.TempDir(), home: b.TempDir()}
	s.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.home, ".local", "share"),
		"PINCER_DATA_DIR=" + filepath.Join(s.home, "data"),
		"SHELL=/bin/sh",
		"TERM=xterm-256color",
		"PINCER_BASE_URL=" + baseURL,
		"PINCER_MODEL=test-model",
	}
	// A project with enough files to fill the tree pane.
	for _, dir := range []string{".", "cmd", "internal/store", "internal/web", "docs"} {
		for i := range 24 {
			p := filepath.Join(s.dir, dir, fmt.Sprintf("file%02d.go", i))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("package x\n"), 0o644)
		}
	}
	return s
}

// inputPrompt is what the input box shows when the screen opens: its
// placeholder, written once the first frame reaches the terminal.
const inputPrompt = "pincer…  @ file"

// BenchmarkScreenFirstFrame measures the time from starting the binary to
// the input box reaching the terminal, as ms-to-input.
func BenchmarkScreenFirstFrame(b *testing.B) {
	srv := agenttest.New()
	defer srv.Close()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := benchSandbox(b, srv.BaseURL())
		b.StartTimer()
		ps := startPTYScreen(b, s, 120, 40)
		ps.waitFor(b, 0, inputPrompt)
		total += time.Since(ps.start)
		b.StopTimer()
		ps.stop()
		os.RemoveAll(s.dir)
		os.RemoveAll(s.home)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-input")
}

// longAnswer is about 35 KB of the markdown a model writes: paragraphs,
// lists, inline code and a fenced block, ending with a marker.
func longAnswer() string {
	var b strings.Builder
	for i := 1; b.Len() < 35000; i++ {
		fmt.Fprintf(&b, "## Step %d\n\n", i)
		b.WriteString("The parser reads the whole file first, then walks each declaration and records the names it defines, so that a later pass can resolve `references` without a second read of the disk.\n\n")
		b.WriteString("- keep the **cache** small\n- drop entries that were not used\n- log what was evicted\n\n")
		b.WriteString("```go\nfunc evict(c *cache, n int) {\n\tfor len(c.items) > n {\n\t\tc.drop()\n\t}\n}\n```\n\n")
	}
	b.WriteString("That is all of it. END-OF-ANSWER")
	return b.String()
}

// BenchmarkScreenBytes streams a 35 KB answer into the real screen behind
// a byte-counting pty and reports the bytes written to the terminal per
// byte of answer (term-bytes/answer-byte) while it streamed: 120 columns
// show the project tree beside the transcript, 80 leave it out.
func BenchmarkScreenBytes(b *testing.B) {
	for _, size := range []struct {
		name string
		cols uint16
	}{{"tree", 120}, {"notree", 80}} {
		b.Run(size.name, func(b *testing.B) { benchScreenBytes(b, size.cols) })
	}
}

func benchScreenBytes(b *testing.B, cols uint16) {
	answer := longAnswer()
	var ratio float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv := agenttest.New(agenttest.Reply{Body: agenttest.TextBody(answer, 24, 10, 10), Piece: 1500, Delay: 30 * time.Millisecond})
		s := benchSandbox(b, srv.BaseURL())
		ps := startPTYScreen(b, s, cols, 40)
		at := ps.waitFor(b, 0, inputPrompt)
		time.Sleep(300 * time.Millisecond) // let the tree and the first frames settle
		b.StartTimer()
		from := ps.written()
		ps.keys("write it out\r")
		end := ps.waitFor(b, max(at, from), "END-OF-ANSWER")
		ps.waitFor(b, end, "idle")
		b.StopTimer()
		ratio += float64(ps.written()-from) / float64(len(answer))
		if dump := os.Getenv("PINCER_SCREEN_DUMP"); dump != "" {
			ps.mu.Lock()
			os.WriteFile(dump, ps.out.Bytes()[from:], 0o644)
			ps.mu.Unlock()
		}
		ps.stop()
		srv.Close()
		os.RemoveAll(s.dir)
		os.RemoveAll(s.home)
		b.StartTimer()
	}
	b.ReportMetric(ratio/float64(b.N), "term-bytes/answer-byte")
}
