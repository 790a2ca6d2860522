package llm

import (
	"errors"
	"regexp"
	"strconv"
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

// NativeToolsRefused reports whether err is a server refusing the
// request's tools because it was started without its tool-call parser
// (vLLM without --enable-auto-tool-choice, llama.cpp without --jinja). The
// model can still call tools when they are described in the prompt and it
// writes its calls as text (see Request.TextTools).
func NativeToolsRefused(err error) bool {
	var e *apiError
	if !errors.As(err, &e) || (e.Status != 0 && e.Status != 400 && e.Status != 422 && e.Status != 500 && e.Status != 501) {
		return false
	}
	m := strings.ToLower(e.Message)
	for _, s := range []string{"enable-auto-tool-choice", "tool-call-parser", "tools param requires --jinja", "tool_choice is not supported", "tool choice is not supported"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// ReasoningRefused reports whether err is a server refusing a request
// because its assistant messages carry reasoning_content (or reasoning, the
// field it goes back in when it came in that one), a field it does not take
// (Groq: "property 'reasoning_content' is unsupported"; others call it
// unknown, unrecognized or an extra input).
func ReasoningRefused(err error) bool {
	var e *apiError
	if !errors.As(err, &e) || (e.Status != 0 && e.Status != 400 && e.Status != 422) {
		return false
	}
	m := strings.ToLower(e.Message)
	named := false
	for _, s := range []string{"reasoning_content", "'reasoning'", `"reasoning"`, ".reasoning", "`reasoning`"} {
		named = named || strings.Contains(m, s)
	}
	if !named {
		return false
	}
	for _, s := range []string{"unsupported", "not supported", "unknown", "unrecognized", "extra", "not permitted", "not allowed"} {
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
		"when context the overflows", "when the context overflows", "loaded with context length of only",
		"larger than the max context size", "exceeds the model's context",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// refusedWindowRE finds the window in the words servers refuse a long
// request with: OpenAI and vLLM ("maximum context length is 4096 tokens"),
// LM Studio ("loaded with context length of only 4096 tokens"), SGLang
// ("longer than the model's context length (4096 tokens)"), llama.cpp's
// newer errors ("n_ctx": 4096 beside the message, or "(5000 > 4096)"
// after the context size, length or window), and Anthropic-style
// gateways ("prompt is too long: 21000 tokens > 20000 maximum").
var refusedWindowRE = []*regexp.Regexp{
	regexp.MustCompile(`maximum context length is (\d+)`),
	regexp.MustCompile(`context length of only (\d+)`),
	regexp.MustCompile(`model's context length \((\d+)`),
	regexp.MustCompile(`context (?:size|length|window)[^0-9()]{0,40}\(\d+ > (\d+)\)`),
	regexp.MustCompile(`\d+ tokens > (\d+) maximum`),
	regexp.MustCompile(`"n_ctx"\s*:\s*(\d+)`),
}

// RefusedWindow is the window a server named when it refused a request as
// too long for it, or 0 when it named none: the window to budget for from
// then on, whatever pincer had assumed.
func RefusedWindow(err error) int {
	var e *apiError
	if !ContextTooLong(err) || !errors.As(err, &e) {
		return 0
	}
	if e.NCtx > 0 {
		return e.NCtx
	}
	for _, re := range refusedWindowRE {
		if m := re.FindStringSubmatch(e.Message); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}
