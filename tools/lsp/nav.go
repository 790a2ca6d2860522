package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"pincer/internal/safefile"
	"pincer/safety"
)

// Place is a position the model names: a file, a 1-based line, and the
// symbol on that line (models count columns badly, names well).
type Place struct {
	Path   string // absolute
	Line   int
	Symbol string
}

// Ref is a location a server answered with, for the model.
type Ref struct {
	Path   string // relative to the root (absolute outside it)
	Line   int    // 1-based
	Column int    // 1-based, in characters
	Text   string // the line, trimmed
}

// String is "path:line:column: text".
func (r Ref) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", r.Path, r.Line, r.Column, r.Text)
}

// ErrNoServer is returned for a file whose language has no running server.
var ErrNoServer = errors.New("no language server runs for this file")

// at finds the server for p's file, shows it the file, and turns p into
// the server's position.
func (m *Manager) at(ctx context.Context, p Place) (*slot, *server, Position, error) {
	m.mu.Lock()
	sl := m.usable(p.Path)
	m.mu.Unlock()
	if sl == nil {
		return nil, nil, Position{}, ErrNoServer
	}
	srv := m.serverFor(ctx, sl)
	if srv == nil {
		return nil, nil, Position{}, ErrNoServer
	}
	if _, err := srv.sync(ctx, p.Path); err != nil {
		return nil, nil, Position{}, err
	}
	text := srv.text(p.Path)
	if text == nil {
		return nil, nil, Position{}, fmt.Errorf("%s could not be read", m.rel(p.Path))
	}
	lines := bytes.Count(text, []byte("\n")) + 1
	if p.Line < 1 || p.Line > lines {
		return nil, nil, Position{}, fmt.Errorf("%s has %d lines; line %d is not one of them", m.rel(p.Path), lines, p.Line)
	}
	line := lineText(text, p.Line-1)
	col := findSymbol(line, p.Symbol)
	if col < 0 {
		return nil, nil, Position{}, fmt.Errorf("%q is not on line %d of %s, which reads: %s", p.Symbol, p.Line, m.rel(p.Path), strings.TrimSpace(string(line)))
	}
	if !srv.utf8 {
		col = utf16Units(line[:col])
	}
	return sl, srv, Position{Line: p.Line - 1, Character: col}, nil
}

// findSymbol is the byte offset of symbol in line, preferring a whole-word
// match; -1 when it is not there.
func findSymbol(line []byte, symbol string) int {
	if symbol == "" {
		return -1
	}
	first := -1
	for off := 0; off <= len(line); {
		i := bytes.Index(line[off:], []byte(symbol))
		if i < 0 {
			break
		}
		i += off
		if first < 0 {
			first = i
		}
		before, _ := utf8.DecodeLastRune(line[:i])
		after, _ := utf8.DecodeRune(line[i+len(symbol):])
		if !isIdent(before) && !isIdent(after) {
			return i
		}
		off = i + 1
	}
	return first
}

func isIdent(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// request sends a request within RequestTimeout; a server that does not
// answer in time is taken for hung.
func (m *Manager) request(ctx context.Context, sl *slot, srv *server, method string, params, result any) error {
	rctx, cancel := context.WithTimeout(ctx, m.opts.RequestTimeout)
	defer cancel()
	err := srv.call(rctx, method, params, result)
	if err != nil && ctx.Err() == nil && rctx.Err() != nil {
		m.hung(sl, srv, err)
	}
	return err
}

// quotable is the text of a file a server's answer names, for the line
// quoted beside the place: only a file inside the project that is not a
// secret (the classifier's own test), read with safefile's type and size
// limits, so an answer naming ~/.ssh/id_rsa, .env or a FIFO quotes nothing
// and hangs nothing; the model still gets the path and line.
func (m *Manager) quotable(path string) []byte {
	rel, err := filepath.Rel(m.opts.Root, path)
	if err != nil || !within(m.opts.Root, path) || safety.MaskedSecret(filepath.ToSlash(rel), true) {
		return nil
	}
	data, err := safefile.Read(path, safefile.Options{Within: m.opts.Root, Limit: maxFileSize})
	if err != nil {
		return nil
	}
	return data
}

// refs turns locations into Refs, sorted and without repeats.
func (m *Manager) refs(srv *server, locs []Location) []Ref {
	seen := map[string]bool{}
	var out []Ref
	texts := map[string][]byte{}
	for _, l := range locs {
		path := uriPath(l.URI)
		if path == "" {
			continue
		}
		text, ok := texts[path]
		if !ok {
			text = srv.text(path)
			if text == nil {
				text = m.quotable(path)
			}
			texts[path] = text
		}
		line := lineText(text, l.Range.Start.Line)
		col := l.Range.Start.Character
		if !srv.utf8 {
			col = byteColumn(line, col)
		}
		r := Ref{Path: m.rel(path), Line: l.Range.Start.Line + 1, Column: runeColumn(line, col), Text: strings.TrimSpace(string(line))}
		k := r.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// Definition is where the symbol at p is defined.
func (m *Manager) Definition(ctx context.Context, p Place) ([]Ref, error) {
	sl, srv, pos, err := m.at(ctx, p)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := m.request(ctx, sl, srv, "textDocument/definition", positionParams{textDocumentIdentifier{fileURI(p.Path)}, pos}, &raw); err != nil {
		return nil, err
	}
	return m.refs(srv, decodeLocations(raw)), nil
}

// decodeLocations reads a Location, a list of them, or a list of
// LocationLinks.
func decodeLocations(raw json.RawMessage) []Location {
	var many []locationOrLink
	if json.Unmarshal(raw, &many) != nil {
		var one locationOrLink
		if json.Unmarshal(raw, &one) != nil {
			return nil
		}
		many = []locationOrLink{one}
	}
	var out []Location
	for _, l := range many {
		if loc, ok := l.location(); ok {
			out = append(out, loc)
		}
	}
	return out
}

// References are the uses of the symbol at p, its declaration included.
func (m *Manager) References(ctx context.Context, p Place) ([]Ref, error) {
	sl, srv, pos, err := m.at(ctx, p)
	if err != nil {
		return nil, err
	}
	params := referenceParams{positionParams: positionParams{textDocumentIdentifier{fileURI(p.Path)}, pos}}
	params.Context.IncludeDeclaration = true
	var locs []Location
	if err := m.request(ctx, sl, srv, "textDocument/references", params, &locs); err != nil {
		return nil, err
	}
	return m.refs(srv, locs), nil
}

// Hover is the server's text about the symbol at p: its type, signature
// and documentation.
func (m *Manager) Hover(ctx context.Context, p Place) (string, error) {
	sl, srv, pos, err := m.at(ctx, p)
	if err != nil {
		return "", err
	}
	var h *hover
	if err := m.request(ctx, sl, srv, "textDocument/hover", positionParams{textDocumentIdentifier{fileURI(p.Path)}, pos}, &h); err != nil {
		return "", err
	}
	if h == nil {
		return "", nil
	}
	return hoverText(h.Contents), nil
}

// hoverText flattens MarkupContent, a MarkedString or a list of them.
func hoverText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var mc struct {
		Value    string `json:"value"`
		Language string `json:"language"`
	}
	if json.Unmarshal(raw, &mc) == nil && mc.Value != "" {
		if mc.Language != "" {
			return "```" + mc.Language + "\n" + mc.Value + "\n```"
		}
		return mc.Value
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var parts []string
		for _, e := range list {
			if t := hoverText(e); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	return ""
}

// Symbol is a declaration a server listed.
type Symbol struct {
	Name      string
	Kind      string
	Container string
	Ref       Ref
	Depth     int // nesting in a document's outline
}

// DocumentSymbols is the outline of the file at path.
func (m *Manager) DocumentSymbols(ctx context.Context, path string) ([]Symbol, error) {
	m.mu.Lock()
	sl := m.usable(path)
	m.mu.Unlock()
	if sl == nil {
		return nil, ErrNoServer
	}
	srv := m.serverFor(ctx, sl)
	if srv == nil {
		return nil, ErrNoServer
	}
	if _, err := srv.sync(ctx, path); err != nil {
		return nil, err
	}
	var syms []documentSymbol
	if err := m.request(ctx, sl, srv, "textDocument/documentSymbol", documentSymbolParams{textDocumentIdentifier{fileURI(path)}}, &syms); err != nil {
		return nil, err
	}
	var out []Symbol
	var walk func(ds []documentSymbol, depth int, container string)
	walk = func(ds []documentSymbol, depth int, container string) {
		for _, d := range ds {
			loc := Location{URI: fileURI(path), Range: d.SelectionRange}
			if d.Location != nil {
				loc = *d.Location
			}
			refs := m.refs(srv, []Location{loc})
			s := Symbol{Name: d.Name, Kind: symbolKind(d.Kind), Container: container, Depth: depth}
			if d.ContainerName != "" {
				s.Container = d.ContainerName
			}
			if len(refs) > 0 {
				s.Ref = refs[0]
			}
			out = append(out, s)
			walk(d.Children, depth+1, d.Name)
		}
	}
	walk(syms, 0, "")
	return out, nil
}

// WorkspaceSymbols are the declarations matching query, from the running
// servers (those of lang only, when lang is set).
func (m *Manager) WorkspaceSymbols(ctx context.Context, query, lang string) ([]Symbol, error) {
	m.mu.Lock()
	var slots []*slot
	for _, sl := range m.slots {
		if sl.state == StateReady && (lang == "" || sl.lang == lang) {
			slots = append(slots, sl)
		}
	}
	m.mu.Unlock()
	if len(slots) == 0 {
		return nil, ErrNoServer
	}
	var out []Symbol
	for _, sl := range slots {
		srv := m.serverFor(ctx, sl)
		if srv == nil {
			continue
		}
		var syms []documentSymbol
		if err := m.request(ctx, sl, srv, "workspace/symbol", workspaceSymbolParams{Query: query}, &syms); err != nil {
			return nil, err
		}
		for _, d := range syms {
			if d.Location == nil {
				continue
			}
			refs := m.refs(srv, []Location{*d.Location})
			if len(refs) == 0 || filepath.IsAbs(refs[0].Path) {
				continue // outside the project (the standard library, dependencies)
			}
			out = append(out, Symbol{Name: d.Name, Kind: symbolKind(d.Kind), Container: d.ContainerName, Ref: refs[0]})
		}
	}
	return out, nil
}

// symbolKind names the protocol's SymbolKind.
func symbolKind(k int) string {
	kinds := []string{"", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor",
		"enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object",
		"key", "null", "enum member", "struct", "event", "operator", "type parameter"}
	if k > 0 && k < len(kinds) {
		return kinds[k]
	}
	return "symbol"
}

// FileEdit is what a rename does to one file: its content before and
// after.
type FileEdit struct {
	Path          string // absolute
	Before, After []byte
}

// Rename asks the server what renaming the symbol at p to newName would
// change; nothing is written.
func (m *Manager) Rename(ctx context.Context, p Place, newName string) ([]FileEdit, error) {
	sl, srv, pos, err := m.at(ctx, p)
	if err != nil {
		return nil, err
	}
	var we *workspaceEdit
	if err := m.request(ctx, sl, srv, "textDocument/rename", renameParams{positionParams: positionParams{textDocumentIdentifier{fileURI(p.Path)}, pos}, NewName: newName}, &we); err != nil {
		return nil, err
	}
	if we == nil {
		return nil, errors.New("the server found nothing to rename there")
	}
	byFile := map[string][]textEdit{}
	for uri, edits := range we.Changes {
		byFile[uri] = append(byFile[uri], edits...)
	}
	for _, raw := range we.DocumentChanges {
		var tde textDocumentEdit
		if err := json.Unmarshal(raw, &tde); err != nil || tde.Kind != "" {
			return nil, errors.New("the rename would create, move or delete files, which pincer does not do through a language server")
		}
		var id textDocumentIdentifier
		_ = json.Unmarshal(tde.TextDocument, &id)
		byFile[id.URI] = append(byFile[id.URI], tde.Edits...)
	}
	var out []FileEdit
	for uri, edits := range byFile {
		path := uriPath(uri)
		if path == "" || !within(m.opts.Root, path) {
			return nil, fmt.Errorf("the rename would change %s, outside the project", uri)
		}
		before, err := safefile.Read(path, safefile.Options{Within: m.opts.Root, Limit: maxFileSize, Name: m.rel(path)})
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", m.rel(path), err)
		}
		after, err := applyEdits(before, edits, srv.utf8)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.rel(path), err)
		}
		out = append(out, FileEdit{Path: path, Before: before, After: after})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// applyEdits applies non-overlapping text edits to text.
func applyEdits(text []byte, edits []textEdit, utf8Columns bool) ([]byte, error) {
	offset := func(p Position) (int, error) {
		off := 0
		for i := 0; i < p.Line; i++ {
			j := bytes.IndexByte(text[off:], '\n')
			if j < 0 {
				return 0, fmt.Errorf("an edit points at line %d, past the end", p.Line+1)
			}
			off += j + 1
		}
		line := lineText(text[off:], 0)
		col := p.Character
		if !utf8Columns {
			col = byteColumn(line, col)
		}
		if col > len(line) {
			col = len(line)
		}
		return off + col, nil
	}
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		s, err := offset(e.Range.Start)
		if err != nil {
			return nil, err
		}
		en, err := offset(e.Range.End)
		if err != nil {
			return nil, err
		}
		if en < s {
			return nil, errors.New("an edit ends before it starts")
		}
		spans = append(spans, span{s, en, e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b bytes.Buffer
	last := 0
	for _, sp := range spans {
		if sp.start < last {
			return nil, errors.New("the server's edits overlap")
		}
		b.Write(text[last:sp.start])
		b.WriteString(sp.text)
		last = sp.end
	}
	b.Write(text[last:])
	return b.Bytes(), nil
}
