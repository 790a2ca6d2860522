package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"pincer/internal/human"
	"pincer/internal/safetext"
	store "pincer/session"
)

// Options configure Serve.
type Options struct {
	Opener  Opener
	Version string // pincer's version, told to the editor
	// Log receives what pincer has to say besides the protocol (errors,
	// what it ignored); never standard output.
	Log io.Writer
}

// server is one editor's connection: its capabilities and its sessions.
type server struct {
	o    Options
	conn *conn

	mu          sync.Mutex
	initialized bool
	caps        clientCapabilities
	sessions    map[string]*session // by the id the editor uses
}

// Serve speaks ACP with the editor on in and out until the editor closes
// in (nil) or reading fails. Turns still running then are cancelled and
// awaited, and every session is closed.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.Log == nil {
		o.Log = io.Discard
	}
	s := &server{o: o, sessions: map[string]*session{}}
	s.conn = newConn(in, out, s, s.logf)
	err := s.conn.serve(ctx)
	s.closeAll()
	return err
}

func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.o.Log, format+"\n", args...)
}

// closeAll closes every session once the connection has ended.
func (s *server) closeAll() {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	for _, ss := range all {
		ss.close()
	}
}

// decode reads a request's params into v; what is wrong is said to the
// editor as invalid params.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return invalidParams("the params are missing")
	}
	if params[0] != '{' {
		return invalidParams("the params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return invalidParams("the params do not fit: %v", err)
	}
	return nil
}

// request implements handler.
func (s *server) request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if method == "initialize" {
		return s.initialize(params)
	}
	s.mu.Lock()
	ready := s.initialized
	s.mu.Unlock()
	if !ready {
		return nil, &rpcError{Code: codeInvalidRequest, Message: "the connection is not initialized; send initialize first"}
	}
	switch method {
	case "authenticate":
		return struct{}{}, nil // pincer asks for no authentication
	case "session/new":
		var p newSessionRequest
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return s.open(ctx, p.Cwd, "", p.MCPServers)
	case "session/load":
		var p loadSessionRequest
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		if p.SessionID == "" {
			return nil, invalidParams("sessionId is empty; give the id or name of the session to load")
		}
		return s.open(ctx, p.Cwd, p.SessionID, p.MCPServers)
	case "session/list":
		var p listSessionsRequest
		if len(params) > 0 && string(params) != "null" {
			if err := decode(params, &p); err != nil {
				return nil, err
			}
		}
		return s.list(p)
	case "session/prompt":
		var p promptRequest
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		ss, err := s.session(p.SessionID)
		if err != nil {
			return nil, err
		}
		return ss.prompt(ctx, p.Prompt)
	case "session/set_mode":
		var p setModeRequest
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		ss, err := s.session(p.SessionID)
		if err != nil {
			return nil, err
		}
		if err := ss.setMode(p.ModeID, false); err != nil {
			return nil, err
		}
		return struct{}{}, nil
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("pincer does not offer %s", human.OneLine(safetext.LineOf(method), 100))}
}

// notification implements handler.
func (s *server) notification(method string, params json.RawMessage) {
	switch method {
	case "session/cancel":
		var p sessionIDParams
		if decode(params, &p) != nil {
			s.logf("pincer: session/cancel without a sessionId; ignored")
			return
		}
		if ss, err := s.session(p.SessionID); err == nil {
			ss.cancelTurn()
		}
	default:
		s.logf("pincer: ignored the notification %s", human.OneLine(safetext.LineOf(method), 100))
	}
}

// initialize answers the editor's capabilities with pincer's.
func (s *server) initialize(params json.RawMessage) (any, error) {
	var p initializeRequest
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion == nil || string(p.ProtocolVersion) == "null" {
		return nil, invalidParams("protocolVersion is missing")
	}
	var caps clientCapabilities
	if len(p.ClientCapabilities) > 0 && json.Unmarshal(p.ClientCapabilities, &caps) != nil {
		caps = clientCapabilities{}
		s.logf("pincer: the editor's capabilities do not parse; taken as none")
	}
	s.mu.Lock()
	s.initialized, s.caps = true, caps
	s.mu.Unlock()
	r := initializeResponse{ProtocolVersion: protocolVersion, AuthMethods: []struct{}{}}
	r.AgentCapabilities.LoadSession = true
	r.AgentCapabilities.PromptCapabilities.EmbeddedContext = true
	r.AgentCapabilities.SessionCapabilities.List = &struct{}{}
	r.AgentInfo = implementation{Name: "pincer", Title: "pincer", Version: s.o.Version}
	return r, nil
}

// capabilities are the editor's, as initialize said.
func (s *server) capabilities() clientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// session finds an open session by the id the editor uses.
func (s *server) session(id string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.sessions[id]; ok {
		return ss, nil
	}
	return nil, &rpcError{Code: codeNotFound, Message: fmt.Sprintf("no session %q is open on this connection; create one with session/new or open it with session/load", human.OneLine(safetext.LineOf(id), 100))}
}

// open starts a session (ref "") or opens one and replays it, and
// answers with its id and modes; the slash commands, the plan and any
// notes follow the answer.
func (s *server) open(ctx context.Context, cwd, ref string, mcpServers []json.RawMessage) (any, error) {
	if cwd == "" || !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd must be an absolute path, got %q", human.OneLine(safetext.LineOf(cwd), 200))
	}
	if len(mcpServers) > 0 {
		s.logf("pincer: the editor offered %d MCP server(s); pincer uses the servers of its own configuration (pincer mcp add) and ignored them", len(mcpServers))
	}
	if ref != "" {
		s.mu.Lock()
		old := s.sessions[ref]
		s.mu.Unlock()
		if old != nil {
			if old.busy() {
				return nil, &rpcError{Code: codeInvalidRequest, Message: "this session has a prompt running; cancel it before loading the session again"}
			}
			s.mu.Lock()
			delete(s.sessions, ref)
			s.mu.Unlock()
			old.close()
		}
	}
	ss := newSession(s)
	req := OpenRequest{Dir: filepath.Clean(cwd), Ref: ref, Approver: ss.approver(), Buffers: ss.buffers()}
	conv, err := s.o.Opener.Open(ctx, req)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, &rpcError{Code: codeNotFound, Message: err.Error()}
		}
		var re *rpcError
		if errors.As(err, &re) {
			return nil, re
		}
		return nil, &rpcError{Code: codeInternalError, Message: err.Error()}
	}
	ss.conv = conv
	ss.id = conv.ID
	if ref != "" {
		ss.id = ref // the editor goes on naming the session as it did
	}
	modes := ss.modes()
	if ref != "" {
		ss.replay()
	}
	s.mu.Lock()
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	then := func() {
		ss.sendCommands()
		if ref != "" {
			ss.sendPlan(conv.Agent.History())
		}
		for _, n := range conv.Notes {
			ss.notice(n)
		}
		ss.endStreams()
	}
	if ref != "" {
		return followed{result: loadSessionResponse{Modes: modes}, then: then}, nil
	}
	return followed{result: newSessionResponse{SessionID: ss.id, Modes: modes}, then: then}, nil
}

// list answers session/list: the sessions of cwd, or of every directory.
func (s *server) list(p listSessionsRequest) (any, error) {
	dir := ""
	if p.Cwd != nil && *p.Cwd != "" {
		if !filepath.IsAbs(*p.Cwd) {
			return nil, invalidParams("cwd must be an absolute path")
		}
		dir = filepath.Clean(*p.Cwd)
	}
	all, err := s.o.Opener.Sessions(dir)
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "could not list the sessions: " + err.Error()}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Updated.After(all[j].Updated) })
	out := listSessionsResponse{Sessions: []sessionInfo{}}
	for _, ss := range all {
		info := sessionInfo{SessionID: ss.ID, Cwd: ss.Dir, Title: ss.Title}
		if !ss.Updated.IsZero() {
			info.UpdatedAt = ss.Updated.UTC().Format(time.RFC3339)
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}
