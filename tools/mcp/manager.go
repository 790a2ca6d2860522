package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/internal/human"
	"pincer/internal/procgroup"
	"pincer/tools"
)

// Status is where a server is in its life.
type Status string

// The statuses a server can have.
const (
	StatusStarting Status = "starting"
	StatusReady    Status = "ready"
	StatusFailed   Status = "failed"
	StatusDisabled Status = "disabled"
)

// Options configure a Manager.
type Options struct {
	Servers []Server
	// LogDir receives one log file per stdio server (NAME.log, 0600) with
	// what the server writes to its standard error.
	LogDir string
	// Dir is where stdio servers run: the project root.
	Dir string
	// Timeout caps one tool call (0 means DefaultTimeout); StartTimeout
	// caps starting a server and listing its tools (0 means
	// DefaultStartTimeout).
	Timeout, StartTimeout time.Duration
	// MaxOutput caps a tool result, as for the built-in tools (0 means
	// tools.DefaultMaxOutput).
	MaxOutput int
	// Getenv reads the variables header values and env values name (nil
	// means os.Getenv); Environ is the environment stdio servers start
	// with (nil means os.Environ()), less the variables DropEnv names
	// (pincer's own API keys).
	Getenv  func(string) string
	Environ []string
	DropEnv []string
	// OnChange, when set, is called (from another goroutine) whenever a
	// server's status or tools change, so a screen can redraw.
	OnChange func()
	// Version is pincer's version, told to servers.
	Version string
	// Tokens keeps the logins to servers over HTTP; nil keeps none.
	Tokens *TokenStore
	// Login, when set, shows a person the authorization URL of a server
	// that asks them to log in (opening a browser after asking, or
	// printing it), while pincer waits for the browser to come back to a
	// loopback address. Nil means nobody can be asked: such a server
	// fails with a reason that says how to log in.
	Login func(ctx context.Context, server, authURL string) error
	// Relogin ignores the stored logins, so the servers that ask for one
	// get a new one ('pincer mcp login').
	Relogin bool
}

// Info is what is known about one server, for /mcp and 'pincer mcp list'.
type Info struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"`
	Origin    string   `json:"origin,omitempty"`
	Status    Status   `json:"status"`
	Reason    string   `json:"reason,omitempty"`
	Tools     []string `json:"tools"`
	Hidden    []string `json:"hidden,omitempty"`
	LogPath   string   `json:"log,omitempty"`
	Restarts  int      `json:"restarts"`
	Trusted   bool     `json:"trusted,omitempty"`
	// LoggedIn says pincer keeps a login (OAuth tokens) for the server.
	LoggedIn bool `json:"logged_in,omitempty"`
	// Warnings say what of a ready server pincer left out and why: tools
	// refused for their names, tools past the limits.
	Warnings []string `json:"warnings,omitempty"`
}

// Manager runs the configured MCP servers. Start returns at once; the
// servers become ready (or fail) in the background, and Tools always
// returns the tools of the servers ready at that moment. A Manager is
// safe for use from several goroutines.
type Manager struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	servers []*server
	changed chan struct{} // closed and replaced at every change
	started bool
	// elicitor asks the person what a server wants to know (SetElicitor).
	elicitor Elicitor
}

// server is one server's state, guarded by Manager.mu.
type server struct {
	cfg      Server
	status   Status
	reason   string
	restarts int
	session  *sdk.ClientSession
	// proc is the process of a stdio server, in a process group of its
	// own, so what it starts (npx starts node) stops with it.
	proc *exec.Cmd
	// http is the record of the server's answers (see httpState).
	http     *httpState
	tools    []*Tool
	hidden   []string
	warnings []string
	logPath  string
	// prompts are the server's prompts, listed when it became ready.
	prompts []Prompt
}

// New prepares a manager; nothing starts before Start.
func New(o Options) *Manager {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = tools.DefaultMaxOutput
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opts: o, ctx: ctx, cancel: cancel, changed: make(chan struct{})}
	prefixes := map[string]string{} // mcp__SERVER__ → the server that has it
	for _, s := range o.Servers {
		sv := &server{cfg: s, status: StatusStarting}
		if s.Transport() == "stdio" && o.LogDir != "" {
			sv.logPath = filepath.Join(o.LogDir, logName(s.Name))
		}
		if s.Disabled {
			sv.status = StatusDisabled
		} else if err := s.check(); err != nil {
			sv.status, sv.reason = StatusFailed, err.Error()
		} else if err := namesApart(s.Name, prefixes); err != nil {
			sv.status, sv.reason = StatusFailed, err.Error()
		}
		m.servers = append(m.servers, sv)
	}
	return m
}

// namesApart refuses a server whose tools could be named like another's:
// its name, made safe for a tool name, must hold no "__" (which ends the
// server's part of mcp__SERVER__TOOL) and differ from every other
// server's. Then a name leads to one server's one tool, and an allow rule
// means what it says.
func namesApart(name string, taken map[string]string) error {
	safe := sanitize(name)
	if strings.Contains(safe, "__") {
		return fmt.Errorf("its name %q holds \"__\" (or characters that become it in tool names), which would let its tools be named like another server's (mcp__SERVER__TOOL); rename it", name)
	}
	if other, ok := taken[safe]; ok {
		return fmt.Errorf("its tools would be named like those of the server %q (mcp__%s__…); rename one of them", other, safe)
	}
	taken[safe] = name
	return nil
}

// Start starts every enabled server in the background and returns at
// once. Calling it again does nothing.
func (m *Manager) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		return
	}
	m.started = true
	for _, s := range m.servers {
		if s.status != StatusStarting {
			continue
		}
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			m.run(s)
		}()
	}
}

// Close stops every server and waits until they are gone.
func (m *Manager) Close() {
	m.cancel()
	m.mu.Lock()
	var open []*sdk.ClientSession
	for _, s := range m.servers {
		if s.session != nil {
			open = append(open, s.session)
		}
	}
	m.mu.Unlock()
	// Each may take a moment to end its process: close them together.
	var closing sync.WaitGroup
	for _, cs := range open {
		closing.Go(func() { _ = cs.Close() })
	}
	closing.Wait()
	m.wg.Wait()
}

// Wait blocks until no server is starting any more, or ctx ends; it
// returns ctx's error then.
func (m *Manager) Wait(ctx context.Context) error {
	for {
		m.mu.Lock()
		busy := false
		for _, s := range m.servers {
			busy = busy || (s.status == StatusStarting && m.started)
		}
		ch := m.changed
		m.mu.Unlock()
		if !busy {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Servers describes every configured server, in configuration order.
func (m *Manager) Servers() []Info {
	m.mu.Lock()
	out := make([]Info, 0, len(m.servers))
	urls := make([]string, 0, len(m.servers))
	for _, s := range m.servers {
		urls = append(urls, s.cfg.URL)
		in := Info{Name: s.cfg.Name, Transport: s.cfg.Transport(), Origin: s.cfg.Origin, Status: s.status,
			Reason: s.reason, LogPath: s.logPath, Restarts: s.restarts, Trusted: s.cfg.Trusted,
			Hidden: append([]string(nil), s.hidden...), Tools: []string{}, Warnings: append([]string(nil), s.warnings...)}
		for _, t := range s.tools {
			in.Tools = append(in.Tools, t.name)
		}
		out = append(out, in)
	}
	m.mu.Unlock()
	for i := range out {
		out[i].LoggedIn = urls[i] != "" && m.opts.Tokens.Has(out[i].Name, urls[i])
	}
	return out
}

// Tools returns the tools of the servers that are ready now, in
// configuration order.
func (m *Manager) Tools() []tools.Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []tools.Tool
	seen := map[string]bool{}
	for _, s := range m.servers {
		if s.status != StatusReady {
			continue
		}
		for _, t := range s.tools {
			if seen[t.name] {
				continue // namesApart keeps this from happening; never two tools by one name
			}
			seen[t.name] = true
			out = append(out, t)
		}
	}
	return out
}

// session returns the ready session of the named server, with what is
// learnt of its answers (HTTP), or why there is none.
func (m *Manager) session(name string) (*sdk.ClientSession, *httpState, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.cfg.Name != name {
			continue
		}
		if s.status == StatusReady && s.session != nil {
			return s.session, s.http, ""
		}
		if s.reason != "" {
			return nil, nil, string(s.status) + ": " + s.reason
		}
		return nil, nil, string(s.status)
	}
	return nil, nil, "not configured"
}

// set changes a server's state under the lock and tells whoever waits.
func (m *Manager) set(s *server, f func()) {
	m.mu.Lock()
	f()
	close(m.changed)
	m.changed = make(chan struct{})
	m.mu.Unlock()
	if m.opts.OnChange != nil {
		m.opts.OnChange()
	}
}

// run starts the server and watches it: a server that stops after it
// was ready is started once more; a second stop, or a failure to start,
// leaves it failed with the reason.
func (m *Manager) run(s *server) {
	for {
		changed := make(chan struct{}, 1)
		cs, list, prompts, err := m.connect(s, changed)
		if m.ctx.Err() != nil {
			if cs != nil {
				m.end(s, cs)
			}
			return
		}
		if err != nil {
			m.set(s, func() { s.status, s.reason, s.session, s.tools = StatusFailed, m.explain(s, err), nil, nil })
			return
		}
		m.set(s, func() {
			s.status, s.reason, s.session = StatusReady, "", cs
			s.tools, s.hidden, s.warnings = list.tools, list.hidden, list.warnings
			s.prompts = prompts
		})
		stop := make(chan struct{})
		var watching sync.WaitGroup
		watching.Go(func() { m.watchTools(s, cs, changed, stop) })
		werr := cs.Wait()
		close(stop)
		watching.Wait()
		m.end(s, cs)
		if m.ctx.Err() != nil {
			return
		}
		why := "it stopped"
		if werr = s.http.explain(werr); werr != nil && !errors.Is(werr, context.Canceled) {
			why += " (" + werr.Error() + ")"
		}
		why = m.withLog(s, why)
		if s.restarts >= 1 {
			m.set(s, func() {
				s.status, s.session, s.tools = StatusFailed, nil, nil
				s.reason = why + "; it was restarted once already, so pincer left it stopped"
			})
			return
		}
		m.set(s, func() {
			s.restarts++
			s.status, s.session, s.tools = StatusStarting, nil, nil
			s.reason = "restarting: " + why
		})
	}
}

// explain turns a failure to start into a reason with the server's last
// words, when it left some in its log.
func (m *Manager) explain(s *server, err error) string {
	why := err.Error()
	var login *LoginNeededError
	if errors.As(err, &login) {
		return login.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		why = fmt.Sprintf("it did not answer within %s", m.opts.StartTimeout)
	}
	return m.withLog(s, why)
}

// withLog adds the last line the server wrote to its log.
func (m *Manager) withLog(s *server, why string) string {
	if last := lastLine(s.logPath); last != "" {
		why += "; its last words: " + last
	}
	if s.logPath != "" {
		why += "; see " + s.logPath
	}
	return why
}

// connect starts the server, says hello and lists its tools.
func (m *Manager) connect(s *server, changed chan<- struct{}) (*sdk.ClientSession, toolList, []Prompt, error) {
	ctx, cancel := context.WithTimeout(m.ctx, m.opts.StartTimeout)
	defer cancel()
	var transport sdk.Transport
	if s.cfg.URL != "" {
		headers := make(http.Header, len(s.cfg.Headers))
		for k, v := range s.cfg.Headers {
			x, err := m.expand(v)
			if err != nil {
				return nil, toolList{}, nil, fmt.Errorf("header %s: %w", k, err)
			}
			headers.Set(k, x)
		}
		state := &httpState{server: s.cfg.Name}
		client, err := httpClient(state, s.cfg.URL, headers, http.DefaultTransport)
		if err != nil {
			return nil, toolList{}, nil, err
		}
		secret, err := m.expand(s.cfg.OAuth.ClientSecret)
		if err != nil {
			return nil, toolList{}, nil, fmt.Errorf("its OAuth client secret: %w", err)
		}
		var authorizer auth.OAuthHandler
		if headers.Get("Authorization") == "" {
			// A configured Authorization header is the person's own
			// credential: pincer does not log in over it.
			authorizer, err = newAuthHandler(s.cfg.Name, s.cfg.URL, s.cfg.OAuth, secret, m.opts.Tokens, m.opts.Login, m.opts.Relogin)
			if err != nil {
				return nil, toolList{}, nil, err
			}
		}
		m.mu.Lock()
		s.http = state // read by calls, under the lock
		m.mu.Unlock()
		transport = &sdk.StreamableClientTransport{
			Endpoint:     s.cfg.URL,
			HTTPClient:   client,
			MaxRetries:   2,
			MaxEventSize: maxMessage,
			OAuthHandler: authorizer,
		}
	} else {
		cmd, logf, err := m.command(s)
		if err != nil {
			return nil, toolList{}, nil, err
		}
		m.mu.Lock()
		s.http = &httpState{server: s.cfg.Name}
		m.mu.Unlock()
		if logf != nil {
			defer logf.Close() // the child holds its own copy
		}
		// The processes a server starts (npx starts node, a shell script
		// starts its program) are stopped with it.
		procgroup.Own(cmd)
		s.proc = cmd
		transport = &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "pincer", Version: m.opts.Version}, &sdk.ClientOptions{
		ElicitationHandler: m.elicitHandler(s.cfg.Name),
		Capabilities: &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{
			Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{},
		}},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			// However many arrive, at most one listing waits: a
			// flood of notifications costs one tools/list, not one each.
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		if s.cfg.URL == "" && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, exec.ErrNotFound)) {
			return nil, toolList{}, nil, fmt.Errorf("could not start it: the program %q was not found; install it, or give its full path as the server's command", s.cfg.Command)
		}
		return nil, toolList{}, nil, fmt.Errorf("could not start it: %w", err)
	}
	list, err := m.listTools(ctx, s, cs)
	if err != nil {
		m.end(s, cs)
		return nil, toolList{}, nil, fmt.Errorf("could not list its tools: %w", s.http.explain(err))
	}
	return cs, list, listPrompts(ctx, s.cfg.Name, cs), nil
}

// expand fills in ${VARIABLES}, refusing the API keys pincer keeps from
// commands and servers (DropEnv): a configured header or argument must
// not carry them to a server either.
func (m *Manager) expand(s string) (string, error) {
	var refused string
	out, err := expand(s, func(name string) string {
		if slices.Contains(m.opts.DropEnv, name) {
			refused = name
			return "-" // not empty: the refusal below is the error
		}
		return m.opts.Getenv(name)
	})
	if refused != "" {
		return "", fmt.Errorf("${%s} holds an API key pincer keeps from commands and servers; list it in command_env_passthrough to hand it to MCP servers too", refused)
	}
	return out, err
}

// end closes a server's session and stops what is left of its process
// group (a stdio server's own children).
func (m *Manager) end(s *server, cs *sdk.ClientSession) {
	_ = cs.Close()
	if s.proc != nil {
		_ = procgroup.Kill(s.proc)
	}
}

// A change of a server's tools is listed once the server has been quiet
// for refreshQuiet, or at the latest refreshMost after the first
// notification: a burst, or an endless flood, costs a listing now and
// then, not one per notification.
const (
	refreshQuiet = 200 * time.Millisecond
	refreshMost  = 5 * time.Second
)

// watchTools lists a ready server's tools again each time it says they
// changed, one listing at a time, until stop is closed.
func (m *Manager) watchTools(s *server, cs *sdk.ClientSession, changed <-chan struct{}, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-m.ctx.Done():
			return
		case <-changed:
		}
		latest := time.NewTimer(refreshMost)
		quiet := time.NewTimer(refreshQuiet)
	wait:
		for {
			select {
			case <-stop:
				latest.Stop()
				quiet.Stop()
				return
			case <-m.ctx.Done():
				latest.Stop()
				quiet.Stop()
				return
			case <-changed:
				quiet.Reset(refreshQuiet)
			case <-quiet.C:
				break wait
			case <-latest.C:
				break wait
			}
		}
		latest.Stop()
		quiet.Stop()
		m.refresh(s, cs)
	}
}

// refresh lists the server's tools again on the session cs.
func (m *Manager) refresh(s *server, cs *sdk.ClientSession) {
	ctx, cancel := context.WithTimeout(m.ctx, m.opts.StartTimeout)
	defer cancel()
	list, err := m.listTools(ctx, s, cs)
	if err != nil {
		return
	}
	m.set(s, func() {
		if s.session == cs {
			s.tools, s.hidden, s.warnings = list.tools, list.hidden, list.warnings
		}
	})
}

// Limits on what one server may offer, so a server cannot fill pincer's
// memory or the model's window with its tools. A server past them is
// still used, with the tools that fit, and /mcp says what was left out.
const (
	// maxToolPages is how many pages of tools/list are read.
	maxToolPages = 50
	// maxListedTools is how many tools are read before listing stops.
	maxListedTools = 2000
	// maxServerTools is how many tools of one server the model is offered.
	maxServerTools = 128
	// maxServerToolBytes caps the descriptions and schemas of one
	// server's tools offered to the model (about 32k tokens).
	maxServerToolBytes = 128 << 10
	// maxToolNameLen is the longest tool name accepted, as the MCP
	// specification allows.
	maxToolNameLen = 128
)

// toolList is what listing a server's tools found.
type toolList struct {
	tools  []*Tool
	hidden []string
	// warnings say what was left out and why, for /mcp.
	warnings []string
}

// listTools fetches the server's tools, page by page up to the limits,
// and makes those that are not hidden and whose names are plain
// identifiers into Tools, as many as fit in the server's share.
func (m *Manager) listTools(ctx context.Context, s *server, cs *sdk.ClientSession) (toolList, error) {
	var out toolList
	var refused []string
	used := map[string]bool{}
	listed, pages, bytes, over := 0, 0, 0, 0
	cursor := ""
	for {
		if pages == maxToolPages {
			out.warnings = append(out.warnings, fmt.Sprintf("it lists its tools in more than %d pages; pincer read the first %d and stopped", maxToolPages, maxToolPages))
			break
		}
		res, err := cs.ListTools(ctx, &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			return toolList{}, err
		}
		pages++
		for _, t := range res.Tools {
			listed++
			if err := checkToolName(t.Name); err != nil {
				refused = append(refused, err.Error())
				continue
			}
			if slices.Contains(s.cfg.HideTools, t.Name) {
				out.hidden = append(out.hidden, t.Name)
				continue
			}
			name := ToolName(s.cfg.Name, t.Name)
			if used[name] {
				name = hashedName(name, s.cfg.Name+"\x00"+t.Name)
			}
			if used[name] {
				refused = append(refused, fmt.Sprintf("%q is listed twice", t.Name))
				continue
			}
			tool := newTool(m, s.cfg, t, name)
			size := tool.size()
			if len(out.tools) == maxServerTools || bytes+size > maxServerToolBytes {
				over++
				continue
			}
			used[name] = true
			bytes += size
			out.tools = append(out.tools, tool)
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		if listed >= maxListedTools {
			out.warnings = append(out.warnings, fmt.Sprintf("it lists more than %d tools; pincer read the first %d and stopped", maxListedTools, listed))
			break
		}
		cursor = res.NextCursor
	}
	if over > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("it offers %d tools, and the model is offered the first %d (a server's share is at most %d tools and %s of descriptions and schemas); hide the ones you do not need with hide_tools to choose which",
			len(out.tools)+over, len(out.tools), maxServerTools, human.Bytes(maxServerToolBytes)))
	}
	if n := len(refused); n > 0 {
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" and %d more", n-3)
			refused = refused[:3]
		}
		out.warnings = append(out.warnings, fmt.Sprintf("refused %d tool(s) whose names are not 1 to %d letters, digits, '_', '-' or '.': %s%s",
			n, maxToolNameLen, strings.Join(refused, "; "), more))
	}
	return out, nil
}

// checkToolName refuses a tool name that is not a plain identifier, as
// the MCP specification defines one: a name is shown in approvals, where
// a line break or an escape could draw a question of its own.
func checkToolName(name string) error {
	shown := name
	if len(shown) > 40 {
		shown = strings.ToValidUTF8(shown[:40], "") + "…"
	}
	switch {
	case name == "":
		return errors.New("one has no name")
	case len(name) > maxToolNameLen:
		return fmt.Errorf("%q is %d bytes long", shown, len(name))
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Errorf("%q holds %q", shown, r)
		}
	}
	return nil
}

// command builds the process of a stdio server, its standard error going
// to the server's log file.
func (m *Manager) command(s *server) (*exec.Cmd, *os.File, error) {
	env := m.opts.Environ
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(m.opts.DropEnv, k)
	})
	for k, v := range s.cfg.Env {
		x, err := m.expand(v)
		if err != nil {
			return nil, nil, fmt.Errorf("env %s: %w", k, err)
		}
		env = append(env, k+"="+x)
	}
	args := make([]string, len(s.cfg.Args))
	for i, a := range s.cfg.Args {
		x, err := m.expand(a)
		if err != nil {
			return nil, nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		args[i] = x
	}
	cmd := exec.Command(s.cfg.Command, args...)
	cmd.Dir = m.opts.Dir
	cmd.Env = env
	if s.logPath == "" {
		return cmd, nil, nil
	}
	if err := os.MkdirAll(filepath.Dir(s.logPath), 0o700); err != nil {
		return nil, nil, fmt.Errorf("make the log directory: %w", err)
	}
	f, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open its log: %w", err)
	}
	_ = f.Chmod(0o600)
	fmt.Fprintf(f, "--- %s pincer starts %s %s\n", time.Now().Format(time.RFC3339), s.cfg.Command, strings.Join(s.cfg.Args, " "))
	cmd.Stderr = f
	return cmd, f, nil
}

// logName is the log file of a server: its name made safe for a file.
func logName(server string) string {
	return sanitize(server) + ".log"
}

// lastLine returns the last line of this run in the log at path that
// names what went wrong, else its last non-empty line (at most 300 bytes
// of it), or "".
func lastLine(path string) string {
	if path == "" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > 16<<10 {
		_, _ = f.Seek(info.Size()-16<<10, 0)
	}
	last, telling := "", ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		switch l := strings.TrimSpace(sc.Text()); {
		case strings.HasPrefix(l, "--- "):
			last, telling = "", "" // a new start: older words are not this run's
		case l != "":
			last = l
			if tells(l) {
				telling = l
			}
		}
	}
	if telling != "" {
		last = telling
	}
	if len(last) > 300 {
		last = strings.ToValidUTF8(last[:300], "") + "…"
	}
	return last
}

// tells reports whether a line of a server's log names what went wrong,
// so the last such line is quoted rather than a closing remark like npm's
// "A complete log of this run can be found in: …".
func tells(line string) bool {
	l := strings.ToLower(line)
	for _, w := range []string{"not found", "no such file", "cannot find", "enoent", "permission denied", "error:", "exception:", "traceback"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
