package themes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"pincer/internal/safefile"
)

// ErrInvalidTheme is matched (with errors.Is) by every error that Load and
// Parse return for a theme file whose content is wrong, as opposed to one
// that cannot be read.
var ErrInvalidTheme = errors.New("invalid theme file")

// FieldError says which field of a theme file is wrong and how to fix it.
type FieldError struct {
	Field   string // the field's path, e.g. "colors.accent"
	Problem string // what is wrong and what to write instead
}

// Error names the field and the fix in one sentence.
func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

// Is makes every FieldError match ErrInvalidTheme.
func (e *FieldError) Is(target error) bool { return target == ErrInvalidTheme }

// Load reads a user theme from a JSON file. The file looks like this (every
// field optional except as noted):
//
//	{
//	  "name": "sunset",            // defaults to the file name without ".json"
//	  "extends": "dark",           // a built-in theme the other fields start from
//	  "dark": true,                // for a dark background; defaults to the base
//	                               // theme's, or to the lightness of "background"
//	  "chroma_style": "monokai",   // code highlighting; defaults to the base's,
//	                               // or to github-dark / github
//	  "colors": {                  // every name of Palette.Fields; all of them
//	    "accent": "#ff8800",       // are needed unless "extends" is given
//	    "foreground": "252"        // "#rrggbb", "#rgb" or an ANSI number 0-255
//	  }
//	}
//
// Errors about the content match ErrInvalidTheme and name the field.
func Load(path string) (Theme, error) {
	data, err := safefile.Read(path, safefile.Options{})
	var refused *safefile.Error
	if errors.As(err, &refused) {
		return Theme{}, fmt.Errorf("theme file: %s", refused.Sentence(""))
	}
	if err != nil {
		return Theme{}, fmt.Errorf("read theme file %q: %w", path, err)
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	t, err := Parse(data, name)
	if err != nil {
		return Theme{}, fmt.Errorf("theme file %q: %w", path, err)
	}
	return t, nil
}

// Parse reads a user theme from the JSON that Load documents. defaultName is
// the theme's name when the JSON gives none.
func Parse(data []byte, defaultName string) (Theme, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return Theme{}, syntaxError(data, err)
	}
	if top == nil {
		return Theme{}, &FieldError{Field: "(file)", Problem: "the theme must be a JSON object like {\"extends\": \"dark\", \"colors\": {...}}"}
	}
	for k := range top {
		switch k {
		case "name", "extends", "dark", "chroma_style", "colors":
		default:
			return Theme{}, &FieldError{Field: k, Problem: "is not a theme field; use name, extends, dark, chroma_style or colors"}
		}
	}

	var t Theme
	var base *Theme
	if raw, ok := top["extends"]; ok {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return Theme{}, &FieldError{Field: "extends", Problem: "must be the name of a built-in theme as a string, e.g. \"dark\""}
		}
		b, ok := Lookup(name)
		if !ok {
			return Theme{}, &FieldError{Field: "extends", Problem: fmt.Sprintf("%q is not a built-in theme; use one of %s", name, strings.Join(builtinNames(), ", "))}
		}
		base = &b
		t = b
	}

	t.Name = strings.TrimSpace(defaultName)
	if raw, ok := top["name"]; ok {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil || strings.TrimSpace(name) == "" {
			return Theme{}, &FieldError{Field: "name", Problem: "must be a non-empty string"}
		}
		t.Name = strings.TrimSpace(name)
	}
	if t.Name == "" {
		return Theme{}, &FieldError{Field: "name", Problem: "is missing; give the theme a name"}
	}

	if raw, ok := top["colors"]; ok {
		if err := parseColors(raw, &t.Palette); err != nil {
			return Theme{}, err
		}
	}
	if missing := missingColors(&t.Palette); len(missing) > 0 {
		return Theme{}, &FieldError{
			Field:   "colors." + missing[0],
			Problem: missingProblem(missing),
		}
	}

	if raw, ok := top["dark"]; ok {
		if err := json.Unmarshal(raw, &t.Dark); err != nil {
			return Theme{}, &FieldError{Field: "dark", Problem: "must be true or false"}
		}
	} else if base == nil {
		t.Dark = IsDark(t.Palette.Background)
	}

	if raw, ok := top["chroma_style"]; ok {
		var style string
		if err := json.Unmarshal(raw, &style); err != nil {
			return Theme{}, &FieldError{Field: "chroma_style", Problem: "must be the name of a highlighting style as a string, e.g. \"monokai\""}
		}
		if _, ok := chromastyles.Registry[strings.ToLower(style)]; !ok {
			return Theme{}, &FieldError{Field: "chroma_style", Problem: fmt.Sprintf("%q is not a known highlighting style; try github-dark, monokai, dracula, nord, solarized-light or github", style)}
		}
		t.ChromaStyle = strings.ToLower(style)
	} else if base == nil {
		t.ChromaStyle = Light().ChromaStyle
		if t.Dark {
			t.ChromaStyle = Dark().ChromaStyle
		}
	}
	return t, nil
}

func parseColors(raw json.RawMessage, p *Palette) error {
	var colors map[string]json.RawMessage
	if err := json.Unmarshal(raw, &colors); err != nil || colors == nil {
		return &FieldError{Field: "colors", Problem: "must be an object of colour names to colours, e.g. {\"accent\": \"#ff8800\"}"}
	}
	fields := p.Fields()
	byName := make(map[string]NamedColor, len(fields))
	for _, f := range fields {
		byName[f.Name] = f
	}
	keys := make([]string, 0, len(colors))
	for k := range colors {
		keys = append(keys, k)
	}
	sort.Strings(keys) // report the same field first on every run
	for _, k := range keys {
		f, ok := byName[k]
		if !ok {
			return &FieldError{Field: "colors." + k, Problem: "is not a palette colour; the names are " + strings.Join(colorNames(p), ", ")}
		}
		var s string
		if err := json.Unmarshal(colors[k], &s); err != nil {
			return &FieldError{Field: "colors." + k, Problem: "must be a string such as \"#ff8800\" or \"208\""}
		}
		c, err := ParseColor(s)
		if err != nil {
			return &FieldError{Field: "colors." + k, Problem: err.Error()}
		}
		*f.Color = c
	}
	return nil
}

func missingProblem(missing []string) string {
	fix := fmt.Sprintf("; add them or set \"extends\" to a built-in theme (%s) to inherit them", strings.Join(builtinNames(), ", "))
	if len(missing) == 1 {
		return "is missing" + fix
	}
	return fmt.Sprintf("is missing, and so are %d more colours (%s)%s", len(missing)-1, strings.Join(missing[1:], ", "), fix)
}

func missingColors(p *Palette) []string {
	var out []string
	for _, f := range p.Fields() {
		if *f.Color == nil {
			out = append(out, f.Name)
		}
	}
	return out
}

func colorNames(p *Palette) []string {
	var out []string
	for _, f := range p.Fields() {
		out = append(out, f.Name)
	}
	return out
}

func builtinNames() []string {
	var out []string
	for _, t := range Builtin() {
		out = append(out, t.Name)
	}
	return out
}

// syntaxError words a JSON decoding error with the line it happened on.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return &FieldError{Field: fmt.Sprintf("line %d", line), Problem: fmt.Sprintf("the file is not valid JSON (%v); fix the syntax there", se)}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &FieldError{Field: "(file)", Problem: "the theme must be a JSON object like {\"extends\": \"dark\", \"colors\": {...}}"}
	}
	return &FieldError{Field: "(file)", Problem: fmt.Sprintf("the file is not valid JSON (%v); fix the syntax", err)}
}
