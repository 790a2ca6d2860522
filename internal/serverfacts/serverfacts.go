// Package serverfacts keeps what pincer learned about a model server that
// is worth knowing in the next process: that a model on it takes no tool
// definitions of its own, so its calls are written as text. Without it,
// every new process and every resumed session spends one refused request
// to find that out again.
//
// The facts live in one small JSON file in pincer's data directory, keyed
// by the server's base URL and the model. A fact is kept for MaxAge, then
// asked again, so a server restarted with its tool-call parser is noticed.
package serverfacts

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"pincer/internal/atomicfile"
	"pincer/internal/safefile"
)

// FileName is the file's name in the data directory.
const FileName = "servers.json"

// MaxAge is how long a fact is trusted before the server is asked again.
const MaxAge = 7 * 24 * time.Hour

// maxEntries bounds the file: the oldest facts go first.
const maxEntries = 200

// maxSize bounds what is read of the file.
const maxSize = 1 << 20

// Fact is what is known about one model on one server.
type Fact struct {
	// TextTools says why the model's calls are written as text: the
	// agent's reason ("no tool calling", "no parser"), "" for none.
	TextTools string    `json:"text_tools,omitempty"`
	Seen      time.Time `json:"seen"`
}

// File is the facts file at Path. The zero value with a Path is ready;
// Now, when set, is the clock (tests).
type File struct {
	Path string
	Now  func() time.Time
}

func (f File) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func key(base, model string) string { return base + " " + model }

// TextTools returns why model on the server at base writes its calls as
// text, when that was learned less than MaxAge ago.
func (f File) TextTools(base, model string) (string, bool) {
	facts, _ := f.read()
	fact, ok := facts[key(base, model)]
	if !ok || fact.TextTools == "" || f.now().Sub(fact.Seen) > MaxAge {
		return "", false
	}
	return fact.TextTools, true
}

// SetTextTools records why model on the server at base writes its calls
// as text; reason "" forgets it (the server took tools after all). The
// file is written only when something changes.
func (f File) SetTextTools(base, model, reason string) error {
	facts, err := f.read()
	if err != nil {
		facts = map[string]Fact{} // a damaged file is replaced
	}
	k := key(base, model)
	old, had := facts[k]
	if reason == "" {
		if !had {
			return nil
		}
		delete(facts, k)
	} else {
		if had && old.TextTools == reason && f.now().Sub(old.Seen) < time.Hour {
			return nil
		}
		facts[k] = Fact{TextTools: reason, Seen: f.now()}
	}
	prune(facts)
	data, err := json.MarshalIndent(facts, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("keep what was learned about the server: %w", err)
	}
	if err := atomicfile.Write(f.Path, data, 0o600); err != nil {
		return fmt.Errorf("keep what was learned about the server in %s: %w", f.Path, err)
	}
	return nil
}

// read returns the facts in the file; none when there is no file.
func (f File) read() (map[string]Fact, error) {
	data, err := safefile.Head(f.Path, maxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Fact{}, nil
	}
	if err != nil {
		return map[string]Fact{}, err
	}
	facts := map[string]Fact{}
	if err := json.Unmarshal(data, &facts); err != nil {
		return map[string]Fact{}, fmt.Errorf("read %s: %w", f.Path, err)
	}
	return facts, nil
}

// prune keeps the newest maxEntries facts.
func prune(facts map[string]Fact) {
	for len(facts) > maxEntries {
		oldest := ""
		for k, v := range facts {
			if oldest == "" || v.Seen.Before(facts[oldest].Seen) {
				oldest = k
			}
		}
		delete(facts, oldest)
	}
}
