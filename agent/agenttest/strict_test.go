package agenttest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// good is a request every rule accepts: a system prompt, a user message, an
// assistant message with two calls, both answered, and a follow-up.
const good = `{"model":"m","messages":[
{"role":"system","content":"sys"},
{"role":"user","content":"hi"},
{"role":"assistant","content":"","tool_calls":[
  {"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}},
  {"id":"c2","type":"function","function":{"name":"grep","arguments":"{}"}}]},
{"role":"tool","tool_call_id":"c1","content":"x"},
{"role":"tool","tool_call_id":"c2","content":"y"},
{"role":"assistant","content":"done"},
{"role":"user","content":"thanks"}],
"tools":[
{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}},
{"type":"function","function":{"name":"grep","parameters":{"type":"object"}}}]}`

// bad is the good request with its messages or tools replaced.
func bad(messages, tools string) string {
	var req map[string]json.RawMessage
	if err := json.Unmarshal([]byte(good), &req); err != nil {
		panic(err)
	}
	if messages != "" {
		req["messages"] = json.RawMessage(messages)
	}
	if tools != "" {
		req["tools"] = json.RawMessage(tools)
	}
	b, err := json.Marshal(req)
	if err != nil {
		panic(err)
	}
	return string(b)
}

const (
	user       = `{"role":"user","content":"hi"}`
	callC1     = `{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{}"}}`
	answerC1   = `{"role":"tool","tool_call_id":"c1","content":"x"}`
	assistC1   = `{"role":"assistant","content":null,"tool_calls":[` + callC1 + `]}`
	readTool   = `{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}`
	assistCall = `{"role":"assistant","tool_calls":[{"id":"c9","type":"function","function":{"name":"read_file","arguments":%s}}]}`
)

func withArgs(args string) string {
	return strings.Replace(assistCall, "%s", args, 1)
}

func TestCheckStrictAcceptsAGoodRequest(t *testing.T) {
	if err := CheckStrict([]byte(good)); err != nil {
		t.Fatalf("CheckStrict(good) = %v", err)
	}
}

// TestCheckStrictRejects has a request for each rule CheckStrict enforces,
// broken in that one way, and the words the error must hold.
func TestCheckStrictRejects(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string
	}{
		{"body not JSON", `{"model":`, "body"},
		{"no model", `{"messages":[` + user + `]}`, "model is empty"},
		{"no messages", `{"model":"m","messages":[]}`, "no messages"},
		{"tool type not function", bad("", `[{"type":"code","function":{"name":"x","parameters":{"type":"object"}}}]`), "want function"},
		{"tool without a name", bad("", `[{"type":"function","function":{"name":"","parameters":{"type":"object"}}}]`), "empty or duplicate name"},
		{"two tools with one name", bad("", `[`+readTool+`,`+readTool+`]`), "empty or duplicate name"},
		{"tool parameters not an object schema", bad("", `[{"type":"function","function":{"name":"x","parameters":{"type":"string"}}}]`), "not an object schema"},
		{"message not an object", bad(`[`+user+`,5]`, ""), "messages[1]"},
		{"unknown role", bad(`[{"role":"developer","content":"x"}]`, ""), "unknown role"},
		{"user content not a string", bad(`[{"role":"user","content":[{"type":"text","text":"hi"}]}]`, ""), "content is not a string"},
		{"system content missing", bad(`[{"role":"system"},`+user+`]`, ""), "content is not a string"},
		{"assistant with neither content nor calls", bad(`[`+user+`,{"role":"assistant"}]`, ""), "no content and no tool calls"},
		{"call without an id", bad(`[`+user+`,{"role":"assistant","tool_calls":[{"id":"","type":"function","function":{"name":"read_file","arguments":"{}"}}]}]`, ""), "empty or reused id"},
		{"call id reused across messages", bad(`[`+user+`,`+assistC1+`,`+answerC1+`,`+assistC1+`,`+answerC1+`]`, ""), "empty or reused id"},
		{"call type missing", bad(`[`+user+`,{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read_file","arguments":"{}"}}]}]`, ""), "type"},
		{"call without a name", bad(`[`+user+`,{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"","arguments":"{}"}}]}]`, ""), "name"},
		{"arguments empty", bad(`[`+user+`,`+withArgs(`""`)+`]`, ""), "not a JSON object"},
		{"arguments a list", bad(`[`+user+`,`+withArgs(`"[1]"`)+`]`, ""), "not a JSON object"},
		{"arguments null", bad(`[`+user+`,`+withArgs(`"null"`)+`]`, ""), "not a JSON object"},
		{"arguments cut", bad(`[`+user+`,`+withArgs(`"{\"path\":"`)+`]`, ""), "not a JSON object"},
		{"tool result answering nothing", bad(`[`+user+`,`+answerC1+`]`, ""), "answers no open call"},
		{"tool result answering a call twice", bad(`[`+user+`,`+assistC1+`,`+answerC1+`,`+answerC1+`]`, ""), "answers no open call"},
		{"tool result content not a string", bad(`[`+user+`,`+assistC1+`,{"role":"tool","tool_call_id":"c1","content":{"ok":true}}]`, ""), "content is not a string"},
		{"call left unanswered before a user message", bad(`[`+user+`,`+assistC1+`,`+user+`]`, ""), "were not answered"},
		{"request ends with an unanswered call", bad(`[`+user+`,`+assistC1+`]`, ""), "ends with unanswered tool calls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckStrict([]byte(tt.body))
			if err == nil {
				t.Fatalf("CheckStrict accepted\n%s", tt.body)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckStrict = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

// TestServerRecordsStrictViolations: the server's Request.Strict, which the
// end-to-end tests read, carries the checker's verdict for what arrived.
func TestServerRecordsStrictViolations(t *testing.T) {
	srv := New(Text("ok", 2), Text("ok", 2))
	defer srv.Close()
	for _, body := range []string{good, bad(`[`+user+`,`+answerC1+`]`, "")} {
		resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests recorded, want 2", len(reqs))
	}
	if reqs[0].Strict != nil {
		t.Errorf("good request flagged: %v", reqs[0].Strict)
	}
	if reqs[1].Strict == nil || !strings.Contains(reqs[1].Strict.Error(), "answers no open call") {
		t.Errorf("bad request's Strict = %v, want the orphan tool result named", reqs[1].Strict)
	}
}
