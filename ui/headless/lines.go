package headless

import (
	"reflect"
	"strings"
)

// JSONLine documents one type of line that `pincer run --json` prints.
type JSONLine struct {
	Type string
	// Fields are the line's keys after "type", in the order printed.
	Fields []JSONField
	// About says when the line is printed, in a sentence of Markdown.
	About string
}

// JSONField is one key of a JSON line; an Optional one is left out when
// it has no value.
type JSONField struct {
	Name     string
	Optional bool
}

// JSONLines lists the lines `pincer run --json` prints, in the order a run
// meets them. The fields come from the types the printer encodes, the
// README's table is written from this list (go generate ./docs), and a
// test holds the list to what the printer prints for every agent event.
func JSONLines() []JSONLine {
	lines := []struct {
		typ   string
		shape any
		about string
	}{
		{"recall", recallLine{}, "before the answer: the notes auto recall gave the model and `text`, the system message as sent (see [memory](docs/memory.md))"},
		{"text", textLine{}, "a piece of the answer as it streams"},
		{"reasoning", textLine{}, "a piece of the model's reasoning, for models that show it"},
		{"assistant", assistantLine{}, "a finished message of the model; each of its `tool_calls` has `id`, `name` and the parsed `arguments`"},
		{"tool_start", toolStartLine{}, "a tool call is about to run; a call that is refused or cannot run gets one too, just before its `tool_result`"},
		{"tool_result", toolResultLine{}, "what a call gave the model; a refused one reads `User cancelled the operation`"},
		{"diagnostics", diagnosticsLine{}, "what the language servers report after call `id` changed files, just before its `tool_result` (whose content ends with the same): each of `items` has `path`, `line`, `column`, `severity`, `message`, `source` and `new` (the change introduced it); `total` counts the project's errors (see [language servers](docs/lsp.md))"},
		{"check", checkLine{}, "the project's check ran after the model answered in a turn that changed files (see [language servers](docs/lsp.md#check-and-fix)); when it failed with rounds left, its `output` goes to the model and the turn goes on"},
		{"todo", todoLine{}, "the model's [task list](docs/tasks-list.md) changed"},
		{"usage", usageLine{}, "the tokens of one request; `estimated` when the server sent no counts and pincer estimated them, `cost` in dollars where the model's price is known (presets, or `prices` in the config)"},
		{"retry", retryLine{}, "a request failed before any answer and will be sent again"},
		{"notice", messageLine{}, "something pincer tells the person about the run"},
		{"compressed", compressedLine{}, "older messages were summarised to fit the context window"},
		{"window", windowLine{}, "the context window pincer budgets for, in tokens, and where it came from (the server's endpoint, the provider's preset, `context_window` or the default): before the first request when the server reports one, and again when it changes"},
		{"sub", subLine{}, "an event of a sub-agent: its own line nested under `event`, with the id of the `task` call that started it (see [agents](docs/agents.md#in-pincer-run---json))"},
		{"error", messageLine{}, "the run failed; the `result` line still follows"},
		{"result", resultLine{}, "the last line: the answer, why the run stopped, and the tokens used (and their `cost`, as in `usage`)"},
	}
	out := make([]JSONLine, len(lines))
	for i, l := range lines {
		out[i] = JSONLine{Type: l.typ, Fields: jsonFields(reflect.TypeOf(l.shape)), About: l.about}
	}
	return out
}

// jsonFields lists the JSON keys of a line type after "type", with those
// of an embedded struct in its place.
func jsonFields(t reflect.Type) []JSONField {
	var out []JSONField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" || name == "type" {
			continue
		}
		out = append(out, JSONField{Name: name, Optional: strings.Contains(opts, "omitempty")})
	}
	return out
}
