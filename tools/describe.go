package tools

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// describe turns a schema validation error into sentences that name the
// argument and say what a valid value is.
// obj is the validated arguments object, for quoting the offending values.
func (t *typedTool[A]) describe(err error, obj map[string]any) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	var out []string
	seen := map[string]bool{}
	for _, leaf := range leaves {
		msg := t.describeLeaf(leaf, obj)
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	return out
}

// collectLeaves gathers the errors that have no further causes: the
// concrete problems under the "doesn't validate" wrappers.
func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

// describeLeaf words one concrete validation problem.
func (t *typedTool[A]) describeLeaf(e *jsonschema.ValidationError, obj map[string]any) string {
	name := strings.Join(e.InstanceLocation, "/")
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		parts := make([]string, len(k.Missing))
		for i, m := range k.Missing {
			parts[i] = fmt.Sprintf("%q (%s)", m, t.schema.types[m])
		}
		if len(parts) == 1 {
			return "missing required argument " + parts[0]
		}
		return "missing required arguments " + strings.Join(parts, ", ")
	case *kind.AdditionalProperties:
		unknown := append([]string(nil), k.Properties...)
		sort.Strings(unknown)
		quoted := make([]string, len(unknown))
		for i, u := range unknown {
			quoted[i] = fmt.Sprintf("%q", u)
		}
		word := "argument"
		if len(unknown) > 1 {
			word = "arguments"
		}
		return fmt.Sprintf("unknown %s %s; the valid arguments are %s", word, strings.Join(quoted, ", "), t.argNames())
	case *kind.Type:
		if name == "" {
			return fmt.Sprintf("the arguments must be a JSON object, got %s", k.Got)
		}
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = typeNoun(w)
		}
		got := k.Got
		if len(e.InstanceLocation) == 1 {
			got = describeValue(obj[name])
		}
		return fmt.Sprintf("argument %q must be %s, got %s", name, strings.Join(want, " or "), got)
	case *kind.Minimum:
		return fmt.Sprintf("argument %q must be at least %s, got %s", name, k.Want.RatString(), k.Got.RatString())
	case *kind.Maximum:
		return fmt.Sprintf("argument %q must be at most %s, got %s", name, k.Want.RatString(), k.Got.RatString())
	case *kind.Enum:
		opts := make([]string, len(k.Want))
		for i, w := range k.Want {
			opts[i] = fmt.Sprintf("%v", w)
		}
		return fmt.Sprintf("argument %q must be one of %s, got %v", name, strings.Join(opts, ", "), k.Got)
	}
	text := e.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	if name == "" {
		return text
	}
	return fmt.Sprintf("argument %q: %s", name, text)
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
