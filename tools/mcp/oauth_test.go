package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/tools/mcp/mcptest"
)

// oauthServer is testServer behind the authorization of mcptest.
func oauthServer(t *testing.T) *mcptest.OAuthServer {
	t.Helper()
	return mcptest.NewOAuthServer(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return testServer() }, nil))
}

// browser plays a person's browser that approves at once: it follows the
// authorization URL back to pincer's loopback callback, and counts the
// pages it was shown.
type browser struct{ shown atomic.Int32 }

func (b *browser) login(ctx context.Context, _, authURL string) error {
	b.shown.Add(1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func TestLoginIsStoredAndServesTheNextStart(t *testing.T) {
	srv := oauthServer(t)
	dir := filepath.Join(t.TempDir(), "mcp-auth")
	store := NewTokenStore(dir)
	var b browser
	m := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store, Login: b.login})
	if in := m.Servers()[0]; in.Status != StatusReady {
		t.Fatalf("after the login: %+v", in)
	}
	if b.shown.Load() != 1 || srv.Logins() != 1 {
		t.Fatalf("the login page was shown %d times, %d codes exchanged; want 1 and 1", b.shown.Load(), srv.Logins())
	}
	if res, err := run(t, context.Background(), tool(t, m, "mcp__corp__echo"), `{"text":"hi"}`); err != nil || res.Content != "echo: hi" {
		t.Fatalf("a call with the token: %+v %v", res, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("the store holds %v, want one file", files)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, files[0]: 0o600} {
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", path, info.Mode().Perm(), err, want)
		}
	}
	m.Close()

	// The next start uses the stored token without asking anybody.
	m2 := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store})
	if in := m2.Servers()[0]; in.Status != StatusReady || !in.LoggedIn {
		t.Fatalf("with the stored login: %+v", in)
	}
	if srv.Logins() != 1 {
		t.Errorf("%d logins; the stored one should have served", srv.Logins())
	}
}

func TestExpiredTokenIsRefreshedAndStored(t *testing.T) {
	srv := oauthServer(t)
	store := NewTokenStore(t.TempDir())
	var b browser
	started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store, Login: b.login}).Close()
	before, _ := store.load("corp", srv.Endpoint())
	srv.Expire()
	// The stored token's expiry passes too, as time would have it.
	before.Token.Expiry = before.Token.Expiry.AddDate(0, 0, -1)
	if err := store.save("corp", before); err != nil {
		t.Fatal(err)
	}
	m := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store})
	if in := m.Servers()[0]; in.Status != StatusReady {
		t.Fatalf("after the refresh: %+v", in)
	}
	after, _ := store.load("corp", srv.Endpoint())
	if srv.Refreshes() != 1 || srv.Logins() != 1 || after.Token.AccessToken == before.Token.AccessToken {
		t.Errorf("refreshes %d, logins %d, stored token %q (was %q); want one refresh, the new token stored",
			srv.Refreshes(), srv.Logins(), after.Token.AccessToken, before.Token.AccessToken)
	}
}

func TestTokenRefusedBeforeItsExpiryIsRefreshed(t *testing.T) {
	srv := oauthServer(t)
	store := NewTokenStore(t.TempDir())
	var b browser
	started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store, Login: b.login}).Close()
	srv.Expire() // the stored expiry is still an hour ahead
	m := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store})
	if in := m.Servers()[0]; in.Status != StatusReady || srv.Refreshes() != 1 || srv.Logins() != 1 {
		t.Fatalf("%s %q after %d refreshes, %d logins; want ready after one refresh", in.Status, in.Reason, srv.Refreshes(), srv.Logins())
	}
}

func TestWithoutAWayToAskTheServerSaysHowToLogIn(t *testing.T) {
	srv := oauthServer(t)
	m := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: NewTokenStore(t.TempDir())})
	in := m.Servers()[0]
	if in.Status != StatusFailed || in.Reason != "it needs you to log in; run: pincer mcp login corp" {
		t.Fatalf("got %s: %q", in.Status, in.Reason)
	}
	if len(srv.Bearers("/register")) != 0 || srv.Logins() != 0 {
		t.Error("pincer registered or logged in without anybody to ask")
	}
}

func TestStepUpAsksForTheNewScopeAndKeepsTheOld(t *testing.T) {
	srv := oauthServer(t)
	store := NewTokenStore(t.TempDir())
	var b browser
	m := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store, Login: b.login})
	srv.Require("mcp mcp:admin")
	if res, err := run(t, context.Background(), tool(t, m, "mcp__corp__echo"), `{"text":"again"}`); err != nil || res.Content != "echo: again" {
		t.Fatalf("the call after the step-up: %+v %v", res, err)
	}
	g, _ := store.load("corp", srv.Endpoint())
	if g == nil {
		t.Fatal("no login stored")
	}
	scopes := slices.Sorted(slices.Values(g.Scopes))
	if b.shown.Load() != 2 || !slices.Equal(scopes, []string{"mcp", "mcp:admin"}) {
		t.Errorf("logins shown %d, stored scopes %v; want 2 and both scopes", b.shown.Load(), scopes)
	}
	m.Close()

	// Without anybody to ask, a step-up is a reason, not a hang.
	srv.Require("mcp mcp:admin mcp:more")
	m3 := started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store})
	if in := m3.Servers()[0]; in.Status != StatusFailed || !strings.Contains(in.Reason, "more permissions") {
		t.Errorf("a step-up without a way to ask: %s %q", in.Status, in.Reason)
	}
}

func TestStoredLoginIsBoundToItsURL(t *testing.T) {
	srv := oauthServer(t)
	other := oauthServer(t)
	store := NewTokenStore(t.TempDir())
	var b browser
	started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store, Login: b.login}).Close()
	// The same name now points elsewhere: the token must not go there.
	m := started(t, Options{Servers: []Server{{Name: "corp", URL: other.Endpoint()}}, Tokens: store})
	if in := m.Servers()[0]; in.Status != StatusFailed {
		t.Fatalf("another server accepted a token it never issued: %+v", in)
	}
	if got := other.Bearers("/mcp"); len(got) != 0 {
		t.Errorf("the token of %s was sent to %s: %q", srv.URL, other.URL, got)
	}
}

func TestLogoutForgets(t *testing.T) {
	srv := oauthServer(t)
	store := NewTokenStore(t.TempDir())
	var b browser
	started(t, Options{Servers: []Server{{Name: "corp", URL: srv.Endpoint()}}, Tokens: store, Login: b.login}).Close()
	if !store.Has("corp", srv.Endpoint()) {
		t.Fatal("no login stored")
	}
	if had, err := store.Forget("corp"); !had || err != nil {
		t.Fatalf("Forget = %v, %v", had, err)
	}
	if had, err := store.Forget("corp"); had || err != nil {
		t.Fatalf("a second Forget = %v, %v", had, err)
	}
	if store.Has("corp", srv.Endpoint()) {
		t.Error("the login is still there")
	}
}

func TestOAuthSettingsAreChecked(t *testing.T) {
	tests := []struct {
		name string
		s    Server
		want string
	}{
		{"stdio", Server{Name: "a", Command: "x", OAuth: OAuth{ClientID: "c"}}, "does not log in"},
		{"port", Server{Name: "a", URL: "https://a.example/mcp", OAuth: OAuth{CallbackPort: 70000}}, "not a port"},
		{"document over http", Server{Name: "a", URL: "https://a.example/mcp", OAuth: OAuth{ClientMetadataURL: "http://a.example/c.json"}}, "https:// URL with a path"},
		{"document without path", Server{Name: "a", URL: "https://a.example/mcp", OAuth: OAuth{ClientMetadataURL: "https://a.example/"}}, "https:// URL with a path"},
		{"fine", Server{Name: "a", URL: "https://a.example/mcp", OAuth: OAuth{ClientID: "c", ClientMetadataURL: "https://pincer.example/client.json", CallbackPort: 8765}}, ""},
	}
	for _, tt := range tests {
		err := tt.s.check()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCallbackTurnsAwayAnotherState(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cb := newCallback(ln, "corp")
	defer cb.close()
	cb.expect("right")
	for _, tt := range []struct {
		query string
		code  int
	}{
		{"code=evil&state=wrong", http.StatusBadRequest},
		{"code=evil", http.StatusBadRequest},
		{"code=good&state=right", http.StatusOK},
	} {
		resp, err := http.Get(cb.redirect + "?" + tt.query)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.code {
			t.Errorf("%s: %d, want %d", tt.query, resp.StatusCode, tt.code)
		}
	}
	select {
	case res := <-cb.results:
		if res.err != nil || res.result.Code != "good" {
			t.Errorf("the wait ended with %+v", res)
		}
	default:
		t.Fatal("the right return did not end the wait")
	}
}
