package config

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// RecallMode is auto_recall: "auto", "off" or "always". Files written when
// it was a switch say true or false, read as "always" and "off".
type RecallMode string

// The values of auto_recall.
const (
	RecallAuto   RecallMode = "auto"
	RecallOff    RecallMode = "off"
	RecallAlways RecallMode = "always"
)

// UnmarshalJSON reads a string, or the old true/false.
func (m *RecallMode) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch string(data) {
	case "true":
		*m = RecallAlways
		return nil
	case "false":
		*m = RecallOff
		return nil
	case "null":
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf(`auto_recall is %s; write "auto", "off" or "always"`, data)
	}
	*m = RecallMode(s)
	return nil
}

// valid reports whether m is one of the modes.
func (m RecallMode) valid() bool { return m == RecallAuto || m == RecallOff || m == RecallAlways }

// JSONSchema describes the modes, and the old true/false, for the
// generated schema.
func (RecallMode) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "string", Enum: []any{"auto", "off", "always"}},
			{Type: "boolean"},
		},
	}
}
