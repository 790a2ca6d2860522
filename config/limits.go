package config

import (
	"fmt"
	"strconv"
	"time"
)

// limitField is a setting that bounds what a run may cost or how long it
// may go on. An untrusted project may make it stricter than the person's
// own setting, never looser.
type limitField struct {
	name string
	// bound is the setting's value as a bound; ok is false for "no limit".
	bound func(Config) (n int64, ok bool)
	shown func(Config) string
}

// limitFields are the limits a project file may only tighten until the
// person trusts it.
func limitFields() []limitField {
	num := func(get func(Config) int) (func(Config) (int64, bool), func(Config) string) {
		return func(c Config) (int64, bool) { return int64(get(c)), true },
			func(c Config) string { return strconv.Itoa(get(c)) }
	}
	dur := func(get func(Config) Duration) (func(Config) (int64, bool), func(Config) string) {
		return func(c Config) (int64, bool) { d := get(c); return int64(d), d > 0 },
			func(c Config) string {
				if d := get(c); d > 0 {
					return time.Duration(d).String()
				}
				return "0 (no limit)"
			}
	}
	var out []limitField
	add := func(name string, b func(Config) (int64, bool), s func(Config) string) {
		out = append(out, limitField{name: name, bound: b, shown: s})
	}
	b, s := num(func(c Config) int { return c.ContextWindow })
	add("context_window", b, s)
	b, s = num(func(c Config) int { return c.MaxIterations })
	add("max_iterations", b, s)
	b, s = num(func(c Config) int { return c.MaxRetries })
	add("max_retries", b, s)
	b, s = dur(func(c Config) Duration { return c.CommandTimeout })
	add("command_timeout", b, s)
	b, s = dur(func(c Config) Duration { return c.IdleTimeout })
	add("idle_timeout", b, s)
	b, s = dur(func(c Config) Duration { return c.FirstByteTimeout })
	add("first_byte_timeout", b, s)
	b, s = dur(func(c Config) Duration { return c.SilentRetryBudget })
	add("silent_retry_budget", b, s)
	// What checkpoints may keep on the person's disk.
	b, s = num(func(c Config) int { return c.CheckpointMaxFileMB })
	add("checkpoint_max_file_mb", b, s)
	b, s = num(func(c Config) int { return c.CheckpointKeep })
	add("checkpoint_keep", b, s)
	b, s = dur(func(c Config) Duration { return c.CheckpointMaxAge })
	add("checkpoint_max_age", b, s)
	b, s = dur(func(c Config) Duration { return c.WebTimeout })
	add("web_timeout", b, s)
	// What one answer of the model may make pincer hold.
	b, s = num(func(c Config) int { return c.ToolArgsMaxKB })
	add("tool_args_max_kb", b, s)
	return out
}

// LimitFields names the settings an untrusted project may only make
// stricter than the person's own.
func LimitFields() []string {
	var out []string
	for _, f := range limitFields() {
		out = append(out, f.name)
	}
	return out
}

// keepStricter drops from an untrusted project's layer every limit looser
// than the person's (user holds the defaults with the user file over
// them), and says which, so a cloned repository cannot lift a timeout or
// raise what a turn may spend.
func (ld *loader) keepStricter(project *layer, user Config, path string) []string {
	var dropped []string
	for _, f := range limitFields() {
		if _, set := project.sources[f.name]; !set {
			continue
		}
		proposed := user
		project.values.applyTo(&proposed, f.name)
		want, wantOK := f.bound(proposed)
		have, haveOK := f.bound(user)
		looser := haveOK && (!wantOK || want > have)
		if !looser {
			continue
		}
		ld.warnings = append(ld.warnings, fmt.Sprintf("%s sets %s to %s, looser than your %s; it is ignored until you trust this project with 'pincer trust'",
			ld.tilde(path), f.name, f.shown(proposed), f.shown(user)))
		project.values.clear(f.name)
		delete(project.sources, f.name)
		dropped = append(dropped, f.name)
	}
	return dropped
}
