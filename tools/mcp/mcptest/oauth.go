// Package mcptest has an MCP server for tests that is protected as the MCP
// specification's authorization says: protected-resource metadata, an
// authorization server with dynamic client registration and PKCE, access
// tokens that expire and refresh tokens. It records what clients sent, so
// a test can check that a token went nowhere else.
package mcptest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// OAuthServer is the server; its MCP endpoint is URL + "/mcp".
type OAuthServer struct {
	URL string
	// MCP serves the authorized requests to /mcp.
	mcp http.Handler

	mu sync.Mutex
	// scope is what a token needs; Require changes it (a step-up).
	scope    string
	clients  map[string][]string // client ID → its redirect URIs
	codes    map[string]code
	tokens   map[string]token // access token → what it allows
	refresh  map[string]token // refresh token → what it renews
	next     int
	logins   int
	refreshs int
	// bearers are the Authorization headers seen on each path.
	bearers map[string][]string
}

type code struct {
	challenge, redirect, client, scope string
}

type token struct {
	scope   string
	expires time.Time
	client  string
}

// NewOAuthServer serves mcp behind the authorization, on 127.0.0.1, until
// the test ends. A token needs the scope "mcp".
func NewOAuthServer(t testing.TB, mcp http.Handler) *OAuthServer {
	t.Helper()
	s := &OAuthServer{mcp: mcp, scope: "mcp", clients: map[string][]string{}, codes: map[string]code{},
		tokens: map[string]token{}, refresh: map[string]token{}, bearers: map[string][]string{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Endpoint is the MCP endpoint.
func (s *OAuthServer) Endpoint() string { return s.URL + "/mcp" }

// Require makes every token need scope (space-separated scopes) from now
// on: a token without it gets 403 insufficient_scope.
func (s *OAuthServer) Require(scope string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scope = scope
}

// Logins is how many authorization codes were exchanged; Refreshes how
// many refresh tokens were spent.
func (s *OAuthServer) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

// Refreshes is how many refresh tokens were spent.
func (s *OAuthServer) Refreshes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshs
}

// Bearers are the Authorization headers sent to path (e.g. "/token").
func (s *OAuthServer) Bearers(path string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bearers[path])
}

// Expire makes every access token issued so far expired, as time would.
func (s *OAuthServer) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.tokens {
		v.expires = time.Now().Add(-time.Minute)
		s.tokens[k] = v
	}
}

func (s *OAuthServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if a := r.Header.Get("Authorization"); a != "" {
		s.bearers[r.URL.Path] = append(s.bearers[r.URL.Path], a)
	}
	s.mu.Unlock()
	switch r.URL.Path {
	case "/mcp":
		s.serveMCP(w, r)
	case "/.well-known/oauth-protected-resource/mcp":
		writeJSON(w, map[string]any{"resource": s.Endpoint(), "authorization_servers": []string{s.URL}, "scopes_supported": []string{"mcp"}})
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, map[string]any{
			"issuer": s.URL, "authorization_endpoint": s.URL + "/authorize", "token_endpoint": s.URL + "/token",
			"registration_endpoint": s.URL + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}, "scopes_supported": []string{"mcp", "mcp:admin"},
		})
	case "/register":
		var meta struct {
			RedirectURIs []string `json:"redirect_uris"`
		}
		if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
			http.Error(w, `{"error":"invalid_client_metadata"}`, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.next++
		id := fmt.Sprintf("client-%d", s.next)
		s.clients[id] = meta.RedirectURIs
		s.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": id, "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": "none"})
	case "/authorize":
		s.authorize(w, r)
	case "/token":
		s.token(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *OAuthServer) serveMCP(w http.ResponseWriter, r *http.Request) {
	bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	tok, ok := s.tokens[bearer]
	need := s.scope
	s.mu.Unlock()
	meta := s.URL + "/.well-known/oauth-protected-resource/mcp"
	if !ok || time.Now().After(tok.expires) {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q, scope=%q`, meta, need))
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	for _, sc := range strings.Fields(need) {
		if !slices.Contains(strings.Fields(tok.scope), sc) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, need, meta))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
	}
	s.mcp.ServeHTTP(w, r)
}

func (s *OAuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	redirects, known := s.clients[q.Get("client_id")]
	s.mu.Unlock()
	switch {
	case !known || !slices.Contains(redirects, q.Get("redirect_uri")):
		http.Error(w, "unknown client or redirect_uri", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE S256 is required", http.StatusBadRequest)
		return
	case q.Get("resource") != s.Endpoint():
		http.Error(w, "the resource must be "+s.Endpoint(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.next++
	c := fmt.Sprintf("code-%d", s.next)
	s.codes[c] = code{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), client: q.Get("client_id"), scope: q.Get("scope")}
	s.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", c)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (s *OAuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	fail := func(why string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]string{"error": "invalid_grant", "error_description": why})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var tok token
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		c, ok := s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok:
			fail("unknown code")
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
			fail("the code verifier does not match the challenge")
			return
		case r.PostForm.Get("redirect_uri") != c.redirect || r.PostForm.Get("resource") != s.Endpoint():
			fail("redirect_uri or resource differ")
			return
		}
		tok = token{scope: c.scope, client: c.client}
		s.logins++
	case "refresh_token":
		old, ok := s.refresh[r.PostForm.Get("refresh_token")]
		if !ok {
			fail("unknown refresh token")
			return
		}
		delete(s.refresh, r.PostForm.Get("refresh_token"))
		tok = old
		s.refreshs++
	default:
		fail("unsupported grant type")
		return
	}
	s.next++
	access, refresh := fmt.Sprintf("at-%d", s.next), fmt.Sprintf("rt-%d", s.next)
	tok.expires = time.Now().Add(time.Hour)
	s.tokens[access], s.refresh[refresh] = tok, tok
	writeJSON(w, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh, "scope": tok.scope})
}

func writeJSON(w http.ResponseWriter, v any) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	_ = json.NewEncoder(w).Encode(v)
}
