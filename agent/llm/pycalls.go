package llm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// toolCodeLang is the fence Gemma writes its calls in, as Python:
// ```tool_code\nread_file(path="a.go")\n```.
const toolCodeLang = "tool_code"

// toolCodeBody is the inside of a tool_code fence that holds the whole
// text, and whether there is one.
func toolCodeBody(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "```"+toolCodeLang)
	if !ok || !strings.HasSuffix(rest, "```") {
		return "", false
	}
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 || strings.TrimSpace(rest[:nl]) != "" {
		return "", false
	}
	return strings.TrimSpace(rest[nl+1 : len(rest)-3]), true
}

// parsePythonCalls reads Python-style calls, one after the other:
// name(key=value, …), optionally as print(default_api.name(…)). The
// values must be literals: strings, numbers, booleans, None and lists of
// them. looks is false when the text does not begin like a call (it is
// then an answer); problem says what could not be read in one that does.
func parsePythonCalls(s string) (calls []textCall, looks bool, problem string) {
	p := &pyParser{s: s}
	for {
		p.skip()
		if p.done() {
			return calls, true, ""
		}
		start := p.i
		wrapped := p.take("print(")
		if wrapped {
			p.skip()
		}
		name := p.ident(true)
		p.skip()
		if name == "" || !p.take("(") {
			if len(calls) == 0 {
				return nil, false, ""
			}
			return nil, true, fmt.Sprintf("%q after the first call is not a call", firstLineOf(s[start:]))
		}
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:] // default_api.read_file, functions.read_file
		}
		args, why := p.kwargs()
		if why != "" {
			return nil, true, fmt.Sprintf("the call of %s: %s", name, why)
		}
		if wrapped {
			p.skip()
			if !p.take(")") {
				return nil, true, "print( is not closed"
			}
		}
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, true, fmt.Sprintf("the arguments of %s cannot be written as JSON", name)
		}
		calls = append(calls, textCall{name: name, args: raw})
		p.skip()
		p.take(";")
	}
}

// badPython says what is wrong with a tool_code block that could not be
// read, and how to write it.
func badPython(why string) string {
	return "the tool call in the tool_code block could not be read: " + why +
		`. Write it again as read_file(path="main.go"): the tool's name and keyword arguments whose values are literal strings, numbers, booleans or lists.`
}

// pyParser reads the little of Python that calls with literal arguments
// are made of.
type pyParser struct {
	s string
	i int
}

func (p *pyParser) done() bool { return p.i >= len(p.s) }

// skip passes spaces, tabs and line breaks.
func (p *pyParser) skip() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// take passes prefix if the text goes on with it.
func (p *pyParser) take(prefix string) bool {
	if strings.HasPrefix(p.s[p.i:], prefix) {
		p.i += len(prefix)
		return true
	}
	return false
}

// ident reads a name, dotted when dots is set; "" when none starts here.
func (p *pyParser) ident(dots bool) string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || p.i > start && (c >= '0' && c <= '9' || dots && c == '.') {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

// kwargs reads key=value pairs up to the closing parenthesis.
func (p *pyParser) kwargs() (map[string]any, string) {
	args := map[string]any{}
	for {
		p.skip()
		if p.take(")") {
			return args, ""
		}
		at := p.i
		key := p.ident(false)
		p.skip()
		if key == "" || !p.take("=") || p.take("=") {
			return nil, fmt.Sprintf("%q is not a keyword argument (write each as name=value)", clip(p.s[at:]))
		}
		p.skip()
		v, why := p.literal()
		if why != "" {
			return nil, fmt.Sprintf("the value of %s %s", key, why)
		}
		if _, dup := args[key]; dup {
			return nil, fmt.Sprintf("%s is given twice", key)
		}
		args[key] = v
		p.skip()
		if p.take(",") {
			continue
		}
		if !strings.HasPrefix(p.s[p.i:], ")") {
			return nil, fmt.Sprintf("the value of %s is not a literal (a string, number, boolean or list): it goes on with %q", key, clip(p.s[p.i:]))
		}
	}
}

// literal reads a string, number, boolean, None or list of them.
func (p *pyParser) literal() (any, string) {
	if p.done() {
		return nil, "is missing"
	}
	at := p.i
	switch c := p.s[p.i]; {
	case c == '"' || c == '\'':
		return p.str()
	case c == '[':
		p.i++
		list := []any{}
		for {
			p.skip()
			if p.take("]") {
				return list, ""
			}
			v, why := p.literal()
			if why != "" {
				return nil, why
			}
			list = append(list, v)
			p.skip()
			if !p.take(",") && !strings.HasPrefix(p.s[p.i:], "]") {
				return nil, fmt.Sprintf("is not a list of literals: it goes on with %q", clip(p.s[p.i:]))
			}
		}
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		p.i++
		for p.i < len(p.s) && strings.IndexByte("0123456789._eE+-", p.s[p.i]) >= 0 {
			if (p.s[p.i] == '+' || p.s[p.i] == '-') && p.s[p.i-1] != 'e' && p.s[p.i-1] != 'E' {
				break
			}
			p.i++
		}
		text := strings.ReplaceAll(p.s[at:p.i], "_", "")
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, ""
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			return f, ""
		}
		return nil, fmt.Sprintf("%q is not a number", text)
	}
	switch word := p.ident(true); word {
	case "True", "true":
		return true, ""
	case "False", "false":
		return false, ""
	case "None", "null":
		return nil, ""
	}
	p.i = at
	return nil, fmt.Sprintf("is not a literal (a string, number, boolean or list): %q", clip(p.s[at:]))
}

// str reads a quoted string, triple-quoted or not, with Python's common
// escapes.
func (p *pyParser) str() (any, string) {
	q := p.s[p.i : p.i+1]
	if strings.HasPrefix(p.s[p.i:], q+q+q) {
		q = q + q + q
	}
	p.i += len(q)
	var b strings.Builder
	for p.i < len(p.s) {
		if strings.HasPrefix(p.s[p.i:], q) {
			p.i += len(q)
			return b.String(), ""
		}
		c := p.s[p.i]
		if c == '\n' && len(q) == 1 {
			break
		}
		if c != '\\' || p.i+1 >= len(p.s) {
			b.WriteByte(c)
			p.i++
			continue
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case '\n':
			// a line continued
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return nil, "is a string that is not closed"
}

// clip is the start of s for a message: its first line, at most 40
// characters and a "…" (this package imports nothing of pincer's but
// chat, so internal/human's OneLine is not at hand).
func clip(s string) string {
	s = firstLineOf(s)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
