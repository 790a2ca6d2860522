package mcp

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/internal/human"
)

// maxMessage is the most one message from a server may hold, over either
// transport: what the SDK reads of one line from a stdio server, and here
// of one HTTP answer or one event of a stream.
const maxMessage = sdk.DefaultMaxLineLength

// httpState is what pincer learns about one server's answers, to say why
// its connection broke. (Over stdio it only names the server.)
type httpState struct {
	server string
	// tooLarge is set once the server sent a message over maxMessage.
	tooLarge atomic.Bool
}

// errTooLarge is the error of an answer over maxMessage.
func (h *httpState) errTooLarge() error {
	return fmt.Errorf("the MCP server %s sent a message larger than %s, pincer's limit for one message, so it was not read", h.server, human.Bytes(maxMessage))
}

// explain replaces an error the SDK reports for a connection broken by
// an oversized message with one that names the server and the limit:
// over HTTP pincer saw it happen; over stdio the SDK says so in its own
// words (a test pins them).
func (h *httpState) explain(err error) error {
	if err == nil || h == nil {
		return err
	}
	if h.tooLarge.Load() || strings.Contains(err.Error(), "exceeded the configured maximum line length") {
		return h.errTooLarge()
	}
	return err
}

// httpClient is the HTTP client of one server at endpoint. The configured
// headers (credentials, mostly) go to the endpoint's own origin only, and
// no redirect to another origin is followed: a server cannot send pincer,
// token in hand, somewhere else. An answer that is not an event stream is
// read up to maxMessage; the SDK holds each event of a stream to the same.
func httpClient(state *httpState, endpoint string, headers http.Header, base http.RoundTripper) (*http.Client, error) {
	home, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("its url %q: %w", endpoint, err)
	}
	origin := originOf(home)
	return &http.Client{
		Transport: headerTransport{base: base, origin: origin, headers: headers, state: state},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if o := originOf(req.URL); o != origin {
				return fmt.Errorf("the MCP server %s redirected to %s, another origin than its url's (%s); pincer does not follow it, so its credentials stay with %s: configure the url it means", state.server, o, origin, origin)
			}
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return nil
		},
	}, nil
}

// originOf is a URL's scheme, host and port, the port spelled out.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// headerTransport adds the configured headers to the requests for the
// server's own origin, and caps what is read of each answer.
type headerTransport struct {
	base    http.RoundTripper
	origin  string
	headers http.Header
	state   *httpState
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if originOf(r.URL) == h.origin {
		r = r.Clone(r.Context())
		for k, vs := range h.headers {
			r.Header[k] = vs
		}
	}
	resp, err := h.base.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media == "text/event-stream" {
		resp.Body = &eventCap{r: resp.Body, state: h.state}
	} else {
		resp.Body = &bodyCap{r: resp.Body, state: h.state, left: maxMessage}
	}
	return resp, nil
}

// bodyCap reads an answer up to its limit, then fails.
type bodyCap struct {
	r     io.ReadCloser
	state *httpState
	left  int64
}

func (b *bodyCap) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte past the limit tells a full answer from a longer one
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		b.state.tooLarge.Store(true)
		return 0, b.state.errTooLarge()
	}
	return n, err
}

func (b *bodyCap) Close() error { return b.r.Close() }

// eventCap notes an event of a stream that grows past maxMessage (the
// SDK then breaks the connection, having read that much), so the error
// can say why.
type eventCap struct {
	r     io.ReadCloser
	state *httpState
	size  int64
	// newline says the last byte seen ended a line; a second one ends an
	// event.
	newline bool
}

func (e *eventCap) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	for _, c := range p[:n] {
		switch {
		case c == '\n' && e.newline:
			e.size, e.newline = 0, false
			continue
		case c == '\n':
			e.newline = true
		case c != '\r':
			e.newline = false
		}
		e.size++
	}
	if e.size >= maxMessage {
		e.state.tooLarge.Store(true) // the SDK stops at the limit, not past it
	}
	return n, err
}

func (e *eventCap) Close() error { return e.r.Close() }
