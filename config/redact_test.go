package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
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
