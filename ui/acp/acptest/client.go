package acptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// Client is an editor for tests: it writes requests to an agent, reads
// every line the agent writes, validates each against the ACP schema, and
// answers the agent's requests (permissions by Permission, files from
// Files). A line that does not validate is kept in Errors.
type Client struct {
	v *Validator
	w io.Writer

	// Permission answers session/request_permission: the id of the option
	// chosen, or "" for the cancelled outcome. Nil chooses cancelled.
	Permission func(PermissionRequest) string
	// ReadFile and WriteFile answer fs/read_text_file and
	// fs/write_text_file; nil answers them with an error.
	ReadFile  func(path string) (string, error)
	WriteFile func(path, content string) error

	wmu     sync.Mutex
	mu      sync.Mutex
	cond    *sync.Cond
	nextID  int
	sent    map[string]string // id → method of the client's requests
	answers map[string]Message
	lines   []Message // everything the agent wrote, in order
	errs    []string
	closed  bool
}

// PermissionRequest is a session/request_permission as the agent sent it.
type PermissionRequest struct {
	SessionID string `json:"sessionId"`
	ToolCall  struct {
		ToolCallID string            `json:"toolCallId"`
		Title      string            `json:"title"`
		Kind       string            `json:"kind"`
		Content    []json.RawMessage `json:"content"`
	} `json:"toolCall"`
	Options []struct {
		OptionID string `json:"optionId"`
		Name     string `json:"name"`
		Kind     string `json:"kind"`
	} `json:"options"`
	// Raw is the whole params object.
	Raw json.RawMessage `json:"-"`
}

// NewClient starts reading what the agent writes to r; requests go to w.
func NewClient(v *Validator, r io.Reader, w io.Writer) *Client {
	c := &Client{v: v, w: w, sent: map[string]string{}, answers: map[string]Message{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(r)
	return c
}

func (c *Client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 128<<20)
	for sc.Scan() {
		line := append([]byte(nil), sc.Bytes()...)
		m, err := c.v.AgentMessage(line, func(id json.RawMessage) string {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.sent[string(id)]
		})
		c.mu.Lock()
		if err != nil {
			c.errs = append(c.errs, fmt.Sprintf("%v\n  in: %s", err, truncate(string(line), 600)))
		}
		c.lines = append(c.lines, m)
		if m.Method == "" && m.ID != nil {
			c.answers[string(m.ID)] = m
		}
		c.cond.Broadcast()
		c.mu.Unlock()
		if m.Method != "" && m.ID != nil {
			go c.answer(m)
		}
	}
	c.mu.Lock()
	c.closed = true
	c.cond.Broadcast()
	c.mu.Unlock()
}

// answer replies to one of the agent's requests.
func (c *Client) answer(m Message) {
	var result any
	var rpcErr map[string]any
	switch m.Method {
	case "session/request_permission":
		var p PermissionRequest
		_ = json.Unmarshal(m.Params, &p)
		p.Raw = m.Params
		choice := ""
		if c.Permission != nil {
			choice = c.Permission(p)
		}
		if choice == "" {
			result = map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
		} else {
			result = map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": choice}}
		}
	case "fs/read_text_file":
		var p struct{ Path string }
		_ = json.Unmarshal(m.Params, &p)
		if c.ReadFile == nil {
			rpcErr = map[string]any{"code": -32601, "message": "no files here"}
			break
		}
		text, err := c.ReadFile(p.Path)
		if err != nil {
			rpcErr = map[string]any{"code": -32002, "message": err.Error()}
			break
		}
		result = map[string]any{"content": text}
	case "fs/write_text_file":
		var p struct{ Path, Content string }
		_ = json.Unmarshal(m.Params, &p)
		if c.WriteFile == nil {
			rpcErr = map[string]any{"code": -32601, "message": "no files here"}
			break
		}
		if err := c.WriteFile(p.Path, p.Content); err != nil {
			rpcErr = map[string]any{"code": -32603, "message": err.Error()}
			break
		}
		result = map[string]any{}
	default:
		rpcErr = map[string]any{"code": -32601, "message": "unknown method"}
	}
	msg := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rpcErr != nil {
		msg["error"] = rpcErr
	} else {
		msg["result"] = result
	}
	c.send(msg)
}

// Send writes one raw line to the agent.
func (c *Client) Send(line string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = io.WriteString(c.w, line+"\n")
}

func (c *Client) send(msg any) {
	data, _ := json.Marshal(msg)
	c.Send(string(data))
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Start sends a request and returns its id, for Wait.
func (c *Client) Start(method string, params any) string {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.sent[id] = method
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	return id
}

// Wait waits for the answer to request id.
func (c *Client) Wait(ctx context.Context, id string) (Message, error) {
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if m, ok := c.answers[id]; ok {
			return m, nil
		}
		if c.closed {
			return Message{}, fmt.Errorf("the agent closed its output before answering request %s", id)
		}
		if ctx.Err() != nil {
			return Message{}, fmt.Errorf("no answer to request %s: %w", id, ctx.Err())
		}
		c.cond.Wait()
	}
}

// Call sends a request and waits for its answer; an error answer is an
// error.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	m, err := c.Wait(ctx, c.Start(method, params))
	if err != nil {
		return err
	}
	if m.Error != nil {
		return fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
	}
	if out != nil {
		return json.Unmarshal(m.Result, out)
	}
	return nil
}

// WaitFor waits until a line the agent wrote satisfies ok, and returns it.
func (c *Client) WaitFor(ctx context.Context, what string, ok func(Message) bool) (Message, error) {
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for seen := 0; ; {
		for ; seen < len(c.lines); seen++ {
			if ok(c.lines[seen]) {
				return c.lines[seen], nil
			}
		}
		if c.closed || ctx.Err() != nil {
			return Message{}, fmt.Errorf("waiting for %s: it never came", what)
		}
		c.cond.Wait()
	}
}

// Lines are the messages the agent wrote so far.
func (c *Client) Lines() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.lines...)
}

// Errors are the lines that did not validate, with why.
func (c *Client) Errors() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.errs...)
}

// Updates are the session/update notifications so far, decoded.
func (c *Client) Updates() []Update {
	var out []Update
	for _, m := range c.Lines() {
		if m.Method != "session/update" {
			continue
		}
		var n struct {
			SessionID string          `json:"sessionId"`
			Update    json.RawMessage `json:"update"`
		}
		if json.Unmarshal(m.Params, &n) != nil {
			continue
		}
		var u Update
		_ = json.Unmarshal(n.Update, &u)
		u.SessionID, u.Raw = n.SessionID, n.Update
		out = append(out, u)
	}
	return out
}

// Update is one session update, with the fields tests look at.
type Update struct {
	SessionID     string
	SessionUpdate string `json:"sessionUpdate"`
	Content       struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"-"`
	ToolCallID string          `json:"toolCallId"`
	Title      string          `json:"title"`
	Kind       string          `json:"kind"`
	Status     string          `json:"status"`
	Raw        json.RawMessage `json:"-"`
}

// UnmarshalJSON reads an update; the content is a block for message
// chunks and a list for tool calls.
func (u *Update) UnmarshalJSON(data []byte) error {
	type plain Update
	if err := json.Unmarshal(data, (*plain)(u)); err != nil {
		return err
	}
	var c struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(data, &c) == nil && len(c.Content) > 0 && c.Content[0] == '{' {
		_ = json.Unmarshal(c.Content, &u.Content)
	}
	return nil
}

// Text joins the text of the chunks of one kind (agent_message_chunk, …)
// of a session.
func Text(updates []Update, kind string) string {
	var s string
	for _, u := range updates {
		if u.SessionUpdate == kind {
			s += u.Content.Text
		}
	}
	return s
}

// Timeout is how long a test waits for the agent.
const Timeout = 60 * time.Second

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
