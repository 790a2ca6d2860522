package agent

import (
	"fmt"
	"maps"
)

// TextToolsMemory remembers, per model of the agent's server, that the
// server takes no tool definitions for it (see llm.Request.TextTools), so
// a new process or a resumed session starts with the calls written as
// text instead of spending a refused request to learn it again.
type TextToolsMemory interface {
	// TextTools reports why model's calls are written as text, when that
	// is remembered (TextToolsNoCalling or TextToolsNoParser).
	TextTools(model string) (reason string, ok bool)
	// SetTextTools remembers why model's calls are written as text;
	// reason "" forgets it (its server took tools after all).
	SetTextTools(model, reason string) error
}

// Why a model's calls are written as text.
const (
	// TextToolsNoCalling: the model has no tool calling (Ollama: does not
	// support tools).
	TextToolsNoCalling = "no tool calling"
	// TextToolsNoParser: the server was started without its tool-call
	// parser (vLLM, llama.cpp).
	TextToolsNoParser = "no parser"
)

// textToolsState is what the agent knows of each model's tool calling,
// by model (modelKey): a model switched to starts over.
type textToolsState struct {
	on         map[string]bool   // true: calls as text; false: the server's own tools
	remembered map[string]string // why, for models whose text mode came from the memory
	told       map[string]bool   // the remembered text mode was said
	confirmed  map[string]bool   // a request with the server's own tools succeeded
}

// clone is a copy of s that learns apart from it (a sub-agent's, which
// starts from what its parent knows).
func (s textToolsState) clone() textToolsState {
	return textToolsState{on: maps.Clone(s.on), remembered: maps.Clone(s.remembered), told: maps.Clone(s.told), confirmed: maps.Clone(s.confirmed)}
}

// textToolsOn reports whether this turn's model gets its tools described
// in the prompt and its calls read from text: learned in this agent, else
// remembered from an earlier process.
func (a *Agent) textToolsOn() bool {
	key := a.modelKey(a.turnModel)
	if on, ok := a.tt.on[key]; ok {
		return on
	}
	on := false
	if m := a.opts.TextToolsMemory; m != nil {
		if reason, ok := m.TextTools(key); ok {
			on = true
			setIn(&a.tt.remembered, key, reason)
		}
	}
	setIn(&a.tt.on, key, on)
	return on
}

// setTextTools switches this turn's model to calls written as text, for
// the rest of the agent's life, and remembers it for the next ones.
func (a *Agent) setTextTools(reason string, sink func(Event)) {
	key := a.modelKey(a.turnModel)
	setIn(&a.tt.on, key, true)
	if m := a.opts.TextToolsMemory; m != nil {
		if err := m.SetTextTools(key, reason); err != nil {
			sink(Notice{Text: fmt.Sprintf("Could not remember that this model's calls are written as text (%v); the next session will find it out again.", err)})
		}
	}
}

// nativeToolsTaken records that the server took this turn's model's own
// tools: a remembered text mode is forgotten (once per model and agent).
func (a *Agent) nativeToolsTaken() {
	key := a.modelKey(a.turnModel)
	if a.tt.confirmed[key] {
		return
	}
	setIn(&a.tt.confirmed, key, true)
	if m := a.opts.TextToolsMemory; m != nil {
		_ = m.SetTextTools(key, "") // only a saved request is lost if this fails
	}
}

// textToolsNotice says, once per model, that calls are written as text
// because it was remembered; "" when there is nothing to say.
func (a *Agent) textToolsNotice() string {
	key := a.modelKey(a.turnModel)
	reason, ok := a.tt.remembered[key]
	if !ok || a.tt.told[key] || !a.tt.on[key] {
		return ""
	}
	setIn(&a.tt.told, key, true)
	why := "its server took no tool definitions for it (it was started without its tool-call parser; vLLM: --enable-auto-tool-choice --tool-call-parser NAME, llama.cpp: --jinja)"
	if reason == TextToolsNoCalling {
		why = "the model has no tool calling of its own (its server said so)"
	}
	return fmt.Sprintf("Tool calls are written as text, as pincer learned earlier: %s. The tools are described in the prompt and the calls read from the model's text, checked and approved like any other; pincer asks the server again after a week.", why)
}

// setIn sets m[k] = v, making the map when it is nil.
func setIn[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[k] = v
}

// rememberedFor ends the notice of a refusal of tools when the memory
// keeps it.
func (a *Agent) rememberedFor() string {
	if a.opts.TextToolsMemory == nil {
		return ""
	}
	return " pincer remembers this for this server and model for a week."
}
