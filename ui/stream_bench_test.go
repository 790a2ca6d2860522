package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"pincer/ui/transcript/transcripttest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"pincer/agent"
	"pincer/safety"
	"pincer/themes"
	"pincer/tools"
	"pincer/ui/termscreen"
)

// benchClock is a clock that moves only when the benchmark says: the
// frame cap's timers and the transcript's steps then fall on the same
// frames on any machine, however busy.
type benchClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []func()
	armed  atomic.Int64
}

func (c *benchClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc keeps f until the next advance, whatever d: the benchmark
// advances by a whole frame interval.
func (c *benchClock) AfterFunc(_ time.Duration, f func()) {
	c.mu.Lock()
	c.timers = append(c.timers, f)
	c.mu.Unlock()
	c.armed.Add(1)
}

func (c *benchClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	due := c.timers
	c.timers = nil
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// countingApp is the screen's model, counting the batches of events it
// has taken in, so that a benchmark knows when a frame will hold them.
type countingApp struct {
	*App
	events atomic.Int64
	views  atomic.Int64
}

func (c *countingApp) View() tea.View {
	c.views.Add(1)
	return c.App.View()
}

func (c *countingApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := c.App.Update(msg)
	if _, ok := msg.(eventsMsg); ok {
		c.events.Add(1)
	}
	return c, cmd
}

// benchTree is the top level of a project that fills the tree pane, of
// the varied names real projects have.
var benchTree = strings.Fields(`README.md agent/ checkpoint/ checkpoints.go checkpoints_test.go
	cmd_agents.go cmd_agents_test.go cmd_classify.go cmd_commands.go cmd_config.go cmd_mcp.go
	cmd_memory.go cmd_prompt.go cmd_rewind.go cmd_run.go cmd_sandbox.go cmd_sessions.go
	cmd_setup.go cmd_tasks.go cmd_telegram.go cmd_tui.go commands/ config/ docs/ explain.go
	explain_test.go go.mod go.sum headless_e2e_test.go hooks/ hookswire.go internal/ main.go
	main_test.go opensession.go rewind/ safety/ session/ themes/ tools/ trust.go ui/ wire.go
	Makefile LICENSE CHANGELOG.md .golangci.yml scripts/ testdata/ examples/ vendor.go`)

// streamAnswer is about 35 KB of the markdown a model writes:
// paragraphs, lists, inline code and a fenced block.
func streamAnswer() string {
	var b strings.Builder
	for i := 1; b.Len() < 35000; i++ {
		fmt.Fprintf(&b, "## Step %d\n\n", i)
		b.WriteString("The parser reads the whole file first, then walks each declaration and records the names it defines, so that a later pass can resolve `references` without a second read of the disk.\n\n")
		b.WriteString("- keep the **cache** small\n- drop entries that were not used\n- log what was evicted\n\n")
		b.WriteString("```go\nfunc evict(c *cache, n int) {\n\tfor len(c.items) > n {\n\t\tc.drop()\n\t}\n}\n```\n\n")
	}
	return b.String()
}

// BenchmarkStreamScreen streams the 35 KB answer into the real screen
// (the program, its renderer and a pseudo-terminal) at 160×45 beside a
// full tree (or a tree of 3 files), in pieces of 24 bytes, drawing a frame every few pieces on a
// clock of its own, one batch of events a frame as the agent's reach the
// screen: at 15 frames a second, 4 pieces a frame is a model
// writing 1.4 KB/s (slow), 24 pieces 8.6 KB/s (fast). Each op is the whole
// answer. It reports what is the same on every machine: the bytes written
// to the terminal per byte of answer, and the allocations and bytes
// allocated per streamed piece; the cap's timers armed per frame drawn
// (cap-timers/frame: batches come when FrameDue says, as the bridge hands
// them over, so a frame should need none; each is a second wake-up); and
// the time per piece (noisy on a busy machine: compare medians). A change
// that draws more than it must, or renders the growing end of the answer
// more often, moves these.
func BenchmarkStreamScreen(b *testing.B) {
	for _, c := range []struct {
		name     string
		perFrame int
		margins  bool
		answer   func() string
		tree     []string
	}{
		{"slow", 4, false, streamAnswer, benchTree},
		{"slow-margins", 4, true, streamAnswer, benchTree},
		{"fast", 24, false, streamAnswer, benchTree},
		{"fast-margins", 24, true, streamAnswer, benchTree},
		// No two blocks alike (streamAnswer repeats one step).
		{"slow-varied", 4, false, func() string { return transcripttest.VariedAnswer(35000) }, benchTree},
		{"fast-varied", 24, false, func() string { return transcripttest.VariedAnswer(35000) }, benchTree},
		// A tree of 3 files: beside it the screen scrolls, and draws the
		// tree's rows again after each scroll.
		{"slow-smalltree", 4, false, streamAnswer, smallTree},
	} {
		b.Run(c.name, func(b *testing.B) { benchStreamScreen(b, c.perFrame, c.margins, c.answer(), c.tree) })
	}
}

// smallTree is a project of 3 files, which stand in the tree pane's top
// rows.
var smallTree = []string{"go.mod", "main.go", "README.md"}

func benchStreamScreen(b *testing.B, perFrame int, margins bool, answer string, tree []string) {
	if runtime.GOOS == "windows" {
		b.Skip("needs a pseudo-terminal")
	}
	const w, h, piece = 160, 45, 24
	const interval = time.Second / 15
	themes.RegisterCodeStyles() // as Run does
	themes.CacheHighlighting()
	var termBytes, pieces, capTimers, frames int64
	var mallocs, allocated uint64
	for b.Loop() {
		b.StopTimer()
		root := b.TempDir()
		for _, name := range tree {
			p := filepath.Join(root, name)
			if strings.HasSuffix(name, "/") {
				p = filepath.Join(p, "doc.go")
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("package x\n"), 0o644)
		}
		reg, _ := tools.NewRegistry(tools.Builtins(tools.Options{Root: root})...)
		cls, _ := safety.NewClassifier(safety.Rules{})
		ag, err := agent.New(agent.Options{Model: silentModel{&testing.T{}}, Tools: reg, Safety: cls, Root: root, Budget: agent.Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}})
		if err != nil {
			b.Fatal(err)
		}
		app := New(Options{Agent: ag, Root: root, Theme: themes.Dark(), Model: "test-model", Session: "demo"})
		app.transcript.Reset()
		if msg := app.tree.Init()(); msg != nil {
			app.Update(msg)
		}
		clock := &benchClock{now: time.Unix(1_000_000, 0)}
		app.transcript.SetClock(clock.Now)

		master, tty, err := pty.Open()
		if err != nil {
			b.Skipf("no pseudo-terminal here: %v", err)
		}
		pty.Setsize(master, &pty.Winsize{Cols: w, Rows: h})
		var written atomic.Int64
		var kept []byte // with PINCER_STREAM_DUMP set, what the terminal received, for study
		dump := os.Getenv("PINCER_STREAM_DUMP")
		drained := make(chan struct{})
		go func() {
			defer close(drained)
			buf := make([]byte, 64<<10)
			for {
				n, err := master.Read(buf)
				if dump != "" {
					kept = append(kept, buf[:n]...)
				}
				written.Add(int64(n))
				if err != nil {
					return
				}
			}
		}()
		model := &countingApp{App: app}
		p := termscreen.New(model, termscreen.Options{FPS: 15, Input: tty, Output: tty, Clock: clock,
			Env: []string{"TERM=xterm-256color", "COLORTERM=truecolor"}})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := p.Run(ctx); err != nil {
				b.Error(err)
			}
		}()
		waitUntil(b, "the first frame", func() bool { return p.Frames() >= 1 })
		if margins {
			master.WriteString("\x1b[?69;2$y")
			waitUntil(b, "the margins", func() bool { return app.sideScroll })
		}
		clock.advance(time.Second)
		settle(b, &written)
		from := written.Load()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()

		sent := int64(0)
		armed0, frames0 := clock.armed.Load(), p.Frames()
		for i := 0; i < len(answer); {
			views := model.views.Load()
			// The agent's events reach the screen in one batch a frame,
			// when the screen may draw it (as the bridge hands them over).
			var batch eventsMsg
			for k := 0; k < perFrame && i < len(answer); k++ {
				batch = append(batch, agent.TextDelta{Text: answer[i:min(i+piece, len(answer))]})
				i += piece
				pieces++
			}
			clock.advance(p.FrameDue())
			p.Send(batch)
			sent++
			waitUntil(b, "the pieces taken in", func() bool { return model.events.Load() == sent })
			// The frame, drawn at once. (A message of the screen's own, a
			// command's answer, may arrive between two batches and take
			// the frame: then the cap's timer brings this one.)
			for tries := 0; model.views.Load() == views; tries++ {
				if tries > 0 && tries%200 == 0 {
					clock.advance(interval)
				}
				if tries > 100000 {
					b.Fatal("the screen drew no frame")
				}
				time.Sleep(50 * time.Microsecond)
			}
		}

		b.StopTimer()
		capTimers += clock.armed.Load() - armed0
		frames += int64(p.Frames() - frames0)
		if os.Getenv("PINCER_STREAM_DEBUG") != "" {
			fmt.Println("views", model.views.Load(), "frames", p.Frames(), "batches", (len(answer)+piece*perFrame-1)/(piece*perFrame))
		}
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		allocated += after.TotalAlloc - before.TotalAlloc
		settle(b, &written)
		termBytes += written.Load() - from
		cancel()
		<-done
		tty.Close()
		master.Close()
		<-drained
		if dump != "" {
			os.WriteFile(dump+"."+strings.ReplaceAll(b.Name(), "/", "_"), kept[from:], 0o644)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(termBytes)/float64(b.N)/float64(len(answer)), "term-bytes/answer-byte")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pieces), "ns/piece")
	b.ReportMetric(float64(mallocs)/float64(pieces), "allocs/piece")
	b.ReportMetric(float64(allocated)/float64(pieces), "B/piece")
	b.ReportMetric(float64(capTimers)/float64(max(frames, 1)), "cap-timers/frame")
}

// waitUntil spins until ok holds (the program answers in microseconds).
func waitUntil(b *testing.B, what string, ok func() bool) {
	b.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		if ok() {
			return
		}
		runtime.Gosched()
		time.Sleep(50 * time.Microsecond)
	}
	b.Fatalf("waited 20 s in vain for %s", what)
}

// settle waits until the terminal has received everything written.
func settle(b *testing.B, written *atomic.Int64) {
	b.Helper()
	last := int64(-1)
	for range 400 {
		n := written.Load()
		if n == last {
			return
		}
		last = n
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatal("the terminal never stopped receiving")
}
