package acptest

import (
	"encoding/json"
	"testing"
)

// TestValidatorJudges: the validator accepts what the schema allows an
// agent to send and refuses the rest, in the params or result the top
// level alone would let through.
func TestValidatorJudges(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	answered := func(method string) func(json.RawMessage) string {
		return func(json.RawMessage) string { return method }
	}
	for _, tc := range []struct {
		name   string
		line   string
		method string // of the request a result answers
		ok     bool
	}{
		{"a message chunk", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, "", true},
		{"an unknown update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_dance","content":{"type":"text","text":"hi"}}}}`, "", false},
		{"a chunk without its text", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text"}}}}`, "", false},
		{"a tool call of an unknown kind", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","kind":"juggle"}}}`, "", false},
		{"a diff without newText", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{"type":"diff","path":"/a"}]}}}`, "", false},
		{"a permission request", `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}`, "", true},
		{"an option of an unknown kind", `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"Allow","kind":"allow_forever"}]}}`, "", false},
		{"a method agents do not call", `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`, "", false},
		{"a stop reason", `{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`, "session/prompt", true},
		{"an unknown stop reason", `{"jsonrpc":"2.0","id":1,"result":{"stopReason":"tired"}}`, "session/prompt", false},
		{"a result for no request", `{"jsonrpc":"2.0","id":1,"result":{}}`, "", false},
		{"an error", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, "", true},
		{"an error without a message", `{"jsonrpc":"2.0","id":1,"error":{"code":-32700}}`, "", false},
		{"no jsonrpc", `{"id":1,"result":{"stopReason":"end_turn"}}`, "session/prompt", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.AgentMessage([]byte(tc.line), answered(tc.method))
			if (err == nil) != tc.ok {
				t.Errorf("valid %v, want %v (%v)", err == nil, tc.ok, err)
			}
		})
	}
}
