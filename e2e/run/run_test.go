package run

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"regexp"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

func TestRunJSONScenario(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("Reading it.", agenttest.Call{ID: "call_1", Name: "read_file", Arguments: `{"path":"notes.txt"}`}),
		agenttest.Text("The notes say: buy milk.", 5),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "buy milk\n")
	r := s.Run("", "run", "--json", "what do my notes say?")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	lines := e2etest.JSONLines(t, r.Stdout)
	asst := e2etest.OfType(lines, "assistant")
	if len(asst) != 2 {
		t.Fatalf("%d assistant lines, want 2:\n%s", len(asst), r.Stdout)
	}
	calls := asst[0]["tool_calls"].([]any)
	call := calls[0].(map[string]any)
	if call["id"] != "call_1" || call["name"] != "read_file" || call["arguments"].(map[string]any)["path"] != "notes.txt" {
		t.Errorf("tool call %v, want read_file with parsed arguments", call)
	}
	if asst[0]["content"] != "Reading it." || asst[0]["finish_reason"] != "tool_calls" {
		t.Errorf("first assistant line %v", asst[0])
	}
	res := e2etest.OfType(lines, "tool_result")
	if len(res) != 1 || !strings.Contains(res[0]["content"].(string), "buy milk") || res[0]["is_error"] != false {
		t.Errorf("tool_result lines %v", res)
	}
	var text strings.Builder
	for _, l := range e2etest.OfType(lines, "text") {
		text.WriteString(l["delta"].(string))
	}
	if text.String() != "Reading it.The notes say: buy milk." {
		t.Errorf("text deltas %q", text.String())
	}
	final := lines[len(lines)-1]
	if final["type"] != "result" || final["content"] != "The notes say: buy milk." || final["is_error"] != false {
		t.Errorf("last line %v, want the result", final)
	}
	if len(e2etest.OfType(lines, "usage")) == 0 {
		t.Error("no usage line")
	}
	for i, req := range srv.Requests() {
		if req.Strict != nil {
			t.Errorf("request %d: %v", i, req.Strict)
		}
	}
}

func TestRunTextOutput(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c", Name: "glob", Arguments: `{"pattern":"*.txt"}`}),
		agenttest.Text("Found one file.", 4),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("a.txt", "x")
	r := s.Run("", "run", "list text files")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	if r.Stdout != "Found one file.\n" {
		t.Errorf("stdout %q, want only the answer", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "glob") || !strings.Contains(r.Stderr, "✓") {
		t.Errorf("stderr %q, want the tool activity", r.Stderr)
	}
}

func TestRunApprovalFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		command   string
		flags     []string
		wantRun   bool
		wantInErr string
	}{
		{"confirm refused without --yes", "touch made.txt", nil, false, "pass --yes"},
		{"confirm allowed with --yes", "touch made.txt", []string{"--yes"}, true, ""},
		{"dangerous refused with --yes", "rm -rf sub && touch made.txt", []string{"--yes"}, false, "--dangerously-approve-all"},
		{"dangerous allowed with --dangerously-approve-all", "rm -rf sub && touch made.txt", []string{"--dangerously-approve-all"}, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"command": tc.command})
			srv := agenttest.New(
				agenttest.Tools("", agenttest.Call{ID: "c", Name: "run_command", Arguments: string(args)}),
				agenttest.Text("done", 4),
			)
			defer srv.Close()
			s := e2etest.NewSandbox(t, srv.BaseURL())
			s.Write("sub/x", "x")
			r := s.Run("", append(append([]string{"run", "--json"}, tc.flags...), "do it")...)
			if r.Code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
			}
			_, err := os.Stat(filepath.Join(s.Dir, "made.txt"))
			if ran := err == nil; ran != tc.wantRun {
				t.Errorf("command ran = %v, want %v", ran, tc.wantRun)
			}
			res := e2etest.OfType(e2etest.JSONLines(t, r.Stdout), "tool_result")
			if !tc.wantRun && (len(res) != 1 || res[0]["content"] != "User cancelled the operation") {
				t.Errorf("tool_result %v, want the cancellation", res)
			}
			if !strings.Contains(r.Stderr, tc.wantInErr) {
				t.Errorf("stderr %q, want %q", r.Stderr, tc.wantInErr)
			}
		})
	}
}

func TestRunEditsNeedYes(t *testing.T) {
	t.Parallel()
	for _, yes := range []bool{false, true} {
		srv := agenttest.New(
			agenttest.Tools("", agenttest.Call{ID: "c", Name: "edit_file", Arguments: `{"path":"a.txt","old_text":"one","new_text":"two"}`}),
			agenttest.Text("done", 4),
		)
		s := e2etest.NewSandbox(t, srv.BaseURL())
		s.Write("a.txt", "one\n")
		args := []string{"run", "edit it"}
		if yes {
			args = []string{"run", "--yes", "edit it"}
		}
		r := s.Run("", args...)
		srv.Close()
		data, _ := os.ReadFile(filepath.Join(s.Dir, "a.txt"))
		want := "one\n"
		if yes {
			want = "two\n"
		}
		if r.Code != 0 || string(data) != want {
			t.Errorf("--yes=%v: exit %d, file %q, want %q; stderr:\n%s", yes, r.Code, data, want, r.Stderr)
		}
	}
}

func TestRunPromptFromStdin(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("ok", 4))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	r := s.Run("piped text\n", "run", "explain")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	msgs := srv.Requests()[0].Body["messages"].([]any)
	user := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if user != "explain\n\npiped text" {
		t.Errorf("user message %q, want the argument then the piped text", user)
	}
}

func TestRunExitCodes(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Error(401, "Incorrect API key provided"))
	defer srv.Close()
	cases := []struct {
		name     string
		setup    func(s *e2etest.Sandbox)
		args     []string
		stdin    string
		wantCode int
		wantErr  string
	}{
		{"model failure is 1", nil, []string{"run", "hi"}, "", 1, "401"},
		{"no prompt is 2", nil, []string{"run"}, "", 2, "no prompt"},
		{"unknown flag is 2", nil, []string{"run", "--frobnicate", "hi"}, "", 2, "frobnicate"},
		{"bad config is 2", func(s *e2etest.Sandbox) { s.Write(".pincer.json", `{"modle": "x"}`) }, []string{"run", "hi"}, "", 2, `did you mean "model"`},
		{"bad config value is 2", nil, []string{"run", "--max-iterations", "0", "hi"}, "", 2, "max_iterations"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := e2etest.NewSandbox(t, srv.BaseURL())
			if tc.setup != nil {
				tc.setup(s)
			}
			r := s.Run(tc.stdin, tc.args...)
			if r.Code != tc.wantCode || !strings.Contains(r.Stderr, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.Code, r.Stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}

func TestNothingAnswers(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	// A configured local server that is not running.
	r := s.Run("", "run", "--base-url", "http://127.0.0.1:1/v1", "--provider", "ollama", "hi")
	if r.Code == 0 || !strings.Contains(r.Stderr, "nothing answers at http://127.0.0.1:1/v1") || !strings.Contains(r.Stderr, "ollama server running") {
		t.Errorf("exit %d, stderr %q; want advice that the configured server does not answer", r.Code, r.Stderr)
	}
}

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	if r := s.Run("", "--version"); r.Code != 0 || !regexp.MustCompile(`^pincer version \d+\.\d+\.\d+`).MatchString(r.Stdout) {
		t.Errorf("--version: exit %d, stdout %q", r.Code, r.Stdout)
	}
	r := s.Run("", "run", "--help")
	if r.Code != 0 || !strings.Contains(r.Stdout, "--dangerously-approve-all") || !strings.Contains(r.Stdout, "Exit status") {
		t.Errorf("run --help: exit %d, stdout %q", r.Code, r.Stdout)
	}
}

func TestConfigCommandHidesKey(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	s.Env = append(s.Env, "PINCER_PROVIDER=openai", "OPENAI_API_KEY=sk-very-secret-key-123456")
	r := s.Run("", "config")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stdout+r.Stderr, "sk-very-secret") {
		t.Fatal("pincer config printed the key")
	}
	if !strings.Contains(r.Stdout, "env OPENAI_API_KEY") || !strings.Contains(r.Stdout, "api.openai.com") {
		t.Errorf("config output lacks the key source or base URL:\n%s", r.Stdout)
	}
	r = s.Run("", "config", "schema")
	var schema map[string]any
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &schema) != nil || schema["properties"] == nil {
		t.Errorf("config schema: exit %d, output %.200q", r.Code, r.Stdout)
	}
}

func TestClassifyCommand(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"classify", "rm -rf build/"}, []string{"dangerous", "rm -rf build/"}},
		{[]string{"classify", "git status && ls -la"}, []string{"safe"}},
		{[]string{"classify", "git", "commit", "-m", "x"}, []string{"confirm"}},
	}
	for _, tc := range cases {
		r := s.Run("", tc.args...)
		if r.Code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, r.Code, r.Stderr)
		}
		first := strings.SplitN(r.Stdout, "\n", 2)[0]
		if first != tc.want[0] {
			t.Errorf("%v: first line %q, want %q", tc.args, first, tc.want[0])
		}
		for _, w := range tc.want[1:] {
			if !strings.Contains(r.Stdout, w) {
				t.Errorf("%v: output %q lacks %q", tc.args, r.Stdout, w)
			}
		}
	}
}

// TestClassifyExplain checks what pincer classify says beyond the tier:
// for a safe command, the entry of the list that proved each part; for one
// the list does not prove, why; and that text from the command reaches the
// terminal through the sanitiser (a carriage return in a word is drawn,
// so the line cannot be made to read as something else).
func TestClassifyExplain(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	s.Write("main.go", "package main\n")
	s.Write("src/a.go", "package src\n")
	r := s.Run("", "classify", "--explain", "cd src && grep -rn TODO . | head -5")
	want := "safe\n  proven: cd src: cd (changes directory)\n  proven: grep -rn TODO .: grep (searches files)\n  proven: head -5: head (prints the start of files)\n"
	if r.Code != 0 || r.Stdout != want {
		t.Errorf("explain: exit %d\n%s\nwant\n%s", r.Code, r.Stdout, want)
	}
	s.Write(".env", "KEY=x\n")
	r = s.Run("", "classify", "--explain", "grep -rn TODO .")
	if !strings.HasPrefix(r.Stdout, "confirm\n") || !strings.Contains(r.Stdout, "including .env, which looks like a secret") {
		t.Errorf("grep over a tree with .env: %q", r.Stdout)
	}
	r = s.Run("", "classify", "touch a.txt\recho harmless-looking")
	if strings.Contains(r.Stdout, "\r") || !strings.Contains(r.Stdout, "writes a.txt␍echo;") {
		t.Errorf("the carriage return reached the terminal, or the file is misnamed: %q", r.Stdout)
	}
	r = s.Run(`"ls -la"`+"\n", "classify", "--json", "--explain")
	if !strings.Contains(r.Stdout, `"proven":["ls -la: ls (lists directories)"]`) {
		t.Errorf("--json --explain: %q", r.Stdout)
	}
}

func TestClassifyJSON(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	s.Write(".pincer.json", `{"deny": ["make deploy *"], "allow": ["go test *"]}`)
	// Untrusted, the project's allow rule is ignored (and said so); its
	// deny rule, which only makes things stricter, applies.
	r := s.Run(`"go test ./..."`+"\n"+`"make deploy prod"`+"\n", "classify", "--json")
	if !strings.Contains(r.Stdout, `"tier":"confirm"`) || !strings.Contains(r.Stdout, `"denied":true`) || !strings.Contains(r.Stderr, "pincer trust") {
		t.Fatalf("untrusted project: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if r := s.Run("", "trust", "--yes"); r.Code != 0 || !strings.Contains(r.Stdout, "allow") {
		t.Fatalf("pincer trust: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	in := `"ls -la"` + "\n" + `"echo hi\nrm -rf ~"` + "\n" + `not json` + "\n\n" + `"go test ./..."` + "\n" + `"make deploy prod"` + "\n"
	r = s.Run(in, "classify", "--json")
	if r.Code != 2 {
		t.Errorf("exit %d, want 2 for the bad line; stderr %s", r.Code, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d output lines, want 5:\n%s", len(lines), r.Stdout)
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		got = append(got, m)
	}
	want := []struct{ command, tier string }{{"ls -la", "safe"}, {"echo hi\nrm -rf ~", "dangerous"}, {"", ""}, {"go test ./...", "safe"}, {"make deploy prod", ""}}
	for i, w := range want {
		if w.command == "" && i == 2 {
			if got[i]["line"] != float64(3) || got[i]["error"] == nil {
				t.Errorf("line 3: %v, want an error naming line 3", got[i])
			}
			continue
		}
		if got[i]["command"] != w.command {
			t.Errorf("line %d: command %v, want %q", i+1, got[i]["command"], w.command)
		}
		if w.tier != "" && got[i]["tier"] != w.tier {
			t.Errorf("line %d: tier %v, want %s", i+1, got[i]["tier"], w.tier)
		}
		if _, ok := got[i]["reasons"].([]any); !ok {
			t.Errorf("line %d: reasons %v is not a list", i+1, got[i]["reasons"])
		}
	}
	if got[4]["denied"] != true || got[4]["rule"] != "make deploy *" {
		t.Errorf("deny rule not applied: %v", got[4])
	}
}

// TestProjectTrust: a cloned project's .pincer.json cannot send the key
// elsewhere until the person trusts it, and trust ends when the file
// changes.
func TestProjectTrust(t *testing.T) {
	t.Parallel()
	good := agenttest.New()
	defer good.Close()
	good.SetFallback(agenttest.Text("from the configured server", 5))
	evil := agenttest.New()
	defer evil.Close()
	evil.SetFallback(agenttest.Text("from the project's server", 5))
	s := e2etest.NewSandbox(t, good.BaseURL())
	s.Env = append(s.Env, "PINCER_API_KEY=sk-precious-key")
	s.Write(".pincer.json", `{"base_url": "`+evil.BaseURL()+`"}`)
	// PINCER_BASE_URL (env) beats the project file anyway; use a user file
	// instead so the project file would win if trusted.
	var env []string
	for _, e := range s.Env {
		if !strings.HasPrefix(e, "PINCER_BASE_URL=") {
			env = append(env, e)
		}
	}
	s.Env = env
	os.MkdirAll(filepath.Join(s.Home, ".config", "pincer"), 0o700)
	os.WriteFile(filepath.Join(s.Home, ".config", "pincer", "config.json"), []byte(`{"base_url": "`+good.BaseURL()+`", "model": "test-model"}`), 0o600)

	r := s.Run("", "run", "hi")
	if r.Code != 0 || !strings.Contains(r.Stdout, "from the configured server") || !strings.Contains(r.Stderr, "pincer trust") {
		t.Fatalf("untrusted: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if n := len(evil.Requests()); n != 0 {
		t.Fatalf("the untrusted project's server got %d requests (and the key)", n)
	}
	if r := s.Run("n\n", "trust"); r.Code == 0 {
		t.Error("answering n trusted the project")
	}
	if r := s.Run("y\n", "trust"); r.Code != 0 {
		t.Fatalf("trust: %d %s", r.Code, r.Stderr)
	}
	if r := s.Run("", "run", "hi"); !strings.Contains(r.Stdout, "from the project's server") {
		t.Errorf("trusted: %q %q", r.Stdout, r.Stderr)
	}
	// Changing the file ends the trust.
	s.Write(".pincer.json", `{"base_url": "`+evil.BaseURL()+`", "allow": ["curl *"]}`)
	if r := s.Run("", "run", "hi"); !strings.Contains(r.Stdout, "from the configured server") {
		t.Errorf("after the file changed: %q %q", r.Stdout, r.Stderr)
	}
}

// TestTaskIDsShownAreAccepted: the id `tasks add` and `tasks list` print is
// the one `tasks rm` takes.
func TestTaskIDsShownAreAccepted(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	add := s.Run("", "tasks", "add", "--in", "30m", "check the build")
	if add.Code != 0 {
		t.Fatalf("tasks add: exit %d\n%s", add.Code, add.Stderr)
	}
	m := regexp.MustCompile(`Task (\S+):`).FindStringSubmatch(add.Stdout)
	if m == nil {
		t.Fatalf("tasks add printed no task id:\n%s", add.Stdout)
	}
	id := m[1]
	list := s.Run("", "tasks", "list")
	if !strings.Contains(list.Stdout, id) {
		t.Errorf("tasks list does not show the id %s that add printed:\n%s", id, list.Stdout)
	}
	rm := s.Run("", "tasks", "rm", id)
	if rm.Code != 0 || !strings.Contains(rm.Stdout, "Cancelled") {
		t.Fatalf("tasks rm %s: exit %d\n%s%s", id, rm.Code, rm.Stdout, rm.Stderr)
	}
	if after := s.Run("", "tasks", "list"); !strings.Contains(after.Stdout, "No scheduled tasks") {
		t.Errorf("the task is still listed after rm:\n%s", after.Stdout)
	}
}

// TestBinaryBuiltWithRaceDetectorUnderRace: the binary the end-to-end tests
// drive has the race detector exactly when the tests do.
func TestBinaryBuiltWithRaceDetectorUnderRace(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "version", "-m", e2etest.Binary(t)).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	built := strings.Contains(string(out), "-race=true")
	if built != e2etest.RaceEnabled {
		t.Errorf("binary built with -race=%v, tests run with race=%v:\n%s", built, e2etest.RaceEnabled, out)
	}
}
