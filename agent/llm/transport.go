package llm

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

// ErrStreamCut is returned when a stream ends before the server said it was
// finished (no finish_reason and no [DONE]): the answer is incomplete.
var ErrStreamCut = errors.New("the model server ended the stream before the answer was complete")

// ErrStreamIdle is returned when a stream sent nothing for longer than the
// idle timeout, or a server that took the request sent nothing at all for
// longer than the first-byte timeout (see SilentError).
var ErrStreamIdle = errors.New("the model server stopped sending")

// SilentError says the model server took the request (the connection was
// made and the request written) but sent no byte of an answer in time. It
// is not a connection failure, and it is retried only within the silent
// retry budget. It matches ErrStreamIdle.
type SilentError struct {
	Host   string
	Waited time.Duration // the wait of the last attempt
	// Attempts is how many attempts met the silence, and Total the time
	// from the first of them to the end; the limits were FirstByte for
	// each attempt (first_byte_timeout) and Budget for all of them
	// (silent_retry_budget), 0 when unset.
	Attempts          int
	Total             time.Duration
	FirstByte, Budget time.Duration
}

func (e *SilentError) Error() string {
	round := func(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
	if e.Attempts <= 1 {
		return fmt.Sprintf("connected to the model server at %s, but the model sent nothing for %s%s (raise first_byte_timeout if it needs longer to start answering)",
			e.Host, round(e.Waited), e.limits())
	}
	return fmt.Sprintf("connected to the model server at %s, but the model sent nothing for %s over %d attempts%s (raise first_byte_timeout if it needs longer to start answering)",
		e.Host, round(e.Total), e.Attempts, e.limits())
}

// limits says the time limits that ended the wait, for the message.
func (e *SilentError) limits() string {
	var parts []string
	if e.FirstByte > 0 {
		parts = append(parts, fmt.Sprintf("first_byte_timeout %s for each attempt", e.FirstByte))
	}
	if e.Budget > 0 && e.Attempts > 1 {
		parts = append(parts, fmt.Sprintf("silent_retry_budget %s in all", e.Budget))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return "; the limit is " + parts[0]
	}
	return "; the limits are " + strings.Join(parts, " and ")
}

// Is makes errors.Is(err, ErrStreamIdle) hold.
func (e *SilentError) Is(target error) bool { return target == ErrStreamIdle }

// errNoFirstByte is the cause the first-byte timer cancels an attempt with.
var errNoFirstByte = errors.New("no first byte in time")

// transport is the http.RoundTripper the langchaingo client sends through.
// For chat completion requests it rewrites the request, retries failures
// that happened before any answer, parses the server's stream itself, and
// hands langchaingo a normalised stream: text and reasoning passed through,
// complete tool calls before the finish chunk, and an error (never a silent
// partial answer) when the stream breaks.
type transport struct {
	base        http.RoundTripper
	apiKey      string // only to send it; scrub removes it from errors
	scrub       scrubber
	query       string // the base URL's query, added to every request
	maxRetries  int
	idleTimeout time.Duration
	// firstByte limits the wait from sending a request to the first byte of
	// the answer; silentBudget limits the total time spent on a server that
	// takes requests and stays silent, over all attempts. 0 means no limit.
	firstByte    time.Duration
	silentBudget time.Duration
	temperature  *float64
	backoff      func(attempt int) time.Duration
	sleep        func(ctx context.Context, d time.Duration) error
	// maxArgs bounds the arguments of one tool call kept (0: none); the
	// calls of one answer are bounded by MaxToolCalls.
	maxArgs int
}

// maxEvent bounds one event of a stream: room for a tool call's arguments
// at the limit, JSON-escaped, and for text, so a server cannot make pincer
// hold an event of any size.
func (t *transport) maxEvent() int {
	if t.maxArgs <= 0 {
		return 64 << 20
	}
	return 8<<20 + 2*t.maxArgs
}

// callState links one Complete call to the requests langchaingo sends for
// it. It travels in the request context.
type callState struct {
	mu        sync.Mutex
	sink      func(Event)
	closed    bool
	reasoning []reasoningBack // reasoning of each assistant message, in order
	merger    *merger
	err       error
	finished  bool // the normalised stream was handed out to its end
}

type callStateKey struct{}

func withCallState(ctx context.Context, st *callState) context.Context {
	return context.WithValue(ctx, callStateKey{}, st)
}

func callStateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(callStateKey{}).(*callState)
	return st
}

// emit forwards an event unless the call has already returned.
func (st *callState) emit(ev Event) {
	st.mu.Lock()
	closed, sink := st.closed, st.sink
	st.mu.Unlock()
	if !closed && sink != nil {
		sink(ev)
	}
}

func (st *callState) fail(err error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.err == nil {
		st.err = err
	}
	return st.err
}

func (st *callState) close() {
	st.mu.Lock()
	st.closed = true
	st.mu.Unlock()
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	st := callStateFrom(req.Context())
	if st == nil || req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") {
		return t.send(req)
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, st.fail(fmt.Errorf("read request: %w", err))
	}
	body, err = rewriteRequest(body, st.reasoning, t.temperature)
	if err != nil {
		return nil, st.fail(err)
	}
	ctx := req.Context()
	// silentSince is when the first attempt that met a silent server
	// began: the silent retry budget runs from there.
	var silentSince time.Time
	silentAttempts := 0
	for attempt := 1; ; attempt++ {
		firstByte := t.firstByte
		if !silentSince.IsZero() && t.silentBudget > 0 {
			left := max(t.silentBudget-time.Since(silentSince), time.Millisecond)
			if firstByte <= 0 || left < firstByte {
				firstByte = left
			}
		}
		began := time.Now()
		sent := func() { st.emit(Waiting{FirstByte: firstByte, Budget: t.silentBudget}) }
		resp, actx, cancel, err := t.attempt(req, body, firstByte, sent)
		if err == nil && resp.StatusCode == http.StatusOK {
			m := &merger{emit: st.emit, maxArgs: t.maxArgs, maxCalls: MaxToolCalls}
			st.mu.Lock()
			st.merger = m
			st.mu.Unlock()
			return normalisedResponse(req, resp, t.newStream(actx, resp, cancel, m, st)), nil
		}
		var wait time.Duration
		if err == nil {
			err = t.statusError(resp)
			wait = retryAfter(resp.Header.Get("Retry-After"))
			_ = resp.Body.Close()
			cancel(nil)
			if !retryableStatus(resp.StatusCode) {
				return nil, st.fail(err)
			}
		} else {
			cancel(nil)
			if ctx.Err() != nil {
				return nil, st.fail(ctx.Err())
			}
			var silent *SilentError
			if errors.As(err, &silent) {
				silent.Host = req.URL.Host
				if silentSince.IsZero() {
					silentSince = began
				}
				silentAttempts++
				silent.Attempts, silent.Total = silentAttempts, time.Since(silentSince)
				silent.FirstByte, silent.Budget = t.firstByte, t.silentBudget
			} else {
				err = t.scrub.err(fmt.Errorf("could not reach the model server at %s: %w", req.URL.Host, err))
				if !retryableNetError(err, req.URL.Hostname()) {
					return nil, st.fail(err)
				}
			}
		}
		if attempt > t.maxRetries {
			return nil, st.fail(err)
		}
		if wait <= 0 {
			wait = t.backoff(attempt)
		}
		if isSilent(err) && t.silentBudget > 0 &&
			t.silentBudget-time.Since(silentSince)-wait < min(t.firstByte, time.Second) {
			// Another attempt would not get a fair wait within the budget.
			return nil, st.fail(err)
		}
		st.emit(Retrying{Attempt: attempt, Wait: wait, Err: t.scrub.err(err)})
		if err := t.sleep(ctx, wait); err != nil {
			return nil, st.fail(err)
		}
	}
}

// attempt sends one request and waits for the first byte of its answer;
// sent is called once the request is written. Reading is cancelled when
// the returned cancel is called, when no byte arrives within firstByte
// (0: no limit), or, once the answer has started, when the server is
// silent for the idle timeout.
func (t *transport) attempt(orig *http.Request, body []byte, firstByte time.Duration, onSent func()) (*http.Response, context.Context, context.CancelCauseFunc, error) {
	ctx, cancel := context.WithCancelCause(orig.Context())
	var wrote atomic.Bool
	traced := httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			first := !wrote.Swap(true)
			if first && info.Err == nil && onSent != nil {
				onSent()
			}
		},
	})
	req := orig.Clone(traced)
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	req.Header.Set("Accept", "text/event-stream")
	if t.apiKey == "" {
		req.Header.Del("Authorization")
		req.Header.Del("api-key")
	}
	sent := time.Now()
	var timer *time.Timer
	if firstByte > 0 {
		timer = time.AfterFunc(firstByte, func() { cancel(errNoFirstByte) })
	}
	stop := func(cause error) {
		if timer != nil {
			timer.Stop()
		}
		cancel(cause)
	}
	// silence turns a wait cut by the first-byte timer into what it was: a
	// server that took the request and said nothing, or one never reached.
	silence := func(err error) error {
		if !errors.Is(context.Cause(ctx), errNoFirstByte) {
			return err
		}
		if wrote.Load() {
			return &SilentError{Host: orig.URL.Host, Waited: time.Since(sent)}
		}
		return fmt.Errorf("no connection within %s: %w", firstByte, err)
	}
	resp, err := t.send(req)
	if err != nil {
		err = silence(err)
		stop(nil)
		return nil, ctx, stop, err
	}
	if resp.StatusCode == http.StatusOK {
		// Headers alone are not an answer: wait for its first byte under the
		// same limit, so a silent server can still be retried.
		br := bufio.NewReaderSize(resp.Body, 32*1024)
		if _, err := br.Peek(1); err != nil && !errors.Is(err, io.EOF) {
			_ = resp.Body.Close()
			err = silence(err)
			stop(nil)
			return nil, ctx, stop, err
		}
		resp.Body = struct {
			io.Reader
			io.Closer
		}{br, resp.Body}
	}
	if timer != nil && !timer.Stop() {
		// The first-byte limit fired after the first byte came but before
		// the timer was stopped: ctx is cancelled, so the stream could only
		// fail halfway. Report it as the silence it was, to be retried.
		_ = resp.Body.Close()
		<-ctx.Done() // the timer's cancel may still be on its way
		err := silence(context.Cause(ctx))
		stop(nil)
		return nil, ctx, stop, err
	}
	if t.idleTimeout > 0 {
		timer = time.AfterFunc(t.idleTimeout, func() { cancel(ErrStreamIdle) })
		resp.Body = &idleBody{ReadCloser: resp.Body, timer: timer, idle: t.idleTimeout}
	}
	return resp, ctx, stop, nil
}

func isSilent(err error) bool {
	var s *SilentError
	return errors.As(err, &s)
}

func (t *transport) send(req *http.Request) (*http.Response, error) {
	if t.query != "" {
		// The base URL's own parameters (a key some gateways take as
		// ?api-key=…) go with every request, before the request's own.
		req = req.Clone(req.Context())
		req.URL.RawQuery = joinQuery(t.query, req.URL.RawQuery)
	}
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(req)
}

// idleBody pushes the idle deadline back whenever bytes arrive.
type idleBody struct {
	io.ReadCloser
	timer *time.Timer
	idle  time.Duration
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.timer.Reset(b.idle)
	}
	return n, err
}

// statusError reads the error a server sent with a non-200 status.
func (t *transport) statusError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64*1024))
	e := &apiError{Status: resp.StatusCode, RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &env) == nil {
		if pe := parseAPIError(env.Error); pe != nil {
			e.Message, e.Type, e.Code, e.NCtx = pe.Message, pe.Type, pe.Code, pe.NCtx
		} else if env.Message != "" {
			e.Message = env.Message
		} else if len(env.Detail) > 0 {
			e.Message = strings.Trim(string(env.Detail), `"`)
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(raw))
		if len(e.Message) > 300 {
			e.Message = e.Message[:300] + "…"
		}
	}
	e.Message, e.Type, e.Code = t.scrub.text(e.Message), t.scrub.text(e.Type), t.scrub.text(e.Code)
	return e
}

func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

// retryAfter parses a Retry-After header: seconds or an HTTP date. The wait
// is capped at two minutes so a confused server cannot park the session.
func retryAfter(h string) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(h, 64); err == nil {
		d = time.Duration(secs * float64(time.Second))
	} else if at, err := http.ParseTime(h); err == nil {
		d = time.Until(at)
	}
	if d < 0 {
		return 0
	}
	return min(d, 2*time.Minute)
}

// defaultBackoff waits about 1s, 2s, 4s … up to 30s, with jitter so that
// several clients do not retry in step.
func defaultBackoff(attempt int) time.Duration {
	d := time.Second << min(attempt-1, 5)
	d = min(d, 30*time.Second)
	return d/2 + rand.N(d/2+1)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// scrubber removes credentials (the API key, those inside the base URL)
// from text that leaves pincer: errors, retry notices.
type scrubber []string

// newScrubber keeps the secrets long enough to be told from ordinary text,
// longest first, so a secret containing another is replaced whole.
func newScrubber(secrets ...string) scrubber {
	var out scrubber
	for _, s := range secrets {
		if len(s) >= 4 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

func (sc scrubber) text(s string) string {
	for _, secret := range sc {
		s = strings.ReplaceAll(s, secret, "<redacted>")
	}
	return s
}

// err returns err with a scrubbed message that still matches the original
// with errors.Is and errors.As.
func (sc scrubber) err(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := sc.text(msg); clean != msg {
		return &scrubbedError{msg: clean, err: err}
	}
	return err
}

// joinQuery joins two raw query strings.
func joinQuery(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "&" + b
}

// scrubbedError shows a cleaned message but still matches the original
// error with errors.Is.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// retryableNetError reports whether a failure to get an answer is worth
// another try. A refused connection to this machine (a local server that is
// not running), a host name that does not exist, a certificate that cannot
// be trusted and https to a plain HTTP server are not: retrying would only
// delay the message that says so.
func retryableNetError(err error, host string) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) && isLoopback(host) {
		return false
	}
	var certErr *tls.CertificateVerificationError
	var record tls.RecordHeaderError // TLS spoken to a plain HTTP server
	return !errors.As(err, &certErr) && !errors.As(err, &record)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// reasoningBack is the reasoning of one assistant message as it goes back to
// the server: its text, and the field it came in ("" for reasoning_content).
type reasoningBack struct {
	text  string
	field string
}

// rewriteRequest adjusts the JSON body langchaingo built: it asks for a
// stream with usage, gives each assistant message its reasoning back (thinking
// models that call tools reject a follow-up without it, and langchaingo has
// no field for it; it goes back in the field it came in, as OpenRouter reads
// only "reasoning"), and sends a temperature only when one is configured
// (langchaingo always sends 0, which some models reject or degrade under).
func rewriteRequest(body []byte, reasoning []reasoningBack, temperature *float64) ([]byte, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("the request body is not JSON: %w", err)
	}
	req["stream"] = json.RawMessage("true")
	req["stream_options"] = json.RawMessage(`{"include_usage":true}`)
	delete(req, "temperature")
	if temperature != nil {
		req["temperature"], _ = json.Marshal(*temperature)
	}
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(req["messages"], &msgs); err != nil {
		return nil, fmt.Errorf("the request messages are not a list: %w", err)
	}
	k := 0
	for _, m := range msgs {
		if string(m["role"]) != `"assistant"` {
			continue
		}
		if k < len(reasoning) && reasoning[k].text != "" {
			field := "reasoning_content"
			if reasoning[k].field == "reasoning" {
				field = "reasoning"
			}
			m[field], _ = json.Marshal(reasoning[k].text)
		}
		k++
	}
	req["messages"], _ = json.Marshal(msgs)
	return json.Marshal(req)
}

// normalisedResponse is the 200 response langchaingo reads: an SSE stream
// produced by s.
func normalisedResponse(req *http.Request, upstream *http.Response, s *stream) *http.Response {
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         upstream.Proto,
		ProtoMajor:    upstream.ProtoMajor,
		ProtoMinor:    upstream.ProtoMinor,
		Header:        h,
		Body:          s,
		ContentLength: -1,
		Request:       req,
	}
}

// stream is the body langchaingo reads. Each Read pulls events from the
// server's stream and merges them (the merger sends the live events); once
// the server's stream is complete, it writes the normalised equivalent.
type stream struct {
	ctx    context.Context
	resp   *http.Response
	cancel context.CancelCauseFunc
	events *sseReader
	merger *merger
	st     *callState
	idle   time.Duration
	out    bytes.Buffer
	done   bool
	err    error
	json   bool // the server answered with plain JSON instead of a stream
}

func (t *transport) newStream(ctx context.Context, resp *http.Response, cancel context.CancelCauseFunc, m *merger, st *callState) *stream {
	ct := resp.Header.Get("Content-Type")
	return &stream{
		ctx:    ctx,
		resp:   resp,
		cancel: cancel,
		events: newSSEReaderMax(resp.Body, t.maxEvent()),
		merger: m,
		st:     st,
		idle:   t.idleTimeout,
		json:   strings.HasPrefix(ct, "application/json"),
	}
}

// Read implements io.Reader.
func (s *stream) Read(p []byte) (int, error) {
	for s.out.Len() == 0 {
		if s.done {
			if s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		}
		s.step()
	}
	return s.out.Read(p)
}

// Close releases the server's stream.
func (s *stream) Close() error {
	s.cancel(nil)
	return s.resp.Body.Close()
}

func (s *stream) step() {
	if s.json {
		s.wholeJSON()
		return
	}
	ev, err := s.events.Next()
	if err != nil {
		if errors.Is(err, io.EOF) {
			s.finish()
			return
		}
		s.fail(s.readError(err))
		return
	}
	if ev.Name == "error" {
		e := parseAPIError(ev.Data)
		if e == nil {
			e = &apiError{Message: string(ev.Data)}
		}
		s.fail(e)
		return
	}
	if err := s.merger.chunk(ev.Data); err != nil {
		s.fail(err)
		return
	}
	if s.merger.done {
		s.finish()
	}
}

// wholeJSON handles a server that ignored stream:true and sent one JSON
// completion: it is merged as if it were a single chunk.
func (s *stream) wholeJSON() {
	raw, err := io.ReadAll(io.LimitReader(s.resp.Body, 64<<20))
	if err != nil {
		s.fail(s.readError(err))
		return
	}
	if err := s.merger.chunk(raw); err != nil {
		s.fail(err)
		return
	}
	if s.merger.chunks == 0 {
		s.fail(fmt.Errorf("the model server sent an empty response"))
		return
	}
	s.merger.done = true
	s.finish()
}

func (s *stream) readError(err error) error {
	if errors.Is(context.Cause(s.ctx), ErrStreamIdle) || errors.Is(err, ErrStreamIdle) {
		return fmt.Errorf("the model server sent nothing for %s; the answer was aborted (raise idle_timeout if this model thinks for long): %w", s.idle, ErrStreamIdle)
	}
	if s.ctx.Err() != nil {
		return s.ctx.Err()
	}
	return fmt.Errorf("the stream from the model server broke: %w", err)
}

func (s *stream) fail(err error) {
	s.err = s.st.fail(err)
	s.done = true
}

// finish writes the end of the normalised stream: complete tool calls, the
// finish chunk, usage and [DONE]; or fails when the server's stream was cut.
//
// The text and reasoning go to langchaingo here, in a few large pieces, not
// as they arrive: the live events come from the merger, and langchaingo
// joins pieces by string concatenation, which is quadratic in their number.
func (s *stream) finish() {
	s.merger.finishText()
	if !s.merger.complete() {
		s.fail(ErrStreamCut)
		return
	}
	r := s.merger.reply()
	s.writeText(r.Reasoning, r.Content)
	for i, c := range r.ToolCalls {
		// The header fragment has a type, so langchaingo starts a new call;
		// the argument fragments have none, so it appends them to that call.
		s.writeChunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, "")
		for _, piece := range splitText(c.Arguments, passThroughPiece) {
			s.writeChunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": piece},
			}}}, "")
		}
	}
	finish := r.FinishReason
	if finish == "" || finish == "function_call" {
		// langchaingo dereferences a legacy function call that it never
		// fills when it sees "function_call"; the calls are tool calls here.
		finish = "stop"
		if len(r.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	s.writeChunk(map[string]any{}, finish)
	if s.merger.usage != nil {
		u := s.merger.usage
		s.writeData(map[string]any{"choices": []any{}, "usage": map[string]any{
			"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "total_tokens": u.TotalTokens,
		}})
	}
	s.out.WriteString("data: [DONE]\n\n")
	s.done = true
	s.st.mu.Lock()
	s.st.finished = true
	s.st.mu.Unlock()
}

// passThroughPiece bounds each line handed to langchaingo, whose scanner
// refuses lines over 64 KiB (JSON escaping can grow text sixfold).
const passThroughPiece = 8 * 1024

// writeText hands langchaingo the reasoning and the answer in pieces.
func (s *stream) writeText(reasoning, text string) {
	for _, piece := range splitText(reasoning, passThroughPiece) {
		s.writeChunk(map[string]any{"reasoning_content": piece}, "")
	}
	for _, piece := range splitText(text, passThroughPiece) {
		s.writeChunk(map[string]any{"content": piece}, "")
	}
}

func (s *stream) writeChunk(delta map[string]any, finish string) {
	choice := map[string]any{"index": 0, "delta": delta}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	s.writeData(map[string]any{"choices": []any{choice}})
}

func (s *stream) writeData(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.fail(fmt.Errorf("encode stream chunk: %w", err))
		return
	}
	s.out.WriteString("data: ")
	s.out.Write(b)
	s.out.WriteString("\n\n")
}

// splitText cuts s into pieces of at most n bytes without splitting a
// character.
func splitText(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 {
			cut = n
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
