// Package mcp connects pincer to MCP servers: it starts the configured
// servers in the background, keeps track of each one's status and tools,
// and offers those tools to the model as ordinary tools.Tool values named
// mcp__SERVER__TOOL. It uses the official Go SDK for the protocol.
package mcp

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout is how long one tool call may take when Options.Timeout
// is zero.
const DefaultTimeout = 60 * time.Second

// DefaultStartTimeout is how long a server may take to start and list its
// tools before it is reported as failed.
const DefaultStartTimeout = 60 * time.Second

// Server is one configured MCP server.
type Server struct {
	// Name is the server's name in the configuration; it is part of every
	// tool name.
	Name string
	// Type is the transport as a .mcp.json names it ("stdio", "http",
	// "streamable-http", "sse"); empty means: from Command or URL.
	Type string
	// Command, Args and Env start a server that talks over stdio.
	Command string
	Args    []string
	Env     map[string]string
	// URL and Headers reach a server over streamable HTTP. A header value
	// may name environment variables as ${NAME} (or ${NAME:-default}), so
	// no token is written in a project file.
	URL     string
	Headers map[string]string
	// OAuth is how pincer logs in to a server over HTTP that asks for
	// authorization (see OAuth); the zero value registers pincer
	// dynamically.
	OAuth OAuth
	// Disabled servers are listed but never started.
	Disabled bool
	// HideTools are tool names (as the server calls them) not offered to
	// the model.
	HideTools []string
	// Trusted lets the server's tools that declare readOnlyHint run
	// without asking.
	Trusted bool
	// Origin says where the server was configured, for /mcp and errors.
	Origin string
}

// Transport names how pincer reaches the server: "stdio" or "http".
func (s Server) Transport() string {
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

// check reports a server configuration that cannot start, as a reason.
func (s Server) check() error {
	switch {
	case s.Type == "sse":
		return fmt.Errorf("it uses the SSE transport, which pincer does not speak; give the server's streamable HTTP url with \"type\": \"http\"")
	case s.Type != "" && s.Type != "stdio" && s.Type != "http" && s.Type != "streamable-http":
		return fmt.Errorf("its type %q is not stdio or http", s.Type)
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("it has neither a command nor a url; give one")
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("it has both a command and a url; keep one")
	case s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
		return fmt.Errorf("its url %q is not http:// or https://", s.URL)
	case s.URL == "" && (s.OAuth.ClientID != "" || s.OAuth.ClientMetadataURL != "" || len(s.OAuth.Scopes) > 0 || s.OAuth.CallbackPort != 0):
		return fmt.Errorf("it has oauth settings, but a server over stdio does not log in; remove them or give its url")
	case s.OAuth.CallbackPort < 0 || s.OAuth.CallbackPort > 65535:
		return fmt.Errorf("its oauth callback_port %d is not a port; give 1 to 65535, or 0 for any", s.OAuth.CallbackPort)
	case s.OAuth.ClientMetadataURL != "" && !isDocumentURL(s.OAuth.ClientMetadataURL):
		return fmt.Errorf("its oauth client_metadata_url %q is not an https:// URL with a path, as a client ID metadata document's must be", s.OAuth.ClientMetadataURL)
	}
	return nil
}

// isDocumentURL reports whether raw can be a client ID metadata
// document's URL: https, with a host and a path.
func isDocumentURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/"
}

// expand replaces ${NAME} and ${NAME:-default} in s with values from
// getenv. A variable that is unset (and has no default) is an error that
// names it, so a server never starts with a half-built token.
func expand(s string, getenv func(string) string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		v := getenv(name)
		switch {
		case v != "":
		case hasDef:
			v = def
		default:
			return "", fmt.Errorf("${%s} is not set; export %s", name, name)
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
}
