package lsp

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path/filepath"
	"unicode/utf8"
)

// The structures below are the part of the Language Server Protocol 3.17
// that pincer speaks, with the specification's field names. The JSON-RPC
// framing and message matching are github.com/sourcegraph/jsonrpc2's.

// Position is a place in a document: a zero-based line and a character
// offset in the position encoding agreed at initialize (UTF-8 bytes when
// the server accepts them, else UTF-16 code units, the protocol's default).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span of a document, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document named by URI.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// locationOrLink decodes one element of a definition result, which may be
// a Location or a LocationLink.
type locationOrLink struct {
	URI                  string `json:"uri"`
	Range                *Range `json:"range"`
	TargetURI            string `json:"targetUri"`
	TargetSelectionRange *Range `json:"targetSelectionRange"`
}

// location is the Location a definition result element points at.
func (l locationOrLink) location() (Location, bool) {
	switch {
	case l.TargetURI != "" && l.TargetSelectionRange != nil:
		return Location{URI: l.TargetURI, Range: *l.TargetSelectionRange}, true
	case l.URI != "" && l.Range != nil:
		return Location{URI: l.URI, Range: *l.Range}, true
	}
	return Location{}, false
}

// Severity is how bad a diagnostic is; 0 means the server did not say.
type Severity int

// The severities of the protocol.
const (
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

// String is the word pincer shows for s.
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error"
}

// wireDiagnostic is a diagnostic as a server sends it.
type wireDiagnostic struct {
	Range    Range           `json:"range"`
	Severity Severity        `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string           `json:"uri"`
	Version     *int32           `json:"version,omitempty"`
	Diagnostics []wireDiagnostic `json:"diagnostics"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

type contentChange struct {
	Text string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

type fileChange struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

type didChangeWatchedFilesParams struct {
	Changes []fileChange `json:"changes"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type positionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type referenceParams struct {
	positionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

type renameParams struct {
	positionParams
	NewName string `json:"newName"`
}

type documentSymbolParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type workspaceSymbolParams struct {
	Query string `json:"query"`
}

// hover is a hover result; Contents is MarkupContent, MarkedString or a
// list of MarkedString.
type hover struct {
	Contents json.RawMessage `json:"contents"`
}

// documentSymbol is one element of a hierarchical documentSymbol result;
// symbolInformation one of a flat one (or of workspace/symbol, where the
// location's range may be missing).
type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []documentSymbol `json:"children,omitempty"`
	// Location is set when the server answered with SymbolInformation.
	Location *Location `json:"location,omitempty"`
	// ContainerName is SymbolInformation's.
	ContainerName string `json:"containerName,omitempty"`
}

type textEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// workspaceEdit is a rename's answer: edits by document, in either of the
// protocol's two shapes. File creations, renames and deletions
// (documentChanges entries with a "kind") are refused.
type workspaceEdit struct {
	Changes         map[string][]textEdit `json:"changes,omitempty"`
	DocumentChanges []json.RawMessage     `json:"documentChanges,omitempty"`
}

type textDocumentEdit struct {
	Kind         string          `json:"kind,omitempty"`
	TextDocument json.RawMessage `json:"textDocument"`
	Edits        []textEdit      `json:"edits"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   *struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	} `json:"serverInfo,omitempty"`
}

// serverCapabilities keeps the capabilities pincer looks at; a provider
// field is true, an options object, or absent/false/null.
type serverCapabilities struct {
	PositionEncoding        string          `json:"positionEncoding,omitempty"`
	TextDocumentSync        json.RawMessage `json:"textDocumentSync,omitempty"`
	DefinitionProvider      json.RawMessage `json:"definitionProvider,omitempty"`
	ReferencesProvider      json.RawMessage `json:"referencesProvider,omitempty"`
	HoverProvider           json.RawMessage `json:"hoverProvider,omitempty"`
	DocumentSymbolProvider  json.RawMessage `json:"documentSymbolProvider,omitempty"`
	WorkspaceSymbolProvider json.RawMessage `json:"workspaceSymbolProvider,omitempty"`
	RenameProvider          json.RawMessage `json:"renameProvider,omitempty"`
}

// offers reports whether a provider capability is given.
func offers(raw json.RawMessage) bool {
	v := bytes.TrimSpace(raw)
	return len(v) > 0 && !bytes.Equal(v, []byte("false")) && !bytes.Equal(v, []byte("null"))
}

// saveWanted reports whether the server asked for didSave notifications.
func saveWanted(sync json.RawMessage) bool {
	var opts struct {
		Save json.RawMessage `json:"save"`
	}
	if json.Unmarshal(sync, &opts) != nil {
		return false
	}
	return offers(opts.Save)
}

// fileURI is the file:// URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// uriPath is the absolute path of a file:// URI; "" for any other URI.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// lineText returns line n (zero-based) of text without its line break.
func lineText(text []byte, n int) []byte {
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(text, '\n')
		if j < 0 {
			return nil
		}
		text = text[j+1:]
	}
	if j := bytes.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return bytes.TrimSuffix(text, []byte("\r"))
}

// utf16Units counts the UTF-16 code units of s.
func utf16Units(s []byte) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// byteColumn turns a UTF-16 column of line into a byte offset, clamped to
// the line.
func byteColumn(line []byte, units int) int {
	n, i := 0, 0
	for i < len(line) && n < units {
		r, size := utf8.DecodeRune(line[i:])
		i += size
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return i
}

// runeColumn is the 1-based column, in characters, of byte offset col of
// line: what an editor shows.
func runeColumn(line []byte, col int) int {
	if col > len(line) {
		col = len(line)
	}
	return utf8.RuneCount(line[:col]) + 1
}
