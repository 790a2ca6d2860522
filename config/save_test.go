package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSaveUserCreatesFileAndDirectory(t *testing.T) {
	w := newWorld(t)
	path := UserConfigPath(w.env.get)
	err := SaveUser(path, func(f *FileConfig) {
		f.Provider = Ptr("deepseek")
		f.APIKey = Ptr("sk-new")
	})
	if err != nil {
		t.Fatal(err)
	}
	c, s := w.mustLoad(t, Overrides{})
	if c.Provider != "deepseek" || c.APIKey != "sk-new" || s.Of("provider").Kind != FromUserFile {
		t.Errorf("after save: provider %q key set %v source %v", c.Provider, c.APIKey != "", s.Of("provider"))
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"provider\": \"deepseek\",\n  \"api_key\": \"sk-new\"\n}\n"; string(got) != want {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(entries) != 1 {
		t.Errorf("directory holds %v, %v; want only config.json (no temporary files left)", entries, err)
	}
}

func TestSaveUserKeepsWhatItDoesNotChange(t *testing.T) {
	w := newWorld(t)
	original := `{
  "$schema": "https://example.com/pincer.schema.json",
  "theme": "dark",
  "command_timeout": "90s",
  "future_field": {"nested": [1, 2]},
  "model": "old-model",
  "allow": ["ls", "go test ./..."]
}`
	w.writeUser(t, original)
	err := SaveUser(w.userPath(), func(f *FileConfig) {
		if f.Theme == nil || *f.Theme != "dark" || f.CommandTimeout == nil || f.CommandTimeout.Std() != 90*time.Second {
			t.Errorf("update saw theme %v timeout %v; want the file's values", f.Theme, f.CommandTimeout)
		}
		f.Model = Ptr("new-model")
		f.Provider = Ptr("openai")
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(w.userPath())
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatalf("saved file is not JSON: %v\n%s", err, got)
	}
	want := map[string]string{
		"$schema":         `"https://example.com/pincer.schema.json"`,
		"theme":           `"dark"`,
		"command_timeout": `"90s"`, // not rewritten as "1m30s"
		"future_field":    `{"nested":[1,2]}`,
		"model":           `"new-model"`,
		"provider":        `"openai"`,
		"allow":           `["ls","go test ./..."]`,
	}
	if len(doc) != len(want) {
		t.Errorf("saved keys = %d, want %d:\n%s", len(doc), len(want), got)
	}
	for k, v := range want {
		var compact strings.Builder
		if raw, ok := doc[k]; !ok {
			t.Errorf("%s missing after save", k)
		} else if err := compactInto(&compact, raw); err != nil || compact.String() != v {
			t.Errorf("%s = %s, want %s", k, compact.String(), v)
		}
	}
	// Keys keep their order; new ones go last.
	order := []string{"$schema", "theme", "command_timeout", "future_field", "model", "allow", "provider"}
	last := -1
	for _, k := range order {
		i := strings.Index(string(got), `"`+k+`"`)
		if i < last {
			t.Errorf("key %s moved:\n%s", k, got)
		}
		last = i
	}
}

func compactInto(b *strings.Builder, raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	out, err := json.Marshal(v)
	b.Write(out)
	return err
}

func TestSaveUserRemovesFieldsSetToNil(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"api_key": "sk-old", "theme": "dark"}`)
	if err := SaveUser(w.userPath(), func(f *FileConfig) { f.APIKey = nil }); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(w.userPath())
	if strings.Contains(string(got), "api_key") || !strings.Contains(string(got), `"theme": "dark"`) {
		t.Errorf("file = %s; want api_key gone and theme kept", got)
	}
}

func TestSaveUserKeepsValuesItCannotRead(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"max_iterations": "lots"}`)
	if err := SaveUser(w.userPath(), func(f *FileConfig) { f.Theme = Ptr("light") }); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(w.userPath())
	if !strings.Contains(string(got), `"max_iterations": "lots"`) {
		t.Errorf("file = %s; the unreadable value must be kept for the person to fix", got)
	}
}

func TestSaveUserRefusesBrokenFile(t *testing.T) {
	w := newWorld(t)
	broken := "{\n  \"theme\": \"dark\",,\n}"
	w.writeUser(t, broken)
	called := false
	err := SaveUser(w.userPath(), func(*FileConfig) { called = true })
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "left unchanged") {
		t.Fatalf("err = %v, want a syntax error with the line", err)
	}
	if called {
		t.Error("update was called for a file that could not be read")
	}
	if got, _ := os.ReadFile(w.userPath()); string(got) != broken {
		t.Errorf("the broken file was changed to %q", got)
	}
}

func TestCloneFileConfigIsDeep(t *testing.T) {
	f := FileConfig{Theme: Ptr("a"), Allow: []string{"x"}, CommandTimeout: Ptr(Duration(time.Second)),
		MCPServers: map[string]MCPServer{"a": {Command: "x"}}}
	c := cloneFileConfig(f)
	*c.Theme = "b"
	c.Allow[0] = "y"
	*c.CommandTimeout = 0
	c.MCPServers["b"] = MCPServer{URL: "http://b"}
	if *f.Theme != "a" || f.Allow[0] != "x" || *f.CommandTimeout != Duration(time.Second) || len(f.MCPServers) != 1 {
		t.Errorf("clone shares memory with the original: %+v", f)
	}
	if !reflect.DeepEqual(cloneFileConfig(f), f) {
		t.Error("clone differs from the original")
	}
}
