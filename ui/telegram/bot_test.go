package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent"
	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
)

const owner = 42

// running is a bot under test, over a fake Bot API and a scripted model.
type running struct {
	api   *fakeAPI
	model *agenttest.Server
	root  string
	bot   *Bot
	log   *syncBuffer
	stop  func()
	done  chan int64 // update ids, as they are handled

	mu    sync.Mutex
	opens []string // the sessions opened, "+" before a fresh one
}

func (r *running) opened() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.opens...)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// switchable is a test conversation whose model /model can switch.
type switchable struct {
	*agent.Agent
	client *llm.Client
}

func (s switchable) SetModel(name string) error {
	s.client.SetModel(name)
	return nil
}

// startBot runs a bot that answers owner, with the model's replies.
func startBot(t *testing.T, api *fakeAPI, model *agenttest.Server, offsetFile string) *running {
	t.Helper()
	root := t.TempDir()
	r := &running{api: api, model: model, root: root, log: &syncBuffer{}}
	open := func(ctx context.Context, _ Chat, name string, fresh bool, ap agent.Approver) (Conversation, error) {
		r.mu.Lock()
		if fresh {
			r.opens = append(r.opens, "+"+name)
		} else {
			r.opens = append(r.opens, name)
		}
		r.mu.Unlock()
		client, err := llm.NewClient(llm.ClientOptions{BaseURL: model.BaseURL(), Model: "test-model", MaxRetries: -1})
		if err != nil {
			return nil, err
		}
		reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: root, CommandTimeout: 10 * time.Second})...)
		if err != nil {
			return nil, err
		}
		cls, err := safety.NewClassifier(safety.Rules{})
		if err != nil {
			return nil, err
		}
		a, err := agent.New(agent.Options{Model: client, Tools: reg, Safety: cls, Root: root, Approver: ap})
		if err != nil {
			return nil, err
		}
		return switchable{Agent: a, client: client}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	b, err := New(ctx, Options{Token: testToken, APIURL: api.URL, AllowedUsers: []int64{owner, 43}, Open: open,
		Sessions: func() ([]SessionInfo, error) {
			return []SessionInfo{{Name: "tg-42"}, {Name: "refactor"}, {Name: "tg-43"}, {Name: "tg-43-20261201-0900"}, {Name: "diary", Private: true}}, nil
		},
		Lookup: func(name string) (SessionInfo, bool, error) {
			switch name {
			case "diary", "01DIARY":
				return SessionInfo{Name: "diary", ID: "01DIARY", Private: true}, true, nil
			case "01TG43":
				return SessionInfo{Name: "tg-43", ID: "01TG43"}, true, nil
			}
			return SessionInfo{}, false, nil
		},
		Model:      "test-model",
		OffsetFile: offsetFile, ChatsFile: chatsFileFor(offsetFile), Log: r.log, EditEvery: 100 * time.Millisecond, PollTimeout: 2 * time.Second, Retry: 10 * time.Millisecond})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	r.bot = b
	r.done = make(chan int64, 1000)
	b.handled = func(id int64) { r.done <- id }
	done := make(chan struct{})
	go func() { b.Run(ctx); close(done) }()
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Error("the bot did not stop")
			}
		})
	}
	t.Cleanup(r.stop)
	return r
}

// handled waits until the bot handled update id.
func (r *running) handled(t *testing.T, id int64) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case got := <-r.done:
			if got >= id {
				return
			}
		case <-deadline:
			t.Fatalf("update %d was never handled", id)
		}
	}
}

// sawText reports whether some message was sent or edited to text.
func sawText(api *fakeAPI, text string) bool {
	for _, s := range api.texts() {
		if s == text {
			return true
		}
	}
	return false
}

func lastText(api *fakeAPI) string {
	ts := api.texts()
	if len(ts) == 0 {
		return ""
	}
	return ts[len(ts)-1]
}

func TestAllowedUserGetsAStreamedAnswer(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	answer := "Hello **world**. " + strings.Repeat("The build passes now. ", 12)
	model := agenttest.New(agenttest.Reply{Body: agenttest.TextBody(answer, 8, 10, 5), Piece: 40, Delay: 5 * time.Millisecond})
	defer model.Close()
	r := startBot(t, api, model, "")
	api.text(owner, "how is the build?")
	want := ToHTML(answer)
	waitFor(t, "the whole answer", func() bool { return lastText(api) == want })
	sends, edits := api.callsOf("sendMessage"), api.callsOf("editMessageText")
	if len(edits) > 0 {
		t.Logf("%d bytes in %d deltas: 1 message, %d edits over %s (one edit per EditEvery at most)", len(answer), (len(answer)+7)/8, len(edits), edits[len(edits)-1].At.Sub(sends[0].At).Round(time.Millisecond))
	}
	if len(sends) != 1 {
		t.Errorf("%d messages sent, want the answer in 1", len(sends))
	}
	if len(edits) == 0 {
		t.Errorf("the answer was never edited as it grew")
	}
	if !strings.Contains(want, "<b>world</b>") {
		t.Errorf("bold was not converted: %q", want)
	}
	if got := model.Requests(); len(got) != 1 {
		t.Errorf("%d model requests, want 1", len(got))
	}
	if strings.Contains(r.log.String(), testToken) {
		t.Errorf("the token reached the log: %s", r.log.String())
	}
	if c := api.callsOf("setMyCommands"); len(c) != 1 || !strings.Contains(c[0].Form["commands"], `"cancel"`) {
		t.Errorf("setMyCommands calls: %+v", c)
	}
}

func TestStrangerGetsNothing(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("should not be asked", 5))
	defer model.Close()
	r := startBot(t, api, model, "")
	api.text(777, "hello?")
	id := api.text(777, "anyone?")
	// In a group, a stranger mentioning the bot is ignored too.
	id2 := api.push("message", map[string]any{"message_id": 2, "date": 1, "text": "@pincer_test_bot rm everything",
		"from": map[string]any{"id": 778, "first_name": "Eve"}, "chat": map[string]any{"id": -100, "type": "group"}})
	r.handled(t, max(id, id2))
	if n := len(api.callsOf("sendMessage")); n != 0 {
		t.Errorf("%d messages sent to strangers", n)
	}
	if n := len(model.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
	log := r.log.String()
	if strings.Count(log, "user 777") != 1 || !strings.Contains(log, "chat 777") || !strings.Contains(log, "@ann") {
		t.Errorf("want the stranger logged once with id, name and chat:\n%s", log)
	}
	if !strings.Contains(log, "user 778") {
		t.Errorf("the group stranger was not logged:\n%s", log)
	}
}

func TestGroupAnswersOnlyMentionsAndReplies(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("group answer", 5))
	defer model.Close()
	r := startBot(t, api, model, "")
	group := map[string]any{"id": -100, "type": "supergroup"}
	from := map[string]any{"id": owner, "first_name": "Ann"}
	id := api.push("message", map[string]any{"message_id": 1, "date": 1, "text": "just chatting", "from": from, "chat": group})
	r.handled(t, id)
	if n := len(model.Requests()); n != 0 {
		t.Fatalf("a group message not meant for the bot reached the model")
	}
	api.push("message", map[string]any{"message_id": 2, "date": 1, "text": "@pincer_test_bot what now?", "from": from, "chat": group})
	waitFor(t, "the answer in the group", func() bool { return lastText(api) == "group answer" })
	reqs := model.Requests()
	if raw := string(reqs[0].Raw); strings.Contains(raw, "@pincer_test_bot") || !strings.Contains(raw, "what now?") {
		t.Errorf("the prompt should be the text without the mention: %s", raw)
	}
}

// buttons returns the labels and callback data of the newest message
// carrying an inline keyboard whose labels include label.
func buttons(api *fakeAPI, label string) map[string]string {
	calls := api.callsOf("sendMessage")
	for i := len(calls) - 1; i >= 0; i-- {
		var kb struct {
			InlineKeyboard [][]struct {
				Text         string `json:"text"`
				CallbackData string `json:"callback_data"`
			} `json:"inline_keyboard"`
		}
		if json.Unmarshal([]byte(calls[i].Form["reply_markup"]), &kb) != nil {
			continue
		}
		out := map[string]string{}
		for _, row := range kb.InlineKeyboard {
			for _, b := range row {
				out[b.Text] = b.CallbackData
			}
		}
		if _, ok := out[label]; ok {
			return out
		}
	}
	return nil
}

func TestDangerousCommandNeedsTwoPresses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		presses []string // button labels, in order
		runs    bool
	}{
		{"continue then yes", []string{"Continue", "Yes, run it"}, true},
		{"continue then cancel", []string{"Continue", "Cancel"}, false},
		{"deny at once", []string{"Deny"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t)
			model := agenttest.New(
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"rm -rf build"}`}),
				agenttest.Text("done", 5))
			defer model.Close()
			r := startBot(t, api, model, "")
			if err := os.MkdirAll(filepath.Join(r.root, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			api.text(owner, "clean up")
			for i, label := range tc.presses {
				var kb map[string]string
				waitFor(t, "the button "+label, func() bool { kb = buttons(api, label); return kb != nil })
				if i == 0 {
					// Someone else on the allowlist cannot answer for the owner.
					id := api.press(43, kb[label])
					r.handled(t, id)
					if len(model.Requests()) != 1 {
						t.Fatal("another user's press answered the approval")
					}
				}
				if i == 1 && !strings.Contains(lastSentWith(api, label), "rm -rf build") {
					t.Errorf("the second step does not name the command again: %q", lastSentWith(api, label))
				}
				api.press(owner, kb[label])
			}
			waitFor(t, "the second model request", func() bool { return len(model.Requests()) == 2 })
			second := string(model.Requests()[1].Raw)
			cancelled := strings.Contains(second, agent.Cancelled)
			if cancelled == tc.runs {
				t.Errorf("the model was told cancelled=%v, want %v: %s", cancelled, !tc.runs, second)
			}
			_, err := os.Stat(filepath.Join(r.root, "build"))
			if gone := os.IsNotExist(err); gone != tc.runs {
				t.Errorf("build removed = %v, want %v", gone, tc.runs)
			}
			waitFor(t, "the final answer", func() bool { return sawText(api, "done") })
			// A press after the turn ended is answered "expired".
			kb := buttons(api, tc.presses[0])
			id := api.press(owner, kb[tc.presses[0]])
			r.handled(t, id)
			answers := api.callsOf("answerCallbackQuery")
			if got := answers[len(answers)-1].Form["text"]; !strings.Contains(got, "expired") {
				t.Errorf("a late press was answered %q", got)
			}
		})
	}
}

func lastSentWith(api *fakeAPI, label string) string {
	calls := api.callsOf("sendMessage")
	for i := len(calls) - 1; i >= 0; i-- {
		if strings.Contains(calls[i].Form["reply_markup"], label) {
			return calls[i].Form["text"]
		}
	}
	return ""
}

func TestRestartDoesNotAnswerTwice(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("first", 5), agenttest.Text("second", 5))
	defer model.Close()
	offsets := filepath.Join(t.TempDir(), "telegram-offset")
	r := startBot(t, api, model, offsets)
	id := api.text(owner, "one")
	waitFor(t, "the answer", func() bool { return lastText(api) == "first" })
	r.handled(t, id)
	r.stop()
	sent := len(api.callsOf("sendMessage"))

	for len(api.polled) > 0 {
		<-api.polled
	}
	startBot(t, api, model, offsets)
	select {
	case off := <-api.polled:
		if off <= id {
			t.Fatalf("after a restart the bot asked for updates from %d, which includes the handled update %d", off, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the restarted bot never polled")
	}
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("after a restart the model was asked %d times, want 1", n)
	}
	if n := len(api.callsOf("sendMessage")); n != sent {
		t.Fatalf("after a restart %d messages were sent, want %d", n, sent)
	}
	api.text(owner, "two")
	waitFor(t, "the answer to a new message", func() bool { return lastText(api) == "second" })
	if n := len(model.Requests()); n != 2 {
		t.Errorf("the model was asked %d times for two messages", n)
	}
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	api.throttle["sendMessage"], api.retry = 1, 1
	model := agenttest.New(agenttest.Text("after the wait", 50))
	defer model.Close()
	startBot(t, api, model, "")
	api.text(owner, "hi")
	waitFor(t, "the answer", func() bool { return lastText(api) == "after the wait" })
	sends := api.callsOf("sendMessage")
	if len(sends) != 2 {
		t.Fatalf("%d sendMessage calls, want the refused one and its retry: %+v", len(sends), api.calls)
	}
	if gap := sends[1].At.Sub(sends[0].At); gap < time.Second {
		t.Errorf("retried after %s, before retry_after (1s)", gap)
	}
}

func TestMarkdownAnswerIsValidHTML(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	answer := "Use `snake_case_name` and <div> & co.\n\n```go\nif a < b && c > d {\n\tfmt.Println(\"<b>\")\n}\n```\n\n__init__ and *ptr and [docs](https://go.dev/?a=1&b=2)"
	model := agenttest.New(agenttest.Text(answer, 7))
	defer model.Close()
	startBot(t, api, model, "")
	api.text(owner, "show me")
	waitFor(t, "the answer", func() bool { return lastText(api) == ToHTML(answer) })
	if len(api.rejected) > 0 {
		t.Errorf("Telegram refused: %q", api.rejected)
	}
	got := lastText(api)
	for _, want := range []string{"<code>snake_case_name</code>", "&lt;div&gt; &amp; co.", "<pre>if a &lt; b &amp;&amp; c &gt; d", "__init__", `<a href="https://go.dev/?a=1&amp;b=2">docs</a>`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %q lacks %q", got, want)
		}
	}
}

func TestRefusedHTMLIsResentAsPlainText(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New()
	defer model.Close()
	r := startBot(t, api, model, "")
	id := r.bot.send(context.Background(), 5, "<u>not allowed</u>", "plain version", nil)
	if id == 0 {
		t.Fatal("not sent")
	}
	sends := api.callsOf("sendMessage")
	if len(sends) != 2 || sends[1].Form["text"] != "plain version" || sends[1].Form["parse_mode"] != "" {
		t.Errorf("want a plain resend, got %+v", sends)
	}
}

func TestNoAllowedUsersRefusesToStart(t *testing.T) {
	t.Parallel()
	_, err := New(context.Background(), Options{Token: testToken})
	if err == nil || !strings.Contains(err.Error(), "allowed_users") || !strings.Contains(err.Error(), "user id") {
		t.Errorf("err = %v", err)
	}
}

func TestTokenIsNotInErrors(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	api.Close() // nothing answers
	_, err := New(context.Background(), Options{Token: testToken, APIURL: api.URL, AllowedUsers: []int64{1}, Retry: time.Millisecond})
	if err == nil {
		t.Fatal("no error from an unreachable server")
	}
	if strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), "TEST-token") {
		t.Errorf("the error shows the token: %v", err)
	}
}

// chatsFileFor keeps the chats' sessions beside the offset file, so a
// test that restarts the bot keeps both.
func chatsFileFor(offsetFile string) string {
	if offsetFile == "" {
		return ""
	}
	return offsetFile + ".chats.json"
}

// TestRestartKeepsTheChatsSession: a chat that switched sessions is in
// that session after a restart; a damaged record is said in the log and
// the chat starts in its own session.
func TestRestartKeepsTheChatsSession(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New(agenttest.Text("first", 5), agenttest.Text("second", 5), agenttest.Text("third", 5))
	defer model.Close()
	offsets := filepath.Join(t.TempDir(), "telegram-offset")
	r := startBot(t, api, model, offsets)
	id := api.text(owner, "/session refactor")
	waitFor(t, "the switch", func() bool { return strings.Contains(lastText(api), "now in the session refactor") })
	r.handled(t, id)
	r.stop()

	r = startBot(t, api, model, offsets)
	id = api.text(owner, "hello again")
	waitFor(t, "the answer", func() bool { return lastText(api) == "first" })
	r.handled(t, id)
	r.mu.Lock()
	opens := append([]string(nil), r.opens...)
	r.mu.Unlock()
	if len(opens) != 1 || opens[0] != "refactor" {
		t.Errorf("after a restart the chat opened %q, want the session it switched to", opens)
	}
	r.stop()

	if err := os.WriteFile(chatsFileFor(offsets), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = startBot(t, api, model, offsets)
	id = api.text(owner, "and again")
	waitFor(t, "the answer", func() bool { return lastText(api) == "second" })
	r.handled(t, id)
	r.mu.Lock()
	opens = append([]string(nil), r.opens...)
	r.mu.Unlock()
	if len(opens) != 1 || opens[0] != SessionName(owner) {
		t.Errorf("with a damaged record the chat opened %q, want its own session", opens)
	}
	if !strings.Contains(r.log.String(), "ignoring") {
		t.Errorf("the damaged record was not logged: %q", r.log.String())
	}
}
