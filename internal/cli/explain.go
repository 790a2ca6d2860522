package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"pincer/agent/llm"
	"pincer/config"
)

// explainModelError turns a failed model request into one sentence with
// the fix, for the screen and for pincer run alike: nothing answering
// (explainUnreachable), a refused API key (naming where the key is set),
// a rate limit, a server that keeps failing. Other errors pass unchanged.
func (c *cli) explainModelError(p *project, err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	if e := p.explainUnreachable(err); e != err {
		return e
	}
	said := strings.TrimPrefix(err.Error(), "the model server answered ")
	explain := func(format string, args ...any) error {
		return &explainedError{text: fmt.Sprintf(format, args...), err: err}
	}
	if e := explainTransport(p, err); e != nil {
		return e
	}
	switch status := llm.ServerStatus(err); {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return explain("the model server at %s refused the API key (%s); %s", config.RedactURL(p.cfg.BaseURL), said, c.keyAdvice(p))
	case status == http.StatusTooManyRequests && llm.RetryAfter(err) > 0:
		return explain("the model server at %s is limiting requests (%s) and asks to wait %s; send again after that, or check your plan's quota", config.RedactURL(p.cfg.BaseURL), said, llm.RetryAfter(err).Round(time.Second))
	case status == http.StatusTooManyRequests:
		return explain("the model server at %s is limiting requests (%s); wait a minute and send again, or check your plan's quota", config.RedactURL(p.cfg.BaseURL), said)
	case status == http.StatusNotFound:
		return explain("the model server at %s does not know this model or address (%s); check the model (%q) and base_url", config.RedactURL(p.cfg.BaseURL), said, p.cfg.Model)
	case status >= 500:
		return explain("the model server at %s failed, also when asked again (%s); your request is fine: send it again in a minute, or check the server", config.RedactURL(p.cfg.BaseURL), said)
	}
	return err
}

// explainTransport says what to do about a failure below HTTP — a host
// name that does not exist, TLS spoken to a plain HTTP server, a
// certificate that cannot be trusted — and about a stream that stopped
// half way; nil when err is none of these.
func explainTransport(p *project, err error) error {
	url := config.RedactURL(p.cfg.BaseURL)
	explain := func(format string, args ...any) error {
		return &explainedError{text: fmt.Sprintf(format, args...), err: err}
	}
	var (
		dns     *net.DNSError
		record  tls.RecordHeaderError
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return explain("the model server's host %q does not exist (%s); check the spelling of base_url (%s) and your network's DNS", dns.Name, err, url)
	case errors.As(err, &record):
		return explain("the server at %s does not speak TLS (%s); use http:// instead of https:// in base_url", url, err)
	case errors.As(err, &verify), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid):
		return explain("the certificate of the model server at %s cannot be trusted (%s); check base_url's host name, or add the server's CA to the system's trusted certificates (or point SSL_CERT_FILE at it)", url, err)
	case errors.Is(err, llm.ErrStreamCut):
		return explain("the model server at %s closed the connection before the answer was complete (what arrived is kept); send the prompt again, and check the server's log if it keeps happening", url)
	}
	return nil
}

// explainedError is an error told as advice; the original stays reachable
// for errors.Is and errors.As.
type explainedError struct {
	text string
	err  error
}

func (e *explainedError) Error() string { return e.text }
func (e *explainedError) Unwrap() error { return e.err }

// keyAdvice says where the API key in use comes from and how to set
// another, without showing the key.
func (c *cli) keyAdvice(p *project) string {
	env := p.cfg.APIKeyEnv
	if env == "" {
		env = config.EnvAPIKey
	}
	userFile := config.UserConfigPath(c.getenv)
	src := p.cfg.APIKeySource(c.getenv)
	if src == "api_key" {
		// api_key is a config field; say which layer set it.
		switch from := p.srcs.Of("api_key"); from.Kind {
		case config.FromEnv:
			src = "env " + from.Name
		case config.FromFlag:
			return "the key comes from " + from.Name + ": pass a valid one"
		default:
			return fmt.Sprintf("the key is \"api_key\" in %s: correct it there, or remove it and export %s=<your key>", from, env)
		}
	}
	if name, ok := strings.CutPrefix(src, "env "); ok {
		return fmt.Sprintf("the key comes from the environment variable %s: export %s=<a valid key for %s>", name, name, p.cfg.Provider)
	}
	return fmt.Sprintf("no API key is set: export %s=<your key>, or set \"api_key\" in %s", env, userFile)
}
