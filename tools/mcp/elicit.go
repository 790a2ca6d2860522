package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation is a server asking the person for something while it works:
// a form to fill in, or (URL set) a page to visit. Every text in it is the
// server's, foreign: a front end shows it only through safetext.
type Elicitation struct {
	// Server is the name of the server that asks, as configured.
	Server  string
	Message string
	// URL is the page of a URL-mode request; empty for a form.
	URL    string
	Fields []Field
}

// FieldKind is what a form field holds.
type FieldKind string

// The kinds of field the MCP specification allows in a form.
const (
	KindString  FieldKind = "string"
	KindNumber  FieldKind = "number"
	KindInteger FieldKind = "integer"
	KindBoolean FieldKind = "boolean"
	// KindChoice is one of Options; KindChoices any number of them.
	KindChoice  FieldKind = "choice"
	KindChoices FieldKind = "choices"
)

// Field is one field of a form.
type Field struct {
	Name, Title, Description string
	Kind                     FieldKind
	// Options are the values of a choice, OptionTitles what to show for
	// each (the value itself where the server gave no title).
	Options, OptionTitles []string
	Required              bool
	// Default is the server's default (string, float64, bool or
	// []string), nil when it gave none.
	Default any
	// Format is a string's format: email, uri, date or date-time.
	Format               string
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
}

// Label is what a field is called: its title, else its name.
func (f Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Action is a person's answer to an elicitation.
type Action string

// The answers the MCP specification knows.
const (
	Accept  Action = "accept"
	Decline Action = "decline"
	Cancel  Action = "cancel"
)

// Answer is what goes back to the server: with Accept, the form's values
// by field name.
type Answer struct {
	Action  Action
	Content map[string]any
}

// Elicitor asks the person; a front end implements it. It must return
// when ctx ends.
type Elicitor func(ctx context.Context, e Elicitation) (Answer, error)

// Limits on a form a server may ask for: past them it is declined unseen.
const (
	maxFields       = 32
	maxElicitText   = 4000
	maxFieldOptions = 100
)

// Defaults returns the form filled with the server's defaults, and
// whether every field has one (then nothing is left for the person to
// say, and --yes may accept it).
func (e Elicitation) Defaults() (map[string]any, bool) {
	out := map[string]any{}
	all := true
	for _, f := range e.Fields {
		if f.Default == nil {
			all = false
			continue
		}
		out[f.Name] = f.Default
	}
	return out, all && e.URL == ""
}

// DefaultText is the field's default as a person would type it (a
// choice by its title, a yes or no), "" when it has none; Parse reads it
// back as the default.
func (f Field) DefaultText() string {
	title := func(v string) string {
		if i := slices.Index(f.Options, v); i >= 0 {
			return f.OptionTitles[i]
		}
		return v
	}
	switch d := f.Default.(type) {
	case nil:
		return ""
	case bool:
		if d {
			return "yes"
		}
		return "no"
	case string:
		if f.Kind == KindChoice {
			return title(d)
		}
		return d
	case []string:
		titles := make([]string, len(d))
		for i, v := range d {
			titles[i] = title(v)
		}
		return strings.Join(titles, ", ")
	}
	return fmt.Sprint(f.Default)
}

// Parse turns what the person typed into the field's value: an empty
// answer is the default, or nothing for a field that is not required.
// A choice may be given by its value, its title or its number (1 for the
// first); several choices are separated by commas.
func (f Field) Parse(text string) (any, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		switch {
		case f.Default != nil:
			return f.Default, nil
		case f.Required:
			return nil, fmt.Errorf("%s is required", f.Label())
		}
		return nil, nil
	}
	switch f.Kind {
	case KindBoolean:
		switch strings.ToLower(text) {
		case "y", "yes", "true", "1", "on":
			return true, nil
		case "n", "no", "false", "0", "off":
			return false, nil
		}
		return nil, fmt.Errorf("answer yes or no")
	case KindInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", text)
		}
		return float64(n), f.inRange(float64(n))
	case KindNumber:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", text)
		}
		return n, f.inRange(n)
	case KindChoice:
		return f.choice(text)
	case KindChoices:
		var picked []string
		for part := range strings.SplitSeq(text, ",") {
			v, err := f.choice(strings.TrimSpace(part))
			if err != nil {
				return nil, err
			}
			if !slices.Contains(picked, v) {
				picked = append(picked, v)
			}
		}
		return picked, nil
	}
	n := len([]rune(text))
	switch {
	case f.MinLength != nil && n < *f.MinLength:
		return nil, fmt.Errorf("give at least %d characters", *f.MinLength)
	case f.MaxLength != nil && n > *f.MaxLength:
		return nil, fmt.Errorf("give at most %d characters", *f.MaxLength)
	}
	switch f.Format {
	case "email":
		if _, err := mail.ParseAddress(text); err != nil {
			return nil, fmt.Errorf("%q is not an email address", text)
		}
	case "uri":
		if u, err := url.Parse(text); err != nil || u.Scheme == "" {
			return nil, fmt.Errorf("%q is not a URL with a scheme (https://…)", text)
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, text); err != nil {
			return nil, fmt.Errorf("%q is not a date like 2025-11-25", text)
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, text); err != nil {
			return nil, fmt.Errorf("%q is not a time like 2025-11-25T09:30:00Z", text)
		}
	}
	return text, nil
}

func (f Field) inRange(n float64) error {
	switch {
	case f.Minimum != nil && n < *f.Minimum:
		return fmt.Errorf("give at least %v", *f.Minimum)
	case f.Maximum != nil && n > *f.Maximum:
		return fmt.Errorf("give at most %v", *f.Maximum)
	}
	return nil
}

func (f Field) choice(text string) (string, error) {
	for i, o := range f.Options {
		if strings.EqualFold(text, o) || strings.EqualFold(text, f.OptionTitles[i]) || text == strconv.Itoa(i+1) {
			return o, nil
		}
	}
	return "", fmt.Errorf("%q is not one of the choices; give its number, 1 to %d", text, len(f.Options))
}

// wireField is a field of a requested schema as the server sends it.
type wireField struct {
	Type        string            `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []wireOption      `json:"oneOf"`
	Items       *struct {
		Enum  []string     `json:"enum"`
		AnyOf []wireOption `json:"anyOf"`
	} `json:"items"`
	Default   json.RawMessage `json:"default"`
	Format    string          `json:"format"`
	MinLength *int            `json:"minLength"`
	MaxLength *int            `json:"maxLength"`
	Minimum   *float64        `json:"minimum"`
	Maximum   *float64        `json:"maximum"`
}

type wireOption struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// elicitation reads a server's request into an Elicitation, or says why
// it cannot be shown.
func elicitation(server string, p *sdk.ElicitParams) (Elicitation, error) {
	e := Elicitation{Server: server, Message: cut(p.Message, maxElicitText)}
	if p.Mode == "url" {
		u, err := url.Parse(p.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return e, fmt.Errorf("it asked to open %q, which is not a web page", cut(p.URL, 200))
		}
		e.URL = p.URL
		return e, nil
	}
	if p.RequestedSchema == nil {
		return e, nil
	}
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return e, err
	}
	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return e, fmt.Errorf("its form is not a JSON object schema: %w", err)
	}
	names, fields, err := orderedProperties(schema.Properties)
	if err != nil {
		return e, err
	}
	// The SDK hands the schema over as a map, so the server's order is
	// lost: the required fields come first, each part by name.
	slices.SortStableFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(schema.Required, a), slices.Contains(schema.Required, b)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return strings.Compare(a, b)
	})
	if len(names) > maxFields {
		return e, fmt.Errorf("its form has %d fields, more than the %d pincer shows", len(names), maxFields)
	}
	for _, name := range names {
		w := fields[name]
		f := Field{Name: name, Title: cut(w.Title, 200), Description: cut(w.Description, 1000), Required: slices.Contains(schema.Required, name),
			Format: w.Format, MinLength: w.MinLength, MaxLength: w.MaxLength, Minimum: w.Minimum, Maximum: w.Maximum}
		var def any
		if len(w.Default) > 0 {
			_ = json.Unmarshal(w.Default, &def)
		}
		switch {
		case w.Type == "string" && (len(w.Enum) > 0 || len(w.OneOf) > 0):
			f.Kind = KindChoice
			for i, v := range w.Enum {
				var s string
				if json.Unmarshal(v, &s) != nil {
					return e, fmt.Errorf("the field %q has a choice that is not text", name)
				}
				title := s
				if i < len(w.EnumNames) {
					title = w.EnumNames[i]
				}
				f.Options, f.OptionTitles = append(f.Options, s), append(f.OptionTitles, title)
			}
			for _, o := range w.OneOf {
				f.Options, f.OptionTitles = append(f.Options, o.Const), append(f.OptionTitles, orValue(o.Title, o.Const))
			}
		case w.Type == "array" && w.Items != nil:
			f.Kind = KindChoices
			for _, s := range w.Items.Enum {
				f.Options, f.OptionTitles = append(f.Options, s), append(f.OptionTitles, s)
			}
			for _, o := range w.Items.AnyOf {
				f.Options, f.OptionTitles = append(f.Options, o.Const), append(f.OptionTitles, orValue(o.Title, o.Const))
			}
			if list, ok := def.([]any); ok {
				var picked []string
				for _, v := range list {
					if s, ok := v.(string); ok {
						picked = append(picked, s)
					}
				}
				def = picked
			}
		case w.Type == "string" || w.Type == "number" || w.Type == "integer" || w.Type == "boolean":
			f.Kind = FieldKind(w.Type)
		default:
			return e, fmt.Errorf("the field %q is of a type (%q) a form cannot hold", name, w.Type)
		}
		if len(f.Options) > maxFieldOptions {
			return e, fmt.Errorf("the field %q offers %d choices, more than the %d pincer shows", name, len(f.Options), maxFieldOptions)
		}
		for i := range f.OptionTitles {
			f.OptionTitles[i] = cut(f.OptionTitles[i], 200)
		}
		if (f.Kind == KindChoice || f.Kind == KindChoices) && len(f.Options) == 0 {
			return e, fmt.Errorf("the field %q offers no choices", name)
		}
		f.Default = defaultOf(f, def)
		e.Fields = append(e.Fields, f)
	}
	return e, nil
}

// defaultOf keeps a default that fits the field, and drops one that
// does not (a server's mistake should not become the person's answer).
func defaultOf(f Field, def any) any {
	switch v := def.(type) {
	case string:
		if f.Kind == KindString || f.Kind == KindChoice && slices.Contains(f.Options, v) {
			return v
		}
	case float64:
		if f.Kind == KindNumber || f.Kind == KindInteger && v == float64(int64(v)) {
			return v
		}
	case bool:
		if f.Kind == KindBoolean {
			return v
		}
	case []string:
		if f.Kind == KindChoices && !slices.ContainsFunc(v, func(s string) bool { return !slices.Contains(f.Options, s) }) {
			return v
		}
	}
	return nil
}

// orderedProperties decodes a schema's properties, with their names in
// the order they are written.
func orderedProperties(raw json.RawMessage) ([]string, map[string]wireField, error) {
	fields := map[string]wireField{}
	if len(raw) == 0 {
		return nil, fields, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("its form's properties are not an object")
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var w wireField
		if err := dec.Decode(&w); err != nil {
			return nil, nil, fmt.Errorf("the field %q: %w", name, err)
		}
		if _, dup := fields[name]; !dup {
			names = append(names, name)
		}
		fields[name] = w
	}
	return names, fields, nil
}

// elicitHandler answers a server's elicitation/create with what the
// front end's elicitor says; without one, or for a request pincer cannot
// show, it declines.
func (m *Manager) elicitHandler(server string) func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		m.mu.Lock()
		ask := m.elicitor
		m.mu.Unlock()
		e, err := elicitation(server, req.Params)
		if err != nil || ask == nil {
			return &sdk.ElicitResult{Action: string(Decline)}, nil
		}
		a, err := ask(ctx, e)
		if err != nil {
			return nil, err
		}
		res := &sdk.ElicitResult{Action: string(a.Action)}
		if a.Action == Accept && e.URL == "" {
			res.Content = map[string]any{}
			for _, f := range e.Fields {
				if v, ok := a.Content[f.Name]; ok && v != nil {
					res.Content[f.Name] = v
				}
			}
		}
		return res, nil
	}
}

// SetElicitor sets how a server's questions reach the person, for the
// servers started from now on and the questions asked from now on; nil
// declines them.
func (m *Manager) SetElicitor(e Elicitor) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.elicitor = e
}

// cut shortens s to n bytes on a character boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

func orValue(title, value string) string {
	if title != "" {
		return title
	}
	return value
}
