package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// schemaKey may appear in a config file to point editors at the schema;
// Load ignores it and SaveUser keeps it.
const schemaKey = "$schema"

// fileEntry is one top-level key of a config file.
type fileEntry struct {
	key  string
	raw  json.RawMessage
	line int
}

// parseObject checks that data is one JSON object and returns its keys in
// order with their raw values and lines. An empty (or all-space) file is an
// empty object. The error is a sentence without the "config: " prefix
// that says where the syntax breaks.
func parseObject(data []byte) ([]fileEntry, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var whole any
	if err := json.Unmarshal(data, &whole); err != nil {
		return nil, syntaxMessage(data, err)
	}
	if _, ok := whole.(map[string]any); !ok {
		return nil, fmt.Errorf(`holds %s, not a JSON object; write the settings as {"model": "…", …}`, jsonKind(bytes.TrimSpace(data)))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, fmt.Errorf("read object: %w", err)
	}
	var entries []fileEntry
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read key: %w", err)
		}
		key, _ := tok.(string)
		line, _ := position(data, int(dec.InputOffset())-1)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("read value of %q: %w", key, err)
		}
		entries = append(entries, fileEntry{key: key, raw: raw, line: line})
	}
	return entries, nil
}

// syntaxMessage turns a JSON error into "is not valid JSON at line L,
// column C: …; hint".
func syntaxMessage(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("is not valid JSON: %v", err)
	}
	if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "unexpected end") {
		line, col := position(data, len(data))
		return fmt.Errorf("is not valid JSON: it ends early at line %d, column %d; close every string, [ and {", line, col)
	}
	pos := max(int(se.Offset)-1, 0)
	line, col := position(data, pos)
	hint := "fix the file at that spot"
	switch {
	case pos < len(data) && data[pos] == '/':
		hint = "JSON does not allow comments; remove them"
	case pos < len(data) && (data[pos] == '}' || data[pos] == ']') && trailingComma(data[:pos]):
		hint = "JSON does not allow a comma before a closing bracket; remove it"
	case pos < len(data) && data[pos] == '\'':
		hint = "JSON strings use double quotes"
	}
	return fmt.Errorf("is not valid JSON at line %d, column %d: %s; %s", line, col, se.Error(), hint)
}

// trailingComma reports whether the last non-space byte is a comma.
func trailingComma(b []byte) bool {
	b = bytes.TrimRight(b, " \t\r\n")
	return len(b) > 0 && b[len(b)-1] == ','
}

// position returns the 1-based line and column (in characters) of a byte
// offset.
func position(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}

// jsonKind names the type of a raw JSON value for messages.
func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true/false"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// wantFor describes what a field's JSON value must look like.
func wantFor(field string) string {
	i, ok := fieldIndex(field)
	if !ok {
		return "a valid value"
	}
	t := reflect.TypeFor[FileConfig]().Field(i).Type
	switch {
	case t == reflect.TypeFor[*Duration]():
		return `a duration such as "90s" or "2m", or a number of seconds`
	case t == reflect.TypeFor[*RecallMode]():
		return `"auto", "off" or "always"`
	case t.Kind() == reflect.Slice:
		return `a list of strings such as ["go test ./..."]`
	case t == reflect.TypeFor[map[string]Price]():
		return `an object of prices by model, in dollars per million tokens, such as {"gpt-5-mini": {"input": 0.25, "output": 2}}`
	case t.Kind() == reflect.Map:
		return `an object of servers such as {"github": {"command": "github-mcp-server", "args": ["stdio"]}}`
	}
	switch t.Elem().Kind() {
	case reflect.String:
		return "a string in double quotes"
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return "a valid value"
}

// kindMatches reports whether the raw JSON has the type the field wants,
// so a message can say "a string" only when the type is what is wrong.
func kindMatches(field string, raw []byte) bool {
	i, _ := fieldIndex(field)
	t := reflect.TypeFor[FileConfig]().Field(i).Type
	k := jsonKind(raw)
	switch {
	case t == reflect.TypeFor[*Duration]():
		return k == "a string" || k == "a number"
	case t == reflect.TypeFor[*RecallMode]():
		return k == "a string" || k == "true/false"
	case t.Kind() == reflect.Slice:
		return k == "a list"
	case t.Kind() == reflect.Map:
		return k == "an object"
	}
	switch t.Elem().Kind() {
	case reflect.String:
		return k == "a string"
	case reflect.Int, reflect.Float64:
		return k == "a number"
	case reflect.Bool:
		return k == "true/false"
	}
	return false
}

// shown is a raw value as a message quotes it: compact, at most 60
// characters, and never the API key.
func shown(field string, raw []byte) string {
	if field == "api_key" {
		return redactedKey
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		buf.Reset()
		buf.Write(raw)
	}
	s := buf.String()
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:57]) + "…"
	}
	return s
}
