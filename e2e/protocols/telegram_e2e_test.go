package protocols

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

const e2eToken = "4242:e2e-secret-token"

// miniBotAPI is the least of the Bot API that pincer telegram needs: one
// message from user 42, then nothing; it records what the bot sends.
type miniBotAPI struct {
	mu    sync.Mutex
	given bool
	sent  []string
}

func (m *miniBotAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token, method, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	w.Header().Set("Content-Type", "application/json")
	if token != e2eToken {
		w.WriteHeader(401)
		w.Write([]byte(`{"ok":false,"error_code":401,"description":"Unauthorized"}`))
		return
	}
	r.ParseMultipartForm(1 << 20)
	reply := func(v any) { json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": v}) }
	switch method {
	case "getMe":
		reply(map[string]any{"id": 4242, "is_bot": true, "first_name": "p", "username": "p_bot"})
	case "getUpdates":
		m.mu.Lock()
		first := !m.given && r.FormValue("offset") <= "1"
		m.given = true
		m.mu.Unlock()
		if !first {
			time.Sleep(100 * time.Millisecond)
			reply([]any{})
			return
		}
		reply([]any{map[string]any{"update_id": 1, "message": map[string]any{"message_id": 1, "date": 1, "text": "hi",
			"from": map[string]any{"id": 42, "first_name": "Ann"}, "chat": map[string]any{"id": 42, "type": "private"}}}})
	case "sendMessage", "editMessageText":
		m.mu.Lock()
		m.sent = append(m.sent, r.FormValue("text"))
		m.mu.Unlock()
		reply(map[string]any{"message_id": 7, "date": 1, "chat": map[string]any{"id": 42, "type": "private"}})
	default:
		reply(true)
	}
}

func (m *miniBotAPI) texts() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.sent...)
}

func TestTelegramRefusesToStartWithoutAllowedUsers(t *testing.T) {
	s := e2etest.NewSandbox(t, "http://127.0.0.1:1/v1")
	s.Env = append(s.Env, "TELEGRAM_BOT_TOKEN="+e2eToken)
	res := s.Run("", "telegram")
	if res.Code != 2 || !strings.Contains(res.Stderr, "allowed_users") || !strings.Contains(res.Stderr, "@userinfobot") {
		t.Errorf("exit %d, stderr:\n%s", res.Code, res.Stderr)
	}
}

// TestTelegramAnswersAndKeepsTheSession runs the binary against a Bot API
// fake: the allowed user's message is answered, the chat's session is
// tg-42 in the usual store, and the token never reaches the output.
func TestTelegramAnswersAndKeepsTheSession(t *testing.T) {
	model := agenttest.New(agenttest.Text("hello from pincer", 4))
	model.SetFallback(agenttest.Text("the task ran", 4))
	defer model.Close()
	api := &miniBotAPI{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	s := e2etest.NewSandbox(t, model.BaseURL())
	cfg := filepath.Join(s.Home, ".config", "pincer", "config.json")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte(`{"scheduler_interval": "1s", "telegram": {"allowed_users": [42], "api_url": "`+srv.URL+`"}}`), 0o600)
	cmd := exec.Command(e2etest.Binary(t), "telegram")
	cmd.Dir, cmd.Env = s.Dir, append(s.Env, "TELEGRAM_BOT_TOKEN="+e2eToken)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(strings.Join(api.texts(), "\n"), "hello from pincer") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no answer; sent %q; stderr:\n%s", api.texts(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A task scheduled in the chat's session reports in the chat.
	if res := s.Run("", "tasks", "add", "-s", "tg-42", "--in", "1s", "check the build"); res.Code != 0 {
		t.Fatalf("tasks add: %s%s", res.Stdout, res.Stderr)
	}
	for !strings.Contains(strings.Join(api.texts(), "\n"), "the task ran") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the task did not report; sent %q; stderr:\n%s", api.texts(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("Ctrl+C did not stop the bot; stderr:\n%s", errb.String())
	}
	if strings.Contains(out.String()+errb.String(), "e2e-secret-token") {
		t.Errorf("the token was printed:\n%s%s", out.String(), errb.String())
	}
	res := s.Run("", "sessions")
	if !strings.Contains(res.Stdout, "tg-42") {
		t.Errorf("pincer sessions does not list tg-42:\n%s%s", res.Stdout, res.Stderr)
	}
	// The turn's files were recorded, so it can be rewound at the desk.
	res = s.Run("", "sessions", "checkpoints", "tg-42")
	if res.Code != 0 || !strings.Contains(res.Stdout, "hi") || strings.Contains(res.Stdout, "not recorded") {
		t.Errorf("pincer sessions checkpoints tg-42 (exit %d):\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
}
