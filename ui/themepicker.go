package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pincer/themes"
	"pincer/ui/complete"
)

// themesMsg carries the themes for /theme: the built-in ones and the
// person's theme files, read off the event loop. name is the theme asked
// for by name, if one was.
type themesMsg struct {
	list []themes.Theme
	from map[string]string // theme name → file it came from
	bad  []string          // theme files that could not be read, one sentence each
	name string
}

// loadThemes reads the theme directory in the background.
func (a *App) loadThemes(name string) tea.Cmd {
	dir := a.opts.ThemeDir
	return func() tea.Msg {
		msg := themesMsg{list: themes.Builtin(), from: map[string]string{}, name: name}
		if dir == "" {
			return msg
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			th, err := themes.Load(f)
			if err != nil {
				msg.bad = append(msg.bad, err.Error())
				continue
			}
			msg.list = append(msg.list, th)
			msg.from[th.Name] = f
		}
		return msg
	}
}

// openThemePicker offers the built-in themes and the person's theme files,
// previewing each as the selection moves; with a name it switches at once.
func (a *App) openThemePicker(name string) tea.Cmd { return a.loadThemes(name) }

func (a *App) showThemes(msg themesMsg) tea.Cmd {
	byName := map[string]themes.Theme{}
	var items []complete.Item
	for _, th := range msg.list {
		byName[th.Name] = th
		detail := "built in, "
		if f, ok := msg.from[th.Name]; ok {
			detail = "from " + f + ", "
		}
		if th.Dark {
			detail += "dark"
		} else {
			detail += "light"
		}
		items = append(items, complete.Item{Value: th.Name, Detail: detail})
	}
	if msg.name != "" {
		th, ok := byName[msg.name]
		if !ok {
			text := fmt.Sprintf("No theme named %q; /theme lists them.", msg.name)
			if len(msg.bad) > 0 {
				text += " Some theme files could not be read: " + strings.Join(msg.bad, "; ")
			}
			a.transcript.AddError(text)
			return nil
		}
		a.applyTheme(th)
		a.opts.AutoTheme = false
		return nil
	}
	original, originalAuto := a.theme, a.opts.AutoTheme
	p := newPicker("Theme", items, a.styles)
	if len(msg.bad) > 0 {
		p.note = "Not listed: " + strings.Join(msg.bad, "; ")
	}
	p.moved = func(it complete.Item) tea.Cmd {
		a.applyTheme(byName[it.Value])
		return nil
	}
	p.cancel = func() tea.Cmd {
		a.applyTheme(original)
		a.opts.AutoTheme = originalAuto
		return nil
	}
	p.choose = func(it complete.Item) (bool, tea.Cmd) {
		th := byName[it.Value]
		a.applyTheme(th)
		a.opts.AutoTheme = false
		a.transcript.AddNotice("Theme " + th.Name + ". Set \"theme\": \"" + th.Name + "\" in the config file to keep it.")
		return true, nil
	}
	a.pushDialog(p)
	return nil
}
