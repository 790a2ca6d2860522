package todo

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"pincer/tools"
)

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name, args string
		want       []Item
	}{
		{"three statuses",
			`{"todos":[{"content":"Read","status":"completed"},{"content":"Fix","status":"in_progress"},{"content":"Test","status":"pending"}]}`,
			[]Item{{Content: "Read", Status: Completed}, {Content: "Fix", Status: InProgress}, {Content: "Test", Status: Pending}}},
		{"done is completed, spellings of in progress",
			`{"todos":[{"content":"a","status":"done"},{"content":"b","status":"In-Progress"},{"content":"c","status":"in progress"},{"content":"d","status":"TODO"}]}`,
			[]Item{{Content: "a", Status: Completed}, {Content: "b", Status: InProgress}, {Content: "c", Status: InProgress}, {Content: "d", Status: Pending}}},
		{"an empty list clears", `{"todos":[]}`, []Item{}},
		{"ids, numeric ids", `{"todos":[{"id":"x1","content":"a","status":"pending"},{"id":2,"content":"b","status":"pending"}]}`,
			[]Item{{ID: "x1", Content: "a", Status: Pending}, {ID: "2", Content: "b", Status: Pending}}},
		{"whitespace and line breaks folded", `{"todos":[{"content":"  fix\nthe\t\tparser  ","status":"pending"}]}`,
			[]Item{{Content: "fix the parser", Status: Pending}}},
		{"unknown item keys ignored", `{"todos":[{"content":"a","status":"pending","activeForm":"Doing a","priority":"high"}]}`,
			[]Item{{Content: "a", Status: Pending}}},
		{"the list as a JSON string", `{"todos":"[{\"content\":\"a\",\"status\":\"done\"}]"}`,
			[]Item{{Content: "a", Status: Completed}}},
		{"two in progress are allowed", `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`,
			[]Item{{Content: "a", Status: InProgress}, {Content: "b", Status: InProgress}}},
		{"null id is no id", `{"todos":[{"content":"a","status":"pending","id":null}]}`, []Item{{Content: "a", Status: Pending}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.args)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	long := strings.Repeat("x", MaxContent+1)
	many := `{"todos":[` + strings.TrimSuffix(strings.Repeat(`{"content":"a","status":"pending"},`, MaxItems+1), ",") + `]}`
	tests := []struct {
		name, args, want string
	}{
		{"nothing", ``, `"todos" is missing`},
		{"empty object", `{}`, `"todos" is missing`},
		{"wrong key", `{"items":[]}`, `"todos" is missing`},
		{"not JSON", `{"todos":[`, `not a JSON object (the text ends before the object is complete`},
		{"not an object", `[1]`, `not a JSON object`},
		{"todos not an array", `{"todos":{"content":"a"}}`, `"todos" must be an array`},
		{"item not an object", `{"todos":["a"]}`, `item 1 is not an object`},
		{"empty content", `{"todos":[{"content":"a","status":"done"},{"content":"  \n ","status":"pending"}]}`, `item 2 has no "content"`},
		{"missing content", `{"todos":[{"status":"pending"}]}`, `item 1 has no "content"`},
		{"content not a string", `{"todos":[{"content":7,"status":"pending"}]}`, `item 1's "content" must be a string`},
		{"content too long", `{"todos":[{"content":"` + long + `","status":"pending"}]}`, `item 1's "content" is 301 characters; keep each item under 300`},
		{"unknown status", `{"todos":[{"content":"a","status":"blocked"}]}`, `item 1 has the status "blocked"; use "pending", "in_progress" or "completed"`},
		{"missing status", `{"todos":[{"content":"a"}]}`, `item 1 has no "status"`},
		{"too many", many, `"todos" has 51 items; keep the list to at most 50`},
		{"duplicate id", `{"todos":[{"id":"a","content":"x","status":"pending"},{"id":"a","content":"y","status":"pending"}]}`, `items 1 and 2 have the same id "a"`},
		{"id too long", `{"todos":[{"id":"` + strings.Repeat("i", MaxID+1) + `","content":"x","status":"pending"}]}`, `keep ids under 40`},
		{"id an object", `{"todos":[{"id":{},"content":"x","status":"pending"}]}`, `"id" must be a short string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.args)
			if err == nil {
				t.Fatal("Parse accepted it")
			}
			var ae *ArgumentError
			if !errors.As(err, &ae) {
				t.Fatalf("error %T, want *ArgumentError", err)
			}
			msg := err.Error()
			for _, want := range []string{tt.want, "The task list was not changed", "A valid call looks like: {"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q\ndoes not say %q", msg, want)
				}
			}
		})
	}
}

// TestExampleIsValid: the call every error shows must itself pass, and
// pass the schema the model is sent.
func TestExampleIsValid(t *testing.T) {
	if _, err := Parse(example); err != nil {
		t.Fatalf("the example is refused: %v", err)
	}
	schema := compile(t)
	var v any
	if err := json.Unmarshal([]byte(example), &v); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(v); err != nil {
		t.Errorf("the example breaks the schema: %v", err)
	}
	bad := map[string]any{"todos": []any{map[string]any{"content": "a", "status": "later"}}}
	if schema.Validate(bad) == nil {
		t.Error("the schema accepts an unknown status")
	}
}

func compile(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	raw, err := json.Marshal(Tool().Parameters())
	if err != nil {
		t.Fatal(err)
	}
	var doc jsonschema.Schema
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("the schema is not a JSON Schema: %v", err)
	}
	s, err := doc.Resolve(nil)
	if err != nil {
		t.Fatalf("the schema does not resolve: %v", err)
	}
	return s
}

func TestToolCall(t *testing.T) {
	tl := Tool()
	if tl.Name() != "todo_write" || tl.Mutates() {
		t.Errorf("name %q mutates %v", tl.Name(), tl.Mutates())
	}
	if _, err := tl.Decode(`{"todos":[{"content":"a","status":"nope"}]}`); err == nil {
		t.Error("Decode accepted an unknown status")
	}
	c, err := tl.Decode(`{"todos":[{"content":"a","status":"done"},{"content":"b","status":"in_progress"},{"content":"c","status":"pending"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Summary(); got != "todo_write 1/3 done" {
		t.Errorf("Summary = %q", got)
	}
	if acc := c.Access(); !reflect.DeepEqual(acc, (tools.Access{})) {
		t.Errorf("Access = %+v, want nothing", acc)
	}
	r, err := c.Run(context.Background())
	if err != nil || r.IsError {
		t.Fatalf("Run = %+v, %v", r, err)
	}
	if want := "Task list saved: 3 items (1 completed, 1 in progress, 1 pending)."; !strings.HasPrefix(r.Content, want) {
		t.Errorf("result %q, want it to start %q", r.Content, want)
	}
}

func TestSaved(t *testing.T) {
	tests := []struct {
		items []Item
		want  string
	}{
		{nil, "Task list cleared."},
		{[]Item{{Content: "a", Status: Completed}, {Content: "b", Status: Completed}}, "Task list saved: all 2 items completed."},
	}
	for _, tt := range tests {
		if got := Saved(tt.items); got != tt.want {
			t.Errorf("Saved(%v) = %q, want %q", tt.items, got, tt.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	got := Markdown([]Item{{Content: "a", Status: Completed}, {Content: "b", Status: InProgress}, {Content: "c", Status: Pending}})
	want := "## Task list\n\n1/3 done.\n\n- [x] a\n- [ ] **b** (in progress)\n- [ ] c\n"
	if got != want {
		t.Errorf("Markdown =\n%q\nwant\n%q", got, want)
	}
}
