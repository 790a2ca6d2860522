package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/ui/complete"
)

// modelListMsg carries the server's models for the /model picker.
type modelListMsg struct {
	names []string
	err   error
}

// openModelPicker asks the server for its models.
func (a *App) openModelPicker(name string) tea.Cmd {
	if a.opts.Client == nil {
		a.transcript.AddError("/model needs a model client.")
		return nil
	}
	c := a.opts.Client
	if rest, ok := strings.CutPrefix(name, "-f"); ok && (rest == "" || rest[0] == ' ') {
		name = strings.TrimSpace(rest)
		if name == "" {
			a.transcript.AddError("Give the model's name: /model -f NAME.")
			return nil
		}
		a.setModel(name)
		return a.saveModel(name)
	}
	if name != "" {
		// A misspelt name would fail only at the next prompt: check it
		// against the server's list first.
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			names, err := c.Models(ctx)
			return modelCheckMsg{name: name, names: names, err: err}
		}
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		names, err := c.Models(ctx)
		return modelListMsg{names: names, err: err}
	}
}

// modelCheckMsg carries the server's models for /model NAME.
type modelCheckMsg struct {
	name  string
	names []string
	err   error
}

// switchCheckedModel switches to the model /model NAME named when the
// server lists it, or when the list could not be had (nothing to check
// against); a name the server does not list is refused with the way to
// see the list and to switch anyway.
func (a *App) switchCheckedModel(msg modelCheckMsg) tea.Cmd {
	if msg.err == nil && len(msg.names) > 0 && !slices.Contains(msg.names, msg.name) {
		a.transcript.AddError(fmt.Sprintf("The server does not list a model named %q; /model lists the ones it has, and /model -f %s switches anyway.", msg.name, msg.name))
		return nil
	}
	a.setModel(msg.name)
	return a.saveModel(msg.name)
}

func (a *App) showModelPicker(msg modelListMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Could not list the server's models: " + msg.err.Error() + ". Type /model NAME to switch anyway.")
		return nil
	}
	items := make([]complete.Item, 0, len(msg.names))
	for _, n := range msg.names {
		d := ""
		if n == a.opts.Model {
			d = "in use"
		}
		items = append(items, complete.Item{Value: n, Detail: d})
	}
	p := newPicker("Model", items, a.styles)
	p.empty = "The server lists no models."
	p.choose = func(it complete.Item) (bool, tea.Cmd) {
		a.setModel(it.Value)
		return true, a.saveModel(it.Value)
	}
	a.pushDialog(p)
	return nil
}

// setModel switches the model for the rest of the session.
func (a *App) setModel(name string) {
	if a.busy {
		a.transcript.AddError("Switching the model is not possible while the agent works.")
		return
	}
	a.opts.Client.SetModel(name)
	a.opts.Model = name
	a.transcript.AddNotice("Now using " + name + ".")
}

// saveModel records the model in the session, off the event loop, so a
// resumed session starts with it.
func (a *App) saveModel(name string) tea.Cmd {
	if a.opts.Store == nil || a.busy {
		return nil
	}
	st, id := a.opts.Store, a.opts.SessionID
	return func() tea.Msg {
		if err := st.SetModel(id, name); err != nil {
			return noticeMsg{err: fmt.Errorf("could not save the model in the session: %w", err)}
		}
		return nil
	}
}
