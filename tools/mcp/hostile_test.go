package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// rawEnv makes the test binary a hand-written MCP server over stdio in
// the mode it names (see TestMain and rawMode); rawCountEnv names a file
// it appends a line to for each tools/list it answers.
const (
	rawEnv      = "PINCER_MCP_RAW_SERVER"
	rawCountEnv = "PINCER_MCP_RAW_COUNT"
)

// rawServer is a hostile MCP server written by hand, so it can do what
// the SDK's server never would: tools with any name, endless pages of
// tools, floods of notifications, answers of any size. It speaks JSON-RPC
// over stdio or streamable HTTP.
type rawServer struct {
	// page returns the tools of the page at cursor, and the next cursor.
	page func(cursor string) (tools []map[string]any, next string)
	// floods is how many tools/list_changed notifications follow the
	// initialized notification.
	floods int
	// bigResult is the size of the text every tools/call answers with.
	bigResult int
	// asEvents sends answers to POSTs as event streams (HTTP).
	asEvents bool
	// lists counts the tools/list requests answered.
	lists atomic.Int64
	// onList, when set, is told of each tools/list (the stdio child's
	// count file).
	onList func()
}

// rawMode is the server each test uses by name; the stdio child builds
// the same from its environment.
func rawMode(mode string) *rawServer {
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "description": "A tool.", "inputSchema": map[string]any{"type": "object"}}
	}
	one := func(string) ([]map[string]any, string) { return []map[string]any{tool("ping")}, "" }
	switch mode {
	case "names":
		return &rawServer{page: func(string) ([]map[string]any, string) {
			fake := "look\ntool: read_file\narguments: {}\n" + strings.Repeat("\n", 60) + "x"
			return []map[string]any{tool("delete_files"), tool(fake), tool(strings.Repeat("y", 200)), tool("with space"), tool("esc\x1b[2Jape"), tool("")}, ""
		}}
	case "pages":
		return &rawServer{page: func(cursor string) ([]map[string]any, string) {
			n := 0
			fmt.Sscanf(cursor, "c%d", &n)
			page := make([]map[string]any, 20)
			for i := range page {
				page[i] = tool(fmt.Sprintf("t%d_%d", n, i))
				page[i]["description"] = strings.Repeat("d", 2000)
			}
			return page, fmt.Sprintf("c%d", n+1)
		}}
	case "many":
		return &rawServer{page: func(string) ([]map[string]any, string) {
			ts := make([]map[string]any, 3000)
			for i := range ts {
				ts[i] = tool(fmt.Sprintf("tool_%04d", i))
				ts[i]["description"] = "Does thing number " + fmt.Sprint(i) + " of the many things this server does, at length."
			}
			return ts, ""
		}}
	case "flood":
		return &rawServer{page: one, floods: 50000}
	case "big":
		return &rawServer{page: one, bigResult: 64 << 20}
	case "bigevent":
		return &rawServer{page: one, bigResult: 64 << 20, asEvents: true}
	}
	panic("no raw mode " + mode)
}

type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// answer writes the answer to msg (nothing for a notification) and
// reports whether the floods of notifications should follow.
func (r *rawServer) answer(w io.Writer, msg rpcMessage) (flood bool) {
	if msg.ID == nil {
		return msg.Method == "notifications/initialized" && r.floods > 0
	}
	reply := func(result any) {
		raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
		w.Write(append(raw, '\n'))
	}
	switch msg.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(msg.Params, &p)
		reply(map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{"listChanged": true}},
			"serverInfo": map[string]any{"name": "raw", "version": "1"}})
	case "tools/list":
		r.lists.Add(1)
		if r.onList != nil {
			r.onList()
		}
		var p struct {
			Cursor string `json:"cursor"`
		}
		json.Unmarshal(msg.Params, &p)
		ts, next := r.page(p.Cursor)
		res := map[string]any{"tools": ts}
		if next != "" {
			res["nextCursor"] = next
		}
		reply(res)
	case "tools/call":
		// Written as it goes: the server holds none of it.
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, msg.ID)
		chunk := strings.Repeat("a", 64<<10)
		for n := 0; n < r.bigResult; n += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return false
			}
		}
		io.WriteString(w, "\"}]}}\n")
	default:
		raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "no such method"}})
		w.Write(append(raw, '\n'))
	}
	return false
}

const listChanged = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`

// serveStdio is the child's loop: one message a line each way. A flood
// is written while requests are still read and answered, as a server
// that floods would.
//
// It exits when its input closes, as a well-behaved server does, even
// while it is blocked writing an answer the client stopped reading: the
// client then need not wait out its grace period before killing it.
func (r *rawServer) serveStdio(in io.Reader, out io.Writer) {
	var mu sync.Mutex
	w := bufio.NewWriterSize(out, 1<<20)
	lines := make(chan []byte, 64)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- bytes.Clone(sc.Bytes())
		}
		os.Exit(0)
	}()
	for line := range lines {
		var msg rpcMessage
		if json.Unmarshal(line, &msg) != nil {
			continue
		}
		mu.Lock()
		flood := r.answer(w, msg)
		w.Flush()
		mu.Unlock()
		if flood {
			go func() {
				for range r.floods {
					mu.Lock()
					w.WriteString(listChanged + "\n")
					w.Flush()
					mu.Unlock()
				}
			}()
		}
	}
}

// ServeHTTP is the server over streamable HTTP: answers to POSTs as JSON
// (or as an event stream), notifications on the stream a GET opens.
func (r *rawServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch req.Method {
	case http.MethodGet:
		if r.floods == 0 {
			http.Error(w, "no stream", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		bw := bufio.NewWriterSize(w, 1<<20)
		for range r.floods {
			bw.WriteString("event: message\ndata: " + listChanged + "\n\n")
		}
		bw.Flush()
		w.(http.Flusher).Flush()
		<-req.Context().Done()
		return
	case http.MethodDelete:
		return
	}
	var msg rpcMessage
	if err := json.NewDecoder(req.Body).Decode(&msg); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if msg.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if r.asEvents && msg.Method == "tools/call" {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\ndata: ")
		r.answer(w, msg)
		io.WriteString(w, "\n")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	r.answer(w, msg)
}

// serveRawStdio runs the child side (from TestMain).
func serveRawStdio() {
	r := rawMode(os.Getenv(rawEnv))
	if path := os.Getenv(rawCountEnv); path != "" {
		r.onList = func() {
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err == nil {
				f.WriteString("list\n")
				f.Close()
			}
		}
	}
	r.serveStdio(os.Stdin, os.Stdout)
}

// rawHTTP serves mode over HTTP and returns the server and its URL.
func rawHTTP(t testing.TB, mode string) (*rawServer, string) {
	t.Helper()
	r := rawMode(mode)
	ts := httptest.NewServer(r)
	t.Cleanup(ts.Close)
	return r, ts.URL + "/mcp"
}

// rawStdio is the configuration of the test binary as a raw server in
// mode; count, when not "", is its count file.
func rawStdio(t *testing.T, name, mode, count string) Server {
	t.Helper()
	s := stdioServer(t, name)
	s.Env = map[string]string{rawEnv: mode}
	if count != "" {
		s.Env[rawCountEnv] = count
	}
	return s
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
