package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"

	"pincer/internal/human"
)

// The JSON-RPC 2.0 error codes ACP uses.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeCancelled      = -32800
	codeNotFound       = -32002
)

// maxMessage is the longest line read as one message. A prompt with files
// embedded by the editor can be large; a longer line is answered with an
// error and skipped, and the connection goes on.
const maxMessage = 64 << 20

// rpcError is a JSON-RPC error object, sent for a request that failed and
// received for one of pincer's own that the editor refused.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

func invalidParams(format string, args ...any) *rpcError {
	return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// message is any JSON-RPC message as read: a request (method and id), a
// notification (method, no id) or a response (id and result or error).
// ID is nil when the message has none and the text "null" for a null id.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  *string         `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// outgoing is a message as written; ID is always present on responses
// (null when the request's id could not be read).
type outgoing struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// handler answers the editor's requests and notifications. A request's
// result is written as its response; an error that is an *rpcError keeps
// its code, any other becomes an internal error with its text. A result of
// type followed is written, and then its then runs (for updates that must
// come after the response).
type handler interface {
	request(ctx context.Context, method string, params json.RawMessage) (any, error)
	notification(method string, params json.RawMessage)
}

// followed is a result with work to do once it is written.
type followed struct {
	result any
	then   func()
}

// conn is one JSON-RPC 2.0 connection over newline-delimited JSON: the
// editor's requests are handled each on its own goroutine, its
// notifications in order as they arrive, and pincer's own requests wait
// for their response. Nothing but whole messages is ever written.
type conn struct {
	r   *bufio.Reader
	h   handler
	log func(format string, args ...any)
	max int // the longest message read (maxMessage)

	wmu    sync.Mutex
	w      io.Writer
	broken bool

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan message
	running map[string]context.CancelFunc // the editor's requests in progress, by id
	wg      sync.WaitGroup
	done    chan struct{} // closed when reading ends
}

func newConn(r io.Reader, w io.Writer, h handler, log func(string, ...any)) *conn {
	return &conn{
		r: bufio.NewReaderSize(r, 64<<10), w: w, h: h, log: log, max: maxMessage,
		pending: map[int64]chan message{}, running: map[string]context.CancelFunc{},
		done: make(chan struct{}),
	}
}

// serve reads messages until the editor closes its end (nil), reading
// fails, or ctx ends (pincer was told to stop: a blocked read must not
// keep it), then ends the requests still running and waits for them.
func (c *conn) serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		c.wg.Wait()
	}()
	defer close(c.done)
	type read struct {
		line []byte
		err  error
	}
	lines := make(chan read)
	go func() {
		for {
			line, err := c.readLine()
			select {
			case lines <- read{line, err}:
			case <-c.done:
				return
			}
			if err != nil && !errors.Is(err, errTooLong) {
				return
			}
		}
	}()
	for {
		var r read
		select {
		case <-ctx.Done():
			return nil
		case r = <-lines:
		}
		switch {
		case errors.Is(r.err, errTooLong):
			c.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: fmt.Sprintf("message longer than %d bytes; it was skipped", c.max)})
			continue
		case r.err == io.EOF && len(r.line) == 0:
			return nil
		case r.err != nil && r.err != io.EOF:
			return fmt.Errorf("read from the editor: %w", r.err)
		}
		if len(bytes.TrimSpace(r.line)) > 0 {
			c.dispatch(ctx, r.line)
		}
		if r.err == io.EOF {
			return nil
		}
	}
}

var errTooLong = errors.New("message too long")

// readLine reads one line without its end, at most c.max bytes; a
// longer one is read to its end and dropped.
func (c *conn) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(line)+len(chunk) > c.max+1 {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = c.r.ReadSlice('\n')
			}
			return nil, errTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// dispatch handles one message.
func (c *conn) dispatch(ctx context.Context, line []byte) {
	trimmed := bytes.TrimSpace(line)
	if trimmed[0] == '[' {
		c.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: "batches are not used in ACP; send one message per line"})
		return
	}
	var m message
	if err := json.Unmarshal(trimmed, &m); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || !json.Valid(trimmed) {
			c.reply(json.RawMessage("null"), nil, &rpcError{Code: codeParseError, Message: "not valid JSON: " + err.Error()})
			return
		}
		c.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: "not a JSON-RPC message: " + err.Error()})
		return
	}
	id := m.ID
	if id != nil && !validID(id) {
		c.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: "the id must be a string, a number or null"})
		return
	}
	if m.JSONRPC != "2.0" {
		if id == nil {
			id = json.RawMessage("null")
		}
		c.reply(id, nil, &rpcError{Code: codeInvalidRequest, Message: `"jsonrpc" must be "2.0"`})
		return
	}
	switch {
	case m.Method != nil && *m.Method == "":
		if id == nil {
			id = json.RawMessage("null")
		}
		c.reply(id, nil, &rpcError{Code: codeInvalidRequest, Message: "the method is empty"})
	case m.Method != nil && id == nil:
		c.notification(*m.Method, m.Params)
	case m.Method != nil:
		c.request(ctx, id, *m.Method, m.Params)
	case id != nil && (m.Result != nil || m.Error != nil):
		c.response(id, m)
	default:
		if id == nil {
			id = json.RawMessage("null")
		}
		c.reply(id, nil, &rpcError{Code: codeInvalidRequest, Message: "a message needs a method (a request or notification) or a result or error (a response)"})
	}
}

// validID reports a JSON-RPC id: a string, a number or null.
func validID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case nil, string, float64:
		return true
	}
	return false
}

// notification handles one of the editor's notifications in order;
// $/cancel_request ends a request of the editor's still running.
func (c *conn) notification(method string, params json.RawMessage) {
	defer c.recoverIn("the notification " + method)
	if method == "$/cancel_request" {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(params, &p) == nil && p.RequestID != nil {
			c.mu.Lock()
			cancel := c.running[idKey(p.RequestID)]
			c.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
		return
	}
	c.h.notification(method, params)
}

// request handles one of the editor's requests on its own goroutine,
// or before the next line is read when the method is sequential.
func (c *conn) request(ctx context.Context, id json.RawMessage, method string, params json.RawMessage) {
	ctx, cancel := context.WithCancel(ctx)
	key := idKey(id)
	c.mu.Lock()
	c.running[key] = cancel
	c.mu.Unlock()
	c.wg.Add(1)
	run := func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.running, key)
			c.mu.Unlock()
			cancel()
		}()
		var result any
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					c.log("pincer: internal error in %s: %v\n%s", method, p, debug.Stack())
					err = &rpcError{Code: codeInternalError, Message: fmt.Sprintf("pincer failed on %s: %v", method, p)}
				}
			}()
			result, err = c.h.request(ctx, method, params)
		}()
		var then func()
		if f, ok := result.(followed); ok {
			result, then = f.result, f.then
		}
		if err != nil {
			var re *rpcError
			switch {
			case errors.As(err, &re):
			case ctx.Err() != nil && errors.Is(err, context.Canceled):
				re = &rpcError{Code: codeCancelled, Message: "the request was cancelled"}
			default:
				re = &rpcError{Code: codeInternalError, Message: err.Error()}
			}
			c.reply(id, nil, re)
			return
		}
		if result == nil {
			result = struct{}{}
		}
		c.reply(id, result, nil)
		if then != nil {
			defer c.recoverIn("the updates after " + method)
			then()
		}
	}
	if sequential(method) {
		run()
		return
	}
	go run()
}

// sequential names the requests answered before the next line is read:
// an editor may send initialize and session/new without waiting between
// them, and the second must find the connection initialized.
func sequential(method string) bool { return method == "initialize" }

// recoverIn turns a panic into a line on the log: one message must never
// end the connection.
func (c *conn) recoverIn(what string) {
	if p := recover(); p != nil {
		c.log("pincer: internal error in %s: %v\n%s", what, p, debug.Stack())
	}
}

// idKey is a request id as a map key: a number and the same number
// written otherwise are one key.
func idKey(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) == nil {
		if f, ok := v.(float64); ok {
			return "n" + strconv.FormatFloat(f, 'g', -1, 64)
		}
		if s, ok := v.(string); ok {
			return "s" + s
		}
	}
	return "r" + string(id)
}

// response delivers the answer to one of pincer's requests; one nobody
// waits for any more (it was given up) is dropped.
func (c *conn) response(id json.RawMessage, m message) {
	n, err := strconv.ParseInt(string(id), 10, 64)
	c.mu.Lock()
	ch, ok := c.pending[n]
	delete(c.pending, n)
	c.mu.Unlock()
	if err != nil || !ok {
		c.log("pincer: a response to no request of pincer's (id %s); ignored", human.OneLine(string(id), 80))
		return
	}
	ch <- m
}

// reply writes the response to a request.
func (c *conn) reply(id json.RawMessage, result any, e *rpcError) {
	msg := outgoing{JSONRPC: "2.0", ID: id}
	if e != nil {
		msg.Error = e
	} else {
		msg.Result = result
	}
	c.write(msg)
}

// notify sends a notification to the editor.
func (c *conn) notify(method string, params any) {
	c.write(outgoing{JSONRPC: "2.0", Method: method, Params: params})
}

// errClosed is what a request of pincer's returns once the editor is gone.
var errClosed = errors.New("the editor closed the connection")

// call sends a request to the editor and decodes its result into out. When
// ctx ends first, pincer stops waiting and tells the editor
// ($/cancel_request); the answer, if one comes, is dropped.
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	id := c.nextID.Add(1)
	ch := make(chan message, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	raw := json.RawMessage(strconv.FormatInt(id, 10))
	if !c.write(outgoing{JSONRPC: "2.0", ID: raw, Method: method, Params: params}) {
		c.forget(id)
		return errClosed
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(m.Result, out); err != nil {
			return fmt.Errorf("the editor's answer to %s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		c.notify("$/cancel_request", map[string]any{"requestId": id})
		return ctx.Err()
	case <-c.done:
		c.forget(id)
		return errClosed
	}
}

func (c *conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// write sends one message as one line; false once the editor's end is
// closed.
func (c *conn) write(m outgoing) bool {
	data, err := json.Marshal(m)
	if err != nil {
		c.log("pincer: could not encode a message for the editor: %v", err)
		data, _ = json.Marshal(outgoing{JSONRPC: "2.0", ID: m.ID, Error: &rpcError{Code: codeInternalError, Message: "pincer could not encode its answer"}})
		if m.ID == nil {
			return true
		}
	}
	data = append(data, '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.broken {
		return false
	}
	if _, err := c.w.Write(data); err != nil {
		c.broken = true
		c.log("pincer: writing to the editor failed: %v", err)
		return false
	}
	return true
}
