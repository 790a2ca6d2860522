package setup

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestProgram runs the screen as a real Bubble Tea program, commands and
// spinner included, from the presets to a saved result.
func TestProgram(t *testing.T) {
	l := &lister{replies: []reply{{models: serverModels}}}
	m := New(Options{Presets: testPresets(), ListModels: l.list, Getenv: env{}.get, ConfigPath: "/tmp/pincer.json"})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor := func(text string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	waitFor("Which server")
	tm.Send(keyMsg("enter"))
	waitFor("needs an API key")
	tm.Type(typedKey)
	tm.Send(keyMsg("enter"))
	waitFor("on the server")
	tm.Send(keyMsg("enter"))
	waitFor("Save these settings")
	tm.Send(keyMsg("enter"))

	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	r, saved := final.Result()
	want := Result{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini", APIKey: typedKey}
	if !saved || r != want {
		t.Errorf("Result = %#v, %v; want %#v, true", r, saved, want)
	}
	out, err := io.ReadAll(tm.FinalOutput(t))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(typedKey)) {
		t.Error("the key was written to the terminal")
	}
}

// TestRun checks how Run ends: Ctrl+C saves nothing and is no error; a
// cancelled context is an error that says so.
func TestRun(t *testing.T) {
	o := Options{Presets: testPresets(), Getenv: env{}.get}
	opts := []tea.ProgramOption{tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24)}

	t.Run("ctrl+c", func(t *testing.T) {
		// The input never ends by itself, so only Ctrl+C can stop the
		// program before the deadline.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		in := io.MultiReader(strings.NewReader("\x03"), blockingReader{ctx})
		r, saved, err := run(ctx, o, append(opts, tea.WithInput(in))...)
		if err != nil || saved || r != (Result{}) {
			t.Errorf("run = %v, %v, %v; want nothing saved and no error", r, saved, err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		pr, pw := io.Pipe()
		defer pw.Close()
		r, saved, err := run(ctx, o, append(opts, tea.WithInput(pr))...)
		if !errors.Is(err, context.Canceled) || saved || r != (Result{}) {
			t.Errorf("run = %v, %v, %v; want a context.Canceled error", r, saved, err)
		}
	})
}

// blockingReader is input that never comes: reads wait until ctx ends.
type blockingReader struct{ ctx context.Context }

func (b blockingReader) Read([]byte) (int, error) {
	<-b.ctx.Done()
	return 0, io.EOF
}
