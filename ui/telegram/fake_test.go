package telegram

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const testToken = "123456:TEST-token-secret"

// fakeAPI is a Bot API server speaking Telegram's JSON over the same
// multipart requests the real one takes. It checks HTML messages the way
// Telegram does, strictly, and refuses bad ones with its real error.
type fakeAPI struct {
	*httptest.Server
	t *testing.T

	mu       sync.Mutex
	updates  []map[string]any // queued, each with its update_id
	nextUpd  int64
	nextMsg  int
	calls    []apiCall
	rejected []string       // HTML refused by the strict parser
	throttle map[string]int // method → how many 429s to answer first
	retry    int            // retry_after of those 429s
	polled   chan int64     // offsets getUpdates was called with
	// slowButtons, when set, holds back the answer to a sendMessage with
	// buttons until it is closed: the message is recorded (a person can
	// see and press its buttons) before the bot learns its id.
	slowButtons chan struct{}
}

// apiCall is one request the bot made.
type apiCall struct {
	Method string
	Form   map[string]string
	At     time.Time
	// Refused: the fake answered an error (429, bad entities).
	Refused bool
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{t: t, nextUpd: 100, nextMsg: 1, throttle: map[string]int{}, polled: make(chan int64, 1000)}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) reply(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func (f *fakeAPI) fail(w http.ResponseWriter, code int, desc string, params map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	body := map[string]any{"ok": false, "error_code": code, "description": desc}
	if params != nil {
		body["parameters"] = params
	}
	json.NewEncoder(w).Encode(body)
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	token, method, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if !ok || token != testToken {
		f.fail(w, 401, "Unauthorized", nil)
		return
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil && r.ContentLength > 0 {
		f.fail(w, 400, "Bad Request: "+err.Error(), nil)
		return
	}
	form := map[string]string{}
	if r.MultipartForm != nil {
		for k, v := range r.MultipartForm.Value {
			form[k] = v[0]
		}
		for k := range r.MultipartForm.File {
			form[k] = "<file:" + r.MultipartForm.File[k][0].Filename + ">"
		}
	}
	if method == "getUpdates" {
		f.getUpdates(w, r, form)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, apiCall{Method: method, Form: form, At: time.Now()})
	idx := len(f.calls) - 1
	if f.throttle[method] > 0 {
		f.throttle[method]--
		f.calls[len(f.calls)-1].Refused = true
		f.mu.Unlock()
		f.fail(w, 429, "Too Many Requests: retry after "+strconv.Itoa(f.retry), map[string]any{"retry_after": f.retry})
		return
	}
	f.mu.Unlock()
	switch method {
	case "getMe":
		f.reply(w, map[string]any{"id": 999, "is_bot": true, "first_name": "pincer", "username": "pincer_test_bot"})
	case "setMyCommands", "answerCallbackQuery":
		f.reply(w, true)
	case "sendMessage", "editMessageText":
		if form["parse_mode"] == "HTML" {
			if err := checkHTML(form["text"]); err != nil {
				f.mu.Lock()
				f.rejected = append(f.rejected, form["text"])
				f.calls[len(f.calls)-1].Refused = true
				f.mu.Unlock()
				f.fail(w, 400, "Bad Request: can't parse entities: "+err.Error(), nil)
				return
			}
		}
		if n := len([]rune(form["text"])); n > 4096 || n == 0 {
			f.fail(w, 400, "Bad Request: message is too long", nil)
			return
		}
		id := 0
		if method == "editMessageText" {
			id, _ = strconv.Atoi(form["message_id"])
		} else {
			f.mu.Lock()
			f.nextMsg++
			id = f.nextMsg
			// A copy: readers hold the recorded map without the lock.
			form = maps.Clone(form)
			form["message_id"] = strconv.Itoa(id) // the id the message was given
			f.calls[idx].Form = form
			f.mu.Unlock()
		}
		f.mu.Lock()
		slow := f.slowButtons
		f.mu.Unlock()
		if slow != nil && method == "sendMessage" && form["reply_markup"] != "" {
			<-slow
		}
		chat, _ := strconv.ParseInt(form["chat_id"], 10, 64)
		f.reply(w, map[string]any{"message_id": id, "date": time.Now().Unix(), "chat": map[string]any{"id": chat, "type": "private"}, "text": form["text"]})
	case "sendDocument":
		f.mu.Lock()
		f.nextMsg++
		id := f.nextMsg
		f.mu.Unlock()
		chat, _ := strconv.ParseInt(form["chat_id"], 10, 64)
		f.reply(w, map[string]any{"message_id": id, "date": time.Now().Unix(), "chat": map[string]any{"id": chat, "type": "private"}})
	default:
		f.fail(w, 404, "Not Found: method not found", nil)
	}
}

// getUpdates answers the queued updates from the offset on, waiting a
// little for new ones as long polling does.
func (f *fakeAPI) getUpdates(w http.ResponseWriter, r *http.Request, form map[string]string) {
	offset, _ := strconv.ParseInt(form["offset"], 10, 64)
	select {
	case f.polled <- offset:
	default:
	}
	deadline := time.Now().Add(150 * time.Millisecond)
	for {
		f.mu.Lock()
		var out []map[string]any
		for _, u := range f.updates {
			if u["update_id"].(int64) >= offset {
				out = append(out, u)
			}
		}
		f.mu.Unlock()
		if len(out) > 0 || time.Now().After(deadline) || r.Context().Err() != nil {
			if out == nil {
				out = []map[string]any{}
			}
			f.reply(w, out)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// push queues an update and returns its id.
func (f *fakeAPI) push(kind string, body map[string]any) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextUpd++
	f.updates = append(f.updates, map[string]any{"update_id": f.nextUpd, kind: body})
	return f.nextUpd
}

// text queues a private message from a user.
func (f *fakeAPI) text(user int64, text string) int64 {
	return f.push("message", map[string]any{
		"message_id": 1, "date": time.Now().Unix(), "text": text,
		"from": map[string]any{"id": user, "is_bot": false, "first_name": "Ann", "username": "ann"},
		"chat": map[string]any{"id": user, "type": "private"},
	})
}

// press queues a button press on callback data.
func (f *fakeAPI) press(user int64, data string) int64 {
	return f.push("callback_query", map[string]any{
		"id": fmt.Sprint("cb", time.Now().UnixNano()), "data": data, "chat_instance": "1",
		"from": map[string]any{"id": user, "is_bot": false, "first_name": "Ann"},
	})
}

func (f *fakeAPI) callsOf(method string) []apiCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []apiCall
	for _, c := range f.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// texts is the text of every message sent or edited, in order.
func (f *fakeAPI) texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if (c.Method == "sendMessage" || c.Method == "editMessageText") && !c.Refused {
			out = append(out, c.Form["text"])
		}
	}
	return out
}

// waitFor polls cond until it holds or the test times out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var entity = regexp.MustCompile(`^&(lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);`)
var tagRE = regexp.MustCompile(`^<(/?)([a-z]+)((?: [a-z]+="[^"<>]*")*)>`)

// checkHTML parses Telegram's HTML strictly: only b, i, code, pre and
// a href, properly nested and closed; every other < and & escaped.
func checkHTML(s string) error {
	var stack []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '&':
			m := entity.FindString(s[i:])
			if m == "" {
				return fmt.Errorf("unescaped & at byte %d", i)
			}
			i += len(m)
		case '>':
			return fmt.Errorf("unescaped > at byte %d", i)
		case '<':
			m := tagRE.FindStringSubmatch(s[i:])
			if m == nil {
				return fmt.Errorf("unsupported start tag at byte %d", i)
			}
			name := m[2]
			switch name {
			case "b", "i", "code", "pre":
				if m[3] != "" {
					return fmt.Errorf("attributes on <%s>", name)
				}
			case "a":
				if m[1] == "" && !strings.HasPrefix(m[3], ` href="`) {
					return fmt.Errorf("<a> without href")
				}
			default:
				return fmt.Errorf("unsupported tag <%s>", name)
			}
			if m[1] == "/" {
				if len(stack) == 0 || stack[len(stack)-1] != name {
					return fmt.Errorf("unmatched end tag </%s>", name)
				}
				stack = stack[:len(stack)-1]
			} else {
				stack = append(stack, name)
			}
			i += len(m[0])
		default:
			i++
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed <%s>", stack[len(stack)-1])
	}
	return nil
}
