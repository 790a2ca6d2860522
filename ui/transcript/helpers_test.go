package transcript

import (
	_ "embed"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
)

//go:embed testdata/answer.md
var sampleAnswer string

// sampleResult is a tool result of some length, like a file read.
var sampleResult = strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) {\n\tfmt.Fprintln(w, \"ok\")\n}\n\n", 20)

// longAnswer is an answer of about n bytes made of varied copies of the
// sample.
func longAnswer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(strings.Replace(sampleAnswer, "## Why the parser panics", fmt.Sprintf("## Part %d", i+1), 1))
	}
	return b.String()[:n]
}

// sessionEntries builds a resumed session of about n entries: user
// messages, answers and tool calls with results, in a realistic mix.
func sessionEntries(n int) []Entry {
	var out []Entry
	for i := 0; len(out) < n; i++ {
		id := fmt.Sprintf("call_%d", i)
		out = append(out,
			Entry{Kind: KindUser, Text: fmt.Sprintf("Question %d: why does the parser panic on an empty body?", i)},
			Entry{Kind: KindAssistant, Text: "I'll read the file first."},
			Entry{Kind: KindTool, ToolID: id, ToolName: "read_file", ToolArgs: `{"path": "internal/wire/header.go"}`},
			Entry{Kind: KindToolResult, ToolID: id, ToolName: "read_file", Text: sampleResult},
			Entry{Kind: KindAssistant, Text: sampleAnswer},
		)
	}
	return out
}

// liveSession feeds about n entries through the live calls, drawing after
// each as the screen would, so everything that was in view got rendered.
func liveSession(m *Model, n int) {
	for i := 0; len(m.s.items) < n; i++ {
		id := fmt.Sprintf("call_%d", i)
		m.AddUser(fmt.Sprintf("Question %d: why does the parser panic on an empty body?", i))
		m.View()
		m.AppendText("I'll read the file first.")
		m.ToolCallDelta(0, id, "read_file", `{"path": "internal/wire/header.go"}`)
		m.FinishAssistant(false)
		m.View()
		m.ToolStarted(id, "read_file internal/wire/header.go")
		m.ToolResult(id, "read_file", "", sampleResult, false)
		m.View()
		m.AppendText(sampleAnswer)
		m.FinishAssistant(false)
		m.View()
	}
}

// newTestModel is a transcript at a size, in the dark theme.
func newTestModel(w, h int) Model {
	m := New(themes.Dark())
	m.SetSize(w, h)
	return m
}

// conversation fills m with one of each kind of entry, as a turn with a
// tool call streams in.
func conversation(m *Model) {
	m.AddUser("The parser panics on an empty request body. Can you find out why and fix it?")
	m.AppendReasoning("The person reports a panic on empty input.\nI should read the parser first.\nThen look at the callers.\n")
	m.AppendText("I'll read `internal/wire/header.go` first.")
	m.ToolCallDelta(0, "call_1", "read_file", `{"path": "internal/wire/header.go"}`)
	m.FinishAssistant(false)
	m.ToolStarted("call_1", "read_file internal/wire/header.go")
	m.ToolResult("call_1", "read_file", "", "package wire\n\nimport \"strings\"\n\nfunc parseHeader(body string) Header {\n\tlines := strings.Split(body, \"\\n\")\n\treturn Header{Name: lines[1]}\n}\n", false)
	m.AddRetry("Request failed (502 Bad Gateway); retrying in 2s, attempt 1 of 5.")
	m.ToolCallDelta(0, "call_2", "run_command", `{"command": "go test ./internal/wire/"}`)
	m.FinishAssistant(false)
	m.ToolStarted("call_2", "run_command go test ./internal/wire/")
	m.ToolResult("call_2", "run_command", "", "--- FAIL: TestEmpty (0.00s)\npanic: runtime error: index out of range [1] with length 1\ngoroutine 7 [running]:\nexample.com/app/internal/wire.parseHeader(...)\nFAIL\texample.com/app/internal/wire\t0.004s\nexit status 1", true)
	m.AppendText("The crash is in `parseHeader`: it reads `lines[1]` without checking the length.\n\n```go\nif len(lines) < 2 {\n\treturn Header{}, ErrEmptyRequest\n}\n```\n\n- Add the check\n- Map the error to **400** ([RFC 9110](https://www.rfc-editor.org/rfc/rfc9110))\n")
	m.FinishAssistant(false)
	m.AddNotice("Context compressed automatically at 80% of the window.")
	m.AddCompressed("The person asked why the parser panics; the assistant read header.go and found the missing length check.", 6)
	m.AddUser("Also add a test for it.")
	m.AppendText("Adding a table-driven test case for the empty body now")
	m.FinishAssistant(true)
	m.AddError("The stream ended before the answer was complete: connection reset by peer.")
	m.SetQueued([]string{"and run the whole suite afterwards"})
}

// viewLines is the view without colours, split into lines.
func viewLines(m Model) []string {
	return strings.Split(ansi.Strip(m.View()), "\n")
}

// checkFrame asserts the pane's contract: exactly h lines, none wider than w.
func checkFrame(t interface {
	Helper()
	Errorf(string, ...any)
}, m Model, w, h int) {
	t.Helper()
	lines := strings.Split(m.View(), "\n")
	if len(lines) != h {
		t.Errorf("%d×%d: view has %d lines, want %d", w, h, len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%d×%d: line %d is %d wide: %q", w, h, i, lw, ansi.Strip(l))
		}
	}
}

// press sends a key to the model.
func press(m Model, k string) Model {
	m, _ = m.Update(keyMsg(k))
	return m
}

// keyMsg builds the key press message for a key name as bubbles writes it.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+up":
		return tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModCtrl}
	case "ctrl+down":
		return tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// indexOf returns the first view line containing s, or -1.
func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// sgrFg is the escape sequence fragment of a 24-bit foreground colour.
func sgrFg(c interface{ RGBA() (r, g, b, a uint32) }) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// ansi strips escape sequences.
func ansiStrip(s string) string { return ansi.Strip(s) }
