// Package configdoc renders docs/configuration.md from the config package
// itself: the fields, types, defaults, bounds and descriptions come from
// config.Schema, the environment variables and flags from what config.Load
// actually reads, the presets from config.Presets and the theme names from
// themes.Builtin. The page therefore changes when the code does; a test in
// package docs fails until `go generate ./docs` has been run.
package configdoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"text/template"
	"time"

	"pincer/config"
	"pincer/themes"
)

// notOnCommandLine are config overrides that pincer's command line does
// not offer: a key given as a flag would show in the process list.
var notOnCommandLine = []string{"--api-key"}

// probe is the value given to one variable or flag at a time to see which
// field it sets; nothing is read from a path of that name.
const probe = "pincer-doc-probe"

// Field is one row of the fields table.
type Field struct {
	Name, Type, Default, Values, Description string
	Env, Flags                               []string
}

// Page is what the template fills in.
type Page struct {
	Fields  []Field
	Presets []config.Preset // the rows of the providers table
	Themes  []string
	Env     map[string][]string // variable → fields it sets
	EnvList []string            // the variables, sorted
}

// Render returns the text of docs/configuration.md.
func Render() ([]byte, error) {
	page, err := build()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	t, err := template.New("configuration.md").Funcs(template.FuncMap{
		"codes": codes,
		"cell":  cell,
	}).Parse(pageTemplate)
	if err != nil {
		return nil, fmt.Errorf("parse the page template: %w", err)
	}
	if err := t.Execute(&b, page); err != nil {
		return nil, fmt.Errorf("render configuration.md: %w", err)
	}
	return b.Bytes(), nil
}

// property is the part of a JSON Schema property the page shows.
type property struct {
	Type             string       `json:"type"`
	Description      string       `json:"description"`
	Default          any          `json:"default"`
	Enum             []any        `json:"enum"`
	Minimum          *json.Number `json:"minimum"`
	Maximum          *json.Number `json:"maximum"`
	ExclusiveMinimum *json.Number `json:"exclusiveMinimum"`
	MinLength        *int         `json:"minLength"`
	Pattern          string       `json:"pattern"`
	OneOf            []property   `json:"oneOf"`
	Items            *property    `json:"items"`
}

func build() (Page, error) {
	raw, err := config.Schema()
	if err != nil {
		return Page{}, fmt.Errorf("config schema: %w", err)
	}
	var schema struct {
		Properties map[string]property `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return Page{}, fmt.Errorf("read the config schema: %w", err)
	}
	env, err := envFields()
	if err != nil {
		return Page{}, err
	}
	flags, err := flagFields()
	if err != nil {
		return Page{}, err
	}
	var page Page
	for _, name := range config.FieldNames() {
		p, ok := schema.Properties[name]
		if !ok {
			return Page{}, fmt.Errorf("the config schema has no property %q", name)
		}
		f := Field{
			Name:        name,
			Type:        typeOf(p),
			Default:     defaultOf(p),
			Values:      valuesOf(p),
			Description: p.Description,
			Flags:       flags[name],
		}
		for v, fields := range env {
			if slices.Contains(fields, name) {
				f.Env = append(f.Env, v)
			}
		}
		slices.Sort(f.Env)
		page.Fields = append(page.Fields, f)
	}
	page.Env = env
	for v := range env {
		page.EnvList = append(page.EnvList, v)
	}
	slices.Sort(page.EnvList)
	page.Presets = config.Presets()
	for _, th := range themes.Builtin() {
		page.Themes = append(page.Themes, th.Name)
	}
	return page, nil
}

// envFields finds which environment variables set which fields by asking
// config.Load: first which variables it reads, then, one at a time, which
// field each of them sets.
func envFields() (map[string][]string, error) {
	var asked []string
	record := func(name string) string {
		if !slices.Contains(asked, name) {
			asked = append(asked, name)
		}
		return ""
	}
	config.Load(config.LoadOptions{Getenv: record}) // errors are expected: nothing is configured
	out := map[string][]string{}
	for _, name := range asked {
		_, srcs, _ := config.Load(config.LoadOptions{Getenv: func(n string) string {
			if n == name {
				return probe
			}
			return ""
		}})
		for _, field := range config.FieldNames() {
			if s := srcs.Of(field); s.Kind == config.FromEnv && s.Name == name {
				out[name] = append(out[name], field)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("config.Load read no environment variable that sets a field")
	}
	return out, nil
}

// flagFields finds which flag sets which field by giving config.Load one
// override at a time.
func flagFields() (map[string][]string, error) {
	out := map[string][]string{}
	t := reflect.TypeFor[config.Overrides]()
	for i := range t.NumField() {
		var ov config.Overrides
		v := reflect.ValueOf(&ov).Elem().Field(i)
		switch v.Type() {
		case reflect.TypeFor[*string]():
			v.Set(reflect.ValueOf(config.Ptr(probe)))
		case reflect.TypeFor[*int]():
			v.Set(reflect.ValueOf(config.Ptr(1)))
		default:
			return nil, fmt.Errorf("config.Overrides.%s has type %s, which the page does not know", t.Field(i).Name, v.Type())
		}
		_, srcs, _ := config.Load(config.LoadOptions{Getenv: func(string) string { return "" }, Overrides: ov})
		for _, field := range config.FieldNames() {
			if s := srcs.Of(field); s.Kind == config.FromFlag && !slices.Contains(notOnCommandLine, s.Name) {
				out[field] = append(out[field], s.Name)
			}
		}
	}
	return out, nil
}

func typeOf(p property) string {
	switch {
	case isDuration(p):
		return "duration"
	case len(p.OneOf) > 0:
		var types []string
		for _, alt := range p.OneOf {
			if t := typeOf(alt); !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		return strings.Join(types, " or ")
	case p.Type == "array" && p.Items != nil:
		return "list of " + p.Items.Type + "s"
	}
	return p.Type
}

// isDuration reports whether p is the schema of config.Duration: a
// string in time.ParseDuration's syntax or a number of seconds. Other
// fields may accept several forms too (auto_recall: a word, or the old
// true and false).
func isDuration(p property) bool {
	return len(p.OneOf) == 2 && p.OneOf[0].Type == "string" && p.OneOf[0].Pattern != "" && p.OneOf[1].Type == "number"
}

// defaultOf writes a default the way a person would type it in the file.
func defaultOf(p property) string {
	switch v := p.Default.(type) {
	case nil:
		return ""
	case string:
		if isDuration(p) {
			if d, err := time.ParseDuration(v); err == nil {
				return "`\"" + shortDuration(d) + "\"`"
			}
		}
		return "`\"" + v + "\"`"
	default:
		b, _ := json.Marshal(v)
		return "`" + string(b) + "`"
	}
}

// shortDuration is "2m" rather than "2m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func valuesOf(p property) string {
	var parts []string
	if len(p.Enum) > 0 {
		vals := make([]string, len(p.Enum))
		for i, e := range p.Enum {
			vals[i] = fmt.Sprintf("`%v`", e)
		}
		parts = append(parts, strings.Join(vals, ", "))
	}
	switch {
	case p.ExclusiveMinimum != nil && p.Maximum != nil:
		parts = append(parts, fmt.Sprintf("above %s, at most %s", p.ExclusiveMinimum, p.Maximum))
	case p.Minimum != nil && p.Maximum != nil:
		parts = append(parts, fmt.Sprintf("%s to %s", p.Minimum, p.Maximum))
	case p.Minimum != nil:
		parts = append(parts, fmt.Sprintf("at least %s", p.Minimum))
	}
	if p.MinLength != nil && *p.MinLength > 0 {
		parts = append(parts, "not empty")
	}
	switch {
	case isDuration(p):
		parts = append(parts, "`\"90s\"`, `\"2m\"`, `\"1h30m\"` or a number of seconds")
	case len(p.OneOf) > 0:
		for _, alt := range p.OneOf {
			if alt.Type == "boolean" && len(alt.Enum) == 0 {
				parts = append(parts, "`true`, `false`")
			} else if v := valuesOf(alt); v != "" {
				parts = append(parts, v)
			}
		}
	}
	return strings.Join(parts, "; ")
}

// codes writes names as code spans joined by commas.
func codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
