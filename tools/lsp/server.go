package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// maxFileSize is the largest file pincer shows a server; larger ones are
// left out (generated code, data), as editors do.
const maxFileSize = 4 << 20

// server is one running language server and what pincer told it.
type server struct {
	lang string
	name string // the program's name, e.g. "gopls"
	root string
	proc *Process
	conn *jsonrpc2.Conn
	caps serverCapabilities
	// utf8 is set when the server agreed to count columns in bytes;
	// otherwise they are UTF-16 code units.
	utf8     bool
	wantSave bool
	stderr   *tail

	mu      sync.Mutex
	docs    map[string]*document // open documents by absolute path
	files   map[string]*fileDiags
	changed chan struct{} // closed and replaced when diagnostics arrive
	dead    chan struct{} // closed when the connection ended
	seq     uint64
}

// document is a file as the server was last told.
type document struct {
	version int32
	text    []byte
	size    int64
	mtime   time.Time
	sentSeq uint64 // the publish count when this version was sent
}

// fileDiags is the last diagnostics a server published for one file.
type fileDiags struct {
	version    int32
	hasVersion bool
	seq        uint64 // the server's publish count when they arrived
	items      []wireDiagnostic
}

// startServer starts the program of cmd and initializes it for root.
// ctx bounds the start.
func startServer(ctx context.Context, lang, name, root string, cmd Command, start Starter, initOptions json.RawMessage) (*server, error) {
	proc, err := start(cmd)
	if err != nil {
		return nil, err
	}
	s := &server{lang: lang, name: name, root: root, proc: proc, stderr: &tail{},
		docs: map[string]*document{}, files: map[string]*fileDiags{},
		changed: make(chan struct{}), dead: make(chan struct{})}
	if proc.Stderr != nil {
		go func() { _, _ = io.Copy(s.stderr, proc.Stderr) }()
	}
	in := &capped{r: proc.Stdout, max: MaxMessage}
	stream := jsonrpc2.NewBufferedStream(&pipes{Reader: in, in: proc.Stdin, out: proc.Stdout}, cappedCodec{in: in})
	s.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(clientHandler{s}.handle), jsonrpc2.SetLogger(discard{}))
	go func() {
		<-s.conn.DisconnectNotify()
		close(s.dead)
	}()
	if err := s.initialize(ctx, initOptions); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// discard is jsonrpc2's logger: protocol errors end the connection, which
// is reported as the server's failure.
type discard struct{}

func (discard) Printf(string, ...any) {}

func (s *server) initialize(ctx context.Context, initOptions json.RawMessage) error {
	params := map[string]any{
		// No process id: in the jail's pid namespace pincer's own id
		// means nothing, and a server would take its absence for
		// pincer's end.
		"processId":  nil,
		"clientInfo": map[string]string{"name": "pincer"},
		"rootUri":    fileURI(s.root),
		"rootPath":   s.root,
		"workspaceFolders": []map[string]string{
			{"uri": fileURI(s.root), "name": filepath.Base(s.root)},
		},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true},
				"hover":              map[string]any{"contentFormat": []string{"plaintext", "markdown"}},
				"definition":         map[string]any{"linkSupport": true},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"rename":             map[string]any{},
				"references":         map[string]any{},
			},
			"workspace": map[string]any{
				"configuration":    true,
				"workspaceFolders": true,
				"workspaceEdit":    map[string]any{"documentChanges": true},
				// pincer tells of files changed on disk without being
				// asked which to watch: it compares them after commands.
				"didChangeWatchedFiles": map[string]any{"dynamicRegistration": false},
				"symbol":                map[string]any{},
			},
		},
	}
	if len(initOptions) > 0 {
		params["initializationOptions"] = initOptions
	}
	var res initializeResult
	if err := s.call(ctx, "initialize", params, &res); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	s.caps = res.Capabilities
	s.utf8 = res.Capabilities.PositionEncoding == "utf-8"
	s.wantSave = saveWanted(res.Capabilities.TextDocumentSync)
	if err := s.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return fmt.Errorf("initialized: %w", err)
	}
	return nil
}

// call sends a request and waits for its answer within ctx; a server
// that died meanwhile is an error at once.
func (s *server) call(ctx context.Context, method string, params, result any) error {
	err := s.conn.Call(ctx, method, params, result)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("%s did not answer %s in time: %w", s.name, method, ctx.Err())
	case errors.Is(err, jsonrpc2.ErrClosed):
		return s.deathError()
	}
	return err
}

// deathError says how the server ended, with its last words.
func (s *server) deathError() error {
	if last := s.stderr.lastLine(); last != "" {
		return fmt.Errorf("%s stopped (%s)", s.name, last)
	}
	return fmt.Errorf("%s stopped", s.name)
}

// alive reports whether the connection still stands.
func (s *server) alive() bool {
	select {
	case <-s.dead:
		return false
	default:
		return true
	}
}

// maxPerFile is the most problems kept for one file: more are never
// shown, and a server must not fill pincer's memory.
const maxPerFile = 1000

// published stores what the server said about one file: its errors and
// warnings (hints and information are never shown).
func (s *server) published(p publishDiagnosticsParams) {
	path := uriPath(p.URI)
	if path == "" {
		return
	}
	kept := p.Diagnostics[:0]
	for _, d := range p.Diagnostics {
		if len(kept) == maxPerFile {
			break
		}
		if d.Severity == 0 || d.Severity == SeverityError || d.Severity == SeverityWarning {
			kept = append(kept, d)
		}
	}
	kept = slices.Clip(kept)
	s.mu.Lock()
	s.seq++
	f := &fileDiags{seq: s.seq, items: kept}
	if p.Version != nil {
		f.version, f.hasVersion = *p.Version, true
	}
	s.files[path] = f
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// hasPublished reports whether the server published any diagnostics yet.
func (s *server) hasPublished() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq > 0
}

// synced is what sync told the server: the version of path it now has
// and the publish count before, to know which diagnostics came after.
type synced struct {
	path    string
	version int32
	seq     uint64
	sent    bool // a didOpen or didChange went out
}

// sync tells the server what path holds on disk now: didOpen the first
// time, didChange when it differs from what the server has. A file gone
// from disk is closed.
func (s *server) sync(ctx context.Context, path string) (synced, error) {
	info, statErr := os.Stat(path)
	s.mu.Lock()
	d := s.docs[path]
	out := synced{path: path, seq: s.seq}
	if d != nil {
		out.version = d.version
	}
	if statErr != nil || !info.Mode().IsRegular() || info.Size() > maxFileSize {
		if d != nil {
			delete(s.docs, path)
			s.mu.Unlock()
			return out, s.conn.Notify(ctx, "textDocument/didClose", didCloseParams{textDocumentIdentifier{fileURI(path)}})
		}
		s.mu.Unlock()
		return out, nil
	}
	if d != nil && d.size == info.Size() && d.mtime.Equal(info.ModTime()) {
		s.mu.Unlock()
		return out, nil
	}
	s.mu.Unlock()
	text, err := os.ReadFile(path)
	if err != nil || len(text) > maxFileSize {
		return out, nil
	}
	s.mu.Lock()
	d = s.docs[path]
	if d != nil && bytes.Equal(d.text, text) {
		d.size, d.mtime = info.Size(), info.ModTime()
		s.mu.Unlock()
		return out, nil
	}
	var method string
	var params any
	if d == nil {
		d = &document{version: 1}
		s.docs[path] = d
		method = "textDocument/didOpen"
		params = didOpenParams{textDocumentItem{URI: fileURI(path), LanguageID: languageID(path, s.lang), Version: 1, Text: string(text)}}
	} else {
		d.version++
		method = "textDocument/didChange"
		params = didChangeParams{versionedTextDocumentIdentifier{URI: fileURI(path), Version: d.version}, []contentChange{{Text: string(text)}}}
	}
	d.text, d.size, d.mtime, d.sentSeq = text, info.Size(), info.ModTime(), s.seq
	out.version, out.seq, out.sent = d.version, s.seq, true
	s.mu.Unlock()
	if err := s.conn.Notify(ctx, method, params); err != nil {
		return out, err
	}
	if s.wantSave && method == "textDocument/didChange" {
		_ = s.conn.Notify(ctx, "textDocument/didSave", didSaveParams{textDocumentIdentifier{fileURI(path)}})
	}
	return out, nil
}

// openText shows the server path with content (what it held before an
// edit) when the server does not have it open yet; otherwise it changes
// nothing. It returns what the server was last sent of path.
func (s *server) openText(ctx context.Context, path string, content []byte) (synced, error) {
	if len(content) > maxFileSize {
		return synced{}, fmt.Errorf("%s is too large to show a language server", path)
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		out := synced{path: path, version: d.version, seq: d.sentSeq}
		s.mu.Unlock()
		return out, nil
	}
	// No size and time: the next sync compares the text on disk.
	d := &document{version: 1, text: content, sentSeq: s.seq}
	s.docs[path] = d
	out := synced{path: path, version: 1, seq: d.sentSeq, sent: true}
	s.mu.Unlock()
	return out, s.conn.Notify(ctx, "textDocument/didOpen", didOpenParams{textDocumentItem{URI: fileURI(path), LanguageID: languageID(path, s.lang), Version: 1, Text: string(content)}})
}

// lastSync is what the server was last sent of path, when it has it open.
func (s *server) lastSync(path string) (synced, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return synced{}, false
	}
	return synced{path: path, version: d.version, seq: d.sentSeq}, true
}

// stale reports whether path, open in the server, changed on disk since
// it was sent (or is gone).
func (s *server) stale(path string) bool {
	info, err := os.Stat(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return false
	}
	if err != nil {
		return true
	}
	return d.size != info.Size() || !d.mtime.Equal(info.ModTime())
}

// current reports whether the server published diagnostics for what
// sync sent.
func (s *server) current(sy synced) bool {
	f := s.files[sy.path]
	if f == nil {
		return false
	}
	if f.hasVersion {
		return f.version >= sy.version
	}
	return f.seq > sy.seq
}

// await waits until the server published diagnostics for every file of
// want, the server died, or ctx ends; it reports whether all came.
func (s *server) await(ctx context.Context, want []synced) bool {
	for {
		s.mu.Lock()
		all := true
		for _, sy := range want {
			if !s.current(sy) {
				all = false
				break
			}
		}
		ch := s.changed
		s.mu.Unlock()
		if all {
			return true
		}
		select {
		case <-ch:
		case <-s.dead:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// diagnostics returns a copy of the diagnostics of every file, by path.
func (s *server) diagnostics() map[string][]wireDiagnostic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]wireDiagnostic, len(s.files))
	for p, f := range s.files {
		if len(f.items) > 0 {
			out[p] = f.items
		}
	}
	return out
}

// text is what the server has of path (nil when it is not open).
func (s *server) text(path string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil {
		return d.text
	}
	return nil
}

// openPaths lists the open documents.
func (s *server) openPaths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.docs))
	for p := range s.docs {
		out = append(out, p)
	}
	return out
}

// shutdown asks the server to end, and ends it when it does not within
// ctx.
func (s *server) shutdown(ctx context.Context) {
	if s.alive() {
		if s.conn.Call(ctx, "shutdown", nil, nil) == nil {
			_ = s.conn.Notify(ctx, "exit", nil)
		}
	}
	_ = s.conn.Close()
	<-s.dead
	done := make(chan struct{})
	go func() {
		_ = s.proc.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.proc.Kill()
		<-done
	}
}

// kill ends the server at once.
func (s *server) kill() {
	s.proc.Kill()
	_ = s.conn.Close()
	go func() { _ = s.proc.Wait() }()
}
