package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// argSchema is the generated JSON Schema of one argument struct, kept as
// JSON so every caller gets its own copy to do with as it likes.
type argSchema struct {
	tree     map[string]any    // the schema, as decoded JSON values
	props    []string          // property names in struct order
	required map[string]bool   // required property names
	types    map[string]string // JSON type of each property
	root     argRule           // what Decode checks
}

// generateSchema reflects the argument struct type t into a schema object that
// strict providers accept: type object, properties, required, no
// $schema/$id/$ref/$defs, additionalProperties false. Non-zero and boolean
// values in defaults are stated in each optional property's description,
// so what the model reads cannot drift from what Decode does.
func generateSchema(t reflect.Type, defaults any) (*argSchema, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("argument type %s is not a struct", t)
	}
	r := jsonschema.Reflector{Anonymous: true, DoNotReference: true, ExpandedStruct: true}
	data, err := json.Marshal(r.ReflectFromType(t))
	if err != nil {
		return nil, fmt.Errorf("marshal schema of %s: %w", t, err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("unmarshal schema of %s: %w", t, err)
	}
	for _, k := range []string{"$schema", "$id", "$defs", "definitions", "$anchor"} {
		delete(s, k)
	}
	s["type"] = "object"
	s["additionalProperties"] = false
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	s["properties"] = props
	required := []string{}
	if list, ok := s["required"].([]any); ok {
		for _, v := range list {
			if name, ok := v.(string); ok {
				required = append(required, name)
			}
		}
	}
	s["required"] = required

	as := &argSchema{required: map[string]bool{}, types: map[string]string{}}
	for _, name := range required {
		as.required[name] = true
	}
	for _, f := range jsonFields(t) {
		prop, _ := props[f.name].(map[string]any)
		typ, _ := prop["type"].(string)
		as.props = append(as.props, f.name)
		if typ == "" {
			return nil, fmt.Errorf("argument %q of %s has no simple JSON type; use string, number, integer, boolean or a slice of them", f.name, t)
		}
		as.types[f.name] = typ
		if as.required[f.name] {
			continue
		}
		def := reflect.ValueOf(defaults).FieldByIndex(f.index).Interface()
		stateDefault(prop, def)
	}
	if path := findKey(s, "$ref", ""); path != "" {
		return nil, fmt.Errorf("schema of %s contains $ref at %s; argument structs must be flat", t, path)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal schema of %s: %w", t, err)
	}
	if err := json.Unmarshal(raw, &as.tree); err != nil {
		return nil, fmt.Errorf("unmarshal schema of %s: %w", t, err)
	}
	// The rules are read with exact numbers, as the checks compare them.
	exact, err := decodeNumbers(string(raw))
	if err != nil {
		return nil, fmt.Errorf("unmarshal schema of %s: %w", t, err)
	}
	top, _ := exact.(map[string]any)
	if as.root, err = readRule("", top); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", t, err)
	}
	return as, nil
}

// stateDefault states def as the property's default in the description
// the model reads; once is enough, so the schema carries no "default"
// keyword (strict providers refuse it anyway). Empty strings and empty
// slices are left unstated: "no value" says it better.
func stateDefault(prop map[string]any, def any) {
	v := reflect.ValueOf(def)
	switch v.Kind() {
	case reflect.String, reflect.Slice:
		if v.Len() == 0 {
			return
		}
	}
	text, err := json.Marshal(def)
	if err != nil {
		return
	}
	desc, _ := prop["description"].(string)
	desc = strings.TrimSpace(desc)
	if desc != "" && !strings.HasSuffix(desc, ".") {
		desc += "."
	}
	if desc != "" {
		desc += " "
	}
	prop["description"] = desc + "Default: " + string(text) + "."
}

// jsonField is one exported struct field and the JSON name it is known by.
type jsonField struct {
	name  string
	index []int
}

// jsonFields lists the fields of struct type t the way encoding/json names them.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, index: f.Index})
	}
	return out
}

// findKey returns the JSON-pointer-like location of the first key named key
// anywhere in v, or "" when there is none.
func findKey(v any, key, at string) string {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[key]; ok {
			return at + "/" + key
		}
		for k, child := range x {
			if p := findKey(child, key, at+"/"+k); p != "" {
				return p
			}
		}
	case []any:
		for i, child := range x {
			if p := findKey(child, key, fmt.Sprintf("%s/%d", at, i)); p != "" {
				return p
			}
		}
	}
	return ""
}

// object returns a fresh copy of the schema as a map.
func (s *argSchema) object() map[string]any {
	m, _ := deepCopy(s.tree).(map[string]any)
	return m
}

// deepCopy copies decoded JSON values so callers may change the copy freely.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, child := range x {
			m[k] = deepCopy(child)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, child := range x {
			l[i] = deepCopy(child)
		}
		return l
	}
	return v
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// StrictParameters returns t's schema in the form OpenAI's strict function
// calling demands: every property listed in required, optional ones made
// nullable instead, and no "default" keywords. Decode treats null for an
// optional argument as "not given", so either form of the schema may be sent.
func StrictParameters(t Tool) map[string]any {
	s := t.Parameters()
	props, _ := s["properties"].(map[string]any)
	isRequired := map[string]bool{}
	if list, ok := s["required"].([]any); ok {
		for _, v := range list {
			if name, ok := v.(string); ok {
				isRequired[name] = true
			}
		}
	}
	names := make([]any, 0, len(props))
	for _, name := range sortedKeys(props) {
		names = append(names, name)
		prop, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		delete(prop, "default")
		if !isRequired[name] {
			if typ, ok := prop["type"].(string); ok {
				prop["type"] = []any{typ, "null"}
			}
		}
	}
	s["required"] = names
	return s
}
