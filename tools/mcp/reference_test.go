package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// referenceServers are the reference MCP servers from the npm registry,
// run over stdio with npx as people configure them; root is what the
// filesystem server may read.
func referenceServers(t testing.TB, root string) []Server {
	t.Helper()
	if _, err := exec.LookPath("npx"); err != nil {
		agenttest.Missing(t, "npx is not installed, so the reference MCP servers cannot run (.ci/run installs them)")
	}
	return []Server{
		{Name: "everything", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}},
		{Name: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", root}},
	}
}

// TestReferenceServers runs pincer's client against servers nobody here
// wrote: their tools are listed with their schemas, calls return their
// text, an image becomes a note, and the filesystem server reads a file.
func TestReferenceServers(t *testing.T) {
	if testing.Short() {
		t.Skip("the reference servers start node processes; they run without -short")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "note.txt"), []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	start := time.Now()
	m := started(t, Options{Servers: referenceServers(t, root), StartTimeout: 2 * time.Minute})
	t.Logf("start → tools ready: %s", time.Since(start))
	for _, in := range m.Servers() {
		if in.Status != StatusReady {
			t.Fatalf("%s: %s %s", in.Name, in.Status, in.Reason)
		}
	}
	echo := tool(t, m, "mcp__everything__echo")
	if props, _ := echo.Parameters()["properties"].(map[string]any); props["message"] == nil {
		t.Fatalf("echo's schema: %v", echo.Parameters())
	}
	ctx := context.Background()
	cases := []struct {
		tool, args, want string
	}{
		{"mcp__everything__echo", `{"message":"hello"}`, "Echo: hello"},
		{"mcp__everything__get-sum", `{"a":2,"b":3}`, "5"},
		{"mcp__everything__get-tiny-image", `{}`, "[image: image/png"},
		{"mcp__fs__read_text_file", `{"path":"` + filepath.Join(root, "note.txt") + `"}`, "remember the milk"},
		{"mcp__fs__list_directory", `{"path":"` + root + `"}`, "note.txt"},
	}
	for _, c := range cases {
		r, err := run(t, ctx, tool(t, m, c.tool), c.args)
		if err != nil || r.IsError || !strings.Contains(r.Content, c.want) {
			t.Errorf("%s %s: %+v %v; want %q", c.tool, c.args, r, err, c.want)
		}
	}
	// The server's own check of the arguments reaches the model as an
	// error result, not a failure of pincer.
	r, err := run(t, ctx, tool(t, m, "mcp__fs__read_text_file"), `{"path":"/etc/passwd"}`)
	if err != nil || !r.IsError {
		t.Errorf("read outside the allowed directory: %+v %v", r, err)
	}
	if tool(t, m, "mcp__fs__write_file").Mutates() != true || tool(t, m, "mcp__fs__read_text_file").Mutates() {
		t.Error("readOnlyHint of the filesystem server's tools is not honoured")
	}
}

// BenchmarkReferenceServersReady measures the time from Start until both
// reference servers are ready with their tools listed (npx cache warm).
func BenchmarkReferenceServersReady(b *testing.B) {
	servers := referenceServers(b, b.TempDir())
	for b.Loop() {
		m := New(Options{Servers: servers, LogDir: b.TempDir(), StartTimeout: 2 * time.Minute})
		m.Start()
		if err := m.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for _, in := range m.Servers() {
			if in.Status != StatusReady {
				b.Fatalf("%s: %s", in.Name, in.Reason)
			}
		}
		m.Close()
		b.StartTimer()
	}
}
