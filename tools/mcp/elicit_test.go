package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestElicitationReadsTheForm(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"zeta":{"type":"string","title":"Zeta","format":"email"},
		"alpha":{"type":"integer","default":3,"minimum":1},
		"mood":{"type":"string","enum":["ok","bad"],"enumNames":["Fine","Not fine"],"default":"ok"},
		"tier":{"type":"string","oneOf":[{"const":"a","title":"A tier"},{"const":"b"}],"default":"nope"},
		"tags":{"type":"array","items":{"enum":["x","y"]},"default":["y"]},
		"ok":{"type":"boolean","default":true}
	},"required":["zeta"]}`), &schema); err != nil {
		t.Fatal(err)
	}
	e, err := elicitation("srv", &sdk.ElicitParams{Message: "hi", RequestedSchema: schema})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range e.Fields {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"zeta", "alpha", "mood", "ok", "tags", "tier"}) {
		t.Fatalf("fields %v, want the required first, then by name", names)
	}
	if f := e.Fields[2]; f.Kind != KindChoice || !slices.Equal(f.OptionTitles, []string{"Fine", "Not fine"}) || f.Default != "ok" {
		t.Errorf("mood: %+v", f)
	}
	if f := e.Fields[5]; f.Default != nil || !slices.Equal(f.OptionTitles, []string{"A tier", "b"}) {
		t.Errorf("tier: a default that is not a choice must be dropped: %+v", f)
	}
	if f := e.Fields[4]; f.Kind != KindChoices || !slices.Equal(f.Default.([]string), []string{"y"}) {
		t.Errorf("tags: %+v", f)
	}
	if _, all := e.Defaults(); all {
		t.Error("zeta has no default, yet the form counts as all defaults")
	}
}

func TestElicitationRefusesWhatAFormCannotHold(t *testing.T) {
	many := map[string]any{}
	for i := range maxFields + 1 {
		many[strings.Repeat("f", i+1)] = map[string]any{"type": "string"}
	}
	tests := []struct {
		name string
		p    sdk.ElicitParams
		want string
	}{
		{"nested object", sdk.ElicitParams{RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"o": map[string]any{"type": "object"}}}}, "a form cannot hold"},
		{"too many fields", sdk.ElicitParams{RequestedSchema: map[string]any{"type": "object", "properties": many}}, "more than"},
		{"url not a page", sdk.ElicitParams{Mode: "url", URL: "file:///etc/passwd"}, "not a web page"},
		{"url javascript", sdk.ElicitParams{Mode: "url", URL: "javascript:alert(1)"}, "not a web page"},
	}
	for _, tt := range tests {
		if _, err := elicitation("srv", &tt.p); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestFieldParse(t *testing.T) {
	one, five := 1.0, 5.0
	three := 3
	choice := Field{Name: "c", Kind: KindChoice, Options: []string{"red", "green"}, OptionTitles: []string{"Red", "Green light"}}
	tests := []struct {
		f       Field
		in      string
		want    any
		wantErr string
	}{
		{Field{Name: "n", Kind: KindString, Default: "x"}, "", "x", ""},
		{Field{Name: "n", Kind: KindString, Required: true}, " ", nil, "is required"},
		{Field{Name: "n", Kind: KindString}, "", nil, ""},
		{Field{Name: "n", Kind: KindString, MaxLength: &three}, "abcd", nil, "at most 3"},
		{Field{Name: "n", Kind: KindString, Format: "email"}, "not-mail", nil, "not an email"},
		{Field{Name: "n", Kind: KindString, Format: "date"}, "2025-11-25", "2025-11-25", ""},
		{Field{Name: "n", Kind: KindInteger, Minimum: &one, Maximum: &five}, "3", 3.0, ""},
		{Field{Name: "n", Kind: KindInteger}, "3.5", nil, "not a whole number"},
		{Field{Name: "n", Kind: KindNumber, Maximum: &five}, "7", nil, "at most 5"},
		{Field{Name: "n", Kind: KindBoolean}, "Yes", true, ""},
		{Field{Name: "n", Kind: KindBoolean}, "maybe", nil, "yes or no"},
		{choice, "2", "green", ""},
		{choice, "green light", "green", ""},
		{choice, "blue", nil, "not one of the choices"},
		{Field{Name: "m", Kind: KindChoices, Options: []string{"a", "b"}, OptionTitles: []string{"a", "b"}}, "2, 1, 2", []string{"b", "a"}, ""},
	}
	for _, tt := range tests {
		got, err := tt.f.Parse(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s %q: %v, want an error saying %q", tt.f.Kind, tt.in, err, tt.wantErr)
			}
			continue
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(tt.want)
		if err != nil || string(gotJSON) != string(wantJSON) {
			t.Errorf("%s %q = %s, %v; want %s", tt.f.Kind, tt.in, gotJSON, err, wantJSON)
		}
	}
}

func TestServerQuestionsReachTheElicitor(t *testing.T) {
	url := httpServer(t, "tok")
	srv := Server{Name: "web", URL: url, Headers: map[string]string{"Authorization": "Bearer tok"}}
	tests := []struct {
		name     string
		elicitor Elicitor
		want     string
	}{
		{"nobody to ask", nil, "decline null"},
		{"accepted", func(_ context.Context, e Elicitation) (Answer, error) {
			if e.Server != "web" || e.Message != "Who are you?" || len(e.Fields) != 2 {
				t.Errorf("the elicitor was asked %+v", e)
			}
			return Answer{Action: Accept, Content: map[string]any{"name": "Ada", "age": 36.0, "smuggled": "x"}}, nil
		}, `accept {"age":36,"name":"Ada"}`},
		{"cancelled", func(context.Context, Elicitation) (Answer, error) { return Answer{Action: Cancel}, nil }, "cancel null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Options{Servers: []Server{srv}, Getenv: func(string) string { return "" }})
			m.SetElicitor(tt.elicitor)
			m.Start()
			defer m.Close()
			if err := m.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			res, err := run(t, context.Background(), tool(t, m, "mcp__web__ask"), `{}`)
			if err != nil || res.Content != tt.want {
				t.Errorf("the server heard %q (%v), want %q", res.Content, err, tt.want)
			}
		})
	}
}

func TestDefaultTextReadsBackAsTheDefault(t *testing.T) {
	fields := []Field{
		{Name: "c", Kind: KindChoice, Options: []string{"pet-1", "pet-2"}, OptionTitles: []string{"Cats", "Dogs"}, Default: "pet-2"},
		{Name: "m", Kind: KindChoices, Options: []string{"a", "b", "c"}, OptionTitles: []string{"A", "B", "C"}, Default: []string{"c", "a"}},
		{Name: "b", Kind: KindBoolean, Default: false},
		{Name: "n", Kind: KindNumber, Default: 3.14},
		{Name: "s", Kind: KindString, Default: "It was a dark night."},
	}
	for _, f := range fields {
		got, err := f.Parse(f.DefaultText())
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(f.Default)
		if err != nil || string(gotJSON) != string(wantJSON) {
			t.Errorf("%s: %q reads back as %s (%v), want %s", f.Name, f.DefaultText(), gotJSON, err, wantJSON)
		}
	}
	if got := fields[0].DefaultText(); got != "Dogs" {
		t.Errorf("a choice's default is shown as %q, want its title", got)
	}
}
