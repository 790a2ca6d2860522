package headless

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pincer/agent"
	"pincer/tools/lsp"
	"pincer/tools/todo"
)

// eventTypes are the names of the agent's event types: every type
// declared in agent/events.go (see agent.Event).
func eventTypes(t *testing.T) []string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "agent", "events.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			if name := spec.(*ast.TypeSpec).Name.Name; ast.IsExported(name) && name != "Event" {
				names = append(names, name)
			}
		}
	}
	if len(names) < 10 {
		t.Fatalf("found %d event types in agent/events.go (%v); the scan is broken", len(names), names)
	}
	return names
}

// sampleEvents holds one event of every agent event type, by type name.
func sampleEvents() map[string]agent.Event {
	return map[string]agent.Event{
		"Recalled":       agent.Recalled{Notes: []agent.RecalledNote{{SessionName: "db", Text: "port 5433", Relevance: 0.7}}, Text: "Notes recalled"},
		"TextDelta":      agent.TextDelta{Text: "Hello"},
		"ReasoningDelta": agent.ReasoningDelta{Text: "thinking"},
		"ToolCallDelta":  agent.ToolCallDelta{Index: 0, ID: "c1", Name: "glob", ArgsSoFar: `{"pat`},
		"Usage":          agent.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, ReasoningTokens: 2, CachedTokens: 1},
		"Retrying":       agent.Retrying{Attempt: 1, Wait: time.Second, Err: errors.New("503")},
		"Waiting":        agent.Waiting{FirstByte: 90 * time.Second, Budget: 3 * time.Minute},
		"AssistantMessage": agent.AssistantMessage{Message: agent.Message{Role: agent.RoleAssistant, Content: "ok", Reasoning: "r",
			ToolCalls: []agent.ToolCall{{ID: "c1", Name: "glob", Arguments: `{"pattern":"*.go"}`}}}, FinishReason: "tool_calls"},
		"ToolStarted": agent.ToolStarted{ID: "c1", Name: "glob", Summary: "glob *.go"},
		"ToolResult":  agent.ToolResult{ID: "c1", Name: "glob", Summary: "glob *.go", Content: "main.go", IsError: false},
		"Notice":      agent.Notice{Text: "note"},
		"Checked":     agent.Checked{Command: "go vet ./...", Round: 1, Rounds: 3, Output: "x.go:1: bad\nexit code 1"},
		"Diagnosed":   agent.Diagnosed{ID: "c1", Report: lsp.Report{Servers: []string{"gopls"}, Errors: 1, New: 1, Total: 1, Items: []lsp.Item{{Path: "a.go", Line: 1, Column: 2, Severity: lsp.SeverityError, Message: "x", New: true}}}},
		"Compressed":  agent.Compressed{Summary: "s", Messages: 4, Before: 900, After: 300},
		"WindowKnown": agent.WindowKnown{Tokens: 4096, Source: "Ollama /api/ps"},
		"TodoList":    agent.TodoList{Items: []todo.Item{{Content: "a", Status: todo.Pending}}},
		"SubEvent":    agent.SubEvent{ID: "t1", Agent: "scout", Event: agent.Notice{Text: "inside"}},
	}
}

// printed runs events and the end of a run through a JSON printer and
// returns the lines.
func printed(t *testing.T, events []agent.Event, err error) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	p := NewPrinter(&out, &bytes.Buffer{}, true)
	p.SetSession("01ABC", "s")
	for _, ev := range events {
		p.Event(ev)
	}
	p.Finish(agent.Result{Text: "ok", StopReason: "answer", Iterations: 1}, err)
	var lines []map[string]any
	dec := json.NewDecoder(&out)
	for dec.More() {
		var l map[string]any
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	return lines
}

// TestJSONLinesAreDocumented: every agent event has a sample here, and
// every line the printer makes of them (and of the end of a run) has a
// documented type, only documented keys, and every key that is not
// optional; every documented type is printed by some event. JSONLines
// cannot fall behind the printer without this failing.
func TestJSONLinesAreDocumented(t *testing.T) {
	samples := sampleEvents()
	var events []agent.Event
	for _, name := range eventTypes(t) {
		ev, ok := samples[name]
		if !ok {
			t.Errorf("agent.%s has no sample in sampleEvents: add one, and document its JSON line in JSONLines if it prints one", name)
			continue
		}
		events = append(events, ev, agent.SubEvent{ID: "t1", Event: ev})
	}
	docs := map[string]JSONLine{}
	for _, l := range JSONLines() {
		docs[l.Type] = l
	}
	seen := map[string]bool{}
	check := func(l map[string]any, where string) {
		typ, _ := l["type"].(string)
		doc, ok := docs[typ]
		if !ok {
			t.Errorf("%s: the line type %q is not in JSONLines: %v", where, typ, l)
			return
		}
		seen[typ] = true
		for k := range l {
			if k != "type" && !slices.ContainsFunc(doc.Fields, func(f JSONField) bool { return f.Name == k }) {
				t.Errorf("%s: %q lines have the key %q, which JSONLines does not list", where, typ, k)
			}
		}
		for _, f := range doc.Fields {
			if _, ok := l[f.Name]; !ok && !f.Optional {
				t.Errorf("%s: a %q line lacks %q, which JSONLines lists as always there: %v", where, typ, f.Name, l)
			}
		}
	}
	lines := append(printed(t, events, nil), printed(t, nil, errors.New("boom"))...)
	for _, l := range lines {
		check(l, "line")
		if typ := l["type"]; typ == "sub" {
			inner, _ := l["event"].(map[string]any)
			check(inner, "a sub line's event")
		}
	}
	for _, l := range JSONLines() {
		if !seen[l.Type] {
			t.Errorf("JSONLines lists %q, which no event printed", l.Type)
		}
	}
}

// TestEveryToolResultFollowsItsStart: a call that was refused (or could
// not run) never started, yet its tool_result line comes after a
// tool_start line for it, with its summary, in the main agent and in a
// sub-agent alike; a call that started gets one tool_start only.
func TestEveryToolResultFollowsItsStart(t *testing.T) {
	refused := agent.ToolResult{ID: "c2", Name: "run_command", Summary: "touch x", Content: agent.Cancelled, IsError: true}
	events := []agent.Event{
		agent.ToolStarted{ID: "c1", Name: "glob", Summary: "glob *.go"},
		agent.ToolResult{ID: "c1", Name: "glob", Summary: "glob *.go", Content: "main.go"},
		refused,
		agent.SubEvent{ID: "t1", Event: refused},
		agent.SubEvent{ID: "t1", Event: agent.ToolStarted{ID: "c2", Name: "glob", Summary: "glob *"}},
		agent.SubEvent{ID: "t1", Event: agent.ToolResult{ID: "c2", Name: "glob", Summary: "glob *", Content: "a"}},
	}
	var got []string
	for _, l := range printed(t, events, nil) {
		if l["type"] == "sub" {
			l = l["event"].(map[string]any)
			l["id"] = "sub/" + l["id"].(string)
		}
		switch l["type"] {
		case "tool_start":
			got = append(got, "start "+l["id"].(string)+" "+l["summary"].(string))
		case "tool_result":
			got = append(got, "result "+l["id"].(string))
		}
	}
	want := []string{"start c1 glob *.go", "result c1", "start c2 touch x", "result c2",
		"start sub/c2 touch x", "result sub/c2", "start sub/c2 glob *", "result sub/c2"}
	if !slices.Equal(got, want) {
		t.Errorf("tool lines:\n%q\nwant\n%q", got, want)
	}
}
