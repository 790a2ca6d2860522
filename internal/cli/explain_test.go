package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"pincer/agent"
	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/config"
)

// serverError is the error a real client returns for a scripted answer.
func serverError(t *testing.T, reply agenttest.Reply) error {
	t.Helper()
	srv := agenttest.New(reply)
	defer srv.Close()
	client, err := llm.NewClient(llm.ClientOptions{BaseURL: srv.BaseURL(), Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Complete(context.Background(), llm.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hi"}}}, nil)
	if err == nil {
		t.Fatal("the request did not fail")
	}
	return err
}

// TestExplainModelError: each failure reads as one sentence with the fix;
// a refused key names where the key is set.
func TestExplainModelError(t *testing.T) {
	cases := []struct {
		name   string
		reply  agenttest.Reply
		env    map[string]string
		apiKey string
		want   []string
	}{
		{"401 with the key in the environment", agenttest.Error(401, "Incorrect API key provided"),
			map[string]string{"DEEPSEEK_API_KEY": "sk-x"}, "", []string{"refused the API key", "Incorrect API key provided", "environment variable DEEPSEEK_API_KEY", "export DEEPSEEK_API_KEY=<a valid key for deepseek>"}},
		{"403 with the key in a file", agenttest.Error(403, "forbidden"), nil, "sk-y", []string{"refused the API key", `"api_key" in /home/u/.config/pincer/config.json`}},
		{"401 without a key", agenttest.Error(401, "no key"), nil, "", []string{"no API key is set", "export DEEPSEEK_API_KEY=<your key>"}},
		{"500", agenttest.Error(500, "boom"), nil, "", []string{"failed, also when asked again", "boom", "send it again"}},
		{"429", agenttest.Error(429, "slow down"), nil, "", []string{"limiting requests", "wait a minute", "quota"}},
		{"429 with Retry-After", agenttest.Reply{Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: `{"error":{"message":"slow down"}}`}, nil, "",
			[]string{"limiting requests", "asks to wait 7s", "quota"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &cli{getenv: func(k string) string { return tc.env[k] }}
			p := &project{}
			p.cfg.BaseURL, p.cfg.Provider, p.cfg.APIKeyEnv, p.cfg.APIKey = "https://api.deepseek.com/v1", "deepseek", "DEEPSEEK_API_KEY", tc.apiKey
			p.srcs.Fields = map[string]config.Source{"api_key": {Kind: config.FromUserFile, Name: "/home/u/.config/pincer/config.json"}}
			p.srcs.ProviderConfigured = true
			got := c.explainModelError(p, serverError(t, tc.reply)).Error()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			if strings.Contains(got, "sk-") {
				t.Errorf("%q shows the key", got)
			}
		})
	}
}

// TestExplainUnreachable: with nothing configured, a refused connection to
// the default local Ollama is explained as "configure a provider"; with a
// provider configured, as "is the server running"; other errors pass.
func TestExplainUnreachable(t *testing.T) {
	t.Parallel()
	refused := fmt.Errorf("dial tcp 127.0.0.1:11434: %w", syscall.ECONNREFUSED)
	cases := []struct {
		name       string
		configured bool
		err        error
		want       []string
		usage      bool
	}{
		{"nothing configured", false, refused, []string{"no model provider is configured", "http://localhost:11434/v1", "PINCER_PROVIDER", "pincer config --help"}, true},
		{"configured server down", true, refused, []string{"nothing answers at http://localhost:11434/v1", "ollama server running"}, false},
		{"other errors pass through", false, errors.New("401 Unauthorized"), []string{"401 Unauthorized"}, false},
	}
	for _, tc := range cases {
		p := &project{}
		p.cfg.BaseURL, p.cfg.Provider = "http://localhost:11434/v1", "ollama"
		p.srcs.ProviderConfigured = tc.configured
		err := p.explainUnreachable(tc.err)
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tc.name, err, w)
			}
		}
		var ee *exitError
		if got := errors.As(err, &ee) && ee.code == 2; got != tc.usage {
			t.Errorf("%s: usage error = %v, want %v", tc.name, got, tc.usage)
		}
	}
}

// TestExplainTransport: failures below HTTP and a stream cut half way read
// as one sentence with the fix, from the errors a real client returns.
func TestExplainTransport(t *testing.T) {
	t.Parallel()
	plain := agenttest.New(agenttest.Text("never", 4))
	defer plain.Close()
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	defer untrusted.Close()
	cut := agenttest.New(agenttest.Reply{Body: `data: {"choices":[{"index":0,"delta":{"content":"half"}}]}` + "\n\n"})
	defer cut.Close()
	request := func(baseURL string) error {
		client, err := llm.NewClient(llm.ClientOptions{BaseURL: baseURL, Model: "m", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = client.Complete(context.Background(), llm.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hi"}}}, nil)
		if err == nil {
			t.Fatal("the request did not fail")
		}
		return err
	}
	noHost := fmt.Errorf("could not reach the model server at nosuchhost.invalid: %w",
		&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Name: "nosuchhost.invalid", Err: "no such host", IsNotFound: true}})
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"a host that does not exist", noHost, []string{`host "nosuchhost.invalid" does not exist`, "check the spelling of base_url"}},
		{"https to a plain HTTP server", request(strings.Replace(plain.BaseURL(), "http://", "https://", 1)), []string{"does not speak TLS", "use http:// instead of https://"}},
		{"an untrusted certificate", request(untrusted.URL + "/v1"), []string{"cannot be trusted", "SSL_CERT_FILE"}},
		{"a stream cut half way", request(cut.BaseURL()), []string{"before the answer was complete", "send the prompt again"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &project{}
			p.cfg.BaseURL, p.cfg.Provider = "https://nosuchhost.invalid/v1", "custom"
			p.srcs.ProviderConfigured = true
			got := (&cli{getenv: func(string) string { return "" }}).explainModelError(p, tc.err)
			for _, w := range tc.want {
				if !strings.Contains(got.Error(), w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			if !errors.Is(got, tc.err) {
				t.Errorf("the explained error no longer wraps %v", tc.err)
			}
		})
	}
}
