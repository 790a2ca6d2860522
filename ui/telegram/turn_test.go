package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent"
	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/session"
)

func TestApprovalsByKind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		call    agenttest.Call
		buttons []string // all the question's buttons
		press   string
		check   func(t *testing.T, root string)
		shown   string // in the question
	}{
		{
			name:    "confirm command",
			call:    agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"touch made"}`},
			buttons: []string{"Run", "Deny"},
			press:   "Run",
			check: func(t *testing.T, root string) {
				if _, err := os.Stat(filepath.Join(root, "made")); err != nil {
					t.Errorf("the command did not run: %v", err)
				}
			},
			shown: "<pre>touch made</pre>",
		},
		{
			name:    "edit applied",
			call:    agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"notes.txt","content":"new <line>\n"}`},
			buttons: []string{"Apply", "Reject"},
			press:   "Apply",
			check: func(t *testing.T, root string) {
				if b, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(b) != "new <line>\n" {
					t.Errorf("notes.txt = %q", b)
				}
			},
			shown: "+new &lt;line&gt;",
		},
		{
			name:    "edit rejected",
			call:    agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"notes.txt","content":"new\n"}`},
			buttons: []string{"Apply", "Reject"},
			press:   "Reject",
			check: func(t *testing.T, root string) {
				if b, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(b) != "old\n" {
					t.Errorf("notes.txt = %q", b)
				}
			},
			shown: "-old",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t)
			model := agenttest.New(agenttest.Tools("", tc.call), agenttest.Text("finished", 5))
			defer model.Close()
			r := startBot(t, api, model, "")
			os.WriteFile(filepath.Join(r.root, "notes.txt"), []byte("old\n"), 0o644)
			api.text(owner, "go")
			var kb map[string]string
			waitFor(t, "the question", func() bool { kb = buttons(api, tc.press); return kb != nil })
			for _, b := range tc.buttons {
				if kb[b] == "" {
					t.Errorf("no %q button among %v", b, kb)
				}
			}
			if tc.press == "Run" {
				always := false
				for label := range kb {
					always = always || strings.HasPrefix(label, "Always allow ")
				}
				if !always {
					t.Errorf("no Always allow button among %v", kb)
				}
			}
			if q := lastSentWith(api, tc.press); !strings.Contains(q, tc.shown) {
				t.Errorf("the question %q does not show %q", q, tc.shown)
			}
			api.press(owner, kb[tc.press])
			waitFor(t, "the end of the turn", func() bool { return sawText(api, "finished") })
			tc.check(t, r.root)
			second := string(model.Requests()[1].Raw)
			if rejected := tc.press == "Reject" || tc.press == "Deny"; strings.Contains(second, "User cancelled the operation") != rejected {
				t.Errorf("rejected=%v but the model was told: %s", rejected, second)
			}
		})
	}
}

func TestToolActivityLines(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(
		agenttest.Tools("Looking.", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"ls"}`}),
		agenttest.Text("There is one file.", 5))
	defer model.Close()
	r := startBot(t, api, model, "")
	os.WriteFile(filepath.Join(r.root, "only.txt"), nil, 0o644)
	api.text(owner, "what is here?")
	waitFor(t, "the answer", func() bool { return lastText(api) == "There is one file." })
	var started, result bool
	for _, s := range api.texts() {
		started = started || strings.Contains(s, "▸ run_command ls")
		result = result || (strings.Contains(s, "▸ run_command ls\n✓ ") && strings.Contains(s, "only.txt"))
	}
	if !started || !result {
		t.Errorf("tool lines missing (started %v, result %v): %q", started, result, api.texts())
	}
	// The text before the tool call stays in its own message, above.
	if ts := api.texts(); !strings.Contains(strings.Join(ts, "\n"), "Looking.") {
		t.Errorf("the text before the call is lost: %q", ts)
	}
}

func TestCancelStopsTheTurn(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Reply{Body: agenttest.TextBody("slow answer that never ends", 2, 1, 1), Piece: 4, Delay: time.Second})
	defer model.Close()
	r := startBot(t, api, model, "")
	api.text(owner, "go slowly")
	waitFor(t, "the model request", func() bool { return len(model.Requests()) == 1 })
	id := api.text(owner, "and another")
	r.handled(t, id)
	waitFor(t, "the busy notice", func() bool { return strings.Contains(lastText(api), "Still working") })
	api.text(owner, "/cancel")
	waitFor(t, "the stop", func() bool { return lastText(api) == "Stopped." })
	if n := len(model.Requests()); n != 1 {
		t.Errorf("%d model requests; the second message should not have started a turn", n)
	}
}

func TestStopCancelsARunningTurn(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Reply{Body: agenttest.TextBody("slow answer", 2, 1, 1), Piece: 4, Delay: 2 * time.Second})
	defer model.Close()
	r := startBot(t, api, model, "")
	api.text(owner, "go slowly")
	waitFor(t, "the model request", func() bool { return len(model.Requests()) == 1 })
	start := time.Now()
	r.stop()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopping took %s", d)
	}
	if lastText(api) != "Stopped." {
		t.Errorf("last message %q, want Stopped.", lastText(api))
	}
}

func TestLongAnswerContinuesInNewMessages(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	var md strings.Builder
	md.WriteString("The file:\n```go\n")
	for range 300 {
		md.WriteString("if a < b && c > d { x_y = \"<z>\" }\n")
	}
	md.WriteString("```\nDone.")
	model := agenttest.New(agenttest.Reply{Body: agenttest.TextBody(md.String(), 500, 1, 1), Piece: 2000, Delay: 30 * time.Millisecond})
	defer model.Close()
	startBot(t, api, model, "")
	api.text(owner, "show it")
	chunks := Split(md.String(), MaxMessage)
	if len(chunks) < 3 {
		t.Fatalf("%d chunks", len(chunks))
	}
	waitFor(t, "the last chunk", func() bool { return lastText(api) == ToHTML(chunks[len(chunks)-1]) })
	if n := len(api.callsOf("sendMessage")); n != len(chunks) {
		t.Errorf("%d messages sent for %d chunks", n, len(chunks))
	}
	if len(api.rejected) > 0 {
		t.Errorf("Telegram refused %d messages", len(api.rejected))
	}
	// Each message ends as its chunk: its last text is the chunk's HTML.
	final := map[string]string{}
	var order []string
	for _, c := range api.callsOf("sendMessage") {
		final[c.Form["message_id"]] = c.Form["text"]
		order = append(order, c.Form["message_id"])
	}
	for _, c := range api.callsOf("editMessageText") {
		if !c.Refused {
			final[c.Form["message_id"]] = c.Form["text"]
		}
	}
	for i, ch := range chunks {
		h := ToHTML(ch)
		if got := final[order[min(i, len(order)-1)]]; got != h {
			t.Errorf("message %d ends as %.60q…, want %.60q…", i, got, h)
		}
	}
}

func TestSessionCommands(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("one", 5), agenttest.Text("two", 5), agenttest.Text("three", 5))
	defer model.Close()
	r := startBot(t, api, model, "")
	api.text(owner, "hi")
	waitFor(t, "the answer", func() bool { return sawText(api, "one") })
	api.text(owner, "/new")
	waitFor(t, "the new conversation", func() bool { return strings.HasPrefix(lastText(api), "New conversation") })
	api.text(owner, "/session refactor")
	waitFor(t, "the switch", func() bool { return strings.Contains(lastText(api), "now in the session refactor") })
	api.text(owner, "/sessions")
	var kb map[string]string
	waitFor(t, "the list", func() bool { kb = buttons(api, "tg-42"); return kb != nil })
	if kb["refactor"] == "" {
		t.Errorf("the list lacks refactor: %v", kb)
	}
	id := api.press(43, kb["tg-42"]) // not the one who asked
	r.handled(t, id)
	api.press(owner, kb["tg-42"])
	waitFor(t, "the switch back", func() bool { return strings.Contains(lastText(api), "now in the session tg-42") })
	api.text(owner, "/model")
	waitFor(t, "the model", func() bool { return strings.Contains(lastText(api), "This chat uses test-model") })
	api.text(owner, "/help")
	waitFor(t, "the help", func() bool { return strings.Contains(lastText(api), "pincer -s tg-42") })
	want := []string{"tg-42", "+tg-42", "refactor", "tg-42"}
	if got := r.opened(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sessions opened %q, want %q", got, want)
	}
	if c := api.callsOf("setMyCommands"); len(c) != 1 || !strings.Contains(c[0].Form["commands"], `"sessions"`) {
		t.Errorf("commands registered: %v", c)
	}
}

func TestCompactCommand(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New()
	model.SetFallback(agenttest.Text("a summary of it all", 50))
	defer model.Close()
	r := startBot(t, api, model, "")
	for i := range 12 {
		api.text(owner, "message "+string(rune('a'+i)))
		n := i + 1
		waitFor(t, "an answer", func() bool { return len(model.Requests()) == n && !r.bot.chat(owner).busy() })
	}
	api.text(owner, "/compact")
	waitFor(t, "the compaction", func() bool { return strings.HasPrefix(lastText(api), "Compressed ") })
}

func TestAlwaysAllowCarriesTheRule(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New()
	defer model.Close()
	r := startBot(t, api, model, "")
	type result struct {
		d   agent.Decision
		err error
	}
	got := make(chan result, 1)
	go func() {
		d, err := r.bot.ask(context.Background(), owner, owner, agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tier: safety.Confirm,
			Command: "make test", Summary: "run_command make test", SuggestedRule: "make test*"})
		got <- result{d, err}
	}()
	var kb map[string]string
	waitFor(t, "the question", func() bool { kb = buttons(api, "Always allow make test*"); return kb != nil })
	api.press(owner, kb["Always allow make test*"])
	select {
	case res := <-got:
		if res.err != nil || !res.d.Allow || res.d.AllowRule != "make test*" {
			t.Errorf("decision %+v, %v; want allowed with the rule", res.d, res.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no decision")
	}
}

func TestScheduledTaskAnswersInTheChat(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("the build is green", 5))
	defer model.Close()
	r := startBot(t, api, model, "")
	err := r.bot.RunTask(context.Background(), owner, "tg-42", session.Task{ID: "t1", Prompt: "check the build"})
	if err != nil {
		t.Fatal(err)
	}
	if !sawText(api, "the build is green") {
		t.Errorf("the result did not reach the chat: %q", api.texts())
	}
	if raw := string(model.Requests()[0].Raw); !strings.Contains(raw, "AUTOMATED BACKGROUND TASK") || !strings.Contains(raw, "check the build") {
		t.Errorf("the model was not given the task: %s", raw)
	}
	// A chat that is answering is not interrupted by a task.
	r.bot.chat(owner).begin(owner, func() {})
	if err := r.bot.RunTask(context.Background(), owner, "tg-42", session.Task{ID: "t2", Prompt: "again"}); err != ErrChatBusy {
		t.Errorf("err = %v, want ErrChatBusy", err)
	}
	r.bot.chat(owner).end()
}

// TestEditHunksCanBeDropped keeps hunk 1 of a two-hunk edit and drops
// hunk 2 by its button. In the second case the button is pressed while the
// answer to the sendMessage that showed it is still on its way (over a slow
// link the person can see the message first): the toggle counts, and the
// buttons are redrawn to say so once the message's id is known, so what
// the chat shows is what Apply does.
func TestEditHunksCanBeDropped(t *testing.T) {
	t.Parallel()
	for _, pressEarly := range []bool{false, true} {
		t.Run(fmt.Sprintf("pressed before the message is known=%v", pressEarly), func(t *testing.T) {
			t.Parallel()
			var before, after, want strings.Builder
			for i := range 30 {
				line := "line " + string(rune('A'+i%26)) + "\n"
				before.WriteString(line)
				if i == 1 {
					want.WriteString("FIRST CHANGE\n")
				} else {
					want.WriteString(line)
				}
				switch i {
				case 1:
					after.WriteString("FIRST CHANGE\n")
				case 27:
					after.WriteString("SECOND CHANGE\n")
				default:
					after.WriteString(line)
				}
			}
			args, _ := json.Marshal(map[string]string{"path": "f.txt", "content": after.String()})
			api := newFakeAPI(t)
			release := make(chan struct{})
			if pressEarly {
				api.mu.Lock()
				api.slowButtons = release
				api.mu.Unlock()
			}
			model := agenttest.New(agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: string(args)}), agenttest.Text("edited", 5))
			defer model.Close()
			r := startBot(t, api, model, "")
			os.WriteFile(filepath.Join(r.root, "f.txt"), []byte(before.String()), 0o644)
			api.text(owner, "edit it")
			var kb map[string]string
			waitFor(t, "the hunk buttons", func() bool { kb = buttons(api, "✓ hunk 2"); return kb != nil })
			if kb["✓ hunk 1"] == "" || kb["Apply"] == "" {
				t.Fatalf("buttons %v", kb)
			}
			api.press(owner, kb["✓ hunk 2"])
			if pressEarly {
				waitFor(t, "the press answered", func() bool { return len(api.callsOf("answerCallbackQuery")) > 0 })
				close(release)
			}
			waitFor(t, "the buttons redrawn with hunk 2 dropped", func() bool {
				for _, c := range api.callsOf("editMessageText") {
					if strings.Contains(c.Form["reply_markup"], "✗ hunk 2") {
						return true
					}
				}
				return false
			})
			api.press(owner, kb["Apply"])
			waitFor(t, "the end of the turn", func() bool { return sawText(api, "edited") })
			got, _ := os.ReadFile(filepath.Join(r.root, "f.txt"))
			if string(got) != want.String() {
				t.Errorf("f.txt after keeping hunk 1 only:\n%s\nwant\n%s", got, want.String())
			}
			if raw := string(model.Requests()[1].Raw); !strings.Contains(raw, "without hunk(s) 2 of 2") {
				t.Errorf("the model was not told which hunk was dropped: %s", raw)
			}
		})
	}
}

type fakeTasks struct {
	mu    sync.Mutex
	specs []string
	chats []int64  // the chat each task was scheduled from
	bys   []string // who scheduled each task
}

func (f *fakeTasks) Schedule(chat int64, by, name, spec string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.chats = append(f.chats, chat)
	f.bys = append(f.bys, by)
	f.specs = append(f.specs, name+": "+spec)
	return "Scheduled: runs in 30m.", nil
}

func (f *fakeTasks) List(name string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.specs, nil
}

func TestScheduleAndTasksCommands(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New()
	defer model.Close()
	r := startBot(t, api, model, "")
	tasks := &fakeTasks{}
	r.bot.opts.Tasks = tasks
	api.text(owner, "/schedule in 30m check the build")
	waitFor(t, "the confirmation", func() bool { return lastText(api) == "Scheduled: runs in 30m." })
	api.text(owner, "/tasks")
	waitFor(t, "the list", func() bool { return lastText(api) == "tg-42: in 30m check the build" })
	if n := len(model.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}

func TestLongCommandIsAskedWithAFile(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	long := "touch made && true " + strings.Repeat("a", 5000)
	args, _ := json.Marshal(map[string]string{"command": long})
	model := agenttest.New(agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: string(args)}), agenttest.Text("ok", 5))
	defer model.Close()
	startBot(t, api, model, "")
	api.text(owner, "go")
	var kb map[string]string
	defer func() {
		if t.Failed() {
			for _, c := range api.calls {
				t.Logf("%s %.300v", c.Method, c.Form)
			}
		}
	}()
	waitFor(t, "the question", func() bool { kb = buttons(api, "Deny"); return kb != nil })
	docs := api.callsOf("sendDocument")
	if len(docs) != 1 || docs[0].Form["document"] != "<file:command.txt>" {
		t.Errorf("documents sent: %+v", docs)
	}
	if q := lastSentWith(api, "Deny"); !strings.Contains(q, "command.txt") {
		t.Errorf("the question does not point at the file: %.200q", q)
	}
	api.press(owner, kb["Deny"])
	waitFor(t, "the end", func() bool { return sawText(api, "ok") })
}

// TestModelCommandSwitches: /model NAME switches the chat's model; the
// next request goes to it, and it stays the chat's after /new.
func TestModelCommandSwitches(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("one", 5), agenttest.Text("two", 5))
	defer model.Close()
	startBot(t, api, model, "")
	api.text(owner, "/model other-model")
	waitFor(t, "the switch", func() bool { return strings.Contains(lastText(api), "This chat now uses other-model") })
	api.text(owner, "hi")
	waitFor(t, "the answer", func() bool { return sawText(api, "one") })
	api.text(owner, "/new")
	waitFor(t, "the new conversation", func() bool { return strings.HasPrefix(lastText(api), "New conversation") })
	api.text(owner, "again")
	waitFor(t, "the second answer", func() bool { return sawText(api, "two") })
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if r.Body["model"] != "other-model" {
			t.Errorf("request %d went to %v, want other-model", i, r.Body["model"])
		}
	}
}

// TestGroupTaskSaysWhoScheduledIt: in a group, a task one allowed user
// scheduled asks its approvals of the owner (the first allowed user) only,
// and the question says who scheduled it.
func TestGroupTaskSaysWhoScheduledIt(t *testing.T) {
	t.Parallel()
	const group, bob = int64(-100), int64(43)
	for _, tc := range []struct {
		name string
		from map[string]any
		want string
	}{
		{"with a username", map[string]any{"id": bob, "first_name": "Bob", "username": "bob"}, "@bob"},
		{"without one", map[string]any{"id": bob, "first_name": "Bob", "last_name": "<Lee>"}, "Bob <Lee>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t)
			model := agenttest.New(agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"make test"}`}),
				agenttest.Text("ok", 5))
			defer model.Close()
			r := startBot(t, api, model, "")
			tasks := &fakeTasks{}
			r.bot.opts.Tasks = tasks
			api.push("message", map[string]any{"message_id": 1, "date": 1, "text": "/schedule@pincer_test_bot in 30m run the tests",
				"from": tc.from, "chat": map[string]any{"id": group, "type": "supergroup"}})
			waitFor(t, "the confirmation", func() bool { return lastText(api) == "Scheduled: runs in 30m." })
			tasks.mu.Lock()
			bys := slices.Clone(tasks.bys)
			tasks.mu.Unlock()
			if !slices.Equal(bys, []string{tc.want}) {
				t.Fatalf("scheduled by %q, want %q", bys, tc.want)
			}
			done := make(chan error, 1)
			go func() {
				done <- r.bot.RunTask(context.Background(), group, r.bot.chat(group).session(), session.Task{ID: "t1", Prompt: "run the tests", By: bys[0]})
			}()
			var kb map[string]string
			waitFor(t, "the question", func() bool { kb = buttons(api, "Deny"); return kb != nil })
			if q := lastSentWith(api, "Deny"); !strings.Contains(q, "Scheduled by "+html.EscapeString(tc.want)) {
				t.Errorf("the question does not say who scheduled the task: %q", q)
			}
			r.bot.mu.Lock()
			var owners []int64
			for _, p := range r.bot.pending {
				owners = append(owners, p.owner)
			}
			r.bot.mu.Unlock()
			if !slices.Equal(owners, []int64{owner}) {
				t.Errorf("the question is asked of %v, want only the owner %d", owners, owner)
			}
			if !sawText(api, "⏰ Scheduled task (by "+html.EscapeString(tc.want)+"): run the tests") {
				t.Errorf("the task's start does not say who scheduled it: %q", api.texts())
			}
			api.press(owner, kb["Deny"])
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}
