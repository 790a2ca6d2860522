package setup

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/agent/llm"
	"pincer/internal/envname"
)

const typedKey = "sk-proj-Zq81xVt55secretKEY"

// TestPaths walks every way through the screen to a saved result.
func TestPaths(t *testing.T) {
	tests := []struct {
		name      string
		env       env
		replies   []reply
		play      func(d *driver)
		want      Result
		wantCalls []call
	}{
		{
			name:    "hosted preset with a typed key",
			replies: []reply{{models: serverModels}},
			play: func(d *driver) {
				d.press("enter")
				d.wantStep(stepKey)
				d.wantScreen("OpenAI needs an API key.", "● Type the key")
				d.typeText(typedKey)
				d.press("enter")
				d.wantStep(stepModel)
				d.wantScreen("› gpt-5-mini  (suggested)") // the preset's default is selected
				d.press("enter")
				d.wantStep(stepConfirm)
				d.wantScreen("api_key", "••••••••", "~/.config/pincer/config.json")
				d.press("enter")
			},
			want:      Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini", APIKey: typedKey},
			wantCalls: []call{{"https://api.openai.com/v1", typedKey}},
		},
		{
			name:    "hosted preset with the key in its usual variable",
			env:     env{"OPENAI_API_KEY": "sk-from-env"},
			replies: []reply{{models: serverModels}},
			play: func(d *driver) {
				d.press("enter")
				d.wantStep(stepKey)
				// The variable is set, so the screen starts on it.
				d.wantScreen("● Use a variable", "OPENAI_API_KEY is set in this shell.")
				d.press("enter")
				d.press("down", "enter") // from the suggested gpt-5-mini to the next, o4-mini
				d.wantStep(stepConfirm)
				d.wantScreen("api_key_env", "OPENAI_API_KEY (set in this shell)")
				d.press("enter")
			},
			want:      Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "o4-mini", APIKeyEnv: "OPENAI_API_KEY"},
			wantCalls: []call{{"https://api.openai.com/v1", "sk-from-env"}},
		},
		{
			name:    "hosted preset with another variable, not set yet",
			env:     env{"DEEPSEEK_API_KEY": "sk-not-this-one"},
			replies: []reply{{err: errors.New("list models at https://api.deepseek.com/v1: the server answered 401 Unauthorized")}},
			play: func(d *driver) {
				d.down(atDeepSeek)
				d.press("enter")
				d.wantScreen("● Use a variable")
				d.clearField()
				d.typeText("MY_DS_KEY")
				d.wantScreen("MY_DS_KEY is not set in this shell; export it before you start pincer.")
				d.press("enter")
				d.wantStep(stepFetch)
				d.wantScreen("401 Unauthorized")
				d.press("m")
				d.wantStep(stepManual)
				d.press("enter") // the preset's default model is filled in
				d.wantScreen("MY_DS_KEY (not set yet; export it before you start pincer)")
				d.press("enter")
			},
			want:      Result{Provider: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-v4-flash", APIKeyEnv: "MY_DS_KEY"},
			wantCalls: []call{{"https://api.deepseek.com/v1", ""}},
		},
		{
			name:    "hosted preset with a pasted key",
			replies: []reply{{models: serverModels}},
			play: func(d *driver) {
				d.press("enter")
				d.send(tea.PasteMsg{Content: "  " + typedKey + "\n"})
				d.wantScreen("Key       ••••")
				d.press("enter", "enter", "enter")
			},
			want:      Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini", APIKey: typedKey},
			wantCalls: []call{{"https://api.openai.com/v1", typedKey}},
		},
		{
			name:    "typed key chosen over a set variable",
			env:     env{"OPENAI_API_KEY": "sk-from-env"},
			replies: []reply{{models: serverModels}},
			play: func(d *driver) {
				d.press("enter", "tab")
				d.wantScreen("● Type the key")
				d.typeText(typedKey)
				d.press("enter", "enter", "enter")
			},
			want:      Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini", APIKey: typedKey},
			wantCalls: []call{{"https://api.openai.com/v1", typedKey}},
		},
		{
			name:    "local preset skips the key",
			env:     env{"OPENAI_API_KEY": "sk-from-env"},
			replies: []reply{{models: []string{"qwen3:8b", "llama3.2"}}},
			play: func(d *driver) {
				d.down(atOllama)
				d.wantScreen("Ollama (local) — runs on this machine")
				d.press("enter")
				d.wantStep(stepModel)
				if strings.Contains(d.screen(), "Key") {
					t.Error("the steps name a key for a local server")
				}
				d.wantScreen("› llama3.2")
				d.press("down", "enter")
				d.wantStep(stepConfirm)
				if strings.Contains(d.screen(), "api_key") {
					t.Error("the confirmation shows a key for a local server")
				}
				d.press("enter")
			},
			want:      Result{Provider: "ollama", BaseURL: "http://localhost:11434/v1", Model: "qwen3:8b"},
			wantCalls: []call{{"http://localhost:11434/v1", ""}},
		},
		{
			name:    "local preset lists with its optional key variable but saves none",
			env:     env{"VLLM_API_KEY": "vllm-token"},
			replies: []reply{{models: []string{"Qwen/Qwen3-8B"}}},
			play: func(d *driver) {
				d.down(atVLLM)
				d.press("enter", "enter", "enter")
			},
			want:      Result{Provider: "vllm", BaseURL: "http://localhost:8000/v1", Model: "Qwen/Qwen3-8B"},
			wantCalls: []call{{"http://localhost:8000/v1", "vllm-token"}},
		},
		{
			name:    "custom server: a bad address, then a good one, no key",
			replies: []reply{{models: []string{"local-model"}}},
			play: func(d *driver) {
				d.down(atCustom)
				d.press("enter")
				d.wantStep(stepURL)
				d.typeText("localhost:8080/v1")
				d.press("enter")
				d.wantStep(stepURL)
				d.wantScreen("Start the address with http:// or https://, such as http://localhost:8080/v1.")
				d.press("ctrl+u")
				d.typeText("ftp://files.example.com")
				d.press("enter")
				d.wantScreen("must start with http:// or https://")
				d.clearField()
				d.typeText("http://localhost:8080/v1/")
				d.press("enter")
				d.wantStep(stepKey)
				d.wantScreen("otherwise leave it empty")
				d.press("enter") // no key
				d.wantStep(stepModel)
				d.press("enter", "enter")
			},
			want:      Result{Provider: "custom", BaseURL: "http://localhost:8080/v1", Model: "local-model"},
			wantCalls: []call{{"http://localhost:8080/v1", ""}},
		},
		{
			name:    "custom server with a typed key",
			replies: []reply{{models: []string{"m1"}}},
			play: func(d *driver) {
				d.down(atCustom)
				d.press("enter")
				d.typeText("https://llm.example.com/v1")
				d.press("enter")
				d.typeText(typedKey)
				d.press("enter", "enter", "enter")
			},
			want:      Result{Provider: "custom", BaseURL: "https://llm.example.com/v1", Model: "m1", APIKey: typedKey},
			wantCalls: []call{{"https://llm.example.com/v1", typedKey}},
		},
		{
			name: "listing fails, the person retries",
			replies: []reply{
				{err: errors.New("list models at https://api.openai.com/v1: dial tcp: connection refused")},
				{models: serverModels},
			},
			play: func(d *driver) {
				d.press("enter")
				d.typeText(typedKey)
				d.press("enter")
				d.wantStep(stepFetch)
				d.wantScreen("✗ Could not list the models:", "connection refused", "r try again")
				d.press("r")
				d.wantStep(stepModel)
				d.press("enter", "enter")
			},
			want: Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini", APIKey: typedKey},
			wantCalls: []call{
				{"https://api.openai.com/v1", typedKey},
				{"https://api.openai.com/v1", typedKey},
			},
		},
		{
			name: "listing fails, the person goes back and fixes the key",
			replies: []reply{
				{err: errors.New("list models at https://api.openai.com/v1: the server answered 401 Unauthorized")},
				{models: serverModels},
			},
			play: func(d *driver) {
				d.press("enter")
				d.typeText("sk-wrong")
				d.press("enter")
				d.wantScreen("401 Unauthorized")
				d.press("esc")
				d.wantStep(stepKey)
				d.clearField()
				d.typeText(typedKey)
				d.press("enter")
				d.wantStep(stepModel)
				d.press("enter", "enter")
			},
			want: Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini", APIKey: typedKey},
			wantCalls: []call{
				{"https://api.openai.com/v1", "sk-wrong"},
				{"https://api.openai.com/v1", typedKey},
			},
		},
		{
			name:    "listing fails, the person types the model name",
			replies: []reply{{err: errors.New("list models at http://localhost:11434/v1: connection refused")}},
			play: func(d *driver) {
				d.down(atOllama)
				d.press("enter")
				d.wantScreen("Check that the server is running")
				d.press("m")
				d.wantStep(stepManual)
				d.press("enter")
				d.wantStep(stepManual) // an empty name is refused
				d.wantScreen("Type the model's name as the provider lists it")
				d.typeText("qwen3 8b")
				d.press("enter")
				d.wantScreen("A model name has no spaces")
				d.clearField()
				d.typeText("qwen3:8b")
				d.press("enter")
				d.wantStep(stepConfirm)
				d.press("enter")
			},
			want:      Result{Provider: "ollama", BaseURL: "http://localhost:11434/v1", Model: "qwen3:8b"},
			wantCalls: []call{{"http://localhost:11434/v1", ""}},
		},
		{
			name:    "the server lists no models",
			replies: []reply{{models: []string{" ", ""}}},
			play: func(d *driver) {
				d.down(atOllama)
				d.press("enter")
				d.wantScreen("The server lists no models; type the model name instead.")
				d.press("m")
				d.typeText("llama3.2")
				d.press("enter", "enter")
			},
			want:      Result{Provider: "ollama", BaseURL: "http://localhost:11434/v1", Model: "llama3.2"},
			wantCalls: []call{{"http://localhost:11434/v1", ""}},
		},
		{
			name:    "a name the list does not have, typed into the filter",
			replies: []reply{{models: serverModels}},
			play: func(d *driver) {
				d.press("enter")
				d.typeText(typedKey)
				d.press("enter")
				d.typeText("gpt-6-preview")
				d.wantScreen(`No model matches; Enter uses "gpt-6-preview" as the model name.`)
				d.press("enter")
				d.wantStep(stepConfirm)
				d.press("enter")
			},
			want:      Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-6-preview", APIKey: typedKey},
			wantCalls: []call{{"https://api.openai.com/v1", typedKey}},
		},
		{
			name:    "filtering the list",
			replies: []reply{{models: serverModels}},
			play: func(d *driver) {
				d.press("enter")
				d.typeText(typedKey)
				d.press("enter")
				d.typeText("4.1 MINI")
				d.wantScreen("Pick a model: 1 of 6 match", "› gpt-4.1-mini")
				d.press("enter", "enter")
			},
			want:      Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-4.1-mini", APIKey: typedKey},
			wantCalls: []call{{"https://api.openai.com/v1", typedKey}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &lister{replies: tt.replies}
			d := newDriver(t, l, tt.env, 80, 24)
			d.secret = []string{typedKey, "sk-from-env", "sk-not-this-one", "vllm-token"}
			d.wantStep(stepPreset)
			tt.play(d)
			if got := d.result(); got != tt.want {
				t.Errorf("result = %#v\nwant     %#v", got, tt.want)
			}
			if got := l.called(); !reflect.DeepEqual(got, tt.wantCalls) {
				t.Errorf("lister calls = %q, want %q", got, tt.wantCalls)
			}
			d.checkNoSecret()
		})
	}
}

// TestNothingSavedUntilConfirmed checks that no step before the last
// reports a saved result.
func TestNothingSavedUntilConfirmed(t *testing.T) {
	d := newDriver(t, &lister{replies: []reply{{models: serverModels}}}, nil, 80, 24)
	steps := [][]string{{"enter"}, {"s", "k", "enter"}, {"enter"}}
	for _, keys := range steps {
		d.press(keys...)
		if _, saved := d.m.Result(); saved || d.quit {
			t.Fatalf("saved=%v quit=%v at step %v", saved, d.quit, d.m.step)
		}
	}
	d.wantStep(stepConfirm)
	d.press("enter")
	if r := d.result(); r.APIKey != "sk" {
		t.Errorf("APIKey = %q", r.APIKey)
	}
}

// TestKeyIsRequired checks that a hosted preset does not go on without a
// key, and says how to give one.
func TestKeyIsRequired(t *testing.T) {
	tests := []struct {
		name string
		play func(d *driver)
		want string
	}{
		{"empty typed key", func(d *driver) { d.press("enter") }, "Type or paste the key, or press Tab"},
		{"only spaces", func(d *driver) { d.typeText("   "); d.press("enter") }, "Type or paste the key"},
		{"key with a space", func(d *driver) { d.typeText("sk-abc def"); d.press("enter") }, "The key has a space in it"},
		{"empty variable", func(d *driver) { d.press("tab"); d.clearField(); d.press("enter") }, "Give the name of the variable that holds the key, such as OPENAI_API_KEY"},
		{"not a variable name", func(d *driver) { d.press("tab"); d.clearField(); d.typeText("1KEY"); d.press("enter") }, "That is not a variable name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &lister{replies: []reply{{models: serverModels}}}
			d := newDriver(t, l, nil, 80, 24)
			d.press("enter")
			tt.play(d)
			d.wantStep(stepKey)
			d.wantScreen(tt.want)
			if n := len(l.called()); n != 0 {
				t.Errorf("the server was asked %d times", n)
			}
			// Typing again clears the error.
			d.press("backspace")
			if strings.Contains(d.screen(), tt.want) {
				t.Error("the error stays after the person types")
			}
		})
	}
}

// TestKeyPastedAsVariableIsHidden checks that a key typed or pasted into
// the variable field is masked like the key field, from its first
// character, and that only conventional upper-case names are drawn.
func TestKeyPastedAsVariableIsHidden(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		paste bool
		want  string // on the screen after Enter, or before it for a name that is taken
	}{
		{"typed sk- key", typedKey, false, "That is not a variable name"},
		{"pasted sk- key", typedKey + "\n", true, "That is not a variable name"},
		{"typed gsk_ key", "gsk_" + strings.Repeat("a1B2", 12), false, "That is not a variable name"},
		{"pasted lower-case key", strings.Repeat("0f3a", 10), true, "That is not a variable name"},
		{"lower-case variable name", "my_llm_key", false, "The variable is not set in this shell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, &lister{}, nil, 80, 24)
			d.secret = []string{strings.TrimSpace(tt.text)[:2]}
			d.press("enter", "tab")
			d.clearField()
			if tt.paste {
				d.send(tea.PasteMsg{Content: tt.text})
			} else {
				d.typeText(tt.text)
			}
			d.wantScreen("Variable  ••")
			if envname.Valid(strings.TrimSpace(tt.text)) {
				d.wantScreen(tt.want)
				d.press("enter")
				d.wantStep(stepFetch)
				d.press("m", "enter")
				d.wantScreen("api_key_env  ••••••••")
				d.press("enter")
				if r := d.result(); r.APIKeyEnv != tt.text {
					t.Errorf("APIKeyEnv = %q, want %q", r.APIKeyEnv, tt.text)
				}
			} else {
				d.press("enter")
				d.wantScreen(tt.want)
			}
			d.checkNoSecret()
		})
	}
}

// TestChangingPresetForgetsTheKey checks that a key given for one
// provider is not kept for another, and is kept when the person comes
// back to the same one.
func TestChangingPresetForgetsTheKey(t *testing.T) {
	d := newDriver(t, &lister{}, nil, 80, 24)
	d.press("enter")
	d.typeText(typedKey)
	d.press("esc")
	d.wantStep(stepPreset)
	d.press("enter")
	if got := d.m.key.Value(); got != typedKey {
		t.Errorf("back to the same preset: key = %q, want it kept", got)
	}
	d.press("esc", "down", "enter")
	if got := d.m.key.Value(); got != "" {
		t.Errorf("another preset: key = %q, want it forgotten", got)
	}
	if got := d.m.env.Value(); got != "DEEPSEEK_API_KEY" {
		t.Errorf("another preset: variable = %q, want DEEPSEEK_API_KEY", got)
	}
}

// TestEscGoesBack checks where Esc leads from every step.
func TestEscGoesBack(t *testing.T) {
	failing := []reply{{err: errors.New("connection refused")}}
	listing := []reply{{models: serverModels}}
	tests := []struct {
		name    string
		replies []reply
		reach   func(d *driver)
		from    step
		want    step
	}{
		{"url to presets", nil, func(d *driver) { d.down(atCustom); d.press("enter") }, stepURL, stepPreset},
		{"key to presets", nil, func(d *driver) { d.press("enter") }, stepKey, stepPreset},
		{"custom key to url", nil, func(d *driver) {
			d.down(atCustom)
			d.press("enter")
			d.typeText("http://h.example/v1")
			d.press("enter")
		}, stepKey, stepURL},
		{"failed listing to key", failing, func(d *driver) { d.press("enter"); d.typeText("k"); d.press("enter") }, stepFetch, stepKey},
		{"failed local listing to presets", failing, func(d *driver) { d.down(atOllama); d.press("enter") }, stepFetch, stepPreset},
		{"model list to key", listing, func(d *driver) { d.press("enter"); d.typeText("k"); d.press("enter") }, stepModel, stepKey},
		{"local model list to presets", listing, func(d *driver) { d.down(atOllama); d.press("enter") }, stepModel, stepPreset},
		{"manual to failed listing", failing, func(d *driver) { d.press("enter"); d.typeText("k"); d.press("enter", "m") }, stepManual, stepFetch},
		{"manual to model list", listing, func(d *driver) {
			d.press("enter")
			d.typeText("k")
			d.press("enter")
			d.typeText("no such model")
			d.press("enter") // refused for its spaces: the manual step opens
		}, stepManual, stepModel},
		{"confirm to model list", listing, func(d *driver) { d.press("enter"); d.typeText("k"); d.press("enter", "enter") }, stepConfirm, stepModel},
		{"confirm to manual", failing, func(d *driver) { d.press("enter"); d.typeText("k"); d.press("enter", "m", "enter") }, stepConfirm, stepManual},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, &lister{replies: tt.replies}, nil, 80, 24)
			tt.reach(d)
			d.wantStep(tt.from)
			d.press("esc")
			d.wantStep(tt.want)
			if d.quit {
				t.Error("Esc left the program")
			}
		})
	}

	t.Run("esc on the presets leaves without saving", func(t *testing.T) {
		d := newDriver(t, &lister{}, nil, 80, 24)
		d.press("esc")
		if !d.quit {
			t.Fatal("the program did not quit")
		}
		if r, saved := d.m.Result(); saved || r != (Result{}) {
			t.Errorf("Result = %v, %v; want nothing saved", r, saved)
		}
	})

	t.Run("esc in a filtered list clears the filter first", func(t *testing.T) {
		d := newDriver(t, &lister{replies: listing}, nil, 80, 24)
		d.press("enter")
		d.typeText("k")
		d.press("enter")
		d.typeText("mini")
		d.press("esc")
		d.wantStep(stepModel)
		d.wantScreen("Pick a model: 6 on the server")
		d.press("esc")
		d.wantStep(stepKey)
	})
}

// TestEscWhileListingIgnoresTheLateAnswer checks that an answer arriving
// after the person went back neither moves the screen nor is kept.
func TestEscWhileListingIgnoresTheLateAnswer(t *testing.T) {
	d := newDriver(t, &lister{replies: []reply{{models: serverModels}}}, nil, 80, 24)
	d.press("enter")
	d.typeText("k")
	fetch := d.sendOnly(keyMsg("enter"))
	d.wantStep(stepFetch)
	d.wantScreen("Asking https://api.openai.com/v1 for its models…", "Esc back")
	d.press("r", "m", "enter") // ignored while the request runs
	d.wantStep(stepFetch)
	d.press("esc")
	d.wantStep(stepKey)
	d.run(fetch) // the answer arrives late
	d.wantStep(stepKey)
	if len(d.m.models) != 0 {
		t.Errorf("the late answer was kept: %q", d.m.models)
	}
}

// TestCtrlCLeavesFromEveryStep checks that Ctrl+C quits at once, saving
// nothing, wherever the person is.
func TestCtrlCLeavesFromEveryStep(t *testing.T) {
	reach := map[step]func(d *driver){
		stepPreset: func(d *driver) {},
		stepURL:    func(d *driver) { d.down(atCustom); d.press("enter") },
		stepKey:    func(d *driver) { d.press("enter"); d.typeText(typedKey) },
		stepFetch: func(d *driver) {
			d.l.replies = []reply{{err: errors.New("refused")}}
			d.down(atOllama)
			d.press("enter")
		},
		stepModel: func(d *driver) { d.down(atOllama); d.press("enter") },
		stepManual: func(d *driver) {
			d.l.replies = []reply{{err: errors.New("refused")}}
			d.down(atOllama)
			d.press("enter", "m")
		},
		stepConfirm: func(d *driver) { d.press("enter"); d.typeText(typedKey); d.press("enter", "enter") },
	}
	for s := stepPreset; s <= stepConfirm; s++ {
		t.Run(s.String(), func(t *testing.T) {
			d := newDriver(t, &lister{replies: []reply{{models: serverModels}}}, nil, 80, 24)
			reach[s](d)
			d.wantStep(s)
			d.press("ctrl+c")
			if !d.quit {
				t.Fatal("Ctrl+C did not quit")
			}
			if r, saved := d.m.Result(); saved || r != (Result{}) {
				t.Errorf("Result = %v, %v; want nothing saved", r, saved)
			}
			d.press("enter") // keys after quitting change nothing
			if _, saved := d.m.Result(); saved {
				t.Error("a key after Ctrl+C saved the result")
			}
		})
	}
}

// TestListerFailuresAreContained checks a lister that panics, one that is
// missing, and an error that quotes the key.
func TestListerFailuresAreContained(t *testing.T) {
	t.Run("panic", func(t *testing.T) {
		d := newDriver(t, &lister{replies: []reply{{panic: true}}}, nil, 80, 24)
		d.down(atOllama)
		d.press("enter")
		d.wantStep(stepFetch)
		d.wantScreen("Could not list the models: listing the models failed: lister exploded.")
	})
	t.Run("no lister", func(t *testing.T) {
		d := newDriver(t, &lister{}, nil, 80, 24)
		d.m.o.ListModels = nil
		d.down(atOllama)
		d.press("enter")
		d.wantScreen("type the model name instead")
		d.press("m")
		d.wantStep(stepManual)
	})
	t.Run("error quoting the key", func(t *testing.T) {
		err := fmt.Errorf("list models: server said: invalid key %s\x1b[31m", typedKey)
		d := newDriver(t, &lister{replies: []reply{{err: err}}}, nil, 80, 24)
		d.secret = []string{typedKey, "\x1b[31m"}
		d.press("enter")
		d.typeText(typedKey)
		d.press("enter")
		d.wantScreen("invalid key [key]")
		d.checkNoSecret()
	})
}

// TestHostileModelNamesAreCleaned checks that names from the server cannot
// write escape sequences to the terminal.
func TestHostileModelNamesAreCleaned(t *testing.T) {
	d := newDriver(t, &lister{replies: []reply{{models: []string{"good", "evil\x1b]0;pwned\x07\x1b[2J"}}}}, nil, 80, 24)
	d.secret = []string{"\x1b[2J", "\x1b]0;"}
	d.down(atOllama)
	d.press("enter")
	d.wantScreen("evil")
	d.checkNoSecret()
}

// TestResultHidesTheKeyWhenPrinted checks String and GoString.
func TestResultHidesTheKeyWhenPrinted(t *testing.T) {
	r := Result{Provider: "openai", Model: "gpt-5", APIKey: typedKey}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(format, r)
		if strings.Contains(out, typedKey) || !strings.Contains(out, "gpt-5") {
			t.Errorf("Sprintf(%q) = %s", format, out)
		}
	}
	if !strings.Contains(r.String(), "[hidden]") {
		t.Errorf("String() = %s, want the key marked hidden", r)
	}
}

// TestNoPresets checks that an empty preset list still offers a custom
// server.
func TestNoPresets(t *testing.T) {
	m := New(Options{})
	if len(m.o.Presets) != 1 || m.o.Presets[0].BaseURL != "" {
		t.Fatalf("presets = %+v, want one custom preset", m.o.Presets)
	}
	next, _ := m.Update(keyMsg("enter"))
	if got := next.(Model).step; got != stepURL {
		t.Errorf("step = %v, want url", got)
	}
}

// TestFetchFailureSaysWhatToCheck: the advice under a failed model list
// fits its cause, from the errors the real lister returns: a refused key
// is about the key, a host that does not exist about the address.
func TestFetchFailureSaysWhatToCheck(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
	defer refusing.Close()
	_, unauthorized := llm.ListModels(context.Background(), llm.ClientOptions{BaseURL: refusing.URL + "/v1", APIKey: "k"})
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"a refused key", unauthorized, "The server refused the key"},
		{"a host that does not exist", fmt.Errorf("list models at https://api.example.invalid/v1: %w",
			&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Name: "api.example.invalid", Err: "no such host", IsNotFound: true}}), "The host name does not exist"},
		{"nothing listening", fmt.Errorf("list models at http://localhost:1/v1: dial tcp: %w", syscall.ECONNREFUSED), "Nothing listens at this address"},
		{"anything else", errors.New("list models: odd failure"), "Check the key and the address"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("the lister did not fail")
			}
			d := newDriver(t, &lister{replies: []reply{{err: tc.err}}}, nil, 200, 30)
			d.press("enter")
			d.typeText(typedKey)
			d.press("enter")
			d.wantStep(stepFetch)
			d.wantScreen(tc.want)
		})
	}
}
