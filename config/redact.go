package config

import (
	"fmt"
	"log/slog"
	"strings"
)

// redactedKey stands in for an API key wherever a config is shown.
const redactedKey = "<redacted>"

// Redacted returns a copy whose APIKey is "<redacted>" when a key is set,
// for `pincer config` and anything else that shows the config to a person.
func (c Config) Redacted() Config {
	if c.APIKey != "" {
		c.APIKey = redactedKey
	}
	return c
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
