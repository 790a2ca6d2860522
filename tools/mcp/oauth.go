package mcp

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// OAuth is how pincer identifies itself to a server's authorization
// server. All of it is optional: without a client ID pincer registers
// itself dynamically, where the server allows it.
type OAuth struct {
	// ClientID and ClientSecret are a client registered with the
	// authorization server beforehand; the secret may name ${VARIABLES}.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the HTTPS URL of a client ID metadata document
	// that describes pincer, used as its client ID where the
	// authorization server accepts such documents.
	ClientMetadataURL string
	// Scopes are asked for besides those the server names.
	Scopes []string
	// CallbackPort fixes the port of the loopback address the browser
	// returns to (a pre-registered client's redirect URI may need it);
	// 0 means any free port.
	CallbackPort int
}

// LoginNeededError says that a server wants its user to log in (or to
// grant more) and that pincer could not ask now.
type LoginNeededError struct {
	Server string
	// StepUp says the server wants more scopes than the login gave.
	StepUp bool
}

func (e *LoginNeededError) Error() string {
	if e.StepUp {
		return fmt.Sprintf("it asks for more permissions than your login gave; log in again with: pincer mcp login %s", e.Server)
	}
	return fmt.Sprintf("it needs you to log in; run: pincer mcp login %s", e.Server)
}

// maxAuthorizations caps the logins one connection may start: a server
// that keeps refusing what it was just granted is not asked forever.
const maxAuthorizations = 3

// loginTimeout is how long pincer waits for the browser to come back.
const loginTimeout = 5 * time.Minute

// authHandler authorizes pincer's requests to one server: it sends the
// stored token (refreshing it when it expires) and, on a 401 or a 403
// insufficient_scope, runs the authorization code flow of the MCP
// specification through the SDK (metadata discovery, client
// registration, PKCE, the resource parameter), with the browser coming
// back to a loopback address. Tokens go to the server's URL only: the SDK
// sets them on requests to the endpoint, and the server's client follows
// no redirect to another origin.
type authHandler struct {
	server   string
	resource string
	cfg      OAuth
	// secret is cfg.ClientSecret with its variables filled in.
	secret string
	// client makes the requests to the authorization server.
	client *http.Client
	store  *TokenStore
	// login shows the person the authorization URL; nil means nobody can
	// be asked now.
	login func(ctx context.Context, server, authURL string) error

	mu       sync.Mutex
	ts       oauth2.TokenSource
	granted  []string
	attempts int
}

var _ auth.OAuthHandler = (*authHandler)(nil)

// newAuthHandler returns the handler of a server, starting from its stored
// login unless fresh is set.
func newAuthHandler(server, resource string, cfg OAuth, secret string, store *TokenStore, login func(context.Context, string, string) error, fresh bool) (*authHandler, error) {
	h := &authHandler{server: server, resource: resource, cfg: cfg, secret: secret, store: store, login: login,
		client: &http.Client{Timeout: 30 * time.Second, Transport: capTransport{base: http.DefaultTransport}}}
	if fresh {
		return h, nil
	}
	g, err := store.load(server, resource)
	if err != nil {
		return nil, err
	}
	if g != nil {
		secret := g.ClientSecret
		if secret == "" && g.ClientID == cfg.ClientID {
			secret = h.secret
		}
		oc := &oauth2.Config{ClientID: g.ClientID, ClientSecret: secret, Scopes: g.Scopes,
			Endpoint: oauth2.Endpoint{TokenURL: g.TokenURL, AuthStyle: g.AuthStyle}}
		h.ts = h.saving(oc, g.Token)
		h.granted = g.Scopes
	}
	return h, nil
}

// TokenSource implements auth.OAuthHandler.
func (h *authHandler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ts, nil
}

// Authorize implements auth.OAuthHandler: it runs the login the failed
// request asks for, or says why it cannot.
func (h *authHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	insufficient := false
	for _, c := range challenges {
		insufficient = insufficient || c.Params["error"] == "insufficient_scope"
	}
	if resp.StatusCode == http.StatusForbidden && !insufficient {
		// A refusal no login changes: the request is retried once and
		// its answer reported.
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxMessage))
		resp.Body.Close()
		return nil
	}
	h.mu.Lock()
	h.attempts++
	attempts := h.attempts
	h.mu.Unlock()
	if resp.StatusCode == http.StatusUnauthorized && attempts == 1 && h.refreshEarly() {
		// The server let the token go before its expiry; the refresh
		// token may still be good.
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxMessage))
		resp.Body.Close()
		return nil
	}
	if h.login == nil || attempts > maxAuthorizations {
		resp.Body.Close()
		if attempts > maxAuthorizations {
			return fmt.Errorf("it asked for a login %d times on one connection; pincer stopped there", attempts-1)
		}
		return &LoginNeededError{Server: h.server, StepUp: insufficient}
	}

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(h.cfg.CallbackPort)))
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("listen for the browser's return on 127.0.0.1:%d: %w", h.cfg.CallbackPort, err)
	}
	cb := newCallback(ln, h.server)
	defer cb.close()

	config := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              cb.redirect,
		AuthorizationCodeFetcher: h.fetcher(cb),
		Client:                   h.client,
		RequestRefreshToken:      true,
		ScopeFilter: func(discovered []string) []string {
			// A step-up keeps what was granted before, and what the
			// person asked for in the config.
			out := slices.Clone(discovered)
			for _, s := range slices.Concat(h.cfg.Scopes, h.grantedScopes()) {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
			return out
		},
		NewTokenSource: func(_ context.Context, oc *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			return h.saving(oc, tok), nil
		},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs:            []string{cb.redirect},
				ClientName:              "pincer",
				GrantTypes:              []string{"authorization_code", "refresh_token"},
				ResponseTypes:           []string{"code"},
				TokenEndpointAuthMethod: "none",
			},
		},
	}
	if h.cfg.ClientMetadataURL != "" {
		config.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.cfg.ClientMetadataURL}
	}
	if h.cfg.ClientID != "" {
		config.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.cfg.ClientID}
		if h.secret != "" {
			config.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.secret}
		}
	}
	inner, err := auth.NewAuthorizationCodeHandler(config)
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("prepare the login: %w", err)
	}
	if err := inner.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("log in: %w", err)
	}
	ts, _ := inner.TokenSource(ctx)
	if ts == nil {
		return errors.New("log in: the authorization server gave no token")
	}
	h.mu.Lock()
	h.ts = ts
	h.mu.Unlock()
	return nil
}

// refreshEarly spends the refresh token of the current login now, and
// reports whether that gave a new access token.
func (h *authHandler) refreshEarly() bool {
	h.mu.Lock()
	s, ok := h.ts.(*savingSource)
	h.mu.Unlock()
	if !ok {
		return false
	}
	s.mu.Lock()
	refresh := s.refresh
	s.mu.Unlock()
	if refresh == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tok, err := s.oc.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, h.client), &oauth2.Token{RefreshToken: refresh}).Token()
	if err != nil {
		return false
	}
	ts := h.saving(s.oc, tok)
	h.mu.Lock()
	h.ts = ts
	h.mu.Unlock()
	return true
}

// grantedScopes are the scopes of the last login.
func (h *authHandler) grantedScopes() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.granted)
}

// fetcher shows the person the authorization URL and waits for the
// browser to come back to the loopback callback.
func (h *authHandler) fetcher(cb *callback) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if u, err := url.Parse(args.URL); err == nil {
			cb.expect(u.Query().Get("state"))
		}
		ctx, cancel := context.WithTimeout(ctx, loginTimeout)
		defer cancel()
		shown := make(chan error, 1)
		go func() { shown <- h.login(ctx, h.server, args.URL) }()
		for {
			select {
			case err := <-shown:
				if err != nil {
					return nil, err
				}
				shown = nil // shown; now the browser's return is awaited
			case res := <-cb.results:
				if res.err != nil {
					return nil, res.err
				}
				return res.result, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("the browser did not come back within %s: %w", loginTimeout, ctx.Err())
			}
		}
	}
}

// saving is the token source of a login that writes each new token it
// gets (the first, and every refresh) to the store, so a refreshed token
// outlives the process. It refreshes through the authorization server's
// client with a context of its own, since it outlives the request that
// made it.
func (h *authHandler) saving(oc *oauth2.Config, tok *oauth2.Token) oauth2.TokenSource {
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.client)
	s := &savingSource{h: h, oc: oc, base: oc.TokenSource(ctx, tok)}
	s.save(tok)
	return s
}

// savingSource is the source saving returns.
type savingSource struct {
	h    *authHandler
	oc   *oauth2.Config
	base oauth2.TokenSource

	mu   sync.Mutex
	last string
	// refresh is the refresh token of the last token.
	refresh string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.save(tok)
	return tok, nil
}

// save stores tok when it differs from what was stored last.
func (s *savingSource) save(tok *oauth2.Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok == nil || tok.AccessToken == s.last {
		return
	}
	s.last = tok.AccessToken
	if tok.RefreshToken != "" {
		s.refresh = tok.RefreshToken
	}
	scopes := s.oc.Scopes
	if granted, ok := tok.Extra("scope").(string); ok && granted != "" {
		scopes = strings.Fields(granted)
	}
	s.h.mu.Lock()
	s.h.granted = scopes
	s.h.mu.Unlock()
	g := &grant{Resource: s.h.resource, ClientID: s.oc.ClientID, AuthStyle: s.oc.Endpoint.AuthStyle,
		TokenURL: s.oc.Endpoint.TokenURL, Scopes: scopes, Token: tok}
	if s.oc.ClientSecret != s.h.secret || s.oc.ClientID != s.h.cfg.ClientID {
		g.ClientSecret = s.oc.ClientSecret // issued by the server, so nowhere else to find
	}
	_ = s.h.store.save(s.h.server, g) // a login that cannot be stored still serves this run
}

// callbackResult is what the browser brought back.
type callbackResult struct {
	result *auth.AuthorizationResult
	err    error
}

// callback is the loopback address the browser returns to with the
// authorization code.
type callback struct {
	redirect string
	srv      *http.Server
	results  chan callbackResult
	once     sync.Once

	mu sync.Mutex
	// state is the state of the authorization request: a return with
	// another (another process on the machine guessing the port) is
	// turned away and does not end the wait.
	state string
}

// expect sets the state the browser must bring back.
func (cb *callback) expect(state string) {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.state = state
}

func newCallback(ln net.Listener, server string) *callback {
	cb := &callback{
		redirect: "http://" + ln.Addr().String() + "/callback",
		results:  make(chan callbackResult, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		cb.mu.Lock()
		want := cb.state
		cb.mu.Unlock()
		if q.Get("state") != want {
			http.Error(w, "this is not the login pincer is waiting for", http.StatusBadRequest)
			return
		}
		var res callbackResult
		switch {
		case q.Get("error") != "":
			why := q.Get("error")
			if d := q.Get("error_description"); d != "" {
				why += ": " + d
			}
			res.err = fmt.Errorf("the authorization server refused the login (%s)", why)
		case q.Get("code") == "":
			http.Error(w, "no authorization code", http.StatusBadRequest)
			return
		default:
			res.result = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		msg := "You are logged in to the MCP server " + server + ". You can close this tab and go back to pincer."
		if res.err != nil {
			msg = "The login to the MCP server " + server + " failed: " + res.err.Error()
		}
		fmt.Fprintf(w, "<!doctype html><title>pincer</title><p>%s</p>\n", html.EscapeString(msg))
		cb.once.Do(func() { cb.results <- res })
	})
	cb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = cb.srv.Serve(ln) }()
	return cb
}

func (cb *callback) close() { _ = cb.srv.Close() }

// capTransport holds what is read of an authorization server's answer to
// maxMessage.
type capTransport struct {
	base http.RoundTripper
}

func (c capTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, maxMessage), resp.Body}
	return resp, nil
}
