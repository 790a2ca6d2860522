package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"pincer/chat"
)

// Markers of the tool-call blocks open models write as text when their
// server does not parse them (llama.cpp without --jinja, vLLM without
// --tool-call-parser, some Ollama templates).
const (
	hermesOpen     = "<tool_call>"
	hermesClose    = "</tool_call>"
	mistralOpen    = "[TOOL_CALLS]"
	mistralArgs    = "[ARGS]"
	pythonTag      = "<|python_tag|>"
	deepseekOpen   = "<｜tool▁calls▁begin｜>"
	deepseekClose  = "<｜tool▁calls▁end｜>"
	deepseekCall   = "<｜tool▁call▁begin｜>"
	deepseekEnd    = "<｜tool▁call▁end｜>"
	deepseekSep    = "<｜tool▁sep｜>"
	textCallPrefix = "text_call_"
	// gpt-oss's harmony format: a call is a message on the commentary
	// channel addressed to functions.NAME.
	harmonyStart   = "<|start|>assistant"
	harmonyChannel = "<|channel|>commentary"
	harmonyTo      = "to=functions."
	harmonyMessage = "<|message|>"
	harmonyCall    = "<|call|>"
)

// recoverTextCalls reads an answer that is nothing but a block of tool
// calls written as text, in one of the formats open models use, with or
// without a code fence around it. It returns the calls only when every one
// names an offered tool and its arguments fit the tool's schema; otherwise
// nil, and the text stays the answer. Text that mentions a tool among
// other words is never a call.
func recoverTextCalls(content string, offered []ToolSpec) []chat.ToolCall {
	calls, _ := readTextCalls(content, offered, nil)
	return calls
}

// readTextCalls is recoverTextCalls that also says what was wrong with an
// answer that is only a tool-call block but could not be read as calls:
// problem is then one sentence for the model (bad JSON, a tool that does
// not exist, arguments that do not fit). The block must be unmistakably
// a call: opened by a format's own marker, or bare JSON naming an offered
// tool. Anything else is an answer, and problem is "". A call of a
// deferred tool (Request.Deferred) is read with its arguments unchecked:
// the agent checks them against the definition the model has not seen,
// and sends it back when they do not fit, as for a native call.
func readTextCalls(content string, offered, deferred []ToolSpec) (calls []chat.ToolCall, problem string) {
	if len(offered) == 0 {
		return nil, ""
	}
	body := unfence(strings.TrimSpace(content))
	if body == "" {
		return nil, ""
	}
	var raw []textCall
	var ok bool
	marked := true
	code, isCode := toolCodeBody(strings.TrimSpace(content))
	switch {
	case isCode:
		var looks bool
		var why string
		raw, looks, why = parsePythonCalls(code)
		if !looks {
			for _, t := range append(offered[:len(offered):len(offered)], deferred...) {
				if strings.Contains(code, t.Name+"(") {
					return nil, badPython("it holds more than calls of tools")
				}
			}
			return nil, "" // Python that calls no tool is an answer
		}
		if why != "" {
			return nil, badPython(why)
		}
		ok = true
	case strings.HasPrefix(body, hermesOpen):
		raw, ok = parseHermes(body)
	case strings.HasPrefix(body, mistralOpen):
		raw, ok = parseMistral(strings.TrimSpace(body[len(mistralOpen):]))
	case strings.HasPrefix(body, deepseekOpen) || strings.HasPrefix(body, deepseekCall):
		raw, ok = parseDeepSeek(body)
	case strings.HasPrefix(body, harmonyStart) || strings.HasPrefix(body, harmonyChannel):
		raw, ok = parseHarmony(body)
	case strings.HasPrefix(body, pythonTag):
		raw, ok = parseJSONCalls(strings.TrimSpace(body[len(pythonTag):]))
	case strings.HasPrefix(body, "{") || strings.HasPrefix(body, "["):
		marked = false
		raw, ok = parseJSONCalls(body)
		if !ok {
			if name := calledName(body); name != "" && !json.Valid([]byte(body)) {
				if _, offeredName := findTool(offered, name); offeredName || isDeferred(deferred, name) {
					return nil, badJSON(body)
				}
			}
			return nil, ""
		}
		for _, c := range raw {
			if _, found := findTool(offered, c.name); !found && !isDeferred(deferred, c.name) {
				return nil, "" // JSON that names no tool of ours is an answer
			}
		}
	default:
		return nil, ""
	}
	switch {
	case !ok && marked:
		return nil, badJSON(body)
	case !ok || len(raw) == 0:
		return nil, ""
	case len(raw) > MaxToolCalls:
		return nil, fmt.Sprintf("the answer holds %d tool calls written as text, more than the %d pincer runs at once; send fewer.", len(raw), MaxToolCalls)
	}
	calls = make([]chat.ToolCall, 0, len(raw))
	for i, c := range raw {
		spec, found := findTool(offered, c.name)
		later := !found && isDeferred(deferred, c.name)
		if !found && !later {
			return nil, fmt.Sprintf("there is no tool named %q; call one of: %s.", c.name, toolNames(offered))
		}
		if c.params != nil {
			c.args = xmlArgs(c.params, spec.Parameters)
		}
		args, valid := argsObject(c.args)
		if !valid {
			return nil, fmt.Sprintf("the arguments of %s are not a JSON object; write them as {\"name\": value, …}.", c.name)
		}
		if p := schemaProblem(args, spec.Parameters); p != "" && !later {
			return nil, fmt.Sprintf("the arguments of %s do not fit its schema: %s.", c.name, p)
		}
		calls = append(calls, chat.ToolCall{
			ID: textCallPrefix + strconv.Itoa(i+1), Name: c.name, Arguments: string(args), FromText: true,
		})
	}
	return calls, ""
}

// calledName is the tool a piece of JSON that does not parse seems to
// call: the value of a leading "name" (or 'name') key, else "".
func calledName(s string) string {
	m := calledNameRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1]
}

// calledNameRE is the leading "name" key calledName looks for, single
// quotes allowed: the JSON around it need not parse.
var calledNameRE = regexp.MustCompile(`^\[?\s*\{\s*["']name["']\s*:\s*["']([A-Za-z0-9_.:-]+)["']`)

// Marks of the two ways models most often break JSON.
var (
	trailingCommaRE = regexp.MustCompile(`,\s*[}\]]`)
	singleQuoteRE   = regexp.MustCompile(`[{,]\s*'[^'"]*'\s*:`)
)

// badJSON says what is wrong with a tool-call block whose JSON does not
// parse, and how to write it.
func badJSON(body string) string {
	why := `it is not valid JSON of the form {"name": …, "arguments": {…}}`
	switch {
	case singleQuoteRE.MatchString(body):
		why = "its JSON uses single quotes, and JSON needs double quotes around keys and strings"
	case trailingCommaRE.MatchString(body):
		why = "its JSON has a comma before a closing } or ], which JSON does not allow"
	}
	return "the tool call written as text could not be read: " + why +
		`. Write it again as valid JSON, like <tool_call>{"name": "read_file", "arguments": {"path": "main.go"}}</tool_call>.`
}

// toolNames lists the offered tools' names, for a refusal that tells the
// model which names it may call.
func toolNames(offered []ToolSpec) string {
	names := make([]string, 0, len(offered))
	for _, t := range offered {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

// textCall is one call as read from text, its arguments not yet checked.
type textCall struct {
	name string
	args json.RawMessage
	// params are the text values of an XML call (Qwen3-Coder), typed
	// into args once the tool's schema is known.
	params map[string]string
}

// unfence takes the body out of a Markdown code fence that holds the whole
// text (```json … ```, ```xml … ```, or a bare ```).
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := s[3 : len(s)-3]
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 {
		return s
	}
	if lang := strings.TrimSpace(inner[:nl]); strings.ContainsAny(lang, " \t`{<[") {
		return s
	}
	return strings.TrimSpace(inner[nl+1:])
}

// parseHermes reads <tool_call>{…}</tool_call> blocks (Hermes, Qwen), one
// after the other; the last may lack its closing tag.
func parseHermes(s string) ([]textCall, bool) {
	var out []textCall
	for s != "" {
		if !strings.HasPrefix(s, hermesOpen) {
			return nil, false
		}
		s = s[len(hermesOpen):]
		end := strings.Index(s, hermesClose)
		inner := s
		if end >= 0 {
			inner, s = s[:end], strings.TrimSpace(s[end+len(hermesClose):])
		} else {
			s = ""
		}
		inner = strings.TrimSpace(inner)
		if strings.HasPrefix(inner, xmlFunction) {
			call, ok := parseXMLCall(inner)
			if !ok {
				return nil, false
			}
			out = append(out, call)
			continue
		}
		calls, ok := parseJSONCalls(unfence(inner))
		if !ok {
			return nil, false
		}
		out = append(out, calls...)
	}
	return out, true
}

// Markers of the XML calls Qwen3-Coder writes inside <tool_call>.
const (
	xmlFunction    = "<function="
	xmlFunctionEnd = "</function>"
	xmlParam       = "<parameter="
	xmlParamEnd    = "</parameter>"
)

// parseXMLCall reads <function=NAME><parameter=KEY>VALUE</parameter>…
// </function>. The values are text; readTextCalls types them by the
// tool's schema.
func parseXMLCall(s string) (textCall, bool) {
	s = strings.TrimPrefix(s, xmlFunction)
	gt := strings.IndexByte(s, '>')
	if gt <= 0 {
		return textCall{}, false
	}
	c := textCall{name: strings.TrimSpace(s[:gt]), params: map[string]string{}}
	s = strings.TrimSpace(s[gt+1:])
	for strings.HasPrefix(s, xmlParam) {
		s = s[len(xmlParam):]
		gt := strings.IndexByte(s, '>')
		end := strings.Index(s, xmlParamEnd)
		if gt <= 0 || end < gt {
			return textCall{}, false
		}
		value := strings.TrimPrefix(s[gt+1:end], "\n")
		c.params[strings.TrimSpace(s[:gt])] = strings.TrimSuffix(value, "\n")
		s = strings.TrimSpace(s[end+len(xmlParamEnd):])
	}
	if s != xmlFunctionEnd && s != "" {
		return textCall{}, false
	}
	return c, true
}

// xmlArgs types the text values of an XML call by the tool's schema: a
// string property keeps its text, any other takes it as JSON (a number, a
// boolean, a list), and an unknown one is a string.
func xmlArgs(params map[string]string, schema map[string]any) json.RawMessage {
	props, _ := schema["properties"].(map[string]any)
	obj := make(map[string]any, len(params))
	for k, v := range params {
		p, _ := props[k].(map[string]any)
		var typed any
		if t, _ := p["type"].(string); t != "string" && t != "" && json.Unmarshal([]byte(v), &typed) == nil {
			obj[k] = typed
			continue
		}
		obj[k] = v
	}
	b, _ := json.Marshal(obj)
	return b
}

// parseHarmony reads gpt-oss's calls: [<|start|>assistant]<|channel|>
// commentary to=functions.NAME [<|constrain|>json]<|message|>{…}<|call|>,
// one after the other.
func parseHarmony(s string) ([]textCall, bool) {
	var out []textCall
	for s != "" {
		s = strings.TrimPrefix(s, harmonyStart)
		if !strings.HasPrefix(s, harmonyChannel) {
			return nil, false
		}
		head, rest, found := strings.Cut(s, harmonyMessage)
		if !found {
			return nil, false
		}
		i := strings.Index(head, harmonyTo)
		if i < 0 {
			return nil, false
		}
		name := head[i+len(harmonyTo):]
		if end := strings.IndexAny(name, " <"); end >= 0 {
			name = name[:end]
		}
		args, after, _ := strings.Cut(rest, harmonyCall)
		args = strings.TrimSpace(args)
		if name == "" || !json.Valid([]byte(args)) {
			return nil, false
		}
		out = append(out, textCall{name: name, args: json.RawMessage(args)})
		s = strings.TrimSpace(after)
	}
	return out, true
}

// parseMistral reads what follows [TOOL_CALLS]: a JSON list of calls, or
// the newer name[ARGS]{…} form, repeated.
func parseMistral(s string) ([]textCall, bool) {
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{") {
		return parseJSONCalls(s)
	}
	var out []textCall
	for s != "" {
		i := strings.Index(s, mistralArgs)
		if i <= 0 {
			return nil, false
		}
		name := strings.TrimSpace(s[:i])
		s = s[i+len(mistralArgs):]
		dec := json.NewDecoder(strings.NewReader(s))
		var args json.RawMessage
		if dec.Decode(&args) != nil {
			return nil, false
		}
		out = append(out, textCall{name: name, args: args})
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[dec.InputOffset():]), mistralOpen))
	}
	return out, true
}

// parseDeepSeek reads DeepSeek's block: calls between
// <｜tool▁call▁begin｜> and <｜tool▁call▁end｜>, each "function<｜tool▁sep｜>name"
// and fenced JSON (V3), or "name<｜tool▁sep｜>{…}" (V3.1 and later).
func parseDeepSeek(s string) ([]textCall, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(s, deepseekOpen))
	s = strings.TrimSpace(strings.TrimSuffix(s, deepseekClose))
	var out []textCall
	for s != "" {
		if !strings.HasPrefix(s, deepseekCall) {
			return nil, false
		}
		s = s[len(deepseekCall):]
		inner := s
		if end := strings.Index(s, deepseekEnd); end >= 0 {
			inner, s = s[:end], strings.TrimSpace(s[end+len(deepseekEnd):])
		} else {
			s = ""
		}
		head, args, found := strings.Cut(inner, deepseekSep)
		if !found {
			return nil, false
		}
		name := strings.TrimSpace(head)
		if name == "function" {
			var rest string
			name, rest, _ = strings.Cut(args, "\n")
			name, args = strings.TrimSpace(name), rest
		}
		args = unfence(strings.TrimSpace(args))
		if !json.Valid([]byte(args)) {
			return nil, false
		}
		out = append(out, textCall{name: name, args: json.RawMessage(args)})
	}
	return out, true
}

// parseJSONCalls reads one call object or a list of them: {"name": …,
// "arguments"|"parameters": …}, or OpenAI's own {"type": "function",
// "function": {…}}. Anything else in the text makes it not a call.
func parseJSONCalls(s string) ([]textCall, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var v json.RawMessage
	if dec.Decode(&v) != nil || strings.TrimSpace(s[dec.InputOffset():]) != "" {
		return nil, false
	}
	v = bytes.TrimSpace(v)
	var objs []json.RawMessage
	if len(v) > 0 && v[0] == '[' {
		if json.Unmarshal(v, &objs) != nil {
			return nil, false
		}
	} else {
		objs = []json.RawMessage{v}
	}
	out := make([]textCall, 0, len(objs))
	for _, o := range objs {
		c, ok := callObject(o)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// callObject reads one call written as a JSON object. It must hold no keys
// besides those of a call, so an answer that happens to be JSON with a
// "name" is not taken for one.
func callObject(raw json.RawMessage) (textCall, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return textCall{}, false
	}
	if fn, ok := obj["function"]; ok {
		for k := range obj {
			if k != "function" && k != "type" && k != "id" {
				return textCall{}, false
			}
		}
		return callObject(fn)
	}
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || name == "" {
		return textCall{}, false
	}
	var args json.RawMessage
	for k, v := range obj {
		switch k {
		case "name", "type", "id":
		case "arguments", "parameters":
			if args != nil {
				return textCall{}, false
			}
			args = v
		default:
			return textCall{}, false
		}
	}
	if args == nil {
		args = json.RawMessage("{}")
	}
	return textCall{name: name, args: args}, true
}

// argsObject returns the arguments as a JSON object's text: an object as
// it is, or a string that holds one (as OpenAI's own format does).
func argsObject(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		raw = bytes.TrimSpace([]byte(s))
	}
	if len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) {
		return nil, false
	}
	return raw, true
}

// isDeferred reports whether name is one of the deferred tools.
func isDeferred(deferred []ToolSpec, name string) bool {
	_, ok := findTool(deferred, name)
	return ok
}

func findTool(offered []ToolSpec, name string) (ToolSpec, bool) {
	for _, t := range offered {
		if t.Name == name {
			return t, true
		}
	}
	return ToolSpec{}, false
}

// schemaProblem checks arguments against the parts of a tool's JSON
// schema that tell a call from a look-alike (the required properties are
// there, no property is unknown when the schema closes the object, and
// each value has its property's JSON type), and says what does not fit,
// "" when all does.
func schemaProblem(args json.RawMessage, schema map[string]any) string {
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return "they are not a JSON object"
	}
	if schema == nil {
		return ""
	}
	props, _ := schema["properties"].(map[string]any)
	for _, r := range requiredOf(schema["required"]) {
		if _, ok := obj[r]; !ok {
			return fmt.Sprintf("%q is required and missing", r)
		}
	}
	closed := false
	if ap, ok := schema["additionalProperties"].(bool); ok && !ap {
		closed = true
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		p, known := props[k]
		if !known {
			if closed {
				return fmt.Sprintf("there is no argument %q", k)
			}
			continue
		}
		ps, _ := p.(map[string]any)
		if !hasType(obj[k], ps["type"]) {
			return fmt.Sprintf("%q must be of type %v", k, ps["type"])
		}
	}
	return ""
}

// requiredOf reads a schema's "required" list, as []string or []any.
func requiredOf(v any) []string {
	switch r := v.(type) {
	case []string:
		return r
	case []any:
		out := make([]string, 0, len(r))
		for _, x := range r {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// hasType reports whether a decoded JSON value is of the schema type t (a
// name or a list of names); no type allows anything.
func hasType(v any, t any) bool {
	switch tt := t.(type) {
	case nil:
		return true
	case []any:
		for _, x := range tt {
			if hasType(v, x) {
				return true
			}
		}
		return false
	case []string:
		for _, x := range tt {
			if hasType(v, x) {
				return true
			}
		}
		return false
	case string:
		switch tt {
		case "string":
			_, ok := v.(string)
			return ok
		case "number":
			_, ok := v.(float64)
			return ok
		case "integer":
			f, ok := v.(float64)
			return ok && f == float64(int64(f))
		case "boolean":
			_, ok := v.(bool)
			return ok
		case "array":
			_, ok := v.([]any)
			return ok
		case "object":
			_, ok := v.(map[string]any)
			return ok
		case "null":
			return v == nil
		}
	}
	return true
}

// callHold keeps back the streamed text of an answer that may be a tool
// call written as text, so the raw block does not flash on the screen: it
// holds while the text so far could still open such a block, and lets it
// all through once it cannot. What is held when the answer ends is given
// to release, unless the answer was recovered as calls.
type callHold struct {
	held    strings.Builder
	passing bool
	out     func(string)
}

// add takes the next piece of the answer.
func (h *callHold) add(t string) {
	if h.passing {
		h.out(t)
		return
	}
	h.held.WriteString(t)
	if !mayOpenCall(h.held.String()) {
		h.passing = true
		s := h.held.String()
		h.held.Reset()
		h.out(s)
	}
}

// release hands out what is held: the answer was not a call after all.
func (h *callHold) release() {
	if s := h.held.String(); s != "" {
		h.held.Reset()
		h.out(s)
	}
	h.passing = true
}

// mayOpenCall reports whether text could be the beginning of a tool-call
// block, possibly inside a code fence.
func mayOpenCall(text string) bool {
	s := strings.TrimLeft(text, " \t\r\n")
	if strings.HasPrefix("```", s) {
		return true // a fence may be opening, one backtick at a time
	}
	if strings.HasPrefix(s, "```") {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			return len(s) < 40 // still the fence's language line
		}
		if strings.TrimSpace(s[3:nl]) == toolCodeLang {
			return true // Gemma's calls, as Python
		}
		s = strings.TrimLeft(s[nl+1:], " \t\r\n")
	}
	if s == "" {
		return true
	}
	for _, open := range []string{hermesOpen, mistralOpen, deepseekOpen, deepseekCall, pythonTag, harmonyStart + harmonyChannel, harmonyChannel} {
		if strings.HasPrefix(s, open) || strings.HasPrefix(open, s) {
			return true
		}
	}
	// A JSON call: {"name" … or [{"name" …, or OpenAI's {"type" / {"function".
	j := strings.TrimLeft(strings.TrimPrefix(s, "["), " \t\r\n")
	if !strings.HasPrefix(j, "{") {
		return false
	}
	j = strings.TrimLeft(j[1:], " \t\r\n")
	// Single quotes too: a botched call is held back like a good one.
	for _, key := range []string{`"name"`, `"type"`, `"function"`, `"id"`, `'name'`} {
		if strings.HasPrefix(j, key) || strings.HasPrefix(key, j) {
			return true
		}
	}
	return false
}
