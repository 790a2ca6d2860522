package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pincer/chat"
)

// wireChunk is one streamed chat.completion.chunk as OpenAI-compatible
// servers send it. Text fields stay raw so they can be joined across chunks
// without damage; everything is optional because servers differ.
type wireChunk struct {
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
	Object  string          `json:"object"`
}

type wireChoice struct {
	Index        *int       `json:"index"`
	Delta        *wireDelta `json:"delta"`
	Message      *wireDelta `json:"message"` // a few servers send the whole message here
	FinishReason *string    `json:"finish_reason"`
}

type wireDelta struct {
	Content          rawText        `json:"content"`
	ReasoningContent rawText        `json:"reasoning_content"`
	Reasoning        rawText        `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
	FunctionCall     *wireFunction  `json:"function_call"`
}

type wireToolCall struct {
	Index    *int            `json:"index"`
	ID       json.RawMessage `json:"id"`
	Function wireFunction    `json:"function"`
}

type wireFunction struct {
	Name      rawText         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type wireUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// callAcc accumulates one tool call from its fragments.
type callAcc struct {
	index    int
	hasIndex bool
	id       string
	name     string
	args     textStream
	pos      int  // its place among the calls kept
	size     int  // bytes of arguments received, kept or not
	over     bool // the arguments passed the limit: they are dropped, not kept
	shown    bool // the card was told the arguments are gone
	dropped  bool // a call past the limit on calls: nothing of it is kept
}

// merger turns the chunks of one streamed response into the finished
// message, reporting live events as fragments arrive. It is the repair for
// the fragment shapes that langchaingo's own merge gets wrong: calls
// interleaved by index, missing or repeated indexes and ids, "null" ids,
// missing types, empty trailing fragments, arguments sent as objects, and
// characters split across chunks.
type merger struct {
	emit      func(Event)
	text      textStream
	reasoning textStream
	// reasoningField is the field the reasoning came in, when not
	// reasoning_content.
	reasoningField string
	reasoningSeen  bool
	calls          []*callAcc
	finish         string
	usage          *chat.Usage
	done           bool // [DONE] seen
	chunks         int
	// maxArgs bounds the arguments kept of one call (0: no bound) and
	// maxCalls the calls kept of one answer (0: no bound): what a server
	// sends past them is counted, not held.
	maxArgs, maxCalls int
	dropped           int // calls past maxCalls
	// byIndex and byID find the latest call with an index or an id, and
	// last is the latest call of all, kept or dropped: lookups stay cheap
	// however many calls a server sends.
	byIndex map[int]*callAcc
	byID    map[string]*callAcc
	last    *callAcc
}

// apiError is an error object a server sent instead of, or in the middle of,
// an answer.
type apiError struct {
	Status  int
	Message string
	Type    string
	Code    string
	// RetryAfter is the wait the server asked for (Retry-After), 0 when
	// it named none.
	RetryAfter time.Duration
	// NCtx is the window llama.cpp names beside a context-size refusal.
	NCtx int
}

func (e *apiError) Error() string {
	var b strings.Builder
	b.WriteString("the model server")
	if e.Status != 0 {
		fmt.Fprintf(&b, " answered %d %s", e.Status, statusText(e.Status))
	} else {
		b.WriteString(" sent an error")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// parseAPIError reads an "error" value in any of the shapes servers use: an
// object with message/type/code, a bare string, or a list of such objects.
func parseAPIError(raw json.RawMessage) *apiError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return &apiError{Message: s}
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
			return parseAPIError(list[0])
		}
	case '{':
		var obj struct {
			Message  string          `json:"message"`
			Type     string          `json:"type"`
			Code     json.RawMessage `json:"code"`
			Error    json.RawMessage `json:"error"`
			Metadata json.RawMessage `json:"metadata"`
			NCtx     int             `json:"n_ctx"`
		}
		if json.Unmarshal(raw, &obj) == nil {
			if obj.Message == "" && len(obj.Error) > 0 {
				if inner := parseAPIError(obj.Error); inner != nil {
					return inner
				}
			}
			code := strings.Trim(string(obj.Code), `"`)
			if code == "null" {
				code = ""
			}
			msg := obj.Message
			if msg == "" {
				msg = string(raw)
			}
			return &apiError{Message: msg, Type: obj.Type, Code: code, NCtx: obj.NCtx}
		}
	}
	return &apiError{Message: string(raw)}
}

// chunk merges one event's data, reporting what it adds as live events.
// It returns an error when the server reported one.
func (m *merger) chunk(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if bytes.Equal(data, []byte("[DONE]")) {
		m.done = true
		return nil
	}
	var c wireChunk
	if !decodeTextChunk(data, &c) {
		c = wireChunk{}
		if err := json.Unmarshal(data, &c); err != nil {
			if values := splitJSONValues(data); values != nil {
				for _, v := range values {
					if err := m.chunk(v); err != nil {
						return err
					}
				}
				return nil
			}
			return fmt.Errorf("the model server sent a chunk that is not JSON: %.200q", data)
		}
	}
	m.chunks++
	if e := parseAPIError(c.Error); e != nil {
		return e
	}
	if c.Object == "error" && len(c.Choices) == 0 {
		// vLLM and servers modelled on it send the error object itself.
		return parseAPIError(data)
	}
	if c.Usage != nil {
		u := chat.Usage{
			PromptTokens:     c.Usage.PromptTokens,
			CompletionTokens: c.Usage.CompletionTokens,
			TotalTokens:      c.Usage.TotalTokens,
		}
		if u.TotalTokens == 0 {
			u.TotalTokens = u.PromptTokens + u.CompletionTokens
		}
		if d := c.Usage.PromptTokensDetails; d != nil {
			u.CachedTokens = d.CachedTokens
		}
		if d := c.Usage.CompletionTokensDetails; d != nil {
			u.ReasoningTokens = d.ReasoningTokens
		}
		if u != (chat.Usage{}) {
			m.usage = &u
			m.emit(u)
		}
	}
	for _, ch := range c.Choices {
		if ch.Index != nil && *ch.Index != 0 {
			continue // only the first choice is used; pincer never asks for more
		}
		delta := ch.Delta
		if delta == nil {
			delta = ch.Message
		}
		if delta != nil {
			if t := m.text.add(delta.Content.fragment()); t != "" {
				m.emit(TextDelta{Text: t})
			}
			rc := delta.ReasoningContent.fragment()
			if len(rc) == 0 {
				rc = delta.Reasoning.fragment()
				if len(rc) != 0 && !m.reasoningSeen {
					m.reasoningField = "reasoning"
				}
			}
			m.reasoningSeen = m.reasoningSeen || len(rc) != 0
			if t := m.reasoning.add(rc); t != "" {
				m.emit(ReasoningDelta{Text: t})
			}
			for i := range delta.ToolCalls {
				m.toolFragment(&delta.ToolCalls[i])
			}
			if fc := delta.FunctionCall; fc != nil {
				m.toolFragment(&wireToolCall{Function: *fc})
			}
		}
		if ch.FinishReason != nil {
			switch r := *ch.FinishReason; r {
			case "", "null":
			case "error":
				return &apiError{Message: "the model stopped with finish_reason \"error\""}
			default:
				m.finish = r
			}
		}
	}
	return nil
}

// normalID returns the id a fragment carries, treating "", "null" and JSON
// null as none. Numeric ids are kept as text.
func normalID(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
	} else {
		s = string(raw)
	}
	if s == "null" || s == "None" || s == "undefined" {
		return ""
	}
	return s
}

// toolFragment merges one tool-call fragment into the call it belongs to.
//
// A fragment belongs to the call with its index, unless that call already
// has a different id (a server that repeats index 0 for every call). Without
// an index it belongs to the call with its id; without either, to the last
// call, unless it names a different function.
func (m *merger) toolFragment(f *wireToolCall) {
	id := normalID(f.ID)
	name := string(f.Function.Name.fragment())
	var call *callAcc
	switch {
	case f.Index != nil:
		call = m.byIndex[*f.Index] // the latest call with this index wins
		if call != nil && (id != "" && call.id != "" && call.id != id ||
			name != "" && call.name != "" && call.name != name) {
			call = nil // index reused for a new call
		}
		if call == nil && id == "" && name == "" && m.last != nil {
			// A continuation under an index no call has: servers that number
			// the header by the tool's place in the request and the rest by
			// the call's place. Nothing starts a new call, so it continues
			// the latest one.
			call = m.last
		}
	case id != "":
		call = m.byID[id]
		if call == nil && m.last != nil {
			// An id that appears only on a later fragment of the last call.
			if last := m.last; last.id == "" && (name == "" || name == last.name) {
				call = last
			}
		}
	default:
		if last := m.last; last != nil {
			if name == "" || last.name == "" || last.name == name {
				call = last
			}
		}
	}
	if call == nil {
		call = &callAcc{}
		if f.Index != nil {
			call.index, call.hasIndex = *f.Index, true
			if m.byIndex == nil {
				m.byIndex = map[int]*callAcc{}
			}
			m.byIndex[*f.Index] = call
		}
		if m.maxCalls > 0 && len(m.calls) >= m.maxCalls {
			call.dropped = true // counted, never held or shown
			m.dropped++
		} else {
			call.pos = len(m.calls)
			m.calls = append(m.calls, call)
		}
		m.last = call
	}
	if call.id == "" && id != "" {
		call.id = id
		if m.byID == nil {
			m.byID = map[string]*callAcc{}
		}
		m.byID[id] = call
	}
	if call.name == "" {
		call.name = name // later fragments may repeat it
	}
	if call.dropped {
		return
	}
	if args := bytes.TrimSpace(f.Function.Arguments); len(args) > 0 {
		switch args[0] {
		case '"':
			frag := unquoteLoose(args)
			call.size += len(frag)
			switch {
			case call.over:
			case m.maxArgs > 0 && call.args.Len()+len(frag) > m.maxArgs:
				m.overflow(call)
			default:
				call.args.add(frag)
			}
		case '{', '[':
			// A server that sends the arguments as a JSON value, whole: it
			// replaces whatever came before.
			call.size = len(args)
			if m.maxArgs > 0 && len(args) > m.maxArgs {
				m.overflow(call)
				break
			}
			var buf bytes.Buffer
			if json.Compact(&buf, args) == nil {
				call.over = false
				call.args.replace(buf.String())
			}
		}
	}
	if call.over {
		if !call.shown {
			call.shown = true
			m.emit(ToolCallDelta{Index: call.pos, ID: call.id, Name: call.name, ArgsSoFar: ""})
		}
		return
	}
	m.emit(ToolCallDelta{Index: call.pos, ID: call.id, Name: call.name, ArgsSoFar: call.args.String()})
}

// overflow drops the arguments of a call that passed the limit: what came
// is let go, and what comes is only counted.
func (m *merger) overflow(call *callAcc) {
	call.over = true
	call.args.replace("")
}

// finishText hands out text held back at the end of the stream (an
// incomplete character becomes U+FFFD). A named call whose arguments never
// came (a tool without parameters, sent as "") gets "{}": that is what its
// arguments mean, and the only form a strict server accepts back.
func (m *merger) finishText() {
	if t := m.text.flush(); t != "" {
		m.emit(TextDelta{Text: t})
	}
	if t := m.reasoning.flush(); t != "" {
		m.emit(ReasoningDelta{Text: t})
	}
	for i, c := range m.calls {
		c.args.flush()
		if c.over {
			continue
		}
		if c.name != "" && strings.TrimSpace(c.args.String()) == "" {
			c.args.replace("{}")
			m.emit(ToolCallDelta{Index: i, ID: c.id, Name: c.name, ArgsSoFar: "{}"})
		}
	}
}

// complete reports whether the stream ended properly: with [DONE] or with a
// finish reason.
func (m *merger) complete() bool { return m.done || m.finish != "" }

// reply is the merged message. Calls without a name and without arguments
// (empty trailing fragments) are dropped; calls without an id get one.
func (m *merger) reply() Reply {
	r := Reply{
		Content:        m.text.String(),
		Reasoning:      m.reasoning.String(),
		FinishReason:   m.finish,
		ReasoningField: m.reasoningField,
		DroppedCalls:   m.dropped,
		ArgsLimit:      m.maxArgs,
	}
	if m.usage != nil {
		r.Usage = *m.usage
	}
	for i, c := range m.calls {
		args := c.args.String()
		if c.name == "" && strings.TrimSpace(args) == "" && !c.over {
			continue
		}
		id := c.id
		if id == "" {
			id = "call_" + strconv.Itoa(i)
		}
		if c.over {
			// Not held, so not passed on: the loop refuses the call.
			r.ToolCalls = append(r.ToolCalls, chat.ToolCall{ID: id, Name: c.name, Arguments: "{}", Oversize: max(c.size, 1)})
			continue
		}
		r.ToolCalls = append(r.ToolCalls, chat.ToolCall{ID: id, Name: c.name, Arguments: args})
	}
	return r
}
