package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Spec describes a tool whose arguments are the JSON form of the struct A,
// so a tool is a small argument struct plus a Call type. The schema is
// generated from A: field names from `json` tags, optional fields marked
// `json:",omitempty"`, descriptions from `jsonschema_description` tags,
// bounds from `jsonschema:"minimum=1,maximum=600"`.
type Spec[A any] struct {
	// Name is the function name: 1 to 64 letters, digits, '_' or '-'.
	Name string
	// Description is what the model reads; say what the tool does, its
	// limits and its defaults.
	Description string
	// Mutates marks tools whose calls change files or run commands.
	Mutates bool
	// Defaults holds the values of optional arguments a call leaves out; they
	// are also stated in the schema so the model sees them.
	Defaults A
	// Example is a valid call, shown to the model when its arguments are wrong.
	Example A
	// Check validates what the schema cannot say (an empty path, a bad
	// regular expression). Its error text is for the model.
	Check func(*A) error
	// Bind turns valid arguments into a Call. The Call's Run should keep its
	// Result within the configured output cap.
	Bind func(A) Call
}

// New builds a Tool from a Spec. It fails when the name is not a valid
// function name, A is not a flat struct, or Bind is missing.
func New[A any](s Spec[A]) (Tool, error) {
	if err := validName(s.Name); err != nil {
		return nil, err
	}
	if s.Bind == nil {
		return nil, fmt.Errorf("tool %q has no Bind function", s.Name)
	}
	schema, err := generateSchema(reflect.TypeFor[A](), s.Defaults)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", s.Name, err)
	}
	example, err := json.Marshal(s.Example)
	if err != nil {
		return nil, fmt.Errorf("tool %q: marshal example: %w", s.Name, err)
	}
	return &typedTool[A]{spec: s, schema: schema, example: string(example)}, nil
}

// validName reports whether name is acceptable to every provider as a
// function name: 1 to 64 letters, digits, '_' or '-'.
// It is checked byte by byte: every tool is checked when pincer starts, and
// compiling a pattern for each cost more memory than the rest of the tools.
func validName(name string) error {
	ok := len(name) >= 1 && len(name) <= 64
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
	}
	if !ok {
		return fmt.Errorf("tool name %q is invalid; use 1 to 64 letters, digits, '_' or '-'", name)
	}
	return nil
}

// typedTool is the Tool that New builds.
type typedTool[A any] struct {
	spec    Spec[A]
	schema  *argSchema
	example string
}

func (t *typedTool[A]) Name() string               { return t.spec.Name }
func (t *typedTool[A]) Description() string        { return t.spec.Description }
func (t *typedTool[A]) Parameters() map[string]any { return t.schema.object() }
func (t *typedTool[A]) Mutates() bool              { return t.spec.Mutates }

// Decode validates arguments against the generated schema, fills defaults,
// runs the tool's own checks and binds the call.
func (t *typedTool[A]) Decode(arguments string) (Call, error) {
	args, err := t.decodeArgs(arguments)
	if err != nil {
		return nil, err
	}
	return t.spec.Bind(args), nil
}

// decodeArgs is Decode without the binding, so tests can look at the values.
func (t *typedTool[A]) decodeArgs(arguments string) (A, error) {
	args := t.spec.Defaults
	raw := strings.TrimSpace(arguments)
	if raw == "" {
		raw = "{}"
	}
	if !json.Valid([]byte(raw)) {
		var v any
		err := json.Unmarshal([]byte(raw), &v)
		return args, t.argError(jsonProblem(raw, err))
	}
	value, err := decodeNumbers(raw)
	if err != nil {
		return args, t.argError("the arguments are not valid JSON: " + err.Error())
	}
	obj, ok := value.(map[string]any)
	if !ok {
		return args, t.argError(fmt.Sprintf("the arguments must be a JSON object, got %s", describeValue(value)))
	}
	var problems []string
	for _, name := range t.schema.props {
		if v, present := obj[name]; !present || v != nil {
			continue
		}
		if t.schema.required[name] {
			problems = append(problems, fmt.Sprintf("argument %q is null but required; give %s", name, typeNoun(t.schema.types[name])))
		} else {
			delete(obj, name) // null means "not given" for optional arguments
		}
	}
	if len(problems) == 0 {
		problems = t.problems(obj)
	}
	if len(problems) > 0 {
		return args, t.argError(strings.Join(problems, "; "))
	}
	cleaned, err := json.Marshal(obj)
	if err != nil {
		return args, t.argError("the arguments could not be read: " + err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(cleaned))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&args); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return args, t.argError(fmt.Sprintf("argument %q does not fit a %s (got %s)", te.Field, typeNoun(t.schema.types[te.Field]), te.Value))
		}
		return args, t.argError(err.Error())
	}
	if t.spec.Check != nil {
		if err := t.spec.Check(&args); err != nil {
			return args, t.argError(err.Error())
		}
	}
	return args, nil
}

// argError wraps a problem in the sentence the model sees.
func (t *typedTool[A]) argError(problem string) error {
	return &ArgumentError{Tool: t.spec.Name, Problem: problem, Example: t.example}
}

// ArgumentError is the error Decode returns. Its text names the argument,
// says what was wrong and shows a valid call.
type ArgumentError struct {
	Tool    string
	Problem string
	Example string // a valid call's arguments as JSON
}

// Error is written for the model.
func (e *ArgumentError) Error() string {
	return fmt.Sprintf("invalid arguments for %s: %s. A valid call looks like: %s", e.Tool, e.Problem, e.Example)
}

// jsonProblem describes why raw is not valid JSON.
func jsonProblem(raw string, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if strings.Contains(se.Error(), "unexpected end of JSON input") {
			return "the arguments are not valid JSON: the text ends before the JSON object is complete (was it cut off?)"
		}
		return fmt.Sprintf("the arguments are not valid JSON: %s at byte %d (near %q)", se.Error(), se.Offset, around(raw, int(se.Offset)))
	}
	if err != nil {
		if strings.Contains(err.Error(), "unexpected end of JSON input") {
			return "the arguments are not valid JSON: the text ends before the JSON object is complete (was it cut off?)"
		}
		return "the arguments are not valid JSON: " + err.Error()
	}
	return "the arguments are not valid JSON"
}

// around returns a few characters of s on either side of byte offset at.
func around(s string, at int) string {
	lo, hi := max(0, at-15), min(len(s), at+15)
	return strings.ToValidUTF8(s[lo:hi], "")
}

// typeNoun names a JSON type with its article, as the model reads it.
func typeNoun(typ string) string {
	switch typ {
	case "integer":
		return "an integer"
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "":
		return "value"
	}
	return "a " + typ
}

// describeValue names the JSON type of v and shows a short form of it.
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("a string (%s)", shortJSON(x))
	case bool:
		return fmt.Sprintf("a boolean (%t)", x)
	case json.Number:
		return fmt.Sprintf("a number (%s)", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// shortJSON quotes s as JSON, shortened when long.
func shortJSON(s string) string {
	if len(s) > 40 {
		s = strings.ToValidUTF8(s[:40], "") + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}
