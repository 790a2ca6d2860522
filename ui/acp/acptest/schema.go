// Package acptest holds what tests of pincer's ACP front end share: the
// official ACP v1 JSON Schema (vendored, see schema/README.md) with a
// validator for the messages an agent sends, and a client that drives an
// agent over a pipe and validates everything it reads.
package acptest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
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
	root     *jsonschema.Schema
	defs     map[string]*jsonschema.Schema
	requests map[string]string // method → definition of the params of a request the agent sends
	notes    map[string]string // method → definition of the params of a notification the agent sends
	results  map[string]string // method → definition of the result of a request the agent answers

	mu      sync.Mutex
	checked map[string]int
}

// NewValidator compiles the schema.
func NewValidator() (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		return nil, fmt.Errorf("read the ACP schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://agentclientprotocol.com/schema/v1.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	v := &Validator{defs: map[string]*jsonschema.Schema{}, requests: map[string]string{}, notes: map[string]string{},
		results: map[string]string{}, checked: map[string]int{}}
	if v.root, err = c.Compile(url); err != nil {
		return nil, fmt.Errorf("compile the ACP schema: %w", err)
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
		if v.defs[name], err = c.Compile(url + "#/$defs/" + name); err != nil {
			return nil, fmt.Errorf("compile %s: %w", name, err)
		}
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
	return v, nil
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
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return m, err
	}
	if err := v.check("the top level", v.root, inst); err != nil {
		return m, err
	}
	part := func(raw json.RawMessage, def string) error {
		if raw == nil {
			raw = json.RawMessage("null")
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		return v.check(def, v.defs[def], inst)
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

func (v *Validator) check(name string, s *jsonschema.Schema, inst any) error {
	if s == nil {
		return fmt.Errorf("no schema for %s", name)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s does not validate: %v", name, err)
	}
	v.mu.Lock()
	v.checked[name]++
	v.mu.Unlock()
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
