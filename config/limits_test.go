package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestUntrustedProjectLimitsOnlyTighten: an untrusted .pincer.json may make
// a limit stricter than the person's own setting (or the default), never
// looser; "0 = no limit" counts as the loosest value. A trusted project
// may set anything.
func TestUntrustedProjectLimitsOnlyTighten(t *testing.T) {
	tests := []struct {
		name    string
		user    string // user config, "" for none
		project string
		field   string
		want    any // the value used when the project is not trusted
		ignored bool
	}{
		{"idle_timeout 0 is no limit", "", `{"idle_timeout": 0}`, "idle_timeout", Duration(DefaultIdleTimeout), true},
		{"idle_timeout larger", "", `{"idle_timeout": "1h"}`, "idle_timeout", Duration(DefaultIdleTimeout), true},
		{"idle_timeout smaller", "", `{"idle_timeout": "30s"}`, "idle_timeout", Duration(30 * time.Second), false},
		{"idle_timeout any when the user has none", `{"idle_timeout": 0}`, `{"idle_timeout": "1h"}`, "idle_timeout", Duration(time.Hour), false},
		{"command_timeout 0", "", `{"command_timeout": 0}`, "command_timeout", Duration(DefaultCommandTimeout), true},
		{"command_timeout larger than the user's", `{"command_timeout": "30s"}`, `{"command_timeout": "1m"}`, "command_timeout", Duration(30 * time.Second), true},
		{"command_timeout smaller", "", `{"command_timeout": "10s"}`, "command_timeout", Duration(10 * time.Second), false},
		{"command_timeout equal", "", `{"command_timeout": "2m"}`, "command_timeout", Duration(2 * time.Minute), false},
		{"first_byte_timeout 0", "", `{"first_byte_timeout": 0}`, "first_byte_timeout", Duration(DefaultFirstByteTimeout), true},
		{"first_byte_timeout larger", "", `{"first_byte_timeout": "1h"}`, "first_byte_timeout", Duration(DefaultFirstByteTimeout), true},
		{"first_byte_timeout smaller", "", `{"first_byte_timeout": "20s"}`, "first_byte_timeout", Duration(20 * time.Second), false},
		{"silent_retry_budget 0", "", `{"silent_retry_budget": 0}`, "silent_retry_budget", Duration(DefaultSilentRetryBudget), true},
		{"silent_retry_budget larger", "", `{"silent_retry_budget": "10h"}`, "silent_retry_budget", Duration(DefaultSilentRetryBudget), true},
		{"max_iterations larger", "", `{"max_iterations": 1000}`, "max_iterations", DefaultMaxIterations, true},
		{"max_iterations smaller", "", `{"max_iterations": 5}`, "max_iterations", 5, false},
		{"max_retries larger", "", `{"max_retries": 20}`, "max_retries", DefaultMaxRetries, true},
		{"max_retries 0 is stricter", "", `{"max_retries": 0}`, "max_retries", 0, false},
		{"context_window larger", "", `{"context_window": 1000000}`, "context_window", DefaultContextWindow, true},
		{"context_window larger than the user's", `{"context_window": 8000}`, `{"context_window": 16000}`, "context_window", 8000, true},
		{"context_window smaller", "", `{"context_window": 8000}`, "context_window", 8000, false},
		{"web_timeout larger", "", `{"web_timeout": "5m"}`, "web_timeout", Duration(DefaultWebTimeout), true},
		{"web_timeout smaller", "", `{"web_timeout": "5s"}`, "web_timeout", Duration(5 * time.Second), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if tt.user != "" {
				w.writeUser(t, tt.user)
			}
			w.writeProject(t, tt.project)
			c, s := loadWithin(t, w, true)
			if got := limitValue(c, tt.field); got != tt.want {
				t.Errorf("%s = %v, want %v", tt.field, got, tt.want)
			}
			if got := slices.Contains(s.Ignored, tt.field); got != tt.ignored {
				t.Errorf("ignored %v = %v, want %v", s.Ignored, got, tt.ignored)
			}
			warned := len(s.Warnings) == 1 && strings.Contains(s.Warnings[0], tt.field) && strings.Contains(s.Warnings[0], "pincer trust")
			if warned != tt.ignored {
				t.Errorf("warnings = %q; want a warning naming %s: %v", s.Warnings, tt.field, tt.ignored)
			}
			// Trusted, the project's value stands.
			c, _ = loadWithin(t, w, false)
			if tt.ignored && limitValue(c, tt.field) == tt.want {
				t.Errorf("trusted: %s = %v, want the project's value", tt.field, limitValue(c, tt.field))
			}
		})
	}
}

func TestUntrustedProjectCannotSetDataDir(t *testing.T) {
	w := newWorld(t)
	w.writeProject(t, `{"data_dir": "/tmp/planted"}`)
	c, s := loadWithin(t, w, true)
	if c.DataDir != "" {
		t.Fatalf("data_dir = %q from an untrusted project", c.DataDir)
	}
	if !slices.Contains(s.Ignored, "data_dir") || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "data_dir") {
		t.Fatalf("ignored %v, warnings %q; want data_dir named", s.Ignored, s.Warnings)
	}
	if c, _ := loadWithin(t, w, false); c.DataDir != "/tmp/planted" {
		t.Errorf("trusted: data_dir = %q", c.DataDir)
	}
}

// TestUntrustedProjectCannotWidenRecall: a cloned project's .pincer.json
// cannot have automatic recall bring the person's other projects' notes
// and sessions into its own sessions.
func TestUntrustedProjectCannotWidenRecall(t *testing.T) {
	w := newWorld(t)
	w.writeProject(t, `{"recall_scope": "all"}`)
	c, s := loadWithin(t, w, true)
	if c.RecallScope != "project" {
		t.Fatalf("recall_scope = %q from an untrusted project", c.RecallScope)
	}
	if !slices.Contains(s.Ignored, "recall_scope") || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "recall_scope") {
		t.Fatalf("ignored %v, warnings %q; want recall_scope named", s.Ignored, s.Warnings)
	}
	if c, _ := loadWithin(t, w, false); c.RecallScope != "all" {
		t.Errorf("trusted: recall_scope = %q", c.RecallScope)
	}
}

// TestUntrustedProjectCannotSetPrices: a cloned project cannot replace
// your prices, which would show a turn as free (or dear) while you pay
// the provider's.
func TestUntrustedProjectCannotSetPrices(t *testing.T) {
	w := newWorld(t)
	w.writeProject(t, `{"prices": {"gpt-5-mini": {"input": 0, "output": 0}}}`)
	c, s := loadWithin(t, w, true)
	if _, ok := c.Prices["gpt-5-mini"]; ok {
		t.Fatalf("prices %v from an untrusted project", c.Prices)
	}
	if !slices.Contains(s.Ignored, "prices") || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "prices") {
		t.Fatalf("ignored %v, warnings %q; want prices named", s.Ignored, s.Warnings)
	}
	if c, _ := loadWithin(t, w, false); c.Prices["gpt-5-mini"] != (Price{}) || len(c.Prices) == 0 {
		t.Errorf("trusted: prices = %v", c.Prices)
	}
}

func limitValue(c Config, field string) any {
	switch field {
	case "idle_timeout":
		return c.IdleTimeout
	case "command_timeout":
		return c.CommandTimeout
	case "first_byte_timeout":
		return c.FirstByteTimeout
	case "silent_retry_budget":
		return c.SilentRetryBudget
	case "max_iterations":
		return c.MaxIterations
	case "max_retries":
		return c.MaxRetries
	case "context_window":
		return c.ContextWindow
	case "web_timeout":
		return c.WebTimeout
	}
	return nil
}

func TestLimitFieldsAreKnown(t *testing.T) {
	for _, f := range LimitFields() {
		if _, ok := fieldIndex(f); !ok {
			t.Errorf("limit field %q is not a config field", f)
		}
	}
}

// loadWithin loads with a time limit, so a file that blocks fails the
// test instead of hanging it.
func loadWithin(t *testing.T, w *world, distrust bool) (Config, Sources) {
	t.Helper()
	type res struct {
		c   Config
		s   Sources
		err error
	}
	done := make(chan res, 1)
	go func() {
		c, s, err := Load(LoadOptions{ProjectRoot: w.root, Getenv: w.env.get, DistrustProject: distrust})
		done <- res{c, s, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Load: %v", r.err)
		}
		return r.c, r.s
	case <-time.After(20 * time.Second):
		t.Fatal("Load blocked")
	}
	return Config{}, Sources{}
}
