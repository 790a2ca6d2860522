package commands

import (
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// hookConfig is a user config holding hooks for one event.
func hookConfig(event, matcher, command string, timeout int) map[string]any {
	h := map[string]any{"type": "command", "command": command}
	if timeout > 0 {
		h["timeout"] = timeout
	}
	return map[string]any{"hooks": map[string]any{event: []any{map[string]any{"matcher": matcher, "hooks": []any{h}}}}}
}

// noRmHook refuses, with exit status 2, any command that starts with rm.
const noRmHook = `#!/bin/sh
input=$(cat)
case "$input" in
  *'"command":"rm '*) echo "rm is not allowed here; move files to trash/ instead" >&2; exit 2;;
esac
exit 0
`

// TestHookBlocksRm: a PreToolUse hook that exits 2 on rm stops that call
// (the file stays), the model reads the hook's reason in the next
// request, and a call the hook lets through runs.
func TestHookBlocksRm(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("",
			agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command": "rm gone.txt"}`},
			agenttest.Call{ID: "c2", Name: "run_command", Arguments: `{"command": "touch kept.txt"}`}),
		agenttest.Text("I could not delete it.", 5),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("gone.txt", "still here\n")
	s.Write("hooks/no-rm.sh", noRmHook)
	s.WriteUserConfig(hookConfig("PreToolUse", "run_command", "sh hooks/no-rm.sh", 0))
	r := s.Run("", "run", "--yes", "delete gone.txt")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "gone.txt")); err != nil {
		t.Errorf("gone.txt was deleted despite the hook: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "kept.txt")); err != nil {
		t.Errorf("the call the hook let through did not run: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	second := e2etest.RequestText(reqs[1])
	for _, want := range []string{"Blocked by the user's PreToolUse hook", "rm is not allowed here; move files to trash/ instead"} {
		if !strings.Contains(second, want) {
			t.Errorf("the next request lacks %q:\n%s", want, second)
		}
	}
	if !strings.Contains(r.Stderr, "A PreToolUse hook blocked run_command: rm is not allowed here") {
		t.Errorf("stderr does not say the hook blocked it:\n%s", r.Stderr)
	}
	for i, q := range reqs {
		if q.Strict != nil {
			t.Errorf("request %d: %v", i, q.Strict)
		}
	}
}

// TestHookPromptContext: a UserPromptSubmit hook reads the prompt and the
// session on its standard input, and its additionalContext reaches the
// request the model receives.
func TestHookPromptContext(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("done", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteUserConfig(hookConfig("UserPromptSubmit", "", `cat > prompt.json; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Ticket ABC-123 is about the login page."}}'`, 0))
	r := s.Run("", "run", "fix the bug")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || !strings.Contains(e2etest.RequestText(reqs[0]), "Ticket ABC-123 is about the login page.") {
		t.Fatalf("the request lacks the hook's context: %v", reqs)
	}
	in, err := os.ReadFile(filepath.Join(s.Dir, "prompt.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hook_event_name":"UserPromptSubmit"`, `"prompt":"fix the bug"`, `"cwd":`, `"session_id":"`} {
		if !strings.Contains(string(in), want) {
			t.Errorf("the hook's input lacks %s: %s", want, in)
		}
	}
	if strings.Contains(string(in), `"session_id":""`) {
		t.Errorf("the hook was not told the session: %s", in)
	}
}

// TestHookBlocksPrompt: a UserPromptSubmit hook that exits 2 keeps the
// prompt from the model, and the person reads why.
func TestHookBlocksPrompt(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("done", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteUserConfig(hookConfig("UserPromptSubmit", "", `echo "prompts may not name the secret project" >&2; exit 2`, 0))
	r := s.Run("", "run", "tell me about project X")
	if r.Code == 0 || !strings.Contains(r.Stderr, "a UserPromptSubmit hook blocked the prompt, so it was not sent: prompts may not name the secret project") {
		t.Errorf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
}

// updateHook changes every command to write "changed".
const updateHook = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo changed > out.txt"}}}'`

// TestHookUpdatedInputIsWhatIsApprovedAndRun: the input a PreToolUse hook
// gives replaces the model's before the call is judged: the approval asks
// about the changed command, that command is what runs, and the model is
// told.
func TestHookUpdatedInputIsWhatIsApprovedAndRun(t *testing.T) {
	t.Parallel()
	call := agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command": "echo original > out.txt"}`}
	srv := agenttest.New(agenttest.Tools("", call), agenttest.Text("refused", 5), agenttest.Tools("", call), agenttest.Text("wrote it", 5))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteUserConfig(hookConfig("PreToolUse", "*", updateHook, 0))

	// Without --yes the approval is refused, and what it asked about is
	// the changed command.
	r := s.Run("", "run", "write a file")
	if !strings.Contains(r.Stderr, "refused run_command echo changed > out.txt") || strings.Contains(r.Stderr, "refused run_command echo original") {
		t.Errorf("the approval did not ask about the changed command:\n%s", r.Stderr)
	}
	if !strings.Contains(r.Stderr, "changed this call's input; what is shown is what will run") {
		t.Errorf("the approval does not say a hook changed the input:\n%s", r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "out.txt")); err == nil {
		t.Fatal("a refused command ran")
	}

	r = s.Run("", "run", "--yes", "write a file")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	got, err := os.ReadFile(filepath.Join(s.Dir, "out.txt"))
	if err != nil || string(got) != "changed\n" {
		t.Errorf("out.txt = %q (%v), want what the hook's command writes", got, err)
	}
	reqs := srv.Requests()
	if last := e2etest.RequestText(reqs[len(reqs)-1]); !strings.Contains(last, `hook changed this call's input to: {\"command\":\"echo changed \u003e out.txt\"}`) {
		t.Errorf("the model is not told the input changed:\n%s", last)
	}
}

// TestUntrustedProjectHooksDoNotRun: a cloned project's hooks never run
// before the person trusts the project, the warning says how, and after
// 'pincer trust' they do.
func TestUntrustedProjectHooksDoNotRun(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("done", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write(".pincer.json", `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "touch hook-ran"}]}],
		"SessionStart": [{"hooks": [{"command": "touch start-ran"}]}]}}`)
	r := s.Run("", "run", "hello")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	for _, f := range []string{"hook-ran", "start-ran"} {
		if _, err := os.Stat(filepath.Join(s.Dir, f)); err == nil {
			t.Errorf("the untrusted project's hook made %s", f)
		}
	}
	if !strings.Contains(r.Stderr, "sets hooks, commands the project chose to run around every turn; they do not run until you trust this project with 'pincer trust'") {
		t.Errorf("no warning on how to trust:\n%s", r.Stderr)
	}
	if r := s.Run("", "trust", "--yes"); r.Code != 0 || !strings.Contains(r.Stdout, "hooks") {
		t.Fatalf("trust: exit %d, it lists:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "run", "hello again"); r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	for _, f := range []string{"hook-ran", "start-ran"} {
		if _, err := os.Stat(filepath.Join(s.Dir, f)); err != nil {
			t.Errorf("the trusted project's hook did not run: %v", err)
		}
	}
}

// TestHangingHookIsStopped: a hook that never ends is killed at its
// timeout, the person is told, and the turn goes on: the tool runs and
// the model answers.
func TestHangingHookIsStopped(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command": "ls"}`}),
		agenttest.Text("listed", 5),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteUserConfig(hookConfig("PreToolUse", "run_command", "sleep 120", 1))
	start := time.Now()
	r := s.Run("", "run", "list the files")
	if r.Code != 0 || !strings.Contains(r.Stdout, "listed") {
		t.Fatalf("run: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the run took %s with a hook of 1 s", took)
	}
	if !strings.Contains(r.Stderr, `The PreToolUse hook "sleep 120" (from user file ~/.config/pincer/config.json) did not finish within 1s and was stopped; the turn goes on without it.`) {
		t.Errorf("no notice of the timeout:\n%s", r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || strings.Contains(e2etest.RequestText(reqs[1]), "Blocked") {
		t.Errorf("the tool did not run after the hook timed out: %d requests", len(reqs))
	}
}

// TestTUIHooks: on the screen, /hooks lists the hooks with the file each
// came from, and the approval of a call a hook changed shows the changed
// command, says a hook changed it, and runs what it showed.
func TestTUIHooks(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command": "echo original > out.txt"}`}),
		agenttest.Text("Wrote the file.", 5),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteUserConfig(hookConfig("PreToolUse", "run_command", updateHook, 0))
	ts := e2etest.NewTmuxScreen(t, s, 120, 40, "-s", "hooks")
	ts.WaitFor("the screen", "Ask pincer")
	ts.Keys("/hooks", "Enter")
	ts.WaitFor("the list of hooks", "PreToolUse", "matcher run_command · timeout 60s · from user file ~/.config/pincer/config.json")

	ts.Keys("write a file", "Enter")
	screen := ts.WaitFor("the approval of the changed command", "Run this command?", "echo changed > out.txt", "changed this call's input")
	if strings.Contains(screen, "echo original") && strings.Contains(screen, "Run this command?") && !strings.Contains(screen, "echo changed") {
		t.Fatalf("the dialog shows the model's command:\n%s", screen)
	}
	time.Sleep(400 * time.Millisecond) // a new dialog ignores keys at first
	ts.Keys("y")
	ts.WaitFor("the answer", "Wrote the file.")
	got, err := os.ReadFile(filepath.Join(s.Dir, "out.txt"))
	if err != nil || string(got) != "changed\n" {
		t.Errorf("out.txt = %q (%v), want what the dialog showed", got, err)
	}
}

// TestHooksDoNotGetTheKey: a hook runs with the person's environment less
// the API key variables, as commands do; other variables reach it.
func TestHooksDoNotGetTheKey(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("done", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Env = append(s.Env, "PINCER_API_KEY=sk-hook-must-not-see-4242", "OPENAI_API_KEY=sk-nor-this-4242", "HOOK_VISIBLE=yes-4242")
	s.WriteUserConfig(hookConfig("UserPromptSubmit", "", `env > hook-env.txt`, 0))
	if r := s.Run("", "run", "go"); r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	env, err := os.ReadFile(filepath.Join(s.Dir, "hook-env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), "sk-hook-must-not-see") || strings.Contains(string(env), "sk-nor-this") {
		t.Errorf("a hook got an API key:\n%s", env)
	}
	if !strings.Contains(string(env), "HOOK_VISIBLE=yes-4242") {
		t.Errorf("the hook did not get the person's other variables:\n%s", env)
	}
}
