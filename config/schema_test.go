package config

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// compileSchema resolves Schema() with a draft 2020-12 validator other
// than the library that generated it, which also checks its structure.
func compileSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	raw, err := Schema()
	if err != nil {
		t.Fatalf("Schema: %v", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("schema is not a JSON Schema: %v", err)
	}
	sch, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v", err)
	}
	return sch
}

// decodeDoc reads a JSON document for validation.
func decodeDoc(t *testing.T, text string) any {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestSchemaIsDraft202012(t *testing.T) {
	raw, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	if top["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", top["$schema"])
	}
	if top["additionalProperties"] != false {
		t.Errorf("additionalProperties = %v, want false", top["additionalProperties"])
	}
	if _, ok := top["required"]; ok {
		t.Error("no field may be required in a config file")
	}
	compileSchema(t)
}

// TestSchemaDescribesEveryField keeps descriptions, enums and defaults in
// the generated schema.
func TestSchemaDescribesEveryField(t *testing.T) {
	raw, _ := Schema()
	var top struct {
		Properties map[string]struct {
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
			Default     any    `json:"default"`
			Minimum     *float64
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	for _, name := range FieldNames() {
		p, ok := top.Properties[name]
		if !ok {
			t.Errorf("schema has no property %q", name)
			continue
		}
		if len(p.Description) < 20 {
			t.Errorf("%s: description %q is missing or too short", name, p.Description)
		}
	}
	var names []any
	for _, n := range presetNames() {
		names = append(names, n)
	}
	if got := top.Properties["provider"].Enum; !reflect.DeepEqual(got, names) {
		t.Errorf("provider enum = %v, want %v", got, names)
	}
	if got := top.Properties["unknown_commands"].Enum; !reflect.DeepEqual(got, []any{"confirm", "safe"}) {
		t.Errorf("unknown_commands enum = %v", got)
	}
	defaults := map[string]any{"context_window": 30000.0, "max_iterations": 30.0, "compress_at": 0.8, "keep_recent": 10.0,
		"command_timeout": "2m0s", "idle_timeout": "1m30s", "theme": "auto", "unknown_commands": "confirm", "provider": "ollama"}
	for name, want := range defaults {
		if got := top.Properties[name].Default; got != want {
			t.Errorf("%s default = %v, want %v", name, got, want)
		}
	}
}

func TestSchemaValidatesFiles(t *testing.T) {
	sch := compileSchema(t)
	tests := []struct {
		name  string
		doc   string
		valid bool
	}{
		{"empty", `{}`, true},
		{"typical user file", `{"$schema": "./schema.json", "provider": "deepseek", "model": "deepseek-v4-pro", "api_key": "sk-x",
			"context_window": 64000, "max_iterations": 50, "compress_at": 0.75, "keep_recent": 12,
			"command_timeout": "90s", "idle_timeout": 120, "max_retries": 3, "temperature": 0.2, "theme": "dark",
			"allow": ["go test ./..."], "deny": ["git push --force"], "unknown_commands": "safe", "auto_recall": true,
			"scheduler_interval": "1m", "data_dir": "/srv/pincer"}`, true},
		{"unknown field", `{"modle": "x"}`, false},
		{"unknown provider", `{"provider": "acme"}`, false},
		{"unknown_commands not a choice", `{"unknown_commands": "ask"}`, false},
		{"context window too small", `{"context_window": 999}`, false},
		{"max_iterations too large", `{"max_iterations": 1001}`, false},
		{"max_iterations not whole", `{"max_iterations": 2.5}`, false},
		{"compress_at zero", `{"compress_at": 0}`, false},
		{"keep_recent one", `{"keep_recent": 1}`, false},
		{"negative duration string", `{"command_timeout": "-5s"}`, false},
		{"negative seconds", `{"idle_timeout": -1}`, false},
		{"duration in words", `{"command_timeout": "2 minutes"}`, false},
		{"temperature too hot", `{"temperature": 3}`, false},
		{"allow not a list", `{"allow": "ls"}`, false},
		{"wrong type", `{"model": 4}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sch.Validate(decodeDoc(t, tt.doc))
			if (err == nil) != tt.valid {
				t.Errorf("valid = %v, want %v (%v)", err == nil, tt.valid, err)
			}
		})
	}
}

// TestSchemaAgreesWithLoad feeds the same project files to the schema and
// to Load: an editor should flag exactly what pincer refuses (apart from
// rules the schema cannot express, like the key ban in project files).
func TestSchemaAgreesWithLoad(t *testing.T) {
	sch := compileSchema(t)
	docs := []string{
		`{"model": "m"}`,
		`{"model": "m", "theme": "solarized"}`,
		`{"model": "m", "modle": "x"}`,
		`{"model": "m", "max_iterations": 0}`,
		`{"model": "m", "max_iterations": 1000}`,
		`{"model": "m", "compress_at": 1}`,
		`{"model": "m", "compress_at": 1.01}`,
		`{"model": "m", "command_timeout": 0}`,
		`{"model": "m", "command_timeout": "1h2m3.5s"}`,
		`{"model": "m", "command_timeout": "-1m"}`,
		`{"model": "m", "max_retries": 21}`,
		`{"model": "m", "unknown_commands": "safe"}`,
		`{"model": "m", "provider": "ollama"}`,
		`{"model": "m", "provider": "olama"}`,
		`{"model": "m", "temperature": 2}`,
		`{"model": "m", "auto_recall": "true"}`,
		`{"model": "m", "checkpoint_max_file_mb": 0}`,
		`{"model": "m", "checkpoint_max_file_mb": 1024}`,
		`{"model": "m", "checkpoint_keep": 0}`,
	}
	for _, d := range docs {
		w := newWorld(t)
		w.writeProject(t, d)
		_, _, loadErr := w.load(Overrides{})
		schemaErr := sch.Validate(decodeDoc(t, d))
		if (loadErr == nil) != (schemaErr == nil) {
			t.Errorf("%s: Load error %v, schema error %v; they should agree", d, loadErr, schemaErr)
		}
	}
}
