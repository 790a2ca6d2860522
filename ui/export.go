package ui

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/session"
)

// exportSession is /export [-f] [PATH]: the session as Markdown (JSON for
// a .json path) in a file of the project, pincer-NAME.md unless a path is
// given. It writes under the rules of /plan save (inside the project,
// never into .git, never over a file without -f, missing folders made),
// the default name never replaces an earlier export, and secret-looking
// text is redacted, as the recall index leaves it out.
func (a *App) exportSession(args string) tea.Cmd {
	force, name, err := projectFileArgs(args, "/export")
	if err != nil {
		a.transcript.AddError(err.Error())
		return nil
	}
	if a.opts.Store == nil {
		a.transcript.AddError("/export needs the session store, which is not open.")
		return nil
	}
	if a.busy {
		// A turn's commands could change the project's folders between
		// the check of the path and the write.
		a.transcript.AddError("/export waits until the agent is done; wait for it or press Esc first.")
		return nil
	}
	byDefault := name == ""
	if byDefault {
		name = "pincer-" + safeFileName(a.opts.Session) + ".md"
	}
	f, err := projectFilePath(a.opts.Root, name, "/export")
	if err != nil {
		a.transcript.AddError(sentence(err.Error()))
		return nil
	}
	format := session.FormatMarkdown
	if strings.HasSuffix(strings.ToLower(f.path), ".json") {
		format = session.FormatJSON
	}
	st, id, rw := a.opts.Store, a.opts.SessionID, a.rewinder()
	return func() tea.Msg {
		var buf bytes.Buffer
		stats, err := st.ExportWith(&buf, id, session.ExportOptions{Format: format, Redact: true})
		if err != nil {
			return noticeMsg{err: fmt.Errorf("could not export the session: %w", err)}
		}
		err = f.write(buf.Bytes(), force)
		// The default name takes the next free number, never an earlier
		// export's place.
		for n := 2; byDefault && errors.Is(err, fs.ErrExist) && n < 1000; n++ {
			g := f
			ext := filepath.Ext(f.path)
			g.path = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(f.path, ext), n, ext)
			g.rel = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(f.rel, ext), n, ext)
			if err = g.write(buf.Bytes(), false); err == nil {
				f = g
			}
		}
		rel := safetext.LineOf(f.rel)
		switch {
		case errors.Is(err, fs.ErrExist):
			return noticeMsg{err: errors.New(sentence(fmt.Sprintf("%s already exists, so nothing was exported; /export -f %s replaces it, or give another path", rel, rel)))}
		case err != nil:
			return noticeMsg{err: errors.New(sentence(fmt.Sprintf("could not export the session: %v", err)))}
		}
		text := "Exported the session to " + rel + "." + recordWrite(rw, f)
		switch n := stats.Redacted; {
		case n == 1:
			text += " Redacted 1 item that looked like a secret (a key, a token, a password); it reads " + session.RedactMark + "."
		case n > 1:
			text += fmt.Sprintf(" Redacted %s that looked like secrets (keys, tokens, passwords); they read %s.", human.Plural(n, "item"), session.RedactMark)
		}
		return noticeMsg{text: text}
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
