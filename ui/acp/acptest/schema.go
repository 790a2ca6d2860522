// Package acptest holds what tests of pincer's ACP front end share: the
// official ACP v1 JSON Schema (vendored, see schema/README.md) with a
// validator for the messages an agent sends, and a client that drives an
// agent over a pipe and validates everything it reads.
package acptest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaVersion is the version of the npm package @agentclientprotocol/sdk
// the vendored schema comes from.
const SchemaVersion = "2.4.0"

// Schema is the official ACP v1 JSON Schema (schema/v1/schema.json of
// @agentclientprotocol/sdk).
//
//go:embed schema/schema.v1.json
var Schema []byte

// Validator checks messages an agent sends against the schema: the
// envelope against the schema's top level, and the params or result
// against the definition the schema names for that method (its x-method
// and x-side), which the top level alone would not check (an extension
// method takes anything). It counts which definitions it checked.
type Validator struct {
	doc      map[string]any    // the schema, parsed
	requests map[string]string // method → definition of the params of a request the agent sends
	notes    map[string]string // method → definition of the params of a notification the agent sends
	results  map[string]string // method → definition of the result of a request the agent answers

	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved // by definition ("" for the top level), made on first use
	checked  map[string]int
}

// NewValidator reads the schema and the methods it describes.
func NewValidator() (*Validator, error) {
	v := &Validator{requests: map[string]string{}, notes: map[string]string{}, results: map[string]string{},
		resolved: map[string]*jsonschema.Resolved{}, checked: map[string]int{}}
	if err := json.Unmarshal(Schema, &v.doc); err != nil {
		return nil, fmt.Errorf("read the ACP schema: %w", err)
	}
	var raw struct {
		Defs map[string]struct {
			Method string `json:"x-method"`
			Side   string `json:"x-side"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema, &raw); err != nil {
		return nil, err
	}
	for name, d := range raw.Defs {
		switch {
		case d.Method == "":
		case d.Side == "client" && strings.HasSuffix(name, "Request"):
			v.requests[d.Method] = name
		case d.Side == "client" && strings.HasSuffix(name, "Notification"):
			v.notes[d.Method] = name
		case d.Side == "agent" && strings.HasSuffix(name, "Response"):
			v.results[d.Method] = name
		}
	}
	if v.results["session/prompt"] == "" || v.requests["session/request_permission"] == "" || v.notes["session/update"] == "" {
		return nil, fmt.Errorf("the ACP schema does not describe its methods as expected")
	}
	if _, err := v.schema(""); err != nil {
		return nil, err
	}
	return v, nil
}

// schema is the resolved schema of definition def, or of the whole
// schema for "": the schema's own definitions with a reference to def.
// Call with v.mu held, or before v is shared.
func (v *Validator) schema(def string) (*jsonschema.Resolved, error) {
	if r, ok := v.resolved[def]; ok {
		return r, nil
	}
	doc := v.doc
	if def != "" {
		defs, _ := v.doc["$defs"].(map[string]any)
		if _, ok := defs[def]; !ok {
			return nil, fmt.Errorf("the ACP schema has no definition %s", def)
		}
		// Only the definitions def reaches: resolving all of them for each
		// one costs a quarter of a second.
		reached := map[string]any{}
		var walk func(x any)
		walk = func(x any) {
			switch x := x.(type) {
			case map[string]any:
				if ref, ok := x["$ref"].(string); ok {
					if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok && reached[name] == nil && defs[name] != nil {
						reached[name] = defs[name]
						walk(defs[name])
					}
				}
				for _, y := range x {
					walk(y)
				}
			case []any:
				for _, y := range x {
					walk(y)
				}
			}
		}
		reached[def] = defs[def]
		walk(defs[def])
		doc = map[string]any{"$schema": v.doc["$schema"], "$defs": reached, "$ref": "#/$defs/" + def}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("read the ACP schema of %q: %w", def, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("resolve the ACP schema of %q: %w", def, err)
	}
	v.resolved[def] = r
	return r, nil
}

// Message is one JSON-RPC message as read.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	} `json:"error,omitempty"`
}

// AgentMessage validates one line an agent wrote. answered is the method
// of the client's request a response answers ("" when the id matches no
// request the client sent: then only the envelope is checked, and the
// response is an error). It returns the decoded message.
func (v *Validator) AgentMessage(line []byte, answered func(id json.RawMessage) string) (Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("not a JSON object: %v", err)
	}
	if err := v.check("", line); err != nil {
		return m, err
	}
	part := func(raw json.RawMessage, def string) error {
		if raw == nil {
			raw = json.RawMessage("null")
		}
		return v.check(def, raw)
	}
	switch {
	case m.Method == "$/cancel_request":
		return m, part(m.Params, "CancelRequestNotification")
	case m.Method != "" && m.ID != nil:
		def, ok := v.requests[m.Method]
		if !ok {
			return m, fmt.Errorf("request %q: not a method the ACP v1 schema lets an agent call", m.Method)
		}
		return m, part(m.Params, def)
	case m.Method != "":
		def, ok := v.notes[m.Method]
		if !ok {
			return m, fmt.Errorf("notification %q: not one the ACP v1 schema lets an agent send", m.Method)
		}
		return m, part(m.Params, def)
	case m.Error != nil:
		raw, _ := json.Marshal(m.Error)
		return m, part(raw, "Error")
	default:
		method := ""
		if answered != nil {
			method = answered(m.ID)
		}
		def, ok := v.results[method]
		if !ok {
			return m, fmt.Errorf("a result for id %s, which answers no request the client sent (method %q)", m.ID, method)
		}
		return m, part(m.Result, def)
	}
}

// check validates one JSON value against definition def ("" for the top
// level).
func (v *Validator) check(def string, data []byte) error {
	var inst any
	if err := json.Unmarshal(data, &inst); err != nil {
		return err
	}
	name := def
	if name == "" {
		name = "the top level"
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.schema(def)
	if err != nil {
		return err
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s does not validate: %v", name, err)
	}
	v.checked[name]++
	return nil
}

// Checked lists the definitions validated so far, with counts, sorted.
func (v *Validator) Checked() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]string, 0, len(v.checked))
	for name, n := range v.checked {
		out = append(out, fmt.Sprintf("%s×%d", name, n))
	}
	sort.Strings(out)
	return out
}

// Count is how often definition name was validated.
func (v *Validator) Count(name string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.checked[name]
}
