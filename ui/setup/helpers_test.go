package setup

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
)

// testPresets mirror pincer's presets: hosted ones with a key, local ones
// without (vLLM with an optional key), and custom.
func testPresets() []Preset {
	return []Preset{
		{Name: "openai", Title: "OpenAI", BaseURL: "https://api.openai.com/v1", KeyEnv: "OPENAI_API_KEY", DefaultModel: "gpt-5-mini"},
		{Name: "deepseek", Title: "DeepSeek", BaseURL: "https://api.deepseek.com/v1", KeyEnv: "DEEPSEEK_API_KEY", DefaultModel: "deepseek-v4-flash"},
		{Name: "dashscope", Title: "Alibaba Cloud DashScope (Qwen)", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", KeyEnv: "DASHSCOPE_API_KEY", DefaultModel: "qwen-plus"},
		{Name: "ollama", Title: "Ollama (local)", BaseURL: "http://localhost:11434/v1", Local: true},
		{Name: "lmstudio", Title: "LM Studio (local)", BaseURL: "http://localhost:1234/v1", Local: true},
		{Name: "vllm", Title: "vLLM (local)", BaseURL: "http://localhost:8000/v1", KeyEnv: "VLLM_API_KEY", Local: true},
		{Name: "openrouter", Title: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY"},
		{Name: "groq", Title: "Groq", BaseURL: "https://api.groq.com/openai/v1", KeyEnv: "GROQ_API_KEY", DefaultModel: "openai/gpt-oss-120b"},
		{Name: "mimo", Title: "Xiaomi MiMo", BaseURL: "https://api.xiaomimimo.com/v1", KeyEnv: "MIMO_API_KEY", DefaultModel: "mimo-v2.5-pro"},
		{Name: "custom", Title: "any OpenAI-compatible server"},
	}
}

// Preset positions in testPresets, as the number of "down" presses.
const (
	atOpenAI   = 0
	atDeepSeek = 1
	atOllama   = 3
	atVLLM     = 5
	atCustom   = 9
)

// call is one request the fake lister answered.
type call struct{ base, key string }

// lister is a fake ListModels: it records each call and answers with the
// next reply, repeating the last one.
type lister struct {
	mu      sync.Mutex
	calls   []call
	replies []reply
}

type reply struct {
	models []string
	err    error
	panic  bool
}

func (l *lister) list(ctx context.Context, base, key string) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, call{base, key})
	if len(l.replies) == 0 {
		return nil, errors.New("no reply scripted")
	}
	r := l.replies[0]
	if len(l.replies) > 1 {
		l.replies = l.replies[1:]
	}
	if r.panic {
		panic("lister exploded")
	}
	return r.models, r.err
}

func (l *lister) called() []call {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]call(nil), l.calls...)
}

// serverModels is what the fake servers list, unsorted and with a repeat.
var serverModels = []string{"gpt-5", "gpt-4.1", "gpt-5-mini", "o4-mini", "gpt-4.1-mini", "gpt-5", "text-embedding-3-small"}

// env is a fake environment.
type env map[string]string

// get reads the fake environment, in which HOME is always /home/ada.
func (e env) get(k string) string {
	if v, ok := e[k]; ok || k != "HOME" {
		return v
	}
	return "/home/ada"
}

// driver feeds a Model messages as Bubble Tea would, runs the commands
// that answer (the model list) and keeps every screen drawn on the way.
type driver struct {
	t      testing.TB
	m      Model
	l      *lister
	views  []string
	quit   bool
	secret []string // text that must never be drawn
}

func newDriver(t *testing.T, l *lister, e env, w, h int) *driver {
	t.Helper()
	m := New(Options{
		Presets:    testPresets(),
		ListModels: l.list,
		Getenv:     e.get,
		ConfigPath: "/home/ada/.config/pincer/config.json",
		Theme:      themes.Dark(),
	})
	d := &driver{t: t, m: m, l: l}
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// send gives one message to the model and runs the command it returns.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	cmd := d.sendOnly(msg)
	d.run(cmd)
}

// sendOnly gives one message to the model and returns its command
// without running it.
func (d *driver) sendOnly(msg tea.Msg) tea.Cmd {
	d.t.Helper()
	next, cmd := d.m.Update(msg)
	m, ok := next.(Model)
	if !ok {
		d.t.Fatalf("Update returned %T, want Model", next)
	}
	d.m = m
	d.views = append(d.views, m.View().Content)
	return cmd
}

// run runs cmd and the commands it batches. Answers from the lister go
// back to the model; spinner ticks do not, so no timer is ever waited on.
func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case modelsMsg:
		d.send(msg)
	case tea.QuitMsg:
		d.quit = true
	}
}

// press sends key presses by name: "enter", "esc", "up", "ctrl+c", ...
func (d *driver) press(keys ...string) {
	d.t.Helper()
	for _, k := range keys {
		d.send(keyMsg(k))
	}
}

// typeText types s one character at a time.
func (d *driver) typeText(s string) {
	d.t.Helper()
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// clearField empties the focused field.
func (d *driver) clearField() { d.press("ctrl+u", "ctrl+k") }

// down presses "down" n times.
func (d *driver) down(n int) {
	for range n {
		d.press("down")
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c", "ctrl+u", "ctrl+k":
		return tea.KeyPressMsg{Code: rune(k[len(k)-1]), Mod: tea.ModCtrl}
	}
	if len([]rune(k)) == 1 {
		r := []rune(k)[0]
		return tea.KeyPressMsg{Code: r, Text: k}
	}
	panic("unknown key " + k)
}

// screen is the current screen without colours.
func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

// wantStep fails unless the model is at step s.
func (d *driver) wantStep(s step) {
	d.t.Helper()
	if d.m.step != s {
		d.t.Fatalf("at step %v, want %v; screen:\n%s", d.m.step, s, d.screen())
	}
}

// wantScreen fails unless the screen shows every one of texts.
func (d *driver) wantScreen(texts ...string) {
	d.t.Helper()
	sc := d.screen()
	for _, s := range texts {
		if !strings.Contains(sc, s) {
			d.t.Errorf("screen lacks %q:\n%s", s, sc)
		}
	}
}

// checkNoSecret fails if any screen drawn so far showed one of the
// secrets.
func (d *driver) checkNoSecret() {
	d.t.Helper()
	for i, v := range d.views {
		plain := ansi.Strip(v)
		for _, s := range d.secret {
			if strings.Contains(v, s) || strings.Contains(plain, s) {
				d.t.Fatalf("screen %d shows the secret %q:\n%s", i, s, plain)
			}
		}
	}
}

// result returns the saved result, failing if the person did not save.
func (d *driver) result() Result {
	d.t.Helper()
	if !d.quit {
		d.t.Fatal("the program did not quit")
	}
	r, saved := d.m.Result()
	if !saved {
		d.t.Fatal("the result was not saved")
	}
	return r
}

func (s step) String() string {
	return [...]string{"preset", "url", "key", "fetch", "model", "manual", "confirm"}[s]
}
