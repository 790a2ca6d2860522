package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/oauth2"

	"pincer/internal/atomicfile"
	"pincer/internal/safefile"
)

// TokenStore keeps what logging in to MCP servers earned: one file per
// server (0600, in a 0700 directory under the user's data directory,
// never in a project or a config file), holding the access and refresh
// tokens and the client they were issued to. A grant is bound to the URL
// it was issued for: a server whose url changed asks for a new login, so
// no token reaches an endpoint it was not issued for.
type TokenStore struct {
	dir string
}

// NewTokenStore returns the store in dir; nothing is made before the
// first login.
func NewTokenStore(dir string) *TokenStore { return &TokenStore{dir: dir} }

// Dir is where the store keeps its files.
func (t *TokenStore) Dir() string { return t.dir }

// grant is what one login earned, as stored.
type grant struct {
	// Resource is the server's URL the tokens were issued for.
	Resource string `json:"resource"`
	// ClientID, ClientSecret and AuthStyle are the client the tokens were
	// issued to (registered dynamically, pre-registered, or a metadata
	// document's URL); a pre-registered client's configured secret is not
	// stored, only one the server issued.
	ClientID     string           `json:"client_id"`
	ClientSecret string           `json:"client_secret,omitempty"`
	AuthStyle    oauth2.AuthStyle `json:"auth_style,omitempty"`
	// TokenURL is where the refresh token is spent.
	TokenURL string   `json:"token_url"`
	Scopes   []string `json:"scopes,omitempty"`
	// Token is the access token, its expiry and the refresh token.
	Token *oauth2.Token `json:"token"`
	Saved time.Time     `json:"saved"`
}

// path is the file of a server: its name made safe, and a hash of the
// name, so two names that sanitise alike keep apart.
func (t *TokenStore) path(server string) string {
	sum := sha256.Sum256([]byte(server))
	return filepath.Join(t.dir, sanitize(server)+"-"+hex.EncodeToString(sum[:4])+".json")
}

// load returns the server's grant for resource, or nil when there is none
// (or it was issued for another URL).
func (t *TokenStore) load(server, resource string) (*grant, error) {
	if t == nil {
		return nil, nil
	}
	raw, err := safefile.Read(t.path(server), safefile.Options{Limit: 1 << 20})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the login of the MCP server %s: %w", server, err)
	}
	var g grant
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("the login of the MCP server %s in %s is damaged (%v); log in again with: pincer mcp login %s", server, t.path(server), err, server)
	}
	if g.Resource != resource || g.Token == nil {
		return nil, nil
	}
	return &g, nil
}

// save writes the server's grant, readable by the user only.
func (t *TokenStore) save(server string, g *grant) error {
	if t == nil {
		return nil
	}
	if err := os.MkdirAll(t.dir, 0o700); err != nil {
		return fmt.Errorf("make the MCP login directory: %w", err)
	}
	_ = os.Chmod(t.dir, 0o700)
	g.Saved = time.Now().UTC()
	raw, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(t.path(server), raw, 0o600); err != nil {
		return fmt.Errorf("save the login of the MCP server %s: %w", server, err)
	}
	return nil
}

// Has reports whether the server has a stored login for resource.
func (t *TokenStore) Has(server, resource string) bool {
	if t == nil {
		return false
	}
	g, err := t.load(server, resource)
	return err == nil && g != nil
}

// Forget deletes the server's stored login; it reports whether there was
// one.
func (t *TokenStore) Forget(server string) (bool, error) {
	if t == nil {
		return false, nil
	}
	err := os.Remove(t.path(server))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("forget the login of the MCP server %s: %w", server, err)
	}
	return true, nil
}
