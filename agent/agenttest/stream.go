package agenttest

import (
	"encoding/json"
	"strings"
)

// Call is a tool call to script.
type Call struct {
	ID, Name, Arguments string
}

// chunk builds one chat.completion.chunk event.
func chunk(delta map[string]any, finish string) string {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": "test-model",
		"choices": []any{choice},
	})
	return "data: " + string(b) + "\n\n"
}

// Text is a streamed answer in pieces of about size bytes, with usage.
func Text(text string, size int) Reply {
	return Reply{Body: TextBody(text, size, 10, 5)}
}

// TextBody is the SSE body of a streamed text answer: the text cut into
// pieces of size bytes (whole characters), a stop chunk, a usage chunk with
// the given token counts, and [DONE].
func TextBody(text string, size, promptTokens, completionTokens int) string {
	var b strings.Builder
	b.WriteString(chunk(map[string]any{"role": "assistant", "content": ""}, ""))
	for _, p := range pieces(text, size) {
		b.WriteString(chunk(map[string]any{"content": p}, ""))
	}
	b.WriteString(chunk(map[string]any{}, "stop"))
	b.WriteString(Usage(promptTokens, completionTokens))
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// Usage is a usage-only chunk, as sent with stream_options.include_usage.
func Usage(prompt, completion int) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion.chunk", "choices": []any{},
		"usage": map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
	return "data: " + string(b) + "\n\n"
}

// Tools is a streamed answer that calls tools the way OpenAI does: a header
// fragment per call, then the arguments in small fragments, then
// finish_reason tool_calls. text, when not empty, streams first.
func Tools(text string, calls ...Call) Reply {
	var b strings.Builder
	b.WriteString(chunk(map[string]any{"role": "assistant", "content": nil}, ""))
	if text != "" {
		b.WriteString(chunk(map[string]any{"content": text}, ""))
	}
	for i, c := range calls {
		b.WriteString(chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, ""))
		for _, p := range pieces(c.Arguments, 7) {
			b.WriteString(chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": p},
			}}}, ""))
		}
	}
	b.WriteString(chunk(map[string]any{}, "tool_calls"))
	b.WriteString(Usage(100, 20))
	b.WriteString("data: [DONE]\n\n")
	return Reply{Body: b.String()}
}

// Error is a non-200 answer with an OpenAI-style error body.
func Error(status int, message string) Reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "error"}})
	return Reply{Status: status, Body: string(b)}
}

// pieces cuts s into pieces of at most size bytes without splitting a
// character.
func pieces(s string, size int) []string {
	if size <= 0 {
		size = len(s)
	}
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		if n == 0 {
			n = min(size, len(s))
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
