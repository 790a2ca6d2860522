package llm

import (
	"errors"
	"strings"
	"time"
)

// ServerStatus is the HTTP status of the error a model server answered
// with (401, 500, …), or 0 when err is not such an answer. A front end uses
// it to say what to do: a refused key names where the key is set, a
// server error says to try again later.
func ServerStatus(err error) int {
	var e *apiError
	if errors.As(err, &e) {
		return e.Status
	}
	var l *listStatusError
	if errors.As(err, &l) {
		return l.status
	}
	return 0
}

// RetryAfter is the wait a refusing server asked for in its Retry-After
// header, 0 when it named none.
func RetryAfter(err error) time.Duration {
	var e *apiError
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// ToolsUnsupported reports whether err is a server refusing a request
// because the model cannot call tools (Ollama: "… does not support
// tools"): sending the tools again would fail the same way.
func ToolsUnsupported(err error) bool {
	var e *apiError
	if !errors.As(err, &e) || (e.Status != 0 && e.Status != 400 && e.Status != 422 && e.Status != 501) {
		return false
	}
	m := strings.ToLower(e.Message)
	for _, s := range []string{"does not support tools", "does not support tool", "tools are not supported", "tool calling is not supported", "does not support function calling"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// ContextTooLong reports whether err is a server refusing a request as
// longer than the model's window, in the words OpenAI, vLLM, llama.cpp,
// Ollama, LM Studio and hosted providers use.
func ContextTooLong(err error) bool {
	var e *apiError
	if !errors.As(err, &e) || e.Status >= 500 || e.Status == 429 || e.Status == 401 || e.Status == 403 {
		return false
	}
	if e.Code == "context_length_exceeded" || e.Type == "exceed_context_size_error" || e.Code == "exceed_context_size_error" {
		return true
	}
	m := strings.ToLower(e.Message)
	for _, s := range []string{
		"context_length_exceeded", "maximum context length", "context length exceeded",
		"exceeds the context", "exceed_context_size", "exceeds the available context size",
		"exceeds the maximum context", "context window", "prompt is too long", "prompt too long",
		"input length exceeds", "is longer than the model's context length", "too many tokens",
		"reduce the length of the messages", "greater than the context length", "exceeds the context length",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}
