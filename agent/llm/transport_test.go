package llm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/chat"
)

func userOnly(text string) Request {
	return Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: text}}}
}

func TestRetries(t *testing.T) {
	t.Parallel()
	ok := agenttest.Text("recovered", 4)
	cases := []struct {
		name     string
		replies  []agenttest.Reply
		retries  int
		wantText string
		wantErr  string // substring; "" means success
		wantReqs int
		wantWait []time.Duration // waits of the Retrying events, when fixed by Retry-After
	}{
		{name: "429 then success honours Retry-After seconds",
			replies: []agenttest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "0.05"}, Body: `{"error":{"message":"slow down"}}`}, ok},
			retries: 2, wantText: "recovered", wantReqs: 2, wantWait: []time.Duration{50 * time.Millisecond}},
		{name: "500 then 503 then success",
			replies: []agenttest.Reply{agenttest.Error(500, "boom"), agenttest.Error(503, "busy"), ok},
			retries: 3, wantText: "recovered", wantReqs: 3},
		{name: "500 until retries run out",
			replies: []agenttest.Reply{agenttest.Error(500, "boom"), agenttest.Error(500, "boom again"), agenttest.Error(500, "still")},
			retries: 2, wantErr: "500 Internal Server Error: still", wantReqs: 3},
		{name: "401 is not retried and the message is kept",
			replies: []agenttest.Reply{agenttest.Error(401, "Incorrect API key provided")},
			retries: 3, wantErr: "401 Unauthorized: Incorrect API key provided", wantReqs: 1},
		{name: "400 with a plain text body",
			replies: []agenttest.Reply{{Status: 400, Body: "bad request body", Header: map[string]string{"Content-Type": "text/plain"}}},
			retries: 3, wantErr: "400 Bad Request: bad request body", wantReqs: 1},
		{name: "a cut stream is not retried (the answer had started)",
			replies: []agenttest.Reply{{Body: `data: {"choices":[{"index":0,"delta":{"content":"half"}}]}` + "\n\n"}, ok},
			retries: 3, wantErr: ErrStreamCut.Error(), wantReqs: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.New(tc.replies...)
			defer srv.Close()
			c, err := NewClient(ClientOptions{BaseURL: srv.BaseURL(), Model: "m", MaxRetries: tc.retries, Backoff: func(int) time.Duration { return time.Millisecond }})
			if err != nil {
				t.Fatal(err)
			}
			log := &eventLog{}
			got, err := c.Complete(context.Background(), userOnly("hi"), log.sink)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if got.Content != tc.wantText {
					t.Errorf("content %q, want %q", got.Content, tc.wantText)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if n := len(srv.Requests()); n != tc.wantReqs {
				t.Errorf("%d requests, want %d", n, tc.wantReqs)
			}
			if len(log.retries) != tc.wantReqs-1 {
				t.Errorf("%d Retrying events, want %d", len(log.retries), tc.wantReqs-1)
			}
			for i, w := range tc.wantWait {
				if i < len(log.retries) && log.retries[i].Wait != w {
					t.Errorf("retry %d waited %v, want %v (Retry-After)", i, log.retries[i].Wait, w)
				}
			}
		})
	}
}

func TestConnectionErrorsBeforeFirstByteAreRetried(t *testing.T) {
	t.Parallel()
	// A listener that accepts and immediately closes the first connection,
	// then serves normally.
	srv := agenttest.New(agenttest.Text("second try", 3))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		conn, err := ln.Accept()
		if err == nil {
			conn.Close() // drop the first connection without answering
		}
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go proxy(conn, srv.Listener.Addr().String())
		}
	}()
	c, err := NewClient(ClientOptions{BaseURL: "http://" + ln.Addr().String() + "/v1", Model: "m", MaxRetries: 2,
		Backoff: func(int) time.Duration { return time.Millisecond },
		HTTP:    &http.Transport{DisableKeepAlives: true}})
	if err != nil {
		t.Fatal(err)
	}
	log := &eventLog{}
	got, err := c.Complete(context.Background(), userOnly("hi"), log.sink)
	if err != nil {
		t.Fatalf("error %v", err)
	}
	if got.Content != "second try" || len(log.retries) != 1 {
		t.Fatalf("content %q after %d retries, want %q after 1", got.Content, len(log.retries), "second try")
	}
}

func proxy(in net.Conn, to string) {
	defer in.Close()
	out, err := net.Dial("tcp", to)
	if err != nil {
		return
	}
	defer out.Close()
	go func() { _, _ = copyConn(out, in) }()
	_, _ = copyConn(in, out)
}

func copyConn(dst, src net.Conn) (int64, error) {
	buf := make([]byte, 32*1024)
	var n int64
	for {
		k, err := src.Read(buf)
		if k > 0 {
			if _, werr := dst.Write(buf[:k]); werr != nil {
				return n, werr
			}
			n += int64(k)
		}
		if err != nil {
			return n, err
		}
	}
}

func TestRefusedLocalServerIsNotRetried(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := NewClient(ClientOptions{BaseURL: "http://" + addr + "/v1", Model: "m", MaxRetries: 3, Backoff: func(int) time.Duration { return time.Second }})
	if err != nil {
		t.Fatal(err)
	}
	log := &eventLog{}
	_, err = c.Complete(context.Background(), userOnly("hi"), log.sink)
	if err == nil || !strings.Contains(err.Error(), "could not reach the model server") {
		t.Fatalf("error %v, want a could-not-reach error", err)
	}
	if len(log.retries) != 0 {
		t.Errorf("retried %d times a server that refuses connections on this machine", len(log.retries))
	}
}

// TestTLSFailuresAreNotRetried: a certificate that cannot be trusted and
// https spoken to a plain HTTP server fail the same way every time, so
// they are reported at once instead of after the retries' back-off.
func TestTLSFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	plain := agenttest.New(agenttest.Text("never", 4))
	defer plain.Close()
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	defer untrusted.Close()
	cases := []struct {
		name, baseURL, want string
	}{
		{"https to a plain HTTP server", strings.Replace(plain.BaseURL(), "http://", "https://", 1), "does not look like a TLS handshake"},
		{"an untrusted certificate", untrusted.URL + "/v1", "certificate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewClient(ClientOptions{BaseURL: tc.baseURL, Model: "m", MaxRetries: 3, Backoff: func(int) time.Duration { return time.Millisecond }})
			if err != nil {
				t.Fatal(err)
			}
			log := &eventLog{}
			_, err = c.Complete(context.Background(), userOnly("hi"), log.sink)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if len(log.retries) != 0 {
				t.Errorf("retried %d times: %v", len(log.retries), log.retries)
			}
		})
	}
}

func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		reply agenttest.Reply
	}{
		{"silent after some text", agenttest.Reply{Body: `data: {"choices":[{"index":0,"delta":{"content":"thinking"}}]}` + "\n\n", Hang: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.New(tc.reply, tc.reply)
			defer srv.Close()
			c, err := NewClient(ClientOptions{BaseURL: srv.BaseURL(), Model: "m", MaxRetries: -1, IdleTimeout: 150 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Complete(context.Background(), userOnly("hi"), nil)
			if !errors.Is(err, ErrStreamIdle) {
				t.Fatalf("error %v, want ErrStreamIdle", err)
			}
		})
	}
}

func TestCancelReturnsContextCanceled(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Reply{Body: `data: {"choices":[{"index":0,"delta":{"content":"partial answer"}}]}` + "\n\n", Hang: true})
	defer srv.Close()
	c := newTestClient(t, srv.BaseURL(), "")
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan Reply, 1)
	errc := make(chan error, 1)
	go func() {
		r, err := c.Complete(ctx, userOnly("hi"), func(ev Event) {
			if _, ok := ev.(TextDelta); ok {
				cancel()
			}
		})
		got <- r
		errc <- err
	}()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if r := <-got; r.Content != "partial answer" {
			t.Errorf("partial content %q, want %q", r.Content, "partial answer")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Complete did not return after cancellation")
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	t.Parallel()
	const key = "sk-secret-1234567890abcdef"
	srv := agenttest.New(agenttest.Error(401, "Incorrect API key provided: "+key+". You can find your key at ..."))
	defer srv.Close()
	c := newTestClient(t, srv.BaseURL(), key)
	_, err := c.Complete(context.Background(), userOnly("hi"), nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("error shows the key: %v", err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization %q, want the key sent", got)
	}
}

func TestNoKeyNoAuthorizationHeader(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("ok", 2))
	defer srv.Close()
	c := newTestClient(t, srv.BaseURL(), "")
	if _, err := c.Complete(context.Background(), userOnly("hi"), nil); err != nil {
		t.Fatal(err)
	}
	if h := srv.Requests()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("sent Authorization %q without a key", h)
	}
}

// TestReasoningGoesBack checks that the assistant messages of a turn
// that called tools carry their reasoning_content back, which thinking
// models that call tools require, with tools of the server's own and with
// tools written as text alike, and that the request is otherwise
// well-formed.
func TestReasoningGoesBack(t *testing.T) {
	t.Parallel()
	for _, textTools := range []bool{false, true} {
		srv := agenttest.New(agenttest.Text("done", 2))
		defer srv.Close()
		temp := 0.3
		c, err := NewClient(ClientOptions{BaseURL: srv.BaseURL(), Model: "deepseek-reasoner", Temperature: &temp})
		if err != nil {
			t.Fatal(err)
		}
		req := Request{Messages: []chat.Message{
			{Role: chat.RoleSystem, Content: "sys"},
			{Role: chat.RoleUser, Content: "read it"},
			{Role: chat.RoleAssistant, Reasoning: "I need the file.", ToolCalls: []chat.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}},
			{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "1\tx"},
			{Role: chat.RoleAssistant, Content: "It says x.", Reasoning: "Easy."},
			{Role: chat.RoleUser, Content: "and 2+2?"},
			{Role: chat.RoleAssistant, Content: "4", Reasoning: "Arithmetic, no tool."},
			{Role: chat.RoleUser, Content: "thanks"},
		}, Tools: []ToolSpec{{Name: "read_file", Description: "d", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}},
			TextTools: textTools}
		if _, err := c.Complete(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		r := srv.Requests()[0]
		if r.Strict != nil {
			t.Fatalf("text tools %v: request breaks strict rules: %v", textTools, r.Strict)
		}
		var body struct {
			Messages []struct {
				Role             string  `json:"role"`
				ReasoningContent *string `json:"reasoning_content"`
			} `json:"messages"`
			Temperature   *float64        `json:"temperature"`
			StreamOptions json.RawMessage `json:"stream_options"`
		}
		if err := json.Unmarshal(r.Raw, &body); err != nil {
			t.Fatal(err)
		}
		// The turn that called a tool keeps its reasoning, every message of
		// it; the turn that only answered (message 6) sends none. Written
		// as text, the tool's result is one user message, so the messages
		// stand where they did.
		want := map[int]string{2: "I need the file.", 4: "Easy."}
		for i, m := range body.Messages {
			w, ok := want[i]
			switch {
			case ok && (m.ReasoningContent == nil || *m.ReasoningContent != w):
				t.Errorf("text tools %v: message %d (%s): reasoning_content %v, want %q", textTools, i, m.Role, m.ReasoningContent, w)
			case !ok && m.ReasoningContent != nil:
				t.Errorf("text tools %v: message %d (%s) has reasoning_content %q", textTools, i, m.Role, *m.ReasoningContent)
			}
		}
		if body.Temperature == nil || *body.Temperature != 0.3 {
			t.Errorf("temperature %v, want 0.3", body.Temperature)
		}
		if !strings.Contains(string(body.StreamOptions), `"include_usage":true`) {
			t.Errorf("stream_options %s, want include_usage", body.StreamOptions)
		}
	}
}

func TestNoTemperatureUnlessConfigured(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("ok", 2))
	defer srv.Close()
	c := newTestClient(t, srv.BaseURL(), "")
	if _, err := c.Complete(context.Background(), userOnly("hi"), nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Requests()[0].Body["temperature"]; ok {
		t.Errorf("temperature sent although none is configured: %s", srv.Requests()[0].Raw)
	}
}

func TestPlainJSONAnswerToAStreamRequest(t *testing.T) {
	t.Parallel()
	body := `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole","tool_calls":[{"id":"c9","type":"function","function":{"name":"glob","arguments":"{\"pattern\":\"*\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
	srv := agenttest.New(agenttest.Reply{Body: body, Header: map[string]string{"Content-Type": "application/json"}})
	defer srv.Close()
	c := newTestClient(t, srv.BaseURL(), "")
	got, err := c.Complete(context.Background(), userOnly("hi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "whole" || len(got.ToolCalls) != 1 || got.ToolCalls[0].Arguments != `{"pattern":"*"}` || got.Usage.TotalTokens != 5 {
		t.Fatalf("got %+v", got)
	}
}

func TestModels(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetModels("a-model", "b-model")
	c := newTestClient(t, srv.BaseURL(), "")
	got, err := c.Models(context.Background())
	if err != nil || strings.Join(got, ",") != "a-model,b-model" {
		t.Fatalf("Models() = %v, %v", got, err)
	}
}

func TestNewClientRejectsBadOptions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		o    ClientOptions
		want string
	}{
		{ClientOptions{BaseURL: "http://x/v1"}, "no model"},
		{ClientOptions{BaseURL: "ftp://x", Model: "m"}, "not an http(s) URL"},
		{ClientOptions{BaseURL: "localhost:11434", Model: "m"}, "not an http(s) URL"},
	}
	for _, tc := range cases {
		if _, err := NewClient(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewClient(%+v) error %v, want %q", tc.o, err, tc.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"-1", 0},
		{"100000", 2 * time.Minute},
		{"nonsense", 0},
	}
	for _, tc := range cases {
		if got := retryAfter(tc.in); got != tc.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	future := time.Now().Add(10 * time.Second).UTC().Format(http.TimeFormat)
	if got := retryAfter(future); got < 8*time.Second || got > 10*time.Second {
		t.Errorf("retryAfter(date 10s ahead) = %v", got)
	}
}

// TestReasoningRefusedIsLeftOut: a server that refuses reasoning_content
// (Groq, Cerebras) gets the request again without it, and no reasoning
// from then on; a refusal for anything else is the error it was.
func TestReasoningRefusedIsLeftOut(t *testing.T) {
	t.Parallel()
	groq := "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property 'reasoning_content' is unsupported)]"
	for _, tc := range []struct {
		name     string
		refusal  string
		wantErr  bool
		requests int
		field    string // the field the reasoning came in
	}{
		{"groq's words", groq, false, 3, ""},
		{"groq's words, reasoning field", strings.ReplaceAll(groq, "reasoning_content", "reasoning"), false, 3, "reasoning"},
		{"another refusal", "model not found", true, 1, ""},
	} {
		srv := agenttest.New(agenttest.Error(400, tc.refusal), agenttest.Text("done", 2), agenttest.Text("again", 2))
		defer srv.Close()
		c, err := NewClient(ClientOptions{BaseURL: srv.BaseURL(), Model: "openai/gpt-oss-120b"})
		if err != nil {
			t.Fatal(err)
		}
		req := Request{Messages: []chat.Message{
			{Role: chat.RoleUser, Content: "read it"},
			{Role: chat.RoleAssistant, Reasoning: "I need the file.", ReasoningField: tc.field, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}},
			{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "x"},
		}, Tools: []ToolSpec{{Name: "read_file", Description: "d", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}}}
		reply, err := c.Complete(context.Background(), req, nil)
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: err = %v, want an error %v", tc.name, err, tc.wantErr)
		}
		if tc.wantErr {
			if got := len(srv.Requests()); got != tc.requests {
				t.Errorf("%s: %d requests, want %d", tc.name, got, tc.requests)
			}
			continue
		}
		if reply.Content != "done" {
			t.Errorf("%s: answer %q, want done", tc.name, reply.Content)
		}
		if _, err := c.Complete(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if len(reqs) != tc.requests {
			t.Fatalf("%s: %d requests, want %d", tc.name, len(reqs), tc.requests)
		}
		for i, r := range reqs {
			key := cmp.Or(tc.field, "reasoning_content")
			if has := bytes.Contains(r.Raw, []byte(`"`+key+`":`)); has != (i == 0) {
				t.Errorf("%s: request %d carries %s %v, want %v", tc.name, i, key, has, i == 0)
			}
		}
	}
}

// TestReasoningGoesBackInItsField: reasoning goes back to the server in
// the field it streamed it in. OpenRouter streams "reasoning" and its
// providers may ignore "reasoning_content"; DeepSeek and vLLM stream and
// read "reasoning_content".
func TestReasoningGoesBackInItsField(t *testing.T) {
	t.Parallel()
	chunk := func(delta string) string {
		return `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	call := chunk(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]}`) +
		`data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	for _, tc := range []struct {
		name, field, other string
	}{
		{"openrouter", "reasoning", "reasoning_content"},
		{"deepseek", "reasoning_content", "reasoning"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			first := chunk(`{"role":"assistant","content":"",`+strconv.Quote(tc.field)+`:"I need"}`) +
				chunk(`{"content":"",`+strconv.Quote(tc.field)+`:" the file."}`) + call
			srv := agenttest.New(agenttest.Reply{Body: first}, agenttest.Text("done", 2))
			defer srv.Close()
			c := newTestClient(t, srv.BaseURL(), "")
			tools := []ToolSpec{{Name: "read_file", Description: "d", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}}
			msgs := []chat.Message{{Role: chat.RoleUser, Content: "read it"}}
			reply, err := c.Complete(context.Background(), Request{Messages: msgs, Tools: tools}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if reply.Reasoning != "I need the file." || len(reply.ToolCalls) != 1 {
				t.Fatalf("first answer %+v, want reasoning and one call", reply)
			}
			msgs = append(msgs,
				chat.Message{Role: chat.RoleAssistant, Reasoning: reply.Reasoning, ReasoningField: reply.ReasoningField, ToolCalls: reply.ToolCalls},
				chat.Message{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "1\tx"})
			if _, err := c.Complete(context.Background(), Request{Messages: msgs, Tools: tools}, nil); err != nil {
				t.Fatal(err)
			}
			var body struct {
				Messages []map[string]json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal(srv.Requests()[1].Raw, &body); err != nil {
				t.Fatal(err)
			}
			m := body.Messages[1]
			if got := string(m[tc.field]); got != `"I need the file."` {
				t.Errorf("assistant message %s = %s, want the reasoning", tc.field, got)
			}
			if got, ok := m[tc.other]; ok {
				t.Errorf("assistant message also carries %s = %s", tc.other, got)
			}
		})
	}
}
