package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// The tests run their own binary as a fake language server: with
// PINCER_FAKE_LSP set, TestMain serves the protocol on standard input and
// output instead of running tests. Its diagnostics come from the text:
// each line holding "ERROR: message" is an error, "WARN: message" a
// warning. The mode says how it misbehaves.
const fakeEnv = "PINCER_FAKE_LSP"

func TestMain(m *testing.M) {
	if mode, ok := os.LookupEnv(fakeEnv); ok {
		fakeServe(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeConfig is the server config that starts the fake in mode.
func fakeConfig(t testing.TB, mode string) ServerConfig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Command: exe, Env: map[string]string{fakeEnv: mode}, Extensions: []string{".fk"}}
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

// fakeServe is the fake server's main.
func fakeServe(mode string) {
	f := &fake{mode: mode, docs: map[string]string{}}
	if mode == "hang" {
		select {}
	}
	done := make(chan struct{})
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(f.handle))
	go func() { <-conn.DisconnectNotify(); close(done) }()
	<-done
}

type fake struct {
	mode    string
	mu      sync.Mutex
	docs    map[string]string
	opened  int
	watched []fileChange // what workspace/didChangeWatchedFiles said
}

func (f *fake) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var raw json.RawMessage
	if req.Params != nil {
		raw = *req.Params
	}
	switch req.Method {
	case "initialize":
		fmt.Fprintln(os.Stderr, "fake server starting")
		if f.mode == "slowstart" {
			time.Sleep(2 * time.Second)
		}
		caps := map[string]any{
			"textDocumentSync":        1,
			"definitionProvider":      true,
			"referencesProvider":      true,
			"hoverProvider":           true,
			"documentSymbolProvider":  true,
			"workspaceSymbolProvider": true,
			"renameProvider":          true,
		}
		if f.mode != "utf16" {
			caps["positionEncoding"] = "utf-8"
		}
		return map[string]any{"capabilities": caps, "serverInfo": map[string]string{"name": "fake"}}, nil
	case "initialized":
		if f.mode == "garbage" {
			os.Stdout.WriteString("this is not the protocol\n")
			os.Stdout.WriteString(strings.Repeat("x", 1<<16))
		}
		return nil, nil
	case "shutdown":
		return nil, nil
	case "exit":
		os.Exit(0)
	case "textDocument/didOpen":
		var p didOpenParams
		_ = json.Unmarshal(raw, &p)
		f.mu.Lock()
		f.opened++
		f.docs[p.TextDocument.URI] = p.TextDocument.Text
		f.mu.Unlock()
		if f.mode == "crash" {
			fmt.Fprintln(os.Stderr, "panic: fake crash")
			os.Exit(2)
		}
		f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
		return nil, nil
	case "workspace/didChangeWatchedFiles":
		var p didChangeWatchedFilesParams
		_ = json.Unmarshal(raw, &p)
		f.mu.Lock()
		f.watched = append(f.watched, p.Changes...)
		f.mu.Unlock()
		return nil, nil
	case "fake/watched":
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.watched, nil
	case "textDocument/didChange":
		var p didChangeParams
		_ = json.Unmarshal(raw, &p)
		text := p.ContentChanges[len(p.ContentChanges)-1].Text
		f.mu.Lock()
		f.docs[p.TextDocument.URI] = text
		f.mu.Unlock()
		f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version, text)
		return nil, nil
	case "textDocument/definition":
		var p positionParams
		_ = json.Unmarshal(raw, &p)
		return []map[string]any{{"targetUri": p.TextDocument.URI, "targetRange": Range{}, "targetSelectionRange": Range{Start: Position{Line: 0, Character: 5}, End: Position{Line: 0, Character: 8}}}}, nil
	case "textDocument/references":
		var p referenceParams
		_ = json.Unmarshal(raw, &p)
		return []Location{{URI: p.TextDocument.URI, Range: Range{Start: Position{Line: 0, Character: 0}}}, {URI: p.TextDocument.URI, Range: Range{Start: Position{Line: 1, Character: 2}}}}, nil
	case "textDocument/hover":
		return map[string]any{"contents": map[string]string{"kind": "markdown", "value": "```go\nfunc Fake(x int) string\n```\nFake does nothing."}}, nil
	case "textDocument/documentSymbol":
		return []map[string]any{{"name": "Fake", "kind": 12, "range": Range{}, "selectionRange": Range{}, "children": []map[string]any{{"name": "inner", "kind": 13, "range": Range{Start: Position{Line: 1}}, "selectionRange": Range{Start: Position{Line: 1}}}}}}, nil
	case "workspace/symbol":
		var p workspaceSymbolParams
		_ = json.Unmarshal(raw, &p)
		f.mu.Lock()
		defer f.mu.Unlock()
		var out []map[string]any
		for uri := range f.docs {
			out = append(out, map[string]any{"name": p.Query + "Found", "kind": 12, "location": Location{URI: uri, Range: Range{Start: Position{Line: 2, Character: 1}}}})
		}
		return out, nil
	case "textDocument/rename":
		var p renameParams
		_ = json.Unmarshal(raw, &p)
		return map[string]any{"changes": map[string][]textEdit{p.TextDocument.URI: {{Range: Range{Start: Position{Line: 0, Character: 5}, End: Position{Line: 0, Character: 9}}, NewText: p.NewName}}}}, nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method}
}

// publish sends the diagnostics the text holds on the handler's own
// conn (a copy kept after NewConn returned could still be nil when the
// first request is read).
func (f *fake) publish(ctx context.Context, conn *jsonrpc2.Conn, uri string, version int32, text string) {
	if f.mode == "silent" {
		return
	}
	var diags []wireDiagnostic
	if f.mode == "huge" {
		for i := 0; i < 5000; i++ {
			diags = append(diags, wireDiagnostic{Range: Range{Start: Position{Line: 0}}, Severity: SeverityError, Message: fmt.Sprintf("problem %d of many", i), Source: "fake"})
		}
	}
	for i, line := range strings.Split(text, "\n") {
		for _, w := range []struct {
			tag string
			sev Severity
		}{{"ERROR: ", SeverityError}, {"WARN: ", SeverityWarning}, {"HINT: ", SeverityHint}} {
			if j := strings.Index(line, w.tag); j >= 0 {
				diags = append(diags, wireDiagnostic{Range: Range{Start: Position{Line: i, Character: j}, End: Position{Line: i, Character: len(line)}},
					Severity: w.sev, Message: line[j+len(w.tag):], Source: "fake"})
			}
		}
	}
	p := map[string]any{"uri": uri, "diagnostics": diags}
	if f.mode != "noversion" {
		p["version"] = version
	}
	if f.mode == "slow" {
		time.Sleep(300 * time.Millisecond)
	}
	_ = conn.Notify(ctx, "textDocument/publishDiagnostics", p)
}
