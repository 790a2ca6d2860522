package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pincer/session"
)

// exportSession writes the session as Markdown into the project (or to the
// path given).
func (a *App) exportSession(path string) tea.Cmd {
	if a.opts.Store == nil {
		a.transcript.AddError("/export needs the session store, which is not open.")
		return nil
	}
	if path == "" {
		path = "pincer-" + safeFileName(a.opts.Session) + ".md"
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.opts.Root, path)
	}
	format := session.FormatMarkdown
	if strings.HasSuffix(path, ".json") {
		format = session.FormatJSON
	}
	st, id := a.opts.Store, a.opts.SessionID
	return func() tea.Msg {
		f, err := os.Create(path)
		if err != nil {
			return noticeMsg{err: fmt.Errorf("export: %w", err)}
		}
		err = st.Export(f, id, format)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return noticeMsg{err: fmt.Errorf("export: %w", err)}
		}
		return noticeMsg{text: "Exported the session to " + path + "."}
	}
}

func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' || r < 32 {
			return '-'
		}
		return r
	}, s)
}
