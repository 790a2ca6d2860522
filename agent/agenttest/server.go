// Package agenttest provides an OpenAI-compatible chat server for tests: it
// answers each request with the next scripted reply, streams it the way real
// servers do (in pieces, with flushes), records every request, and checks
// each one against the rules strict providers enforce.
package agenttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	Status  int               // 0 means 200
	Header  map[string]string // extra headers, e.g. Retry-After
	Body    string            // raw body: SSE for 200, an error JSON otherwise
	Piece   int               // write the body in pieces of this many bytes (0: whole)
	Delay   time.Duration     // pause before each piece
	Hang    bool              // after the body, keep the connection open until the client leaves
	HangFor time.Duration     // with Hang, give up after this long (0: until the client leaves)
}

// Request is a request the server received.
type Request struct {
	Path   string
	Query  string // the raw query string
	Header http.Header
	Body   map[string]any
	Raw    []byte
	Strict error // the first strict-provider rule the request broke, if any
}

// Server is the scripted server. Use URL+"/v1" as the base URL.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	models   []string
	fallback *Reply
	respond  func(Request) (Reply, bool)
	docs     map[string]string // GET path → JSON body (see SetJSON)
}

// New starts a server that answers with replies in order. When they run
// out it answers 500 with a message that says so.
func New(replies ...Reply) *Server {
	s := &Server{replies: replies, models: []string{"test-model"}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the OpenAI-style base URL of the server.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Add appends more scripted replies.
func (s *Server) Add(r ...Reply) {
	s.mu.Lock()
	s.replies = append(s.replies, r...)
	s.mu.Unlock()
}

// SetFallback sets the reply used when the script has run out.
func (s *Server) SetFallback(r Reply) {
	s.mu.Lock()
	s.fallback = &r
	s.mu.Unlock()
}

// SetResponder installs a function that may answer a request by its
// content before the script is consulted (return false to pass).
func (s *Server) SetResponder(f func(Request) (Reply, bool)) {
	s.mu.Lock()
	s.respond = f
	s.mu.Unlock()
}

// SetModels sets what GET /v1/models lists.
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	s.models = names
	s.mu.Unlock()
}

// SetJSON makes GET path answer with body as JSON: the endpoints local
// servers offer besides the chat (llama.cpp's /props, Ollama's /api/ps).
func (s *Server) SetJSON(path, body string) {
	s.mu.Lock()
	if s.docs == nil {
		s.docs = map[string]string{}
	}
	s.docs[path] = body
	s.mu.Unlock()
}

// Requests returns the chat requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	doc, isDoc := s.docs[r.URL.Path]
	s.mu.Unlock()
	if isDoc && r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, doc)
		return
	}
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.mu.Lock()
		var data []map[string]string
		for _, m := range s.models {
			data = append(data, map[string]string{"id": m, "object": "model"})
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	req := Request{Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Raw: raw}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		req.Strict = fmt.Errorf("body is not JSON: %w", err)
	} else {
		req.Strict = CheckStrict(raw)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	var reply Reply
	var answered bool
	if s.respond != nil {
		reply, answered = s.respond(req)
	}
	switch {
	case answered:
	case len(s.replies) > 0:
		reply = s.replies[0]
		s.replies = s.replies[1:]
	case s.fallback != nil:
		reply = *s.fallback
	default:
		reply = Reply{Status: 500, Body: `{"error":{"message":"agenttest: no scripted reply left"}}`}
	}
	s.mu.Unlock()
	write(w, r, reply)
}

func write(w http.ResponseWriter, r *http.Request, reply Reply) {
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "text/event-stream")
		}
	} else if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	flusher, _ := w.(http.Flusher)
	body := reply.Body
	piece := reply.Piece
	if piece <= 0 {
		piece = len(body) + 1
	}
	for len(body) > 0 {
		if reply.Delay > 0 {
			select {
			case <-time.After(reply.Delay):
			case <-r.Context().Done():
				return
			}
		}
		n := min(piece, len(body))
		if _, err := io.WriteString(w, body[:n]); err != nil {
			return
		}
		body = body[n:]
		if flusher != nil {
			flusher.Flush()
		}
	}
	if reply.Hang {
		var timeout <-chan time.Time
		if reply.HangFor > 0 {
			timeout = time.After(reply.HangFor)
		}
		select {
		case <-r.Context().Done():
		case <-timeout:
		}
	}
}
