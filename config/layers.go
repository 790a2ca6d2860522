package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"

	"pincer/internal/safefile"
)

// layer is one source of settings: what it gives and where each value
// came from.
type layer struct {
	values  FileConfig
	sources map[string]Source
}

// Environment variables Load reads.
const (
	EnvConfig        = "PINCER_CONFIG"
	EnvProvider      = "PINCER_PROVIDER"
	EnvBaseURL       = "PINCER_BASE_URL"
	EnvModel         = "PINCER_MODEL"
	EnvAPIKey        = "PINCER_API_KEY"
	EnvDataDir       = "PINCER_DATA_DIR"
	EnvOpenAIBaseURL = "OPENAI_BASE_URL"
	EnvOpenAIAPIKey  = "OPENAI_API_KEY"
)

// envFields maps fields to the PINCER_* variable that sets them.
var envFields = map[string]string{
	"provider": EnvProvider,
	"base_url": EnvBaseURL,
	"model":    EnvModel,
	"api_key":  EnvAPIKey,
	"data_dir": EnvDataDir,
}

// flagFields maps fields to the flag that sets them.
var flagFields = map[string]string{
	"provider":       "--provider",
	"base_url":       "--base-url",
	"model":          "--model",
	"api_key":        "--api-key",
	"max_iterations": "--max-iterations",
	"context_window": "--context-window",
	"theme":          "--theme",
	"sandbox":        "--sandbox",
	"approvals":      "--auto",
}

// Overrides are the flag values the person gave; nil or "" means the flag
// was not given.
type Overrides struct {
	Provider      *string // --provider
	BaseURL       *string // --base-url
	Model         *string // --model
	APIKey        *string // --api-key
	Theme         *string // --theme
	MaxIterations *int    // --max-iterations
	ContextWindow *int    // --context-window
	Sandbox       *string // --sandbox
	Approvals     *string // --auto ("auto")
}

// envLayer reads the PINCER_* variables; empty ones count as unset, and
// values are trimmed (a key read with $(cat file) keeps its newline).
func envLayer(getenv func(string) string) layer {
	l := layer{sources: map[string]Source{}}
	for field, name := range envFields {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		p, _ := l.values.fieldPtr(field)
		*(p.(**string)) = &v
		l.sources[field] = Source{Kind: FromEnv, Name: name}
	}
	return l
}

// flagLayer turns Overrides into a layer.
func flagLayer(o Overrides) layer {
	l := layer{sources: map[string]Source{}}
	str := func(field string, v *string, dst **string) {
		if v == nil || strings.TrimSpace(*v) == "" {
			return
		}
		s := strings.TrimSpace(*v)
		*dst = &s
		l.sources[field] = Source{Kind: FromFlag, Name: flagFields[field]}
	}
	num := func(field string, v *int, dst **int) {
		if v == nil {
			return
		}
		n := *v
		*dst = &n
		l.sources[field] = Source{Kind: FromFlag, Name: flagFields[field]}
	}
	str("provider", o.Provider, &l.values.Provider)
	str("base_url", o.BaseURL, &l.values.BaseURL)
	str("model", o.Model, &l.values.Model)
	str("api_key", o.APIKey, &l.values.APIKey)
	str("theme", o.Theme, &l.values.Theme)
	num("max_iterations", o.MaxIterations, &l.values.MaxIterations)
	num("context_window", o.ContextWindow, &l.values.ContextWindow)
	str("sandbox", o.Sandbox, &l.values.Sandbox)
	str("approvals", o.Approvals, &l.values.Approvals)
	return l
}

// fileLayer reads one config file; ok is false when there is nothing to
// use. A missing file is no problem unless required (named by
// PINCER_CONFIG). Everything wrong with the file is added to ld.ps, and
// the values that are fine are still used.
func (ld *loader) fileLayer(path string, kind SourceKind, required bool) (l layer, ok bool) {
	data, mode, err := readConfigFile(path, safefile.Options{Name: ld.tilde(path)})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !required {
			return layer{}, false
		}
		ld.ps.add(ld.unreadable(path, err, required))
		return layer{}, false
	}
	return ld.parseLayer(path, kind, data, mode)
}

// projectLayer reads the project's .pincer.json. The project chose that
// file, so one that pincer cannot read safely (a link leaving the project,
// a named pipe, a device, a huge file) is left out with a warning instead
// of stopping pincer.
func (ld *loader) projectLayer(root string) (layer, bool) {
	path := ProjectConfigPath(root)
	data, mode, err := readConfigFile(path, safefile.Options{Within: root, Name: ProjectFileName})
	var refused *safefile.Error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return layer{}, false
	case errors.As(err, &refused):
		ld.warnings = append(ld.warnings, refused.Sentence("pincer ignored it"))
		return layer{}, false
	case err != nil:
		ld.ps.add(ld.unreadable(path, err, false))
		return layer{}, false
	}
	return ld.parseLayer(path, FromProjectFile, data, mode)
}

// parseLayer decodes one config file's content into a layer.
func (ld *loader) parseLayer(path string, kind SourceKind, data []byte, mode fs.FileMode) (l layer, ok bool) {
	src := Source{Kind: kind, Name: path}
	l = layer{sources: map[string]Source{}}
	entries, err := parseObject(data)
	if err != nil {
		ld.ps.add(&Problem{Kind: ErrSyntax, Source: src,
			Message: fmt.Sprintf("config: %s %s", ld.tilde(path), err)})
		return l, true
	}
	seen := map[string]int{}
	for _, e := range entries {
		if e.key == schemaKey {
			continue
		}
		if first, dup := seen[e.key]; dup {
			ld.ps.add(&Problem{Kind: ErrDuplicateField, Field: e.key, Source: src, Line: e.line,
				Message: fmt.Sprintf("config: %q appears twice in %s (lines %d and %d); keep only one", e.key, ld.tilde(path), first, e.line)})
			continue
		}
		seen[e.key] = e.line
		ptr, known := l.values.fieldPtr(e.key)
		if !known {
			ld.ps.add(ld.unknownField(e, src))
			continue
		}
		if string(e.raw) == "null" {
			ld.ps.add(&Problem{Kind: ErrWrongType, Field: e.key, Value: "null", Source: src, Line: e.line,
				Message: fmt.Sprintf("config: %s in %s (line %d) is null; remove the line or write %s", e.key, ld.tilde(path), e.line, wantFor(e.key))})
			continue
		}
		if err := json.Unmarshal(e.raw, ptr); err != nil {
			l.values.clear(e.key)
			ld.ps.add(ld.wrongType(e, src))
			continue
		}
		l.sources[e.key] = src
	}
	tagHooks(l.values.Hooks, src)
	if kind == FromProjectFile && l.values.APIKey != nil {
		l.values.APIKey = nil
		delete(l.sources, "api_key")
		ld.ps.add(&Problem{Kind: ErrKeyInProject, Field: "api_key", Value: redactedKey, Source: src, Line: seen["api_key"],
			Message: fmt.Sprintf("config: api_key is set in %s (line %d), which is shared with the project and would be committed; remove it and put the key in %s or in the environment variable that api_key_env names",
				ld.tilde(path), seen["api_key"], ld.tilde(ld.userPath))})
	}
	if kind == FromProjectFile && l.values.Telegram != nil {
		// Who may command pincer from a phone is the person's choice, not
		// a repository's.
		l.values.Telegram = nil
		delete(l.sources, "telegram")
		ld.warnings = append(ld.warnings, fmt.Sprintf("%s sets telegram (line %d), which pincer reads from your user config file only (%s); the project's value is ignored",
			ld.tilde(path), seen["telegram"], ld.tilde(ld.userPath)))
	}
	if kind == FromUserFile && l.values.APIKey != nil && runtime.GOOS != "windows" && mode.Perm()&0o077 != 0 {
		ld.warnings = append(ld.warnings, fmt.Sprintf("%s holds an API key and other users can read it; run chmod 600 %s", ld.tilde(path), path))
	}
	return l, true
}

// readConfigFile reads a config file and its permission bits, refusing
// anything but a regular file of at most safefile.DefaultLimit bytes.
func readConfigFile(path string, opts safefile.Options) ([]byte, fs.FileMode, error) {
	data, err := safefile.Read(path, opts)
	if err != nil {
		return nil, 0, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	return data, info.Mode(), nil
}

func (ld *loader) unreadable(path string, err error, named bool) *Problem {
	src := Source{Kind: FromUserFile, Name: path}
	if errors.Is(err, fs.ErrNotExist) && named {
		return &Problem{Kind: ErrUnreadable, Source: Source{Kind: FromEnv, Name: EnvConfig},
			Message: fmt.Sprintf("config: %s names %s, which does not exist; create it or unset %s", EnvConfig, path, EnvConfig)}
	}
	var refused *safefile.Error
	if errors.As(err, &refused) {
		return &Problem{Kind: ErrUnreadable, Source: src, Message: "config: " + refused.Sentence("")}
	}
	reason := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		reason = pe.Err.Error()
	}
	return &Problem{Kind: ErrUnreadable, Source: src,
		Message: fmt.Sprintf("config: cannot read %s (%s); make it a readable file or move it aside", ld.tilde(path), reason)}
}

func (ld *loader) unknownField(e fileEntry, src Source) *Problem {
	msg := fmt.Sprintf("config: %q is not a config field in %s (line %d)", e.key, ld.tilde(src.Name), e.line)
	if s := suggest(e.key, FieldNames()); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	} else {
		msg += "; remove it (the fields are " + strings.Join(FieldNames(), ", ") + ")"
	}
	// Value stays empty: a misspelt "apikey" would otherwise carry the key.
	return &Problem{Kind: ErrUnknownField, Field: e.key, Source: src, Line: e.line, Message: msg}
}

func (ld *loader) wrongType(e fileEntry, src Source) *Problem {
	val := shown(e.key, e.raw)
	what := val
	if !kindMatches(e.key, e.raw) {
		what += ", " + jsonKind(e.raw)
	}
	return &Problem{Kind: ErrWrongType, Field: e.key, Value: val, Source: src, Line: e.line,
		Message: fmt.Sprintf("config: %s in %s (line %d) is %s; write %s", e.key, ld.tilde(src.Name), e.line, what, wantFor(e.key))}
}
