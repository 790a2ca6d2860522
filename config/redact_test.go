package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

const secret = "sk-live-0123456789abcdef"

func TestRedactedReplacesOnlyASetKey(t *testing.T) {
	c := Defaults()
	c.APIKey = secret
	c.Model = "m"
	r := c.Redacted()
	if r.APIKey != "<redacted>" || r.Model != "m" {
		t.Errorf("Redacted = key %q model %q", r.APIKey, r.Model)
	}
	if c.APIKey != secret {
		t.Error("Redacted changed the original")
	}
	if got := Defaults().Redacted().APIKey; got != "" {
		t.Errorf("no key redacts to %q, want empty", got)
	}
}

// TestKeyNeverPrinted covers every way a Config is commonly printed.
func TestKeyNeverPrinted(t *testing.T) {
	c := Defaults()
	c.Provider, c.Model, c.APIKey = "openai", "gpt-5-mini", secret
	type wrapper struct {
		Cfg  Config
		Ptr  *Config
		List []Config
	}
	var logBuf bytes.Buffer
	slog.New(slog.NewTextHandler(&logBuf, nil)).Info("loaded", "config", c)
	var jsonLog bytes.Buffer
	slog.New(slog.NewJSONHandler(&jsonLog, nil)).Info("loaded", "config", c)
	js, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	wrapped := fmt.Errorf("start: %v", c)
	outputs := map[string]string{
		"%v":          fmt.Sprintf("%v", c),
		"%+v":         fmt.Sprintf("%+v", c),
		"%#v":         fmt.Sprintf("%#v", c),
		"%s":          fmt.Sprintf("%s", c),
		"%q":          fmt.Sprintf("%q", c),
		"%x":          fmt.Sprintf("%x", c),
		"pointer %+v": fmt.Sprintf("%+v", &c),
		"Println":     fmt.Sprintln(c),
		"String":      c.String(),
		"GoString":    c.GoString(),
		"nested %+v":  fmt.Sprintf("%+v", wrapper{Cfg: c, Ptr: &c, List: []Config{c}}),
		"nested %#v":  fmt.Sprintf("%#v", wrapper{Cfg: c, List: []Config{c}}),
		"slog text":   logBuf.String(),
		"slog json":   jsonLog.String(),
		"json":        string(js),
		"error":       wrapped.Error(),
	}
	for name, out := range outputs {
		if strings.Contains(out, secret) || strings.Contains(out, fmt.Sprintf("%x", secret)) {
			t.Errorf("%s leaks the key: %s", name, out)
		}
	}
	// The redacted forms still show the rest.
	for _, name := range []string{"%+v", "%#v", "slog text", "json"} {
		if !strings.Contains(outputs[name], "gpt-5-mini") {
			t.Errorf("%s lost the other fields: %s", name, outputs[name])
		}
	}
	if !strings.HasPrefix(outputs["%#v"], "config.Config{") {
		t.Errorf("%%#v = %s, want it to name config.Config", outputs["%#v"])
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"http://user:" + secret + "@host:8080/v1", "http://<redacted>@host:8080/v1"},
		{"http://" + secret + "@host/v1", "http://<redacted>@host/v1"},
		{"http://u:p%40ss@host/v1?x=1", "http://<redacted>@host/v1?x=1"},
		{"https://h/v1?api-key=" + secret, "https://h/v1?api-key=<redacted>"},
		{"https://h/v1?api-version=2024-02-01&key=" + secret + "#frag", "https://h/v1?api-version=2024-02-01&key=<redacted>#frag"},
		{"https://h/v1?Token=a&access_token=b&api_key=c&apikey=d&x=e", "https://h/v1?Token=<redacted>&access_token=<redacted>&api_key=<redacted>&apikey=<redacted>&x=e"},
		{"https://h/v1?key", "https://h/v1?key"},
		{"http://us er:" + secret + "@host\x7f/v1?key=" + secret, "http://<redacted>@host\x7f/v1?key=<redacted>"},
		{"http://<redacted>@h/v1?key=<redacted>&x=1", "http://<redacted>@h/v1?key=<redacted>&x=1"},
		{"http://h/a@b?c=d@e", "http://h/a@b?c=d@e"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSecretsAndRedactedCoverTheBaseURL(t *testing.T) {
	c := Defaults()
	c.Provider, c.Model = Custom, "m"
	c.BaseURL = "http://alice:p%2Fw" + secret + "@host/v1?api-key=k%2B" + secret + "&mode=x"
	got := c.Secrets()
	for _, want := range []string{"alice", "p%2Fw" + secret, "p/w" + secret, "k%2B" + secret, "k+" + secret} {
		if !slices.Contains(got, want) {
			t.Errorf("Secrets() = %q, missing %q", got, want)
		}
	}
	if slices.Contains(got, "x") {
		t.Errorf("Secrets() = %q includes a value that is not a key", got)
	}
	js, _ := json.Marshal(c)
	for _, out := range []string{fmt.Sprintf("%+v", c), string(js), c.Redacted().BaseURL} {
		if strings.Contains(out, secret) || strings.Contains(out, "alice") {
			t.Errorf("the base URL's credentials show in %q", out)
		}
	}
}
