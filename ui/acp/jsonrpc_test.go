package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// echoHandler answers "echo" with its params, fails "fail", panics on
// "panic", waits on "wait" until cancelled, and records notifications.
type echoHandler struct {
	mu    sync.Mutex
	notes []string
}

func (h *echoHandler) request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "echo":
		return params, nil
	case "fail":
		return nil, errors.New("it failed")
	case "panic":
		panic("boom")
	case "wait":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "no " + method}
}

func (h *echoHandler) notification(method string, params json.RawMessage) {
	h.mu.Lock()
	h.notes = append(h.notes, method)
	h.mu.Unlock()
}

// exchange feeds input to a connection and returns every line it wrote,
// each decoded, once the input ends and the requests are answered.
func exchange(t testing.TB, input string) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	c := newConn(strings.NewReader(input), &out, &echoHandler{}, func(string, ...any) {})
	c.max = 4096 // maxMessage, made small
	if err := c.serve(context.Background()); err != nil {
		t.Fatalf("serve: %v", err)
	}
	var msgs []map[string]any
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a line that is not a JSON object: %q", sc.Text())
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func errorCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

// TestMalformedLines: each line that is not a valid message is answered
// with the JSON-RPC error that says why, with its id when it has a
// readable one, and the connection goes on.
func TestMalformedLines(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		code       int
		id         any // nil: the id is null
	}{
		{"not JSON", `{"jsonrpc":"2.0",`, codeParseError, nil},
		{"binary noise", "\x00\x01\xff", codeParseError, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, codeInvalidRequest, nil},
		{"a string", `"hello"`, codeInvalidRequest, nil},
		{"a number", `42`, codeInvalidRequest, nil},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"echo"}`, codeInvalidRequest, nil},
		{"a boolean id", `{"jsonrpc":"2.0","id":true,"method":"echo"}`, codeInvalidRequest, nil},
		{"no jsonrpc", `{"id":3,"method":"echo"}`, codeInvalidRequest, 3.0},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"x","method":"echo"}`, codeInvalidRequest, "x"},
		{"method not a string", `{"jsonrpc":"2.0","id":4,"method":7}`, codeInvalidRequest, nil},
		{"empty method", `{"jsonrpc":"2.0","id":5,"method":""}`, codeInvalidRequest, 5.0},
		{"neither method nor result", `{"jsonrpc":"2.0","id":6}`, codeInvalidRequest, 6.0},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"nope"}`, codeMethodNotFound, 7.0},
		{"handler error", `{"jsonrpc":"2.0","id":8,"method":"fail"}`, codeInternalError, 8.0},
		{"handler panic", `{"jsonrpc":"2.0","id":9,"method":"panic"}`, codeInternalError, 9.0},
		{"too long", `{"jsonrpc":"2.0","id":10,"method":"echo","params":"` + strings.Repeat("x", 100000) + `"}`, codeInvalidRequest, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := exchange(t, tc.line+"\n"+`{"jsonrpc":"2.0","id":"after","method":"echo","params":{"ok":true}}`+"\n")
			if len(msgs) != 2 {
				t.Fatalf("%d answers, want 2: %v", len(msgs), msgs)
			}
			var bad, good map[string]any
			for _, m := range msgs {
				if m["id"] == "after" {
					good = m
				} else {
					bad = m
				}
			}
			if bad == nil || errorCode(bad) != tc.code || bad["id"] != tc.id || bad["jsonrpc"] != "2.0" {
				t.Errorf("answered %v, want error %d with id %v", bad, tc.code, tc.id)
			}
			if good == nil || good["result"] == nil {
				t.Errorf("the next message was not answered: %v", msgs)
			}
		})
	}
}

// TestAnswersValidate: what the connection writes for bad input is valid
// ACP: an error response the schema accepts.
func TestAnswersValidate(t *testing.T) {
	v, err := validator()
	if err != nil {
		t.Fatal(err)
	}
	before := v.Count("Error")
	var out bytes.Buffer
	c := newConn(strings.NewReader("{oops\n[1]\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nope\"}\n"), &out, &echoHandler{}, func(string, ...any) {})
	if err := c.serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if _, err := v.AgentMessage([]byte(line), nil); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	if v.Count("Error")-before != 3 {
		t.Errorf("validated %v", v.Checked())
	}
}

// TestCancelRequest: $/cancel_request ends a request in progress, which
// is answered with the cancelled code.
func TestCancelRequest(t *testing.T) {
	msgs := exchange(t, `{"jsonrpc":"2.0","id":1,"method":"wait"}`+"\n"+`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`+"\n")
	if len(msgs) != 1 || errorCode(msgs[0]) != codeCancelled {
		t.Errorf("answered %v", msgs)
	}
}

// TestCallGivesUp: a request of pincer's whose context ends stops
// waiting, tells the editor, and a late answer is dropped.
func TestCallGivesUp(t *testing.T) {
	inR, inW := io.Pipe()
	var out syncBuf
	c := newConn(inR, &out, &echoHandler{}, func(string, ...any) {})
	done := make(chan error, 1)
	go func() { done <- c.serve(context.Background()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := c.call(ctx, "session/request_permission", map[string]any{}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("call: %v", err)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"cancelled"}}}`+"\n")
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"method":"$/cancel_request","params":{"requestId":1}`) {
		t.Errorf("the editor was not told: %s", out.String())
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// FuzzConn: whatever arrives, every line written is one whole JSON-RPC
// 2.0 message, and the connection ends when its input does.
func FuzzConn(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`[]`, `{`, "\x00", `{"jsonrpc":"2.0","id":null,"method":"panic"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"echo"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		for _, m := range exchange(t, input+"\n") {
			if m["jsonrpc"] != "2.0" {
				t.Fatalf("wrote %v", m)
			}
			_, hasID := m["id"]
			_, hasResult := m["result"]
			_, hasErr := m["error"]
			if !hasID || hasResult == hasErr {
				t.Fatalf("wrote %v", m)
			}
		}
	})
}

// TestServeEndsWithItsContext: told to stop (a signal), pincer does not
// wait for the editor to close its end.
func TestServeEndsWithItsContext(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	c := newConn(inR, io.Discard, &echoHandler{}, func(string, ...any) {})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.serve(ctx) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"wait"}`+"\n")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve kept waiting for input after its context ended")
	}
}
