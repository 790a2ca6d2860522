package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"pincer/chat"
)

// Request is what the agent asks of the model: the whole conversation to send
// and the tools it may call.
type Request struct {
	Messages []chat.Message
	Tools    []ToolSpec
	// ToolChoice "none" keeps the tools listed (the history refers to them)
	// but tells the model not to call any.
	ToolChoice string
	// TextTools sends no tools of the server's own: they are described in
	// the system prompt and the model writes its calls as text, which are
	// read back as calls (for a server started without its tool-call
	// parser, see NativeToolsRefused). The history's calls and results are
	// sent as text too.
	TextTools bool
	// Deferred are tools listed by name only (in a load_tools tool's
	// description), their definitions not sent: a call the model writes
	// as text that names one is read as a call, as a server passes on a
	// native call to any name, and the agent loads the tool when it runs
	// it. Only their names are read.
	Deferred []ToolSpec
	// Model, when set, is asked for instead of the client's model, for
	// this request only (a custom command's or a sub-agent's model).
	Model string
}

// ToolSpec describes one tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// Reply is a finished assistant message. On error it holds what arrived
// before the failure, so a cancelled answer can be kept.
type Reply struct {
	Content   string
	Reasoning string
	// ReasoningField names the field Reasoning came in when it was not
	// reasoning_content (see chat.Message.ReasoningField).
	ReasoningField string
	ToolCalls      []chat.ToolCall
	FinishReason   string
	Usage          chat.Usage
	// DroppedCalls counts the calls of the answer past MaxToolCalls, which
	// were neither kept nor run; ArgsLimit is the bound on one call's
	// arguments the answer was read with (0: none).
	DroppedCalls int
	ArgsLimit    int
}

// MaxToolCalls is the most tool calls of one answer pincer keeps and runs;
// those past it are refused, and the model is told to send them again.
const MaxToolCalls = 64

// DefaultMaxToolArgs is the default bound on the arguments of one tool
// call: a larger call is refused without being read.
const DefaultMaxToolArgs = 1 << 20

// ClientOptions configure a Client.
type ClientOptions struct {
	BaseURL     string        // e.g. https://api.openai.com/v1
	APIKey      string        // may be empty for local servers
	Model       string        // the model name the server knows
	Temperature *float64      // nil: let the server choose
	MaxRetries  int           // retries before the first byte; <0 means none, 0 means 4
	IdleTimeout time.Duration // abort a stream silent this long; 0 means 90s, <0 never
	// FirstByteTimeout limits the wait for the first byte of an answer
	// after the request was sent; 0 means DefaultFirstByteTimeout, <0 never.
	FirstByteTimeout time.Duration
	// SilentRetryBudget bounds the total time spent on a server that takes
	// requests but sends nothing, retries included; 0 means
	// DefaultSilentRetryBudget, <0 no bound.
	SilentRetryBudget time.Duration
	// HTTP is the transport requests finally go through; nil means
	// http.DefaultTransport. Tests point it at an httptest server.
	HTTP http.RoundTripper
	// Secrets are credentials besides APIKey (those inside BaseURL) that
	// must never appear in an error or notice.
	Secrets []string
	// MaxToolArgs bounds the arguments of one tool call in bytes; 0 means
	// DefaultMaxToolArgs, <0 no bound.
	MaxToolArgs int
	// Hosted says the server is a hosted service, not a local one: the
	// window is asked of its model list only (see DiscoverWindow).
	Hosted bool
	// Backoff, when set, is the wait before retry attempt n (from 1),
	// instead of about 1s, 2s, 4s … with jitter; tests make it short.
	Backoff func(attempt int) time.Duration
}

// Client talks to an OpenAI-compatible server through langchaingo, with the
// stream handling repaired by its own transport (see transport).
type Client struct {
	llm   llms.Model
	mu    sync.Mutex
	model string
	base  string
	key   string
	http  *http.Client
	scrub scrubber
	// probe asks the server about the model's window, straight through
	// the base transport (no retries: an endpoint missing is an answer).
	probe   *http.Client
	windows windowCache
	tokens  tokenizer
	hosted  bool
	// opensThinking names the models whose template opens the thinking
	// block (an answer closed one it never opened); guarded by mu.
	opensThinking map[string]bool
	// reasoningRefused is set once the server refused a request for the
	// reasoning it carried back (see ReasoningRefused): none is sent to it
	// again; guarded by mu.
	reasoningRefused bool
}

// NewClient checks the options and builds a client.
func NewClient(o ClientOptions) (*Client, error) {
	if o.Model == "" {
		return nil, errors.New("no model is set; pass --model or set \"model\" in the config file")
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, newScrubber(append([]string{o.APIKey}, o.Secrets...)...).err(
			fmt.Errorf("base URL %q is not an http(s) URL; set \"base_url\" like https://api.openai.com/v1", o.BaseURL))
	}
	retries := o.MaxRetries
	switch {
	case retries == 0:
		retries = 4
	case retries < 0:
		retries = 0
	}
	idle := o.IdleTimeout
	switch {
	case idle == 0:
		idle = 90 * time.Second
	case idle < 0:
		idle = 0 // no idle limit
	}
	firstByte := orDefault(o.FirstByteTimeout, DefaultFirstByteTimeout)
	silentBudget := orDefault(o.SilentRetryBudget, DefaultSilentRetryBudget)
	backoff := o.Backoff
	if backoff == nil {
		backoff = defaultBackoff
	}
	maxArgs := o.MaxToolArgs
	switch {
	case maxArgs == 0:
		maxArgs = DefaultMaxToolArgs
	case maxArgs < 0:
		maxArgs = 0 // no bound
	}
	base, query := splitBase(o.BaseURL)
	scrub := newScrubber(append([]string{o.APIKey}, o.Secrets...)...)
	tr := &transport{
		maxArgs:      maxArgs,
		base:         o.HTTP,
		apiKey:       o.APIKey,
		scrub:        scrub,
		query:        query,
		maxRetries:   retries,
		idleTimeout:  idle,
		firstByte:    firstByte,
		silentBudget: silentBudget,
		temperature:  o.Temperature,
		backoff:      backoff,
		sleep:        sleepCtx,
	}
	hc := &http.Client{Transport: tr}
	token := o.APIKey
	if token == "" {
		token = "none" // langchaingo insists on a token; the transport drops the header
	}
	llm, err := openai.New(
		openai.WithToken(token),
		openai.WithModel(o.Model),
		openai.WithBaseURL(base),
		openai.WithHTTPClient(hc),
	)
	if err != nil {
		return nil, scrub.err(fmt.Errorf("set up the model client: %w", err))
	}
	rt := o.HTTP
	if rt == nil {
		rt = http.DefaultTransport
	}
	probe := &http.Client{Transport: rt, Timeout: WindowProbeTimeout}
	return &Client{llm: llm, model: o.Model, base: base, key: o.APIKey, http: hc, scrub: scrub, probe: probe, hosted: o.Hosted}, nil
}

// splitBase parts a base URL into what endpoint paths are appended to and
// its query string, which the transport adds to every request: appending
// "/chat/completions" to "…/v1?api-key=K" would put the path in the query.
func splitBase(raw string) (base, query string) {
	raw = strings.TrimSuffix(raw, "/")
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		raw, query = raw[:i], raw[i+1:]
	}
	return strings.TrimSuffix(raw, "/"), query
}

// displayURL is a base URL as errors show it: scheme, host and path, with
// no user info and no query, where credentials live.
func displayURL(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "the configured base URL"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// Defaults of the client's time limits.
const (
	DefaultFirstByteTimeout  = 90 * time.Second
	DefaultSilentRetryBudget = 3 * time.Minute
)

// orDefault reads a limit option: 0 means def, below 0 means no limit (0).
func orDefault(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// ModelName is the model the client asks for.
func (c *Client) ModelName() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model
}

// SetModel switches the model for the following requests (the /model
// picker).
func (c *Client) SetModel(name string) {
	c.mu.Lock()
	c.model = name
	c.mu.Unlock()
}

// Complete sends the conversation and streams the answer into sink. The
// returned error is context.Canceled when ctx was cancelled, ErrStreamCut
// or ErrStreamIdle when the stream broke, or a readable API error.
func (c *Client) Complete(ctx context.Context, req Request, sink func(Event)) (Reply, error) {
	if sink == nil {
		sink = func(Event) {}
	}
	history := ReasoningOfToolTurns(req.Messages)
	if req.TextTools && len(req.Tools) > 0 {
		history = asTextTools(history, req.Tools)
	}
	msgs, reasoning, err := toLangchain(history)
	if err != nil {
		return Reply{}, err
	}
	model := c.ModelName()
	if req.Model != "" {
		model = req.Model
	}
	c.mu.Lock()
	opened := c.opensThinking[model]
	if c.reasoningRefused {
		reasoning = nil
	}
	c.mu.Unlock()
	shape := newShaper(sink, len(req.Tools) > 0, opened)
	opts := []llms.CallOption{
		llms.WithModel(model),
		// langchaingo parses a streamed answer only when a streaming
		// function is set; the events themselves come from the transport.
		llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }),
	}
	if len(req.Tools) > 0 && !req.TextTools {
		ts := make([]llms.Tool, len(req.Tools))
		for i, t := range req.Tools {
			ts[i] = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
				Name: t.Name, Description: t.Description, Parameters: t.Parameters,
			}}
		}
		opts = append(opts, llms.WithTools(ts))
		if req.ToolChoice != "" {
			opts = append(opts, llms.WithToolChoice(req.ToolChoice))
		}
	}
	send := func(reasoning []reasoningBack) (Reply, error) {
		st := &callState{sink: shape.event, reasoning: reasoning}
		defer st.close()
		return c.complete(ctx, st, msgs, opts)
	}
	reply, err := send(reasoning)
	if err != nil && ReasoningRefused(err) && slices.ContainsFunc(reasoning, func(r reasoningBack) bool { return r.text != "" }) &&
		reply.Content == "" && reply.Reasoning == "" {
		// A server that takes no reasoning back (Groq, Cerebras) refuses
		// the whole request over it: send it again without, and from now
		// on.
		c.mu.Lock()
		c.reasoningRefused = true
		c.mu.Unlock()
		reply, err = send(nil)
	}
	reply, opens := shape.finish(reply, req.Tools, req.Deferred, err == nil)
	if opens {
		c.mu.Lock()
		if c.opensThinking == nil {
			c.opensThinking = map[string]bool{}
		}
		c.opensThinking[model] = true
		c.mu.Unlock()
	}
	return reply, c.scrub.err(err)
}

// complete is Complete after the request is built; its errors may still
// hold credentials the server echoed.
func (c *Client) complete(ctx context.Context, st *callState, msgs []llms.MessageContent, opts []llms.CallOption) (Reply, error) {
	resp, err := c.llm.GenerateContent(withCallState(ctx, st), msgs, opts...)
	st.mu.Lock()
	m, stErr, finished := st.merger, st.err, st.finished
	st.mu.Unlock()
	if err == nil && stErr == nil && !finished {
		// langchaingo stops reading quietly when the context ends, and
		// reports success with what it had; never take that for an answer.
		stErr = ctx.Err()
		if stErr == nil {
			stErr = ErrStreamCut
		}
	}
	if err != nil || stErr != nil {
		var partial Reply
		if m != nil {
			partial = m.reply()
			partial.ToolCalls = nil // never act on half a call
		}
		switch {
		case ctx.Err() != nil:
			return partial, ctx.Err()
		case stErr != nil:
			return partial, stErr
		default:
			return partial, fmt.Errorf("model request failed: %w", err)
		}
	}
	if len(resp.Choices) == 0 {
		return Reply{}, errors.New("the model server sent no answer")
	}
	ch := resp.Choices[0]
	r := Reply{
		Content:      ch.Content,
		Reasoning:    ch.ReasoningContent,
		FinishReason: ch.StopReason,
	}
	for _, tc := range ch.ToolCalls {
		if tc.FunctionCall == nil {
			continue
		}
		r.ToolCalls = append(r.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: tc.FunctionCall.Arguments})
	}
	if m != nil {
		mr := m.reply()
		r.Usage = mr.Usage
		r.FinishReason = mr.FinishReason // as the server said it, even when empty
		r.ReasoningField = mr.ReasoningField
		r.DroppedCalls, r.ArgsLimit = mr.DroppedCalls, mr.ArgsLimit
		for i := range r.ToolCalls {
			if i < len(mr.ToolCalls) && mr.ToolCalls[i].ID == r.ToolCalls[i].ID {
				r.ToolCalls[i].Oversize = mr.ToolCalls[i].Oversize
			}
		}
	}
	return r, nil
}

// toLangchain converts the conversation to langchaingo messages, and
// collects the reasoning the transport puts back on each assistant message.
func toLangchain(msgs []chat.Message) ([]llms.MessageContent, []reasoningBack, error) {
	out := make([]llms.MessageContent, 0, len(msgs))
	var reasoning []reasoningBack
	for i, m := range msgs {
		switch m.Role {
		case chat.RoleSystem:
			out = append(out, llms.TextParts(llms.ChatMessageTypeSystem, m.Content))
		case chat.RoleUser:
			out = append(out, llms.TextParts(llms.ChatMessageTypeHuman, m.Content))
		case chat.RoleAssistant:
			var parts []llms.ContentPart
			if m.Content != "" || len(m.ToolCalls) == 0 {
				parts = append(parts, llms.TextContent{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				parts = append(parts, llms.ToolCall{ID: tc.ID, Type: "function", FunctionCall: &llms.FunctionCall{
					Name: tc.Name, Arguments: wellFormedArgs(tc.Arguments),
				}})
			}
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: parts})
			reasoning = append(reasoning, reasoningBack{text: m.Reasoning, field: m.ReasoningField})
		case chat.RoleTool:
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: m.ToolCallID, Name: m.ToolName, Content: m.Content},
			}})
		default:
			return nil, nil, fmt.Errorf("message %d has unknown role %q", i, m.Role)
		}
	}
	return out, reasoning, nil
}

// ReasoningOfToolTurns is msgs with the reasoning kept only on the
// assistant messages of turns that called tools: thinking servers
// (DeepSeek) refuse a conversation that drops it there, and a turn that
// only answered gains nothing from it but length (older ones refuse it).
// It is decided on the conversation as the agent keeps it, before calls
// are written as text (Request.TextTools), which leaves no calls to see;
// the agent counts its requests through it too.
func ReasoningOfToolTurns(msgs []chat.Message) []chat.Message {
	keep := turnsWithCalls(msgs)
	out := slices.Clone(msgs)
	for i := range out {
		if !keep[i] {
			out[i].Reasoning = ""
		}
	}
	return out
}

// turnsWithCalls marks the assistant messages of the turns (what follows
// one user message up to the next) in which the model called a tool.
func turnsWithCalls(msgs []chat.Message) []bool {
	keep := make([]bool, len(msgs))
	start, calls := 0, false
	mark := func(end int) {
		for j := start; j < end && calls; j++ {
			keep[j] = msgs[j].Role == chat.RoleAssistant
		}
	}
	for i, m := range msgs {
		switch {
		case m.Role == chat.RoleUser:
			mark(i)
			start, calls = i+1, false
		case m.Role == chat.RoleAssistant && len(m.ToolCalls) > 0:
			calls = true
		}
	}
	mark(len(msgs))
	return keep
}

// wellFormedArgs returns arguments a strict server accepts back in the
// history: the model's own text when it is a JSON object, "{}" otherwise
// (the tool result already told the model what was wrong with it).
func wellFormedArgs(args string) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		return args
	}
	return "{}"
}

// Models lists the models the server offers (GET /models), for pickers.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	names, err := listModels(ctx, c.http, c.base, "", c.key)
	return names, c.scrub.err(err)
}

// ListModels lists the models a server offers without needing a model
// name first: how pincer picks a default on a local server.
func ListModels(ctx context.Context, o ClientOptions) ([]string, error) {
	rt := o.HTTP
	if rt == nil {
		rt = http.DefaultTransport
	}
	base, query := splitBase(o.BaseURL)
	names, err := listModels(ctx, &http.Client{Transport: rt, Timeout: 10 * time.Second}, base, query, o.APIKey)
	return names, newScrubber(append([]string{o.APIKey}, o.Secrets...)...).err(err)
}

// listModels asks base for its models; query is added to the request (the
// Client's transport adds the base URL's own query itself).
func listModels(ctx context.Context, hc *http.Client, base, query, key string) ([]string, error) {
	endpoint := base + "/models"
	if query != "" {
		endpoint += "?" + query
	}
	shown := displayURL(base)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("list models at %s: %w", shown, err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("list models at %s: %w", shown, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list models at %s: %w", shown, &listStatusError{resp.StatusCode})
	}
	var body struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("list models at %s: %w", shown, err)
	}
	names := make([]string, 0, len(body.Data))
	for _, d := range body.Data {
		names = append(names, d.ID)
	}
	return names, nil
}

// listStatusError is a model list answered with another status than
// 200; ServerStatus finds its status.
type listStatusError struct{ status int }

func (e *listStatusError) Error() string {
	return fmt.Sprintf("the server answered %d %s", e.status, statusText(e.status))
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "status"
}
