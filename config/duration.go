package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/invopop/jsonschema"
)

// Duration is a time.Duration that config files write as a string such as
// "90s" or "2m" (time.ParseDuration syntax) or as a number of seconds.
type Duration time.Duration

// errDuration is wrapped by every Duration parse failure.
var errDuration = errors.New(`write a duration like "90s", "2m" or "1h30m", or a number of seconds`)

// String formats the duration the way time.Duration does ("2m0s", "1m30s").
func (d Duration) String() string { return time.Duration(d).String() }

// Std returns the value as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// MarshalText writes the duration as a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a Go duration string ("90s", "2m") or a plain number
// of seconds ("90", "1.5").
func (d *Duration) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if s == "" {
		return fmt.Errorf("empty duration: %w", errDuration)
	}
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return d.setSeconds(secs)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration: %w", s, errDuration)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a JSON string like "2m0s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a JSON string in time.ParseDuration syntax or a JSON
// number of seconds. null leaves the value unchanged, as encoding/json does.
func (d *Duration) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
		return fmt.Errorf("empty duration: %w", errDuration)
	case string(data) == "null":
		return nil
	case data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("read duration: %w", err)
		}
		return d.UnmarshalText([]byte(s))
	}
	secs, err := strconv.ParseFloat(string(data), 64)
	if err != nil {
		return fmt.Errorf("%s is not a duration: %w", data, errDuration)
	}
	return d.setSeconds(secs)
}

func (d *Duration) setSeconds(secs float64) error {
	ns := secs * float64(time.Second)
	if math.IsNaN(ns) || math.IsInf(ns, 0) || ns > math.MaxInt64 || ns < math.MinInt64 {
		return fmt.Errorf("%v seconds is out of range: %w", secs, errDuration)
	}
	*d = Duration(math.Round(ns))
	return nil
}

// durationPattern matches what time.ParseDuration accepts without a sign
// (so negative durations fail schema validation as they fail Load).
const durationPattern = `^(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// JSONSchema describes both accepted forms for the generated schema.
func (Duration) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "string", Pattern: durationPattern, Examples: []any{"90s", "2m", "1h30m"}},
			{Type: "number", Minimum: json.Number("0")},
		},
	}
}
