package agent

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strings"
	"unicode/utf8"

	"pincer/agent/llm"
	"pincer/tools"
)

// Profile is how much pincer tells the model before the first word: the
// full instructions and tool descriptions, or a compact form that fits
// the small windows local servers run with.
type Profile string

// The prompt profiles.
const (
	ProfileFull    Profile = "full"
	ProfileCompact Profile = "compact"
)

// CompactWindow is the largest context window, in tokens, that gets the
// compact profile when none is configured: 16k and below, the full
// profile would take a fifth of the window before the first word.
const CompactWindow = 16384

// ProfileFor chooses the profile for a context window in tokens. A
// window of 0 (not known) gets the full profile. It is the one place the
// choice is made, so a window learnt from the server later feeds it too.
func ProfileFor(window int) Profile {
	if window > 0 && window <= CompactWindow {
		return ProfileCompact
	}
	return ProfileFull
}

// ChooseProfile is the profile in effect: the configured one ("full" or
// "compact") when set, otherwise the one ProfileFor chooses for window.
func ChooseProfile(configured string, window int) Profile {
	switch Profile(configured) {
	case ProfileFull, ProfileCompact:
		return Profile(configured)
	}
	return ProfileFor(window)
}

// mcpBudget is how many tokens of MCP tool schemas a profile sends in
// full; the tools past it are deferred (listed by name and loaded when
// asked for).
func (p Profile) mcpBudget() int {
	if p == ProfileCompact {
		return 0
	}
	return 2000
}

// deferredBuiltin reports whether a tool pincer itself offers is deferred
// under p: tools a session rarely needs are listed by name with a line on
// what they do, and their schemas are sent once the model asks for them.
func (p Profile) deferredBuiltin(name string) bool {
	switch name {
	case "schedule_task", "remember", "recall", "read_web", TaskToolName, "todo_write":
		return true
	case "lsp_definition", "lsp_references", "lsp_hover", "lsp_symbols", "lsp_rename":
		return p == ProfileCompact
	}
	return false
}

// isMCP reports whether a tool comes from an MCP server, by the name
// pincer gives such tools.
func isMCP(name string) bool { return strings.HasPrefix(name, "mcp__") }

// LoadToolsName is the name of the tool that loads deferred tools.
const LoadToolsName = "load_tools"

// firstSentence is the text up to and including its first full stop that
// ends a sentence, on one line, cut to max characters (0: no cut).
func firstSentence(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '.' || s[i+1] != ' ' {
			continue
		}
		if word := s[strings.LastIndexByte(s[:i], ' ')+1 : i]; word == "e.g" || word == "i.e" || word == "etc" {
			continue // an abbreviation, not the end of the sentence
		}
		s = s[:i+1]
		break
	}
	if max > 0 && utf8.RuneCountInString(s) > max {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:max-1])) + "…"
	}
	return s
}

// compactParameters is a tool's schema as the compact profile sends it:
// each argument's description cut to its first sentence (a stated default
// kept), the rest being in the error a wrong call gets.
func compactParameters(params map[string]any) map[string]any {
	props, _ := params["properties"].(map[string]any)
	for _, v := range props {
		prop, ok := v.(map[string]any)
		if !ok {
			continue
		}
		desc, _ := prop["description"].(string)
		if desc == "" {
			continue
		}
		short := firstSentence(desc, 0)
		if i := strings.Index(desc, "Default: "); i >= 0 && !strings.Contains(short, "Default: ") {
			short += " " + desc[i:]
		}
		prop["description"] = short
	}
	return params
}

// specFor is a tool as profile p sends it.
func specFor(t tools.Tool, p Profile) llm.ToolSpec {
	if p == ProfileCompact {
		return llm.ToolSpec{Name: t.Name(), Description: firstSentence(t.Description(), 0), Parameters: compactParameters(t.Parameters())}
	}
	return llm.ToolSpec{Name: t.Name(), Description: t.Description(), Parameters: t.Parameters()}
}

// wireTool is a tool's definition as an OpenAI-compatible request carries
// it, for weighing.
type wireTool struct {
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// WireTokens estimates the tokens a tool definition takes in a request:
// its JSON's characters over four, the rule of thumb the targets are set in.
func WireTokens(s llm.ToolSpec) int {
	data, _ := json.Marshal(wireTool{Type: "function", Function: wireFunction{Name: s.Name, Description: s.Description, Parameters: s.Parameters}})
	return (utf8.RuneCount(data) + 3) / 4
}

// TextTokens estimates the tokens of a text at the wire (characters over
// four), as WireTokens does for tools.
func TextTokens(s string) int {
	data, _ := json.Marshal(s)
	return (utf8.RuneCount(data) - 2 + 3) / 4
}

// Offer is the tools one request carries under a profile: those sent in
// full, and those deferred, listed by name in load_tools's description.
type Offer struct {
	Specs    []llm.ToolSpec
	Deferred []tools.Tool
}

// Offered splits list into what is sent in full and what is deferred
// under p, leaving in full the tools named in loaded. When any is
// deferred, the load_tools tool that lists them is the last spec.
func Offered(list []tools.Tool, p Profile, loaded map[string]bool) Offer {
	var o Offer
	budget := p.mcpBudget()
	for _, t := range list {
		name := t.Name()
		spec := specFor(t, p)
		switch {
		case loaded[name]:
		case isMCP(name):
			w := WireTokens(spec)
			if w > budget {
				budget = -1 // the rest wait too, so their order is kept
				o.Deferred = append(o.Deferred, t)
				continue
			}
			budget -= w
		case p.deferredBuiltin(name):
			o.Deferred = append(o.Deferred, t)
			continue
		}
		o.Specs = append(o.Specs, spec)
	}
	if len(o.Deferred) > 0 {
		o.Specs = append(o.Specs, loadToolsSpec(o.Deferred, p))
	}
	return o
}

// loadToolsSpec is the load_tools tool, listing the deferred tools with
// the first sentence of each description while the list is short, then by
// name only; past that, how many more there are and how to list them, so
// a server with thousands of tools does not fill the window with names.
func loadToolsSpec(deferred []tools.Tool, p Profile) llm.ToolSpec {
	budget := 2400 // characters of the list with purposes, about 600 tokens
	if p == ProfileCompact {
		budget = 1000
	}
	var b strings.Builder
	b.WriteString("Load the definitions of these tools to call them (or just call one):")
	var names []string
	for i, t := range deferred {
		if b.Len() < budget {
			fmt.Fprintf(&b, "\n- %s: %s", t.Name(), firstSentence(t.Description(), 72))
			continue
		}
		if b.Len()+len(strings.Join(names, ", ")) > 2*budget {
			fmt.Fprintf(&b, "\nAlso %s, and %d more: load_tools with a name ending in * (e.g. %q) lists them.",
				strings.Join(names, ", "), len(deferred)-i, mcpPrefix(t.Name())+"*")
			names = nil
			break
		}
		names = append(names, t.Name())
	}
	if len(names) > 0 {
		fmt.Fprintf(&b, "\nAlso %s.", strings.Join(names, ", "))
	}
	return llm.ToolSpec{Name: LoadToolsName, Description: b.String(), Parameters: map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"names"},
		"properties": map[string]any{
			"names": map[string]any{"type": "array", "items": map[string]any{"type": "string"},
				"description": "Tool names; one ending in * lists those it starts."},
		},
	}}
}

// mcpPrefix is the part of an MCP tool's name that names its server
// ("mcp__bulk__"), or the whole name of another tool.
func mcpPrefix(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, _, ok := strings.Cut(rest, "__"); ok {
			return "mcp__" + server + "__"
		}
	}
	return name
}

// schemaText is a tool's full definition as a tool result gives it: its
// description and its parameters as JSON.
func schemaText(t tools.Tool) string {
	params, _ := json.Marshal(t.Parameters())
	return fmt.Sprintf("%s: %s\nParameters (JSON Schema): %s", t.Name(), t.Description(), params)
}

// loadTools answers a load_tools call: the named deferred tools are sent
// in full from the next request on, and their definitions come back now.
func (a *Agent) loadTools(arguments string) tools.Result {
	var args struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal([]byte(arguments), &args); err != nil || len(args.Names) == 0 {
		return tools.Result{Content: fmt.Sprintf(`load_tools needs the names of the tools to load, e.g. {"names": ["recall"]}; the deferred tools are: %s.`, strings.Join(a.deferredNames(), ", ")), IsError: true}
	}
	var b strings.Builder
	var unknown []string
	loadedAny := false
	for _, name := range args.Names {
		if prefix, ok := strings.CutSuffix(name, "*"); ok {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(a.listDeferred(prefix))
			continue
		}
		t, ok := a.lookup(name)
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		a.load(name)
		loadedAny = true
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(schemaText(t))
	}
	if len(unknown) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "There is no tool named %s. The deferred tools are: %s.", strings.Join(unknown, ", "), strings.Join(a.deferredNames(), ", "))
		return tools.Result{Content: b.String(), IsError: len(unknown) == len(args.Names)}
	}
	if loadedAny {
		b.WriteString("\n\nThey are loaded: call them now.")
	}
	return tools.Result{Content: b.String()}
}

// listDeferred lists the deferred tools whose names start with prefix,
// with a line on each, at most 100.
func (a *Agent) listDeferred(prefix string) string {
	var b strings.Builder
	n := 0
	for _, t := range a.offer().Deferred {
		if !strings.HasPrefix(t.Name(), prefix) {
			continue
		}
		if n++; n <= 100 {
			fmt.Fprintf(&b, "- %s: %s\n", t.Name(), firstSentence(t.Description(), 72))
		}
	}
	switch {
	case n == 0:
		return fmt.Sprintf("No deferred tool starts with %q.", prefix)
	case n > 100:
		fmt.Fprintf(&b, "(%d more; name a longer prefix.)\n", n-100)
	}
	return fmt.Sprintf("Deferred tools starting with %q (load them by name):\n%s", prefix, strings.TrimRight(b.String(), "\n"))
}

// load marks a deferred tool as loaded: it is sent in full from now on.
func (a *Agent) load(name string) {
	if a.loaded == nil {
		a.loaded = map[string]bool{}
	}
	a.loaded[name] = true
}

// Profile is the prompt profile the agent sends its tools in.
func (a *Agent) Profile() Profile {
	if a.compacted.Load() {
		return ProfileCompact
	}
	if a.opts.Profile != "" {
		return a.opts.Profile
	}
	return ProfileFor(a.opts.Budget.ContextWindow)
}

// offer is what the next request carries.
func (a *Agent) offer() Offer {
	loaded := a.loaded
	if a.subs != nil && len(a.subs.defs) > 0 && !loaded[TaskToolName] {
		// The person's own agents are listed in task's description, which
		// is sent in full: they defined them to be used.
		loaded = maps.Clone(loaded)
		if loaded == nil {
			loaded = map[string]bool{}
		}
		loaded[TaskToolName] = true
	}
	return Offered(a.toolList(), a.Profile(), loaded)
}

// deferredNames are the names of the tools deferred now, sorted.
func (a *Agent) deferredNames() []string {
	var names []string
	for _, t := range a.offer().Deferred {
		names = append(names, t.Name())
	}
	sort.Strings(names)
	return names
}

// isDeferred reports whether name is a tool the next request would list
// without its schema.
func (a *Agent) isDeferred(name string) bool {
	for _, t := range a.offer().Deferred {
		if t.Name() == name {
			return true
		}
	}
	return false
}

// Weight is what the instructions and the tools of a profile take at the
// wire, in tokens (characters over four).
type Weight struct {
	Profile      Profile
	Instructions int
	Tools        []ToolWeight // in the order sent, load_tools last
	Deferred     []string     // deferred tools, listed in load_tools
}

// ToolWeight is one tool's definition at the wire.
type ToolWeight struct {
	Name   string
	Tokens int
}

// Total is the whole weight.
func (w Weight) Total() int {
	n := w.Instructions
	for _, t := range w.Tools {
		n += t.Tokens
	}
	return n
}

// Weigh measures the system prompt and the tools list sends under p.
func Weigh(system string, list []tools.Tool, p Profile) Weight {
	w := Weight{Profile: p, Instructions: TextTokens(system)}
	o := Offered(list, p, nil)
	for _, s := range o.Specs {
		w.Tools = append(w.Tools, ToolWeight{Name: s.Name, Tokens: WireTokens(s)})
	}
	for _, t := range o.Deferred {
		w.Deferred = append(w.Deferred, t.Name())
	}
	return w
}

// Weight is what the agent's next request would carry before the
// conversation: its system prompt and its tools, as its profile offers
// them.
func (a *Agent) Weight() Weight { return Weigh(a.system(), a.toolList(), a.Profile()) }
