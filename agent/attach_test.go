package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// lastUserContent is the user message of the first request the server got.
func (h *harness) firstUserContent() string {
	h.t.Helper()
	reqs := h.srv.Requests()
	if len(reqs) == 0 {
		h.t.Fatal("no request was sent")
	}
	for _, m := range reqs[0].Body["messages"].([]any) {
		if mm := m.(map[string]any); mm["role"] == "user" {
			return mm["content"].(string)
		}
	}
	h.t.Fatal("no user message")
	return ""
}

func TestMentionsAttachFiles(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	outside := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(outside, []byte("outside the project\n"), 0o644)
	cases := []struct {
		name      string
		prompt    string
		allow     bool
		want      []string // in what the model receives
		notWant   []string
		asked     int
		noticeHas string
	}{
		{"a file", "what is @main.go?", true,
			[]string{"what is @main.go?", "--- attached file: main.go (3 lines) ---\npackage main\n\nfunc main() {}\n--- end of main.go ---"}, nil, 0, "Attached main.go (3 lines)."},
		{"@@ names without attaching", "rename @@main.go please", true,
			[]string{"rename @main.go please"}, []string{"attached file", "@@"}, 0, ""},
		{"no such file stays text", "ping @nobody about it", true,
			[]string{"ping @nobody about it"}, []string{"attached file"}, 0, ""},
		{"an e-mail address is no mention", "mail me at ann@main.go", true,
			[]string{"ann@main.go"}, []string{"attached file"}, 0, ""},
		{"a long file is cut, the cut said", "@long.txt", true,
			[]string{"long.txt (2000 lines) [cut: the file has 3000 lines, the first 2000 are attached] ---", "line 2000\n--- end of long.txt ---"}, []string{"line 2001\n"}, 0, "the first 2000 are attached"},
		{"a secret is asked about; refused, not attached", "check @.env", false,
			[]string{"check @.env"}, []string{"attached file", "TOKEN=s3cret"}, 1, "Did not attach .env"},
		{"a secret, allowed", "check @.env", true,
			[]string{"TOKEN=s3cret"}, nil, 1, "Attached .env"},
		{"outside the project is asked about", "read @" + outside, true,
			[]string{"outside the project\n"}, nil, 1, "Attached"},
		{"a quoted name with spaces", `what is in @"docs/release notes.md"?`, true,
			[]string{"--- attached file: docs/release notes.md (1 line) ---\nnotes\n"}, nil, 0, "Attached docs/release notes.md"},
		{"a quoted name with a newline", `@"odd\nname.txt" please`, true,
			[]string{"odd\nname.txt (1 line) ---\nodd\n"}, nil, 0, "Attached"},
		{"@@ names a quoted path without attaching", `see @@"docs/release notes.md"`, true,
			[]string{`see @"docs/release notes.md"`}, []string{"attached file"}, 0, ""},
		{"each file once", "@main.go and @main.go", true,
			[]string{"@main.go and @main.go"}, nil, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 5, agenttest.Text("ok", 5))
			h.write("main.go", "package main\n\nfunc main() {}")
			h.write("long.txt", long.String())
			h.write(".env", "TOKEN=s3cret\n")
			h.write("docs/release notes.md", "notes\n")
			h.write("odd\nname.txt", "odd\n")
			h.answer = func(Approval) Decision { return Decision{Allow: c.allow} }
			if _, err := h.run(c.prompt); err != nil {
				t.Fatal(err)
			}
			got := h.firstUserContent()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("the model got %q, lacking %q", got, w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(got, w) {
					t.Errorf("the model got %q, which has %q", got, w)
				}
			}
			if c.name == "each file once" && strings.Count(got, "attached file") != 1 {
				t.Errorf("attached %d times", strings.Count(got, "attached file"))
			}
			if len(h.asked) != c.asked {
				t.Errorf("asked %d times, want %d", len(h.asked), c.asked)
			}
			var notices []string
			for _, ev := range h.events {
				if n, ok := ev.(Notice); ok {
					notices = append(notices, n.Text)
				}
			}
			if c.noticeHas != "" && !strings.Contains(strings.Join(notices, "\n"), c.noticeHas) {
				t.Errorf("notices %q lack %q", notices, c.noticeHas)
			}
			if typed, files := SplitAttachments(h.agent.History()[0].Content); strings.Contains(typed, "attached file") || (strings.Contains(got, "attached file") && len(files) == 0) {
				t.Errorf("SplitAttachments(%q) = %q, %q", got, typed, files)
			}
		})
	}
}

// TestMentionPathRoundTrip: what completion writes after @ is read back by
// the prompt's mention as the same path, whatever the name holds.
func TestMentionPathRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ path, written string }{
		{"main.go", "main.go"},
		{"dir with space/a b.txt", `"dir with space/a b.txt"`},
		{"new\nline.txt", `"new\nline.txt"`},
		{"esc\x1b[31mname.txt", `"esc\x1b[31mname.txt"`},
		{"ünïcödé/файл.go", "ünïcödé/файл.go"},
		{`"quoted".txt`, `"\"quoted\".txt"`},
	} {
		written := MentionPath(tc.path)
		if written != tc.written {
			t.Errorf("MentionPath(%q) = %q, want %q", tc.path, written, tc.written)
		}
		got := findMentions("look at @" + written + " now")
		if len(got) != 1 || got[0].path != tc.path {
			t.Errorf("findMentions of @%s = %+v, want the path %q", written, got, tc.path)
		}
	}
}

func TestReadCappedBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.log")
	os.WriteFile(p, []byte(strings.Repeat("short one\n", 35000)), 0o644) // 342 KB in 35,000 lines
	content, cut, err := readCapped(p)
	if err != nil {
		t.Fatal(err)
	}
	if cut != "the file is 341.8 KiB, the first 2000 lines are attached" || strings.Count(content, "\n") != 2000 {
		t.Errorf("cut %q, %d lines", cut, strings.Count(content, "\n"))
	}
	os.WriteFile(p, []byte(strings.Repeat(strings.Repeat("y", 999)+"\n", 300)), 0o644) // 300 KB in 300 lines
	content, cut, err = readCapped(p)
	if err != nil {
		t.Fatal(err)
	}
	if cut != "the file is 293.0 KiB, the first 99.6 KiB are attached" || len(content) > AttachMaxBytes || !strings.HasSuffix(content, "\n") {
		t.Errorf("cut %q, %d bytes", cut, len(content))
	}
	os.WriteFile(p, []byte("ELF\x00\x01"), 0o644)
	if _, _, err := readCapped(p); err == nil {
		t.Error("a binary file was attached")
	}
}

// TestAttachedText: text a front end attaches is marked like an attached
// file, cut at a line end past AttachMaxBytes with the cut said, and
// SplitAttachments finds the typed prompt and the name again.
func TestAttachedText(t *testing.T) {
	long := strings.Repeat("a line of the selection\n", AttachMaxBytes/24+100)
	for _, tc := range []struct {
		name, text string
		cut        bool
	}{
		{"short", "func f() {}", false},
		{"long", long, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			block := AttachedText("sel.go (from the editor)", tc.text)
			if strings.Contains(block, "[cut:") != tc.cut {
				t.Errorf("cut %v, want %v: %.200s", !tc.cut, tc.cut, block)
			}
			if tc.cut && (len(block) > AttachMaxBytes+400 || !strings.Contains(block, "selection\n--- end of")) {
				t.Errorf("not cut at a line end within the limit (%d bytes)", len(block))
			}
			typed, files := SplitAttachments("look at this" + block)
			if typed != "look at this" || len(files) != 1 || files[0] != "sel.go" {
				t.Errorf("split into %q and %q", typed, files)
			}
		})
	}
}

// fakeResources serves one server's resources from a map.
type fakeResources struct {
	server string
	res    map[string]string
	read   []string
}

func (f *fakeResources) HasServer(name string) bool { return name == f.server }

func (f *fakeResources) ReadResource(_ context.Context, server, uri string) (string, error) {
	f.read = append(f.read, server+" "+uri)
	text, ok := f.res[uri]
	if !ok {
		return "", errors.New("resource not found")
	}
	return text, nil
}

func TestMentionsAttachMCPResources(t *testing.T) {
	cases := []struct {
		name   string
		prompt string
		want   []string
		not    []string
		read   int
		notice string
	}{
		{"a resource", "summarise @docs:file:///guide.md, please", []string{"--- attached file: docs:file:///guide.md (1 line) ---\nRead me.\n--- end of docs:file:///guide.md ---"}, nil, 1, "Attached docs:file:///guide.md, a resource of the MCP server docs."},
		{"an unknown server is text", "@other:thing", []string{"@other:thing"}, []string{"attached file"}, 0, ""},
		{"a missing resource says so", "@docs:nope://x", []string{"@docs:nope://x"}, []string{"attached file"}, 1, "Did not attach docs:nope://x: resource not found."},
		{"once", "@docs:file:///guide.md @docs:file:///guide.md", nil, nil, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 5, agenttest.Text("ok", 5))
			res := &fakeResources{server: "docs", res: map[string]string{"file:///guide.md": "Read me."}}
			h.agent.opts.Resources = res
			if _, err := h.run(c.prompt); err != nil {
				t.Fatal(err)
			}
			got := h.firstUserContent()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("the model got %q, lacking %q", got, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("the model got %q, which has %q", got, w)
				}
			}
			if len(res.read) != c.read {
				t.Errorf("read %v, want %d reads", res.read, c.read)
			}
			var notices []string
			for _, ev := range h.events {
				if n, ok := ev.(Notice); ok {
					notices = append(notices, n.Text)
				}
			}
			if c.notice != "" && !slices.Contains(notices, c.notice) {
				t.Errorf("notices %q lack %q", notices, c.notice)
			}
		})
	}
}

// TestComposedPromptsAskBeforeAttachingResources: a resource named by a
// command's file or a command's output, not typed by the person, is read
// only after a yes; one the person typed is read unasked.
func TestComposedPromptsAskBeforeAttachingResources(t *testing.T) {
	const uri = "@docs:file:///guide.md"
	cases := []struct {
		name   string
		prompt string
		o      TurnOptions
		allow  bool
		asked  int
		read   int
		notice string
	}{
		{"typed, whole", "summarise " + uri, TurnOptions{}, false, 0, 1, "Attached docs:file:///guide.md, a resource of the MCP server docs."},
		{"a command's text, refused", "summarise " + uri, TurnOptions{Composed: true, Typed: "now"}, false, 1, 0, "Did not attach docs:file:///guide.md: reading it was refused."},
		{"a command's text, allowed", "summarise " + uri, TurnOptions{Composed: true}, true, 1, 1, "Attached docs:file:///guide.md, a resource of the MCP server docs."},
		{"in the typed arguments", "summarise " + uri, TurnOptions{Composed: true, Typed: uri}, false, 0, 1, "Attached docs:file:///guide.md, a resource of the MCP server docs."},
		{"typed escaped is not typed", "summarise " + uri, TurnOptions{Composed: true, Typed: "@" + uri}, false, 1, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 5, agenttest.Text("ok", 5))
			res := &fakeResources{server: "docs", res: map[string]string{"file:///guide.md": "Read me."}}
			h.agent.opts.Resources = res
			h.answer = func(Approval) Decision { return Decision{Allow: c.allow} }
			if _, err := h.agent.RunTurn(context.Background(), Message{Role: RoleUser, Content: c.prompt}, c.o, h.sink); err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != c.asked {
				t.Errorf("asked %d times, want %d", len(h.asked), c.asked)
			}
			if len(res.read) != c.read {
				t.Errorf("read %v, want %d reads", res.read, c.read)
			}
			got := h.firstUserContent()
			if attached := strings.Contains(got, "Read me."); attached != (c.read > 0) {
				t.Errorf("the model got %q", got)
			}
			var notices []string
			for _, ev := range h.events {
				if n, ok := ev.(Notice); ok {
					notices = append(notices, n.Text)
				}
			}
			if c.notice != "" && !slices.Contains(notices, c.notice) {
				t.Errorf("notices %q lack %q", notices, c.notice)
			}
		})
	}
}
