package tools

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// argRule is what Decode checks of one argument: the few keywords a
// generated schema holds. Argument structs are flat, or nest plain
// structs, so their schemas need no general validator (which cost about
// 10 ms of start-up to initialise, before the first frame).
type argRule struct {
	typ      string             // JSON type: string, integer, number, boolean, array or object
	items    *argRule           // for an array, what its items must be (nil when anything)
	min      *big.Rat           // minimum, nil when none
	max      *big.Rat           // maximum, nil when none
	enum     []any              // the allowed values, nil when any
	props    map[string]argRule // for an object, its properties
	order    []string           // the properties by name
	required []string           // the required properties, in struct order
	closed   bool               // additionalProperties is false
}

// ruleKeywords are the keywords argRule checks or that only inform the
// model; readRule refuses a schema with another, so a new struct tag
// cannot go unchecked.
var ruleKeywords = []string{"type", "description", "default", "minimum", "maximum", "enum", "items",
	"properties", "required", "additionalProperties"}

// readRule reads what to check of the value at name from its schema s,
// decoded with exact numbers.
func readRule(name string, s map[string]any) (argRule, error) {
	var r argRule
	for _, k := range sortedKeys(s) {
		if !slices.Contains(ruleKeywords, k) {
			return r, fmt.Errorf("argument %q has the schema keyword %q, which Decode does not check", name, k)
		}
	}
	r.typ, _ = s["type"].(string)
	if items, ok := s["items"].(map[string]any); ok {
		item, err := readRule(name+"/items", items)
		if err != nil {
			return r, err
		}
		r.items = &item
	}
	for key, bound := range map[string]**big.Rat{"minimum": &r.min, "maximum": &r.max} {
		v, ok := s[key]
		if !ok {
			continue
		}
		rat, ok := ratOf(v)
		if !ok {
			return r, fmt.Errorf("argument %q has a %s that is not a number", name, key)
		}
		*bound = rat
	}
	if list, ok := s["enum"].([]any); ok {
		r.enum = list
	}
	if props, ok := s["properties"].(map[string]any); ok {
		r.props = make(map[string]argRule, len(props))
		r.order = sortedKeys(props)
		for _, k := range r.order {
			sub, _ := props[k].(map[string]any)
			rule, err := readRule(joinName(name, k), sub)
			if err != nil {
				return r, err
			}
			r.props[k] = rule
		}
	}
	if list, ok := s["required"].([]any); ok {
		for _, v := range list {
			if k, ok := v.(string); ok {
				r.required = append(r.required, k)
			}
		}
	}
	r.closed = s["additionalProperties"] == false
	return r, nil
}

// joinName names a property below the argument name ("" at the top).
func joinName(name, key string) string {
	if name == "" {
		return key
	}
	return name + "/" + key
}

// decodeNumbers reads JSON with numbers kept as json.Number, as the
// checks compare them exactly.
func decodeNumbers(raw string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// problems checks the arguments object against the schema and words each
// problem for the model, sorted.
func (t *typedTool[A]) problems(obj map[string]any) []string {
	out := t.schema.root.checkObject("", obj, t.argNames)
	return slices.Compact(slices.Sorted(slices.Values(out)))
}

// checkObject words what is wrong with the object v at name ("" for the
// arguments themselves); valid lists its properties for a message.
func (r argRule) checkObject(name string, v map[string]any, valid func() string) []string {
	var out, missing, unknown []string
	for _, k := range r.required {
		if _, ok := v[k]; !ok {
			missing = append(missing, fmt.Sprintf("%q (%s)", joinName(name, k), r.props[k].typ))
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		out = append(out, "missing required argument "+missing[0])
	default:
		out = append(out, "missing required arguments "+strings.Join(missing, ", "))
	}
	for k, item := range v {
		rule, ok := r.props[k]
		if !ok {
			unknown = append(unknown, strconv.Quote(joinName(name, k)))
			continue
		}
		out = append(out, rule.check(joinName(name, k), item, name == "")...)
	}
	if len(unknown) > 0 && r.closed {
		sort.Strings(unknown)
		word := "argument"
		if len(unknown) > 1 {
			word = "arguments"
		}
		out = append(out, fmt.Sprintf("unknown %s %s; the valid arguments are %s", word, strings.Join(unknown, ", "), valid()))
	}
	return out
}

// check words what is wrong with v, the value at name; top is true for
// an argument itself, false for what is inside one.
func (r argRule) check(name string, v any, top bool) []string {
	if !hasType(v, r.typ) {
		got := jsonType(v)
		if top {
			got = describeValue(v)
		}
		return []string{fmt.Sprintf("argument %q must be %s, got %s", name, typeNoun(r.typ), got)}
	}
	if r.enum != nil && !slices.ContainsFunc(r.enum, func(want any) bool { return sameValue(v, want) }) {
		opts := make([]string, len(r.enum))
		for i, w := range r.enum {
			opts[i] = fmt.Sprintf("%v", w)
		}
		return []string{fmt.Sprintf("argument %q must be one of %s, got %v", name, strings.Join(opts, ", "), v)}
	}
	var out []string
	switch x := v.(type) {
	case json.Number:
		n, _ := ratOf(x)
		if r.min != nil && n.Cmp(r.min) < 0 {
			out = append(out, fmt.Sprintf("argument %q must be at least %s, got %s", name, r.min.RatString(), n.RatString()))
		}
		if r.max != nil && n.Cmp(r.max) > 0 {
			out = append(out, fmt.Sprintf("argument %q must be at most %s, got %s", name, r.max.RatString(), n.RatString()))
		}
	case []any:
		if r.items != nil {
			for i, e := range x {
				out = append(out, r.items.check(name+"/"+strconv.Itoa(i), e, false)...)
			}
		}
	case map[string]any:
		out = r.checkObject(name, x, func() string { return strings.Join(r.order, ", ") })
	}
	return out
}

// jsonType names the JSON type of a decoded value; a number is "number"
// whether or not it is whole.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// hasType reports whether v is of the JSON type typ; a whole number is
// an integer however it is written (3, 3.0, 3e0).
func hasType(v any, typ string) bool {
	got := jsonType(v)
	if typ == "" || got == typ {
		return true
	}
	if typ == "integer" && got == "number" {
		n, ok := ratOf(v)
		return ok && n.IsInt()
	}
	return false
}

// sameValue reports whether a decoded value equals an allowed one:
// numbers by value, everything else as it is.
func sameValue(v, want any) bool {
	a, aok := ratOf(v)
	b, bok := ratOf(want)
	if aok || bok {
		return aok && bok && a.Cmp(b) == 0
	}
	return v == want
}

// ratOf reads a JSON number exactly.
func ratOf(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(x))
	case float64:
		return new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return nil, false
}

// argNames lists the tool's arguments for a message, required ones marked.
func (t *typedTool[A]) argNames() string {
	parts := make([]string, len(t.schema.props))
	for i, p := range t.schema.props {
		if t.schema.required[p] {
			parts[i] = p + " (required)"
		} else {
			parts[i] = p
		}
	}
	if len(parts) == 0 {
		return "none (call it with {})"
	}
	return strings.Join(parts, ", ")
}
