package tools

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func TestBuiltinSchemas(t *testing.T) {
	root := tempRoot(t)
	tests := []struct {
		name     string
		required []string
		optional []string
		mutates  bool
		defaults map[string]any
	}{
		{"tree_view", nil, []string{"max_depth", "path"}, false, map[string]any{"path": ".", "max_depth": 2.0}},
		{"read_file", []string{"path"}, []string{"limit", "offset"}, false, map[string]any{"offset": 1.0, "limit": 2000.0}},
		{"grep", []string{"pattern"}, []string{"glob", "path"}, false, map[string]any{"path": "."}},
		{"glob", []string{"pattern"}, nil, false, nil},
		{"read_web", []string{"url"}, []string{"max_chars"}, false, map[string]any{"max_chars": 20000.0}},
		{"write_file", []string{"content", "path"}, nil, true, nil},
		{"edit_file", []string{"new_text", "old_text", "path"}, []string{"replace_all"}, true, map[string]any{"replace_all": false}},
		{"run_command", []string{"command"}, []string{"timeout"}, true, map[string]any{"timeout": 120.0}},
	}
	tools := Builtins(Options{Root: root})
	if len(tools) != len(tests) {
		t.Fatalf("Builtins returned %d tools, want %d", len(tools), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := builtin(t, Options{Root: root}, tt.name)
			s := tool.Parameters()
			if s["type"] != "object" || s["additionalProperties"] != false {
				t.Errorf("type=%v additionalProperties=%v, want object and false", s["type"], s["additionalProperties"])
			}
			for _, noise := range []string{"$ref", "$schema", "$id", "$defs", "definitions"} {
				if at := findKey(s, noise, ""); at != "" {
					t.Errorf("schema has %s at %s", noise, at)
				}
			}
			var required []string
			for _, r := range s["required"].([]any) {
				required = append(required, r.(string))
			}
			sort.Strings(required)
			if !reflect.DeepEqual(required, tt.required) {
				t.Errorf("required = %v, want %v", required, tt.required)
			}
			props := s["properties"].(map[string]any)
			all := append(append([]string{}, tt.required...), tt.optional...)
			sort.Strings(all)
			if got := sortedKeys(props); !reflect.DeepEqual(got, all) {
				t.Errorf("properties = %v, want %v", got, all)
			}
			for name, p := range props {
				prop := p.(map[string]any)
				if desc, _ := prop["description"].(string); len(desc) < 15 {
					t.Errorf("property %s has description %q; the model needs more", name, desc)
				}
				if _, ok := prop["type"].(string); !ok {
					t.Errorf("property %s has no simple type: %v", name, prop["type"])
				}
			}
			for name, want := range tt.defaults {
				prop := props[name].(map[string]any)
				if d, ok := prop["default"]; ok {
					t.Errorf("property %s carries a default keyword (%v) besides its description; the default is stated once", name, d)
				}
				wantText, _ := json.Marshal(want)
				if !strings.Contains(prop["description"].(string), "Default: "+string(wantText)+".") {
					t.Errorf("description of %s does not state the default %s: %q", name, wantText, prop["description"])
				}
			}
			if tool.Mutates() != tt.mutates {
				t.Errorf("Mutates() = %v, want %v", tool.Mutates(), tt.mutates)
			}
			if len(tool.Description()) < 100 {
				t.Errorf("description too short for the model: %q", tool.Description())
			}
		})
	}
}

func TestParametersReturnsACopy(t *testing.T) {
	tool := builtin(t, Options{Root: tempRoot(t)}, "read_file")
	s := tool.Parameters()
	s["properties"].(map[string]any)["path"].(map[string]any)["type"] = "number"
	s["required"] = []any{}
	again := tool.Parameters()
	if again["properties"].(map[string]any)["path"].(map[string]any)["type"] != "string" || len(again["required"].([]any)) != 1 {
		t.Fatalf("changing one Parameters() result changed the next: %v", again)
	}
}

func TestStrictParameters(t *testing.T) {
	root := tempRoot(t)
	for _, tool := range Builtins(Options{Root: root}) {
		t.Run(tool.Name(), func(t *testing.T) {
			plain := tool.Parameters()
			strict := StrictParameters(tool)
			props := strict["properties"].(map[string]any)
			if len(strict["required"].([]any)) != len(props) {
				t.Errorf("strict required = %v, want every property", strict["required"])
			}
			wasRequired := map[string]bool{}
			for _, r := range plain["required"].([]any) {
				wasRequired[r.(string)] = true
			}
			for name, p := range props {
				prop := p.(map[string]any)
				if _, ok := prop["default"]; ok {
					t.Errorf("strict property %s keeps a default", name)
				}
				typ := prop["type"]
				if wasRequired[name] {
					if _, ok := typ.(string); !ok {
						t.Errorf("required %s became %v", name, typ)
					}
				} else if list, ok := typ.([]any); !ok || len(list) != 2 || list[1] != "null" {
					t.Errorf("optional %s has type %v, want [T null]", name, typ)
				}
			}
		})
	}
}

func TestStrictNullMeansDefault(t *testing.T) {
	root := tempRoot(t)
	tool := builtin(t, Options{Root: root}, "read_file").(*typedTool[readFileArgs])
	args, err := tool.decodeArgs(`{"path":"a.go","offset":null,"limit":null}`)
	if err != nil {
		t.Fatal(err)
	}
	if args.Offset != 1 || args.Limit != defaultReadLimit {
		t.Fatalf("null offset/limit decoded as %+v, want the defaults", args)
	}
}

// TestDecodeRejectsWhatSchemaRejects validates a corpus of arguments with an
// independent validator of each published schema: whatever it rejects,
// Decode must reject too, and what Decode accepts must be valid.
func TestDecodeRejectsWhatSchemaRejects(t *testing.T) {
	root := tempRoot(t)
	corpus := []string{
		`{}`, `{"path":"a"}`, `{"path":1}`, `{"path":"a","offset":0}`, `{"path":"a","offset":1.5}`,
		`{"path":"a","limit":-1}`, `{"path":"a","extra":true}`, `{"pattern":"x"}`, `{"pattern":["x"]}`,
		`{"pattern":"x","path":"."}`, `{"pattern":"x","glob":3}`, `{"max_depth":0}`, `{"max_depth":21}`,
		`{"max_depth":3}`, `{"path":"a","content":"x"}`, `{"path":"a","content":null}`,
		`{"path":"a","old_text":"x","new_text":"y"}`, `{"path":"a","old_text":"x","new_text":"y","replace_all":"yes"}`,
		`{"command":"ls"}`, `{"command":"ls","timeout":0}`, `{"command":"ls","timeout":601}`, `{"command":"ls","timeout":"5"}`,
		`{"command":"ls","timeout":600}`, `[]`, `"x"`, `3`, `null`,
	}
	for _, tool := range Builtins(Options{Root: root}) {
		raw, _ := json.Marshal(tool.Parameters())
		var doc jsonschema.Schema
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: published schema is not a JSON Schema: %v", tool.Name(), err)
		}
		schema, err := doc.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: published schema does not resolve: %v", tool.Name(), err)
		}
		for _, args := range corpus {
			var v any
			_ = json.Unmarshal([]byte(args), &v)
			schemaErr := schema.Validate(v)
			_, decodeErr := tool.Decode(args)
			if schemaErr != nil && decodeErr == nil {
				t.Errorf("%s: schema rejects %s (%v) but Decode accepts it", tool.Name(), args, schemaErr)
			}
		}
	}
}

type nestedArgs struct {
	Inner struct {
		X int `json:"x"`
	} `json:"inner"`
}

type anyArgs struct {
	Value any `json:"value"`
}

// patternArgs asks for checks Decode does not make.
type patternArgs struct {
	Name string `json:"name" jsonschema:"minLength=2,pattern=^[a-z]+$"`
}

type nestedPatternArgs struct {
	Inner struct {
		Tags []string `json:"tags" jsonschema:"maxItems=3"`
	} `json:"inner"`
}

func TestNewRejectsMalformedSpecs(t *testing.T) {
	tests := []struct {
		name string
		make func() (Tool, error)
		want string
	}{
		{"bad name", func() (Tool, error) {
			return New(Spec[globArgs]{Name: "read file", Bind: func(globArgs) Call { return nil }})
		}, "invalid"},
		{"empty name", func() (Tool, error) {
			return New(Spec[globArgs]{Name: "", Bind: func(globArgs) Call { return nil }})
		}, "invalid"},
		{"long name", func() (Tool, error) {
			return New(Spec[globArgs]{Name: strings.Repeat("a", 65), Bind: func(globArgs) Call { return nil }})
		}, "invalid"},
		{"no bind", func() (Tool, error) { return New(Spec[globArgs]{Name: "x"}) }, "no Bind"},
		{"not a struct", func() (Tool, error) {
			return New(Spec[string]{Name: "x", Bind: func(string) Call { return nil }})
		}, "not a struct"},
		{"untyped field", func() (Tool, error) {
			return New(Spec[anyArgs]{Name: "x", Bind: func(anyArgs) Call { return nil }})
		}, "no simple JSON type"},
		{"a check Decode does not make", func() (Tool, error) {
			return New(Spec[patternArgs]{Name: "x", Bind: func(patternArgs) Call { return nil }})
		}, `argument "name" has the schema keyword "minLength", which Decode does not check`},
		{"an unchecked keyword further in", func() (Tool, error) {
			return New(Spec[nestedPatternArgs]{Name: "x", Bind: func(nestedPatternArgs) Call { return nil }})
		}, `argument "inner/tags" has the schema keyword "maxItems"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.make()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestNestedStructIsInlined(t *testing.T) {
	tool, err := New(Spec[nestedArgs]{Name: "nested", Bind: func(nestedArgs) Call { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	s := tool.Parameters()
	if at := findKey(s, "$ref", ""); at != "" {
		t.Fatalf("nested struct produced $ref at %s", at)
	}
	inner := s["properties"].(map[string]any)["inner"].(map[string]any)
	if inner["type"] != "object" || inner["additionalProperties"] != false {
		t.Fatalf("inner schema = %v, want a closed object", inner)
	}
	if _, err := tool.Decode(`{"inner":{"x":"1"}}`); err == nil || !strings.Contains(err.Error(), `"inner/x"`) {
		t.Fatalf("nested type error = %v, want it to name inner/x", err)
	}
}
