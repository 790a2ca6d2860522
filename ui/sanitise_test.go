package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/chat"
	"pincer/internal/safetext/safetexttest"
	"pincer/safety"
	"pincer/session"
	"pincer/themes"
	"pincer/tools"
	"pincer/tools/todo"
	"pincer/ui/complete"
)

// TestEveryViewSanitises feeds each hostile string through each view of
// the screen and checks the frame: the only escape sequences in it are
// pincer's own SGR styling, it holds no C1 control, bidi or zero-width
// character, and it shows the visible form of what was escaped.
func TestEveryViewSanitises(t *testing.T) {
	views := []struct {
		name string
		show func(t *testing.T, a *App, raw string)
	}{
		{"assistant text", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.TextDelta{Text: "answer " + raw + " end"}, agent.AssistantMessage{}})
		}},
		{"markdown link and code", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.TextDelta{Text: "see [docs](http://e.vil/" + raw + ") and `" + raw + "`\n\n```sh\n" + raw + "\n```\n"}, agent.AssistantMessage{}})
		}},
		{"streaming text", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.TextDelta{Text: "answer " + raw + " end\n"}})
		}},
		{"reasoning", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.ReasoningDelta{Text: "thinking " + raw + " end"}})
		}},
		{"user message", func(t *testing.T, a *App, raw string) { a.transcript.AddUser("pasted " + raw) }},
		{"tool card", func(t *testing.T, a *App, raw string) {
			args := `{"command":"echo ` + jsonEscape(raw) + `"}`
			a.Update(eventsMsg{
				agent.ToolCallDelta{Index: 0, ID: "c1", Name: "run_command", ArgsSoFar: args},
				agent.AssistantMessage{},
				agent.ToolStarted{ID: "c1", Name: "run_command", Summary: "run_command echo " + raw},
			})
		}},
		{"tool output", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{
				agent.ToolCallDelta{Index: 0, ID: "c1", Name: "read_file", ArgsSoFar: `{"path":"a.txt"}`},
				agent.AssistantMessage{},
				agent.ToolStarted{ID: "c1", Name: "read_file", Summary: "read_file a.txt"},
				agent.ToolResult{ID: "c1", Name: "read_file", Content: "line one\n" + raw + "\nline three"},
			})
		}},
		{"tool error", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{
				agent.ToolCallDelta{Index: 0, ID: "c1", Name: "run_command", ArgsSoFar: `{"command":"make"}`},
				agent.AssistantMessage{},
				agent.ToolStarted{ID: "c1", Name: "run_command", Summary: "run_command make"},
				agent.ToolResult{ID: "c1", Name: "run_command", Content: "failed " + raw, IsError: true},
			})
		}},
		{"error", func(t *testing.T, a *App, raw string) { a.transcript.AddError("server said " + raw) }},
		{"notice", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.Notice{Text: "notice " + raw}})
		}},
		{"retry", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.Retrying{Attempt: 1, Err: errors.New("busy " + raw)}})
		}},
		{"approval dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveCommand, Step: 1, Summary: "run_command " + raw, Command: "echo " + raw, Dir: "/elsewhere/" + raw, Tier: safety.Confirm, Reasons: []string{"echo " + raw + ": runs"}, SuggestedRule: "echo " + raw}, reply: make(chan agent.Decision, 1)}})
		}},
		{"dangerous dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveCommand, Step: 1, Summary: "run_command " + raw, Command: "rm -rf " + raw, Tier: safety.Dangerous, Reasons: []string{"rm " + raw}}, reply: make(chan agent.Decision, 1)}})
		}},
		{"path dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApprovePath, Step: 1, Paths: []string{"/etc/" + raw}, Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}})
		}},
		{"edit review", func(t *testing.T, a *App, raw string) {
			ch := &tools.Change{Path: "/p/f" + raw, Rel: "f" + raw, Before: []byte("one\ntwo\n"), After: []byte("one\n" + raw + "\n"), Summary: "replaced " + raw}
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 1, Change: ch, Paths: []string{ch.Path}, Tier: safety.Confirm, Reasons: []string{"edit " + raw}}, reply: make(chan agent.Decision, 1)}})
		}},
		{"session picker", func(t *testing.T, a *App, raw string) {
			st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			s, err := st.Create(session.Session{Name: "work", Title: "title " + raw, Dir: "/other/" + raw, Model: "model " + raw})
			if err != nil {
				t.Fatal(err)
			}
			st.Append(s.ID, chat.Message{Role: chat.RoleUser, Content: "asked " + raw})
			a.opts.Store = st
			list, _ := st.List()
			a.Update(sessionListMsg{list: list})
			if msgs, _ := st.Messages(s.ID, 0); len(msgs) > 0 {
				a.Update(previewMsg{id: s.ID, msgs: msgs})
			}
		}},
		{"model picker", func(t *testing.T, a *App, raw string) {
			a.Update(modelListMsg{names: []string{"model " + raw, "other"}})
		}},
		{"task picker", func(t *testing.T, a *App, raw string) {
			a.Update(taskListMsg{tasks: []session.Task{{ID: "t1", Prompt: "every day " + raw, Next: time.Now().Add(time.Hour)}}})
		}},
		{"theme picker note", func(t *testing.T, a *App, raw string) {
			a.Update(themesMsg{list: []themes.Theme{themes.Dark()}, bad: []string{"bad " + raw + ".toml: not a theme"}})
		}},
		{"tree", func(t *testing.T, a *App, raw string) {
			writeRaw(t, a.opts.Root, "file "+raw+".go")
			if msg := a.tree.Refresh()(); msg != nil {
				a.Update(msg)
			}
		}},
		{"completion popup", func(t *testing.T, a *App, raw string) {
			writeRaw(t, a.opts.Root, "zz "+raw+".go")
			a.Update(complete.LoadFiles(context.Background(), a.opts.Root, 100)())
			typeText(a, "@zz")
		}},
		{"web dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveWeb, Step: 1, Tool: "read_web", Summary: "read_web http://e.vil/" + raw, URL: "http://e.vil/" + raw, Tier: safety.Confirm, Reasons: []string{"fetch " + raw}, SuggestedRule: "web:e.vil" + raw}, reply: make(chan agent.Decision, 1)}})
		}},
		{"mcp dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveAction, Step: 1, Tool: "mcp__s__t", Summary: "mcp " + raw, MCP: &tools.MCPUse{Server: "srv" + raw, Tool: "tool" + raw, Name: "mcp__s__t", Arguments: "{\n  \"a\": \"" + jsonEscape(raw) + "\"\n}"}, Tier: safety.Confirm, Reasons: []string{"server " + raw}}, reply: make(chan agent.Decision, 1)}})
		}},
		{"schedule dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveAction, Step: 1, Tool: "schedule_task", Summary: "schedule " + raw, Schedule: true, Tier: safety.Confirm, Reasons: []string{"prompt " + raw}}, reply: make(chan agent.Decision, 1)}})
		}},
		{"unsandboxed dialog", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveUnsandboxed, Step: 1, Tool: "run_command", Summary: "run_command " + raw, Command: "make " + raw, Tier: safety.Confirm, Reasons: []string{"blocked " + raw}}, reply: make(chan agent.Decision, 1)}})
		}},
		{"sub-agent", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{
				agent.ToolCallDelta{Index: 0, ID: "c1", Name: "task", ArgsSoFar: `{"description":"d ` + jsonEscape(raw) + `","prompt":"p"}`},
				agent.AssistantMessage{},
				agent.ToolStarted{ID: "c1", Name: "task", Summary: "task " + raw},
				agent.SubEvent{ID: "c1", Agent: "ag" + raw, Event: agent.TextDelta{Text: "sub " + raw}},
				agent.SubEvent{ID: "c1", Agent: "ag" + raw, Event: agent.ToolStarted{ID: "s1", Name: "read_file", Summary: "read_file " + raw}},
			})
		}},
		{"todos", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.TodoList{Items: []todo.Item{{Content: "do " + raw, Status: todo.InProgress}}}})
		}},
		{"check", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.Checked{Command: "make " + raw, Round: 1, Rounds: 2, Output: "out " + raw}})
		}},
		{"recalled", func(t *testing.T, a *App, raw string) {
			a.Update(eventsMsg{agent.Recalled{Notes: []agent.RecalledNote{{SessionName: "s" + raw, Text: "note " + raw}}, Text: "note " + raw}})
		}},
		{"slash completion", func(t *testing.T, a *App, raw string) {
			a.setCommands([]Command{PromptCommand(CustomCommand{Name: "zzcmd", Args: "ARG" + raw, Help: "from the project " + raw})})
			typeText(a, "/zzc")
		}},
		{"status line", func(t *testing.T, a *App, raw string) {
			a.busy = true
			a.opts.Model = "model " + raw
			a.Update(eventsMsg{
				agent.ToolCallDelta{Index: 0, ID: "c1", Name: "tool" + raw, ArgsSoFar: `{}`},
				agent.AssistantMessage{},
				agent.ToolStarted{ID: "c1", Name: "tool" + raw, Summary: "tool" + raw},
			})
		}},
	}
	// Views that read text back from the store, which keeps only valid
	// UTF-8, show an invalid byte as U+FFFD.
	lossy := map[string]bool{"session picker": true}
	// Views that summarise text on one line fold its white space, a
	// carriage return included, into single spaces: nothing is hidden.
	folded := map[string]bool{"task picker": true}
	for _, tc := range safetexttest.Cases() {
		for _, v := range views {
			t.Run(v.name+"/"+tc.Name, func(t *testing.T) {
				a := newTestApp(t, 160, 40)
				v.show(t, a, tc.Raw)
				frame := a.render()
				if err := safetexttest.Check(frame); err != nil {
					t.Fatalf("%v in\n%s", err, ansi.Strip(frame))
				}
				want := tc.Visible
				if lossy[v.name] && !utf8.ValidString(tc.Raw) {
					want = strings.ToValidUTF8(tc.Raw, "\uFFFD")
				}
				if folded[v.name] && strings.Contains(tc.Raw, "\r") {
					want = strings.Join(strings.Fields(tc.Raw), " ")
				}
				if !strings.Contains(ansi.Strip(frame), want) {
					t.Errorf("the screen lacks %q:\n%s", want, ansi.Strip(frame))
				}
			})
		}
	}
}

// writeRaw creates an empty file whose name holds raw bytes; a file
// system that refuses the name skips the test.
func writeRaw(t *testing.T, root, name string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, name), nil, 0o644); err != nil {
		t.Skipf("the file system refuses the name %q: %v", name, err)
	}
}

// jsonEscape writes s as the inside of a JSON string.
func jsonEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteString(`\` + string(c))
		case c < 0x20:
			b.WriteString(`\u00` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&0xf]))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
