package config

import (
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
)

// redactedKey stands in for an API key wherever a config is shown.
const redactedKey = "<redacted>"

// Redacted returns a copy whose APIKey is "<redacted>" when a key is set,
// and whose BaseURL shows no credentials (see RedactURL), for `pincer
// config` and anything else that shows the config to a person.
func (c Config) Redacted() Config {
	if c.APIKey != "" {
		c.APIKey = redactedKey
	}
	c.BaseURL = RedactURL(c.BaseURL)
	c.MCPServers = redactServers(c.MCPServers)
	return c
}

// redactServers hides the header and env values of MCP servers that are
// written out rather than taken from a ${VARIABLE}: they are usually
// tokens. The map is copied, never changed.
func redactServers(in map[string]MCPServer) map[string]MCPServer {
	if in == nil {
		return nil
	}
	hide := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			if strings.Contains(v, "${") || v == "" {
				out[k] = v
			} else {
				out[k] = redactedKey
			}
		}
		return out
	}
	out := make(map[string]MCPServer, len(in))
	for name, s := range in {
		s.Headers, s.Env = hide(s.Headers), hide(s.Env)
		s.URL = RedactURL(s.URL)
		if s.OAuth != nil && s.OAuth.ClientSecret != "" && !strings.Contains(s.OAuth.ClientSecret, "${") {
			o := *s.OAuth
			o.ClientSecret = redactedKey
			s.OAuth = &o
		}
		out[name] = s
	}
	return out
}

// Secrets lists the credentials the config holds: the API key and any
// carried inside base_url (user info, key parameters), each as written and
// as decoded, so output that leaves pincer can be scrubbed of them.
func (c Config) Secrets() []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	add(c.APIKey)
	// Read the URL as written, as RedactURL does, so a URL too broken to
	// parse gives up its secrets too.
	raw := c.BaseURL
	if start, at, ok := userinfoSpan(raw); ok {
		info := raw[start:at]
		name, pass, _ := strings.Cut(info, ":")
		for _, v := range []string{info, name, pass} {
			add(v)
			if d, err := url.PathUnescape(v); err == nil {
				add(d)
			}
		}
	}
	if q := strings.IndexByte(raw, '?'); q >= 0 {
		query, _, _ := strings.Cut(raw[q+1:], "#")
		for _, part := range strings.Split(query, "&") {
			name, value, _ := strings.Cut(part, "=")
			if !secretParam(name) {
				continue
			}
			add(value)
			if v, err := url.QueryUnescape(value); err == nil {
				add(v)
			}
		}
	}
	return out
}

// secretParams are query parameters that carry credentials in the URLs of
// OpenAI-compatible servers and the proxies in front of them.
var secretParams = []string{
	"key", "api-key", "api_key", "apikey", "x-api-key", "token", "access_token",
	"auth", "auth_token", "authorization", "secret", "client_secret", "password",
	"sig", "signature", "code",
}

// secretParam reports whether the query parameter name (as written in the
// URL) carries a credential.
func secretParam(name string) bool {
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	return slices.Contains(secretParams, strings.ToLower(name))
}

// RedactURL returns raw with its credentials replaced by "<redacted>": the
// user info (http://user:KEY@host) and the values of known key parameters
// (?api-key=KEY, key=, token=, access_token=, …). The rest of the URL is
// kept as written, so people can still tell which server it is.
func RedactURL(raw string) string {
	// Work on the text as written rather than on a parse: a URL too broken
	// to parse may still hold a key, and redacting twice changes nothing.
	out := raw
	if start, at, ok := userinfoSpan(out); ok {
		out = out[:start] + redactedKey + out[at:]
	}
	q := strings.IndexByte(out, '?')
	if q < 0 {
		return out
	}
	query, rest := out[q+1:], ""
	if f := strings.IndexByte(query, '#'); f >= 0 {
		query, rest = query[:f], query[f:]
	}
	parts := strings.Split(query, "&")
	for i, part := range parts {
		if name, _, ok := strings.Cut(part, "="); ok && secretParam(name) {
			parts[i] = name + "=" + redactedKey
		}
	}
	return out[:q+1] + strings.Join(parts, "&") + rest
}

// plain is Config without its methods, so formatting inside Format does not
// recurse.
type plain Config

// Format makes every fmt verb (%v, %+v, %#v, %s, …) print the redacted
// config, so the key cannot leak through a stray Printf or error wrap.
func (c Config) Format(f fmt.State, verb rune) {
	s := fmt.Sprintf(fmt.FormatString(f, verb), plain(c.Redacted()))
	if verb == 'v' && f.Flag('#') {
		s = strings.Replace(s, "config.plain{", "config.Config{", 1)
	}
	_, _ = f.Write([]byte(s))
}

// String returns the redacted config in %+v form.
func (c Config) String() string { return fmt.Sprintf("%+v", c) }

// GoString returns the redacted config in %#v form.
func (c Config) GoString() string { return fmt.Sprintf("%#v", c) }

// LogValue makes slog log the redacted config.
func (c Config) LogValue() slog.Value { return slog.AnyValue(plain(c.Redacted())) }

// userinfoSpan finds the user info of a URL as written: it starts after
// "://" and ends at the last "@" before the path, query or fragment.
func userinfoSpan(raw string) (start, at int, ok bool) {
	i := strings.Index(raw, "://")
	if i < 0 {
		return 0, 0, false
	}
	start = i + 3
	end := len(raw)
	if k := strings.IndexAny(raw[start:], "/?#"); k >= 0 {
		end = start + k
	}
	k := strings.LastIndex(raw[start:end], "@")
	if k < 0 {
		return 0, 0, false
	}
	return start, start + k, true
}
