package tui

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"slices"
	"strconv"
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
	term    termKind
	mu      sync.Mutex
	out     bytes.Buffer
	asked   int           // out[:asked] has been searched for queries
	changed chan struct{} // closed and replaced on every read
	done    chan struct{} // closed when the terminal side closes
}

// termKind is what the terminal behind the pty says when asked.
type termKind struct {
	colours bool // it answers OSC 10 and 11 with its text and background colours, as tmux and most terminals do
	margins bool // it reports left and right margins (DECRQM 69), as xterm does and tmux does not
}

// The terminal's own colours when it says them: a dark background, so the
// default dark theme needs no painting.
const (
	termBackground = "\x1b]11;rgb:1818/1818/1b1b\x1b\\"
	termForeground = "\x1b]10;rgb:d4d4/d4d4/d8d8\x1b\\"
)

func startPTYScreen(tb testing.TB, s *e2etest.Sandbox, cols, rows uint16, args ...string) *ptyScreen {
	return startPTYTerminal(tb, s, termKind{}, cols, rows, args...)
}

// startPTYTerminal is startPTYScreen on a terminal that answers as term.
func startPTYTerminal(tb testing.TB, s *e2etest.Sandbox, term termKind, cols, rows uint16, args ...string) *ptyScreen {
	tb.Helper()
	bin := os.Getenv("PINCER_SCREEN_BIN") // another build, to compare
	if bin == "" {
		bin = e2etest.Binary(tb)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	ps := &ptyScreen{cmd: cmd, term: term, changed: make(chan struct{}), done: make(chan struct{})}
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
		answer := ps.answers()
		close(ps.changed)
		ps.changed = make(chan struct{})
		ps.mu.Unlock()
		if answer != "" {
			ps.master.WriteString(answer)
		}
		if err != nil {
			return
		}
	}
}

// answers is what the terminal replies to the queries written since the
// last call (ps.mu held).
func (ps *ptyScreen) answers() string {
	b := ps.out.Bytes()
	from := max(ps.asked-16, 0) // a query may straddle two reads
	var reply strings.Builder
	for _, q := range []struct {
		query, answer string
		on            bool
	}{
		{"\x1b]11;?", termBackground, ps.term.colours},
		{"\x1b]10;?", termForeground, ps.term.colours},
		{"\x1b[?69$p", "\x1b[?69;2$y", ps.term.margins},
	} {
		if q.on && bytes.Contains(b[from:], []byte(q.query)) && !bytes.Contains(b[from:ps.asked], []byte(q.query)) {
			reply.WriteString(q.answer)
		}
	}
	ps.asked = len(b)
	return reply.String()
}

// written is how many bytes the program has written so far.
func (ps *ptyScreen) written() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.out.Len()
}

// waitFor waits until the output from offset on holds want, and returns
// the offset just past it.
func (ps *ptyScreen) WaitFor(tb testing.TB, from int, want string) int {
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

// outFrom is a copy of the output from offset on.
func (ps *ptyScreen) outFrom(from int) []byte {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return bytes.Clone(ps.out.Bytes()[from:])
}

func (ps *ptyScreen) tail() string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	b := ps.out.Bytes()
	return string(b[max(0, len(b)-2000):])
}

func (ps *ptyScreen) Keys(s string) { ps.master.WriteString(s) }

// stop quits pincer with two Ctrl+C and waits for it.
func (ps *ptyScreen) stop() {
	ps.Keys("\x03")
	time.Sleep(20 * time.Millisecond)
	ps.Keys("\x03")
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

// benchSandbox is newSandbox for a benchmark, in a project of 5 folders
// of 24 files.
func benchSandbox(b *testing.B, baseURL string) *e2etest.Sandbox {
	return benchProject(b, baseURL, false)
}

// fullTree is the top level of a Go project with more entries than the
// tree pane has rows, of the varied names real projects have (a tree of
// near-identical names costs a terminal less to redraw than a real one).
var fullTree = strings.Fields(`README.md agent/ checkpoint/ checkpoints.go checkpoints_test.go
	cmd_agents.go cmd_agents_test.go cmd_classify.go cmd_commands.go cmd_config.go cmd_mcp.go
	cmd_memory.go cmd_prompt.go cmd_rewind.go cmd_run.go cmd_sandbox.go cmd_sessions.go
	cmd_setup.go cmd_tasks.go cmd_telegram.go cmd_tui.go commands/ config/ docs/ explain.go
	explain_test.go go.mod go.sum headless_e2e_test.go hooks/ hookswire.go internal/ main.go
	main_test.go opensession.go rewind/ safety/ session/ themes/ tools/ trust.go ui/ wire.go
	Makefile LICENSE CHANGELOG.md .golangci.yml scripts/ testdata/ examples/ vendor.go`)

// benchProject is benchSandbox, or with full a project whose top level
// fills the tree pane (fullTree).
func benchProject(b *testing.B, baseURL string, full bool) *e2etest.Sandbox {
	t := &testing.T{}
	s := &e2etest.Sandbox{T: t, Dir: b.TempDir(), Home: b.TempDir()}
	s.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.Home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.Home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.Home, ".local", "share"),
		"PINCER_DATA_DIR=" + filepath.Join(s.Home, "data"),
		"SHELL=/bin/sh",
		"TERM=xterm-256color",
		"PINCER_BASE_URL=" + baseURL,
		"PINCER_MODEL=test-model",
	}
	if full {
		for _, name := range fullTree {
			p := filepath.Join(s.Dir, name)
			if strings.HasSuffix(name, "/") {
				p = filepath.Join(p, "doc.go")
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("package x\n"), 0o644)
		}
		return s
	}
	for _, dir := range []string{".", "cmd", "internal/store", "internal/web", "docs"} {
		for i := range 24 {
			p := filepath.Join(s.Dir, dir, fmt.Sprintf("file%02d.go", i))
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
		ps.WaitFor(b, 0, inputPrompt)
		total += time.Since(ps.start)
		b.StopTimer()
		ps.stop()
		os.RemoveAll(s.Dir)
		os.RemoveAll(s.Home)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-input")
}

// longAnswer is about 35 KB of the markdown a model writes: paragraphs,
// lists, inline code and a fenced block, ending with a marker.
func longAnswer() string { return answerOf(35000) }

// shortAnswer is longAnswer's first 7 KB or so, for a stream at the pace
// of a real model (1.4 KB/s), which would take half a minute for the
// whole.
func shortAnswer() string { return answerOf(7000) }

// answerOf is longAnswer of about n bytes.
func answerOf(n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Step %d\n\n", i)
		b.WriteString("The parser reads the whole file first, then walks each declaration and records the names it defines, so that a later pass can resolve `references` without a second read of the disk.\n\n")
		b.WriteString("- keep the **cache** small\n- drop entries that were not used\n- log what was evicted\n\n")
		b.WriteString("```go\nfunc evict(c *cache, n int) {\n\tfor len(c.items) > n {\n\t\tc.drop()\n\t}\n}\n```\n\n")
	}
	b.WriteString("That is all of it. END-OF-ANSWER")
	return b.String()
}

// variedAnswer is about 35 KB of markdown like longAnswer's whose blocks
// all differ (longAnswer repeats one step, so a screen that scrolls by
// the wrong distance finds the same lines a step further on and writes
// less than a real answer costs).
func variedAnswer() string {
	words := strings.Fields(`the parser reads whole file first then walks each declaration and records
		names it defines so that later pass can resolve references without second read of disk cache
		entries were evicted index tokens buffer stream handler request returns error wraps context
		caller checks both paths tests cover config value merged flags environment field`)
	r := rand.New(rand.NewPCG(7, 11))
	say := func(n int) string {
		out := make([]string, n)
		for i := range out {
			out[i] = words[r.IntN(len(words))]
		}
		return strings.Join(out, " ")
	}
	var b strings.Builder
	for i := 1; b.Len() < 35000; i++ {
		fmt.Fprintf(&b, "## Step %d: %s\n\n", i, say(2+r.IntN(4)))
		fmt.Fprintf(&b, "The %s `%s` %s.\n\n", say(10+r.IntN(20)), words[r.IntN(len(words))], say(8+r.IntN(20)))
		for range 2 + r.IntN(3) {
			fmt.Fprintf(&b, "- %s **%s** %s\n", say(1+r.IntN(3)), words[r.IntN(len(words))], say(2+r.IntN(6)))
		}
		fmt.Fprintf(&b, "\n```go\nfunc %s%d(c *cache, n int) error {\n", words[r.IntN(len(words))], i)
		for range 2 + r.IntN(5) {
			fmt.Fprintf(&b, "\tif err := c.%s(%q, n); err != nil {\n\t\treturn fmt.Errorf(\"%s: %%w\", err)\n\t}\n", words[r.IntN(len(words))], say(2), say(2))
		}
		b.WriteString("\treturn nil\n}\n```\n\n")
	}
	b.WriteString("That is all of it. END-OF-ANSWER")
	return b.String()
}

// BenchmarkScreenBytes streams a 35 KB answer into the real screen behind
// a byte-counting pty and reports the bytes written to the terminal per
// byte of answer (term-bytes/answer-byte) while it streamed.
//
//   - tree, notree: 120 columns show the project tree beside the
//     transcript, 80 leave it out; the terminal answers no query and names
//     no colour depth (the first measurements of this benchmark).
//   - truecolor: 160×45 on a terminal that says it shows true colour
//     (COLORTERM) and answers the background-colour query, as tmux does
//     with a terminal behind it; with the tree of a real project filling
//     its pane (full) or 3 files.
//   - margins: the same on a terminal that also has left and right margins
//     (xterm's DECSLRM), which tmux lacks.
//   - varied: variedAnswer instead of longAnswer.
//   - 1.4KBps: shortAnswer at the pace of a real model (1.4 KB/s), beside
//     a full tree on a true-colour terminal without margins (tmux); the
//     others stream at about 9 KB/s, where a view that holds still while
//     the answer grows below it skips lines a slower answer shows.
func BenchmarkScreenBytes(b *testing.B) {
	for _, c := range []struct {
		name       string
		cols, rows uint16
		term       termKind
		full       bool
		answer     func() string
	}{
		{"tree", 120, 40, termKind{}, false, longAnswer},
		{"notree", 80, 40, termKind{}, false, longAnswer},
		{"truecolor/fulltree", 160, 45, termKind{colours: true}, true, longAnswer},
		{"truecolor/smalltree", 160, 45, termKind{colours: true}, false, longAnswer},
		{"truecolor/fulltree/margins", 160, 45, termKind{colours: true, margins: true}, true, longAnswer},
		{"notree/varied", 80, 40, termKind{}, false, variedAnswer},
		{"truecolor/fulltree/varied", 160, 45, termKind{colours: true}, true, variedAnswer},
		{"truecolor/fulltree/margins/varied", 160, 45, termKind{colours: true, margins: true}, true, variedAnswer},
	} {
		b.Run(c.name, func(b *testing.B) { benchScreenBytes(b, c.cols, c.rows, c.term, c.full, c.answer(), 0) })
	}
	// At the pace of a real model, beside a full tree in tmux (no margins).
	b.Run("truecolor/fulltree/1.4KBps", func(b *testing.B) {
		benchScreenBytes(b, 160, 45, termKind{colours: true}, true, shortAnswer(), 1400)
	})
	// The same in a real tmux, which answers the queries itself.
	for _, c := range []struct {
		name   string
		answer func() string
		rate   int
	}{
		{"tmux/truecolor/fulltree", longAnswer, 0},
		{"tmux/truecolor/fulltree/varied", variedAnswer, 0},
		{"tmux/truecolor/fulltree/1.4KBps", shortAnswer, 1400},
		{"tmux/truecolor/fulltree/varied/1.4KBps", func() string { return variedAnswer()[:7000] + " END-OF-ANSWER" }, 1400},
	} {
		b.Run(c.name, func(b *testing.B) { benchTmuxBytes(b, c.answer(), c.rate) })
	}
}

// benchTmuxBytes is benchScreenBytes in a real tmux at 160×45 beside a
// full tree: tmux answers the colour and capability queries as it does
// for a person, its panes say xterm-256color with COLORTERM=truecolor (so
// pincer writes true colour, as it does in a tmux set up for it), and
// pipe-pane counts every byte pincer writes to the pane.
func benchTmuxBytes(b *testing.B, answer string, rate int) {
	switch missing, fail := e2etest.TmuxMissing(); {
	case fail:
		b.Fatal(missing)
	case missing != "":
		b.Skip(missing)
	}
	bin := os.Getenv("PINCER_SCREEN_BIN")
	if bin == "" {
		bin = e2etest.Binary(b)
	}
	var ratio float64
	body := agenttest.TextBody(answer, 24, 10, 10)
	piece := 1500
	if rate > 0 {
		piece = max(rate*len(body)/len(answer)*30/1000, 1)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv := agenttest.New(agenttest.Reply{Body: body, Piece: piece, Delay: 30 * time.Millisecond})
		s := benchProject(b, srv.BaseURL(), true)
		work := b.TempDir()
		conf := filepath.Join(work, "tmux.conf")
		os.WriteFile(conf, []byte("set -g default-terminal xterm-256color\n"), 0o644)
		socket := fmt.Sprintf("pincer-bench-%d-%d", os.Getpid(), time.Now().UnixNano())
		tmux := func(args ...string) string {
			out, err := exec.Command("tmux", append([]string{"-L", socket, "-f", conf}, args...)...).CombinedOutput()
			if err != nil {
				b.Fatalf("tmux %s: %v: %s", args[0], err, out)
			}
			return string(out)
		}
		args := []string{"new-session", "-d", "-s", "bench", "-x", "160", "-y", "45", "-c", s.Dir}
		for _, e := range append(s.Env, "COLORTERM=truecolor") {
			if !strings.HasPrefix(e, "TERM=") {
				args = append(args, "-e", e)
			}
		}
		tmux(append(args, bin)...)
		info := strings.TrimSpace(tmux("display", "-p", "-t", "bench", "#{socket_path}\t#{pane_pid}"))
		sock, pane, _ := strings.Cut(info, "\t")
		ended := false
		end := func() {
			if ended {
				return
			}
			ended = true
			exec.Command("tmux", "-L", socket, "kill-server").Run()
			if filepath.Base(sock) == socket {
				os.Remove(sock) // tmux leaves its socket file; it is this run's
			}
			// pincer ends on the hang-up, but may still be writing a
			// checkpoint when the directories are removed: wait for it.
			if pid, err := strconv.Atoi(pane); err == nil {
				e2etest.WaitGone(pid)
			}
			srv.Close()
		}
		b.Cleanup(end) // also when the run fails half-way
		waitPane := func(want string) {
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if strings.Contains(tmux("capture-pane", "-p", "-t", "bench"), want) {
					return
				}
				if time.Now().After(deadline) {
					b.Fatalf("the pane never showed %q:\n%s", want, tmux("capture-pane", "-p", "-t", "bench"))
				}
			}
		}
		waitPane("Ask pincer")
		time.Sleep(300 * time.Millisecond) // let the tree and the first frames settle
		out := filepath.Join(work, "pane.out")
		// The marker file says cat has written all it was given.
		tmux("pipe-pane", "-O", "-t", "bench", "cat > "+out+"; touch "+out+".done")
		b.StartTimer()
		tmux("send-keys", "-t", "bench", "write it out", "Enter")
		waitPane("END-OF-ANSWER")
		waitPane(" idle ")
		b.StopTimer()
		tmux("pipe-pane", "-t", "bench") // closes the pipe; cat writes the rest and ends
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(out + ".done"); err == nil {
				break
			}
			if time.Now().After(deadline) {
				b.Fatal("the pane's bytes were never all written out")
			}
		}
		written, err := os.ReadFile(out)
		if err != nil {
			b.Fatal(err)
		}
		ratio += float64(len(written)) / float64(len(answer))
		if dump := os.Getenv("PINCER_SCREEN_DUMP"); dump != "" {
			os.WriteFile(dump, written, 0o644)
		}
		end()
		os.RemoveAll(s.Dir)
		os.RemoveAll(s.Home)
		b.StartTimer()
	}
	b.ReportMetric(ratio/float64(b.N), "term-bytes/answer-byte")
}

// benchScreenBytes is one case of BenchmarkScreenBytes; rate is how many
// bytes of the answer the server sends a second (0: about 9,000).
func benchScreenBytes(b *testing.B, cols, rows uint16, term termKind, full bool, answer string, rate int) {
	var ratio float64
	body := agenttest.TextBody(answer, 24, 10, 10)
	piece := 1500 // bytes of the server's stream every 30 ms
	if rate > 0 {
		piece = max(rate*len(body)/len(answer)*30/1000, 1)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv := agenttest.New(agenttest.Reply{Body: body, Piece: piece, Delay: 30 * time.Millisecond})
		s := benchProject(b, srv.BaseURL(), full)
		if !full && term.colours {
			// 3 files: a tree that stands in its pane's top rows.
			os.RemoveAll(s.Dir)
			os.MkdirAll(s.Dir, 0o755)
			for _, name := range []string{"go.mod", "main.go", "README.md"} {
				os.WriteFile(filepath.Join(s.Dir, name), []byte("x\n"), 0o644)
			}
		}
		if term.colours {
			s.Env = append(s.Env, "COLORTERM=truecolor")
		}
		ps := startPTYTerminal(b, s, term, cols, rows)
		at := ps.WaitFor(b, 0, inputPrompt)
		time.Sleep(300 * time.Millisecond) // let the tree and the first frames settle
		b.StartTimer()
		from := ps.written()
		ps.Keys("write it out\r")
		end := ps.WaitFor(b, max(at, from), "END-OF-ANSWER")
		ps.WaitFor(b, end, "idle")
		b.StopTimer()
		ratio += float64(ps.written()-from) / float64(len(answer))
		if dump := os.Getenv("PINCER_SCREEN_DUMP"); dump != "" {
			ps.mu.Lock()
			os.WriteFile(dump, ps.out.Bytes()[from:], 0o644)
			ps.mu.Unlock()
		}
		ps.stop()
		srv.Close()
		os.RemoveAll(s.Dir)
		os.RemoveAll(s.Home)
		b.StartTimer()
	}
	b.ReportMetric(ratio/float64(b.N), "term-bytes/answer-byte")
}

// BenchmarkScreenEcho measures how long a key typed into the input takes
// to reach the terminal as its echo (ms-to-echo, the median of the keys
// typed), at an idle prompt and while the 35 KB answer streams; keys are
// typed 70 ms apart, as a person types. Echo while streaming should cost
// what echo at idle costs.
func BenchmarkScreenEcho(b *testing.B) {
	for _, streaming := range []bool{false, true} {
		name := "idle"
		if streaming {
			name = "streaming"
		}
		b.Run(name, func(b *testing.B) { benchScreenEcho(b, streaming) })
	}
}

func benchScreenEcho(b *testing.B, streaming bool) {
	answer := longAnswer()
	var echoes []time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv := agenttest.New(agenttest.Reply{Body: agenttest.TextBody(answer, 24, 10, 10), Piece: 1500, Delay: 30 * time.Millisecond})
		s := benchProject(b, srv.BaseURL(), false)
		s.Env = append(s.Env, "COLORTERM=truecolor")
		ps := startPTYTerminal(b, s, termKind{colours: true}, 120, 40)
		at := ps.WaitFor(b, 0, inputPrompt)
		time.Sleep(300 * time.Millisecond)
		if streaming {
			ps.Keys("write it out\r")
			at = ps.WaitFor(b, at, "Step 2")
		}
		b.StartTimer()
		// "q" is in neither the answer nor the rest of the screen: the
		// first one written after a key is that key's echo.
		for k := 0; k < 40; k++ {
			if streaming && bytes.Contains(ps.outFrom(at), []byte("END-OF-ANSWER")) {
				break
			}
			from := ps.written()
			t0 := time.Now()
			ps.Keys("q")
			ps.WaitFor(b, from, "q")
			echoes = append(echoes, time.Since(t0))
			time.Sleep(70 * time.Millisecond)
		}
		b.StopTimer()
		ps.stop()
		srv.Close()
		os.RemoveAll(s.Dir)
		os.RemoveAll(s.Home)
		b.StartTimer()
	}
	slices.Sort(echoes)
	if len(echoes) > 0 {
		b.ReportMetric(float64(echoes[len(echoes)/2].Microseconds())/1000, "ms-to-echo")
		b.ReportMetric(float64(echoes[len(echoes)*9/10].Microseconds())/1000, "ms-p90")
	}
}

// BenchmarkScreenStreamCost streams the 35 KB answer into the real screen
// at 160×45 beside a full tree, on a true-colour terminal that answers the
// colour queries, and reports what the pincer process spent while it
// streamed: CPU per KB of answer (cpu-ms/KB), CPU per second from the
// prompt sent to the turn's end (core), the same from the first text shown
// to the last (stream-core: the answer's streaming alone), the CPU from
// the prompt sent to the first text shown (start-cpu-ms: the turn's start,
// and the first highlighting of a fresh process), the CPU the process used
// from its start to the turn's end (proc-cpu-ms: what warming something
// before the turn would move, not save), its resident memory at the idle
// prompt before the turn (idle-MB) and its peak (peak-MB). CPU time is
// read to the nanosecond from the scheduler's count for every thread.
// Linux only (it reads /proc).
func BenchmarkScreenStreamCost(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("reads the process's CPU time from /proc")
	}
	answer := longAnswer()
	var cpu, wall, start, streamCPU, streamWall, proc time.Duration
	var peak, idle float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv := agenttest.New(agenttest.Reply{Body: agenttest.TextBody(answer, 24, 10, 10), Piece: 1500, Delay: 30 * time.Millisecond})
		s := benchProject(b, srv.BaseURL(), true)
		s.Env = append(s.Env, "COLORTERM=truecolor")
		ps := startPTYTerminal(b, s, termKind{colours: true}, 160, 45)
		at := ps.WaitFor(b, 0, inputPrompt)
		time.Sleep(500 * time.Millisecond)
		idle += residentMemory(b, ps.cmd.Process.Pid, "VmRSS:")
		b.StartTimer()
		c0, t0 := processCPU(b, ps.cmd.Process.Pid), time.Now()
		ps.Keys("write it out\r")
		first := ps.WaitFor(b, at, "Step 1")
		c1, t1 := processCPU(b, ps.cmd.Process.Pid), time.Now()
		end := ps.WaitFor(b, first, "END-OF-ANSWER")
		c2, t2 := processCPU(b, ps.cmd.Process.Pid), time.Now()
		ps.WaitFor(b, end, "idle")
		c3 := processCPU(b, ps.cmd.Process.Pid)
		cpu += c3 - c0
		proc += c3
		wall += time.Since(t0)
		start += c1 - c0
		streamCPU += c2 - c1
		streamWall += t2.Sub(t1)
		peak = max(peak, residentMemory(b, ps.cmd.Process.Pid, "VmHWM:"))
		b.StopTimer()
		ps.stop()
		srv.Close()
		os.RemoveAll(s.Dir)
		os.RemoveAll(s.Home)
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N)/(float64(len(answer))/1000), "cpu-ms/KB")
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "core")
	b.ReportMetric(streamCPU.Seconds()/streamWall.Seconds(), "stream-core")
	b.ReportMetric(float64(start.Microseconds())/1000/float64(b.N), "start-cpu-ms")
	b.ReportMetric(float64(proc.Microseconds())/1000/float64(b.N), "proc-cpu-ms")
	b.ReportMetric(idle/float64(b.N), "idle-MB")
	b.ReportMetric(peak, "peak-MB")
}

// processCPU is the CPU time (user and system) process pid has used: the
// sum of its threads' time on a CPU in nanoseconds (schedstat), or where
// that is missing the process's count in clock ticks of 10 ms, too coarse
// for a turn's start.
func processCPU(b *testing.B, pid int) time.Duration {
	if tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid)); err == nil {
		var sum time.Duration
		read := 0
		for _, t := range tasks {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
			if err != nil {
				continue // the thread ended meanwhile
			}
			if f := strings.Fields(string(data)); len(f) > 0 {
				if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					sum += time.Duration(ns)
					read++
				}
			}
		}
		if read > 0 {
			return sum
		}
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The fields after the command name, which may hold spaces.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticks = 100 // USER_HZ, 100 on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}

// residentMemory is the resident memory of process pid in MB, as the
// field of /proc/pid/status says: VmRSS now, VmHWM the most so far.
func residentMemory(b *testing.B, pid int, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}
