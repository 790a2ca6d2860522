package config

import (
	"errors"
	"strings"
)

// Kinds of configuration problem. Every Problem wraps one of these, so
// callers can tell them apart with errors.Is on the error Load returns.
var (
	// ErrSyntax: a config file is not valid JSON or not a JSON object.
	ErrSyntax = errors.New("config file is not valid JSON")
	// ErrUnknownField: a config file names a field pincer does not have.
	ErrUnknownField = errors.New("unknown config field")
	// ErrDuplicateField: a config file names the same field twice.
	ErrDuplicateField = errors.New("config field given twice")
	// ErrWrongType: a field's JSON value has the wrong type.
	ErrWrongType = errors.New("config value has the wrong type")
	// ErrInvalidValue: a value has the right type but is out of range or
	// not one of the allowed choices.
	ErrInvalidValue = errors.New("invalid config value")
	// ErrMissing: a required value is empty (model, or base_url for custom).
	ErrMissing = errors.New("config value missing")
	// ErrKeyInProject: the project file holds an API key.
	ErrKeyInProject = errors.New("API key in project config file")
	// ErrUnreadable: a config file exists but cannot be read, or the file
	// PINCER_CONFIG names does not exist.
	ErrUnreadable = errors.New("config file unreadable")
	// ErrNoAPIKey: the provider needs a key and none is set (from
	// Config.CheckAPIKey, not Load).
	ErrNoAPIKey = errors.New("no API key")
)

// Problem is one thing wrong with the configuration, told in one sentence
// that names the field, the bad value, where it came from and the fix.
type Problem struct {
	Kind   error  // one of the Err* values above
	Field  string // JSON field name; empty for problems with a whole file
	Value  string // the offending value as written (the API key is never shown)
	Source Source // where the value came from
	Line   int    // line in the file, when Source is a file and it is known
	// Message is the full sentence, starting with "config: ".
	Message string
}

// Error returns the sentence.
func (p *Problem) Error() string { return p.Message }

// Unwrap returns the kind, for errors.Is.
func (p *Problem) Unwrap() error { return p.Kind }

// Error is every problem Load found, so a person can fix them all in one
// go instead of one per run.
type Error struct {
	Problems []*Problem
}

// Error joins the sentences, one per line.
func (e *Error) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns the problems, so errors.Is and errors.As see each one.
func (e *Error) Unwrap() []error {
	errs := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		errs[i] = p
	}
	return errs
}

// problems collects Problems while loading.
type problems []*Problem

func (ps *problems) add(p *Problem) { *ps = append(*ps, p) }

// err returns nil when there is nothing to report.
func (ps problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return &Error{Problems: ps}
}
