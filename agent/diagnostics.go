package agent

import (
	"context"
	"path/filepath"

	"pincer/chat"
	"pincer/tools"
	"pincer/tools/lsp"
)

// Diagnostics is what language servers say about the project's files
// (tools/lsp.Manager). The agent shows a server the content of a file
// before an edit, and after a call changed files adds the servers'
// errors to the call's result, so the model sees what it broke in the
// same turn.
type Diagnostics interface {
	// Touch starts, in the background, the servers of the files' languages.
	Touch(paths ...string)
	// Before is told what a file held before an edit.
	Before(path string, content []byte)
	// AfterChange reports on files that changed, waiting a little for
	// the servers.
	AfterChange(ctx context.Context, paths []string) lsp.Report
	// Refresh reports on files a command changed behind pincer's back.
	Refresh(ctx context.Context) lsp.Report
}

// diagnose adds the language servers' report on the files call changed to
// its result: the edited files for an edit, those a command changed for
// a command. Files it only read start their servers. Without servers it
// costs a lookup per file.
func (a *Agent) diagnose(ctx context.Context, tc ToolCall, key string, r tools.Result, sink func(Event)) tools.Result {
	d := a.opts.Diagnostics
	if d == nil || a.Mode() == ModePlan {
		return r
	}
	var changed, read []string
	for _, t := range r.Touched {
		p := t.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.opts.Root, filepath.FromSlash(p))
		}
		if t.Kind == chat.TouchRead {
			read = append(read, p)
		} else {
			changed = append(changed, p)
		}
	}
	if len(read) > 0 {
		d.Touch(read...)
	}
	var rep lsp.Report
	switch {
	case len(changed) > 0:
		rep = d.AfterChange(ctx, changed)
	case tc.Name == "run_command" && ctx.Err() == nil:
		rep = d.Refresh(ctx)
	default:
		return r
	}
	for _, n := range rep.Notices {
		sink(Notice{Text: n})
	}
	if !rep.Checked() {
		return r
	}
	r.Content += "\n\n" + rep.Text(lsp.DefaultBudget)
	sink(Diagnosed{Call: key, ID: tc.ID, Report: rep})
	return r
}

// Rediagnose asks the language servers about files changed behind the
// agent's back outside a turn — a rewind or a redo put files back — so
// the tree and the status line do not keep the errors of files that are
// gone. It reports nothing when no server runs or nothing changed.
func (a *Agent) Rediagnose(ctx context.Context) lsp.Report {
	if a.opts.Diagnostics == nil {
		return lsp.Report{}
	}
	return a.opts.Diagnostics.Refresh(ctx)
}
