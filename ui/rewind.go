package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/checkpoint"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/rewind"
	"pincer/themes"
	"pincer/tools"
	"pincer/tools/lsp"
	"pincer/ui/complete"
	"pincer/ui/diffview"
)

// rewindBlobLimit caps the content read for one file of a rewind's
// preview; a bigger file is shown cut.
const rewindBlobLimit = 1 << 20

// rewindTurnsMsg carries the turns /rewind offers.
type rewindTurnsMsg struct {
	turns   []rewind.Turn
	changed map[uint64]int
	err     error
}

// rewindModeMsg asks what to take back, for the turn chosen.
type rewindModeMsg struct{ turn rewind.Turn }

// rewindPlanMsg carries what a rewind would do, for the preview.
type rewindPlanMsg struct {
	plan  rewind.Plan
	files []rewindFile
	err   error
}

// rewindDoneMsg says a rewind (or a redo, with redo set) happened.
type rewindDoneMsg struct {
	out  rewind.Outcome
	redo bool
	err  error
}

// rewindFile is one file of a rewind's preview.
type rewindFile struct {
	change  checkpoint.Change
	outside bool
	diff    *tools.Change // nil when its content could not be read
}

// rewinder is the rewinder of the session in use, nil without one.
func (a *App) rewinder() *rewind.Rewinder {
	if a.opts.Rewinder == nil || a.opts.SessionID == "" {
		return nil
	}
	return a.opts.Rewinder(a.opts.SessionID)
}

// openRewind lists the session's turns for /rewind.
func (a *App) openRewind() tea.Cmd {
	if !a.needIdle("Rewinding") {
		return nil
	}
	rw := a.rewinder()
	if rw == nil {
		a.transcript.AddError("/rewind needs the session store, which is not open.")
		return nil
	}
	return func() tea.Msg {
		turns, err := rw.Turns()
		if err != nil {
			return rewindTurnsMsg{err: err}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return rewindTurnsMsg{turns: turns, changed: rw.ChangedSince(ctx, turns)}
	}
}

// showRewindPicker offers the turns, newest first.
func (a *App) showRewindPicker(msg rewindTurnsMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Could not list the turns to rewind to: " + msg.err.Error())
		return nil
	}
	if len(msg.turns) == 0 {
		// An empty picker would only take the next keys: say so instead.
		a.transcript.AddNotice("There is no turn to rewind to yet: /rewind goes back to the start of a turn once you have sent a prompt.")
		return nil
	}
	items := make([]complete.Item, 0, len(msg.turns))
	for i := len(msg.turns) - 1; i >= 0; i-- {
		t := msg.turns[i]
		typed, _ := agent.SplitAttachments(t.Prompt)
		detail := human.Ago(time.Now(), t.Time)
		switch n, ok := msg.changed[t.Seq]; {
		case t.Checkpoint == nil:
			detail += " · files not recorded"
		case ok && n == 0:
			detail += " · no file changed since"
		case ok:
			detail += " · " + human.Plural(n, "file") + " changed since"
		}
		items = append(items, complete.Item{
			Value:  strconv.FormatUint(t.Seq, 10),
			Label:  fmt.Sprintf("#%d  %s", t.N, safetext.LineOf(human.OneLine(typed, 70))),
			Detail: detail,
		})
	}
	p := newPicker("Rewind to the start of a turn", items, a.styles)
	p.empty = "This session has no turn to rewind to yet."
	p.choose = func(it complete.Item) (bool, tea.Cmd) {
		seq, _ := strconv.ParseUint(it.Value, 10, 64)
		i := slices.IndexFunc(msg.turns, func(t rewind.Turn) bool { return t.Seq == seq })
		if i < 0 {
			return false, nil
		}
		t := msg.turns[i]
		return true, func() tea.Msg { return rewindModeMsg{turn: t} }
	}
	a.pushDialog(p)
	return nil
}

// showRewindModes asks what the rewind takes back.
func (a *App) showRewindModes(t rewind.Turn) tea.Cmd {
	modes := []rewind.Mode{rewind.Both, rewind.CodeOnly, rewind.ConversationOnly}
	details := map[rewind.Mode]string{
		rewind.Both:             "files as they were, and the model forgets what came after",
		rewind.CodeOnly:         "files as they were; the conversation stays",
		rewind.ConversationOnly: "the model forgets what came after; the files stay",
	}
	var items []complete.Item
	for _, m := range modes {
		if m != rewind.ConversationOnly && t.Checkpoint == nil {
			continue
		}
		items = append(items, complete.Item{Value: strconv.Itoa(int(m)), Label: m.String(), Detail: details[m]})
	}
	typed, _ := agent.SplitAttachments(t.Prompt)
	p := newPicker(fmt.Sprintf("Rewind to #%d %s — what?", t.N, safetext.LineOf(human.OneLine(typed, 40))), items, a.styles)
	if t.Checkpoint == nil {
		p.note = "The files were not recorded before this turn, so only the conversation can go back."
	}
	p.choose = func(it complete.Item) (bool, tea.Cmd) {
		m, _ := strconv.Atoi(it.Value)
		return true, a.planRewind(t.Seq, rewind.Mode(m))
	}
	a.pushDialog(p)
	return nil
}

// undo plans a rewind of the last turn, code and conversation.
func (a *App) undo() tea.Cmd {
	if !a.needIdle("Undoing") {
		return nil
	}
	rw := a.rewinder()
	if rw == nil {
		a.transcript.AddError("/undo needs the session store, which is not open.")
		return nil
	}
	return func() tea.Msg {
		turns, err := rw.Turns()
		if err != nil {
			return rewindPlanMsg{err: err}
		}
		if len(turns) == 0 {
			return rewindPlanMsg{err: fmt.Errorf("there is no turn to undo in this session")}
		}
		t := turns[len(turns)-1]
		mode := rewind.Both
		if t.Checkpoint == nil {
			mode = rewind.ConversationOnly
		}
		return planRewind(rw, t.Seq, mode)
	}
}

// planRewind works out a rewind in the background, for the preview.
func (a *App) planRewind(seq uint64, mode rewind.Mode) tea.Cmd {
	rw := a.rewinder()
	if rw == nil {
		return nil
	}
	return func() tea.Msg { return planRewind(rw, seq, mode) }
}

func planRewind(rw *rewind.Rewinder, seq uint64, mode rewind.Mode) tea.Msg {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := rw.Plan(ctx, seq, mode)
	if err != nil {
		return rewindPlanMsg{err: err}
	}
	files := make([]rewindFile, len(p.Changes))
	for i, c := range p.Changes {
		files[i] = rewindFile{change: c, outside: slices.Contains(p.Outside, c.Path)}
		before, cut1, err1 := blobOrNil(rw, c.OldHash)
		after, cut2, err2 := blobOrNil(rw, c.NewHash)
		if err1 != nil || err2 != nil || c.OldMode&0o170000 == 0o120000 || c.NewMode&0o170000 == 0o120000 {
			continue
		}
		ch := &tools.Change{Path: c.Path, Rel: c.Path, Before: before, After: after, Created: c.OldHash == "", Removed: c.NewHash == ""}
		if cut1 || cut2 {
			ch.Summary = "(large file: only its first MiB is shown)"
		}
		files[i].diff = ch
	}
	return rewindPlanMsg{plan: p, files: files}
}

func blobOrNil(rw *rewind.Rewinder, hash string) ([]byte, bool, error) {
	if hash == "" {
		return nil, false, nil
	}
	return rw.Blob(hash, rewindBlobLimit)
}

// showRewindPlan opens the preview, or says why there is none.
func (a *App) showRewindPlan(msg rewindPlanMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Cannot rewind: " + msg.err.Error())
		return nil
	}
	d := &rewindDialog{app: a, plan: msg.plan, files: msg.files, opened: time.Now()}
	d.pick(0)
	a.pushDialog(d)
	return d.diffInit()
}

// applyRewind rewinds in the background.
func (a *App) applyRewind(p rewind.Plan) tea.Cmd {
	rw := a.rewinder()
	if rw == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := rw.Apply(ctx, p.Turn.Seq, p.Mode, p.Outside, false)
		return rewindDoneMsg{out: out, err: err}
	}
}

// redo undoes the last rewind.
func (a *App) redo() tea.Cmd {
	if !a.needIdle("Redoing") {
		return nil
	}
	rw := a.rewinder()
	if rw == nil {
		a.transcript.AddError("/redo needs the session store, which is not open.")
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		r, err := rw.Redo(ctx)
		mode := rewind.Both
		if r.From == 0 { // a code-only rewind, taken back
			mode = rewind.CodeOnly
		}
		return rewindDoneMsg{redo: true, err: err, out: rewind.Outcome{Plan: rewind.Plan{Turn: rewind.Turn{Seq: r.From}, Mode: mode}}}
	}
}

// rewound reloads the session after a rewind or a redo and says what
// happened; a rewound prompt goes back into the input box.
func (a *App) rewound(msg rewindDoneMsg) tea.Cmd {
	if msg.err != nil {
		what := "rewind"
		if msg.redo {
			what = "redo"
		}
		a.transcript.AddError(fmt.Sprintf("Could not %s: %v", what, msg.err))
		return nil
	}
	p := msg.out.Plan
	var note string
	switch {
	case msg.redo && p.Mode == rewind.CodeOnly:
		note = "Redone: the files are as they were before the rewind."
	case msg.redo:
		note = "Redone: the rewound turns are back, and the files as they were before the rewind."
	default:
		var parts []string
		if p.Mode != rewind.ConversationOnly {
			parts = append(parts, "restored "+human.Plural(len(p.Changes), "file"))
			if len(p.Kept) > 0 {
				parts = append(parts, "left "+human.Plural(len(p.Kept), "file")+" alone (too large to record)")
			}
		}
		if p.Mode != rewind.CodeOnly {
			parts = append(parts, human.Plural(p.Dropped, "message")+" no longer sent to the model")
		}
		note = fmt.Sprintf("Rewound to #%d (%s): %s. /redo takes it back while nothing changes.", p.Turn.N, p.Mode, strings.Join(parts, "; "))
	}
	typed, _ := agent.SplitAttachments(msg.out.Prompt)
	reload := a.switchSession(a.opts.SessionID)
	return tea.Batch(func() tea.Msg {
		m := reload().(sessionOpenedMsg)
		m.after, m.reloaded = note, true
		if !msg.redo && p.Mode != rewind.CodeOnly {
			m.prompt = typed
		}
		return m
	}, a.rediagnose(p.Mode != rewind.ConversationOnly))
}

// rediagnosedMsg is what the language servers say about the files a
// rewind or a redo put back.
type rediagnosedMsg struct{ report lsp.Report }

// rediagnose asks the language servers, in the background, about files
// the rewind changed, so the tree's marks and the status line's count
// are those of the files as they are now; nil when no file changed.
func (a *App) rediagnose(filesChanged bool) tea.Cmd {
	if !filesChanged || a.agent == nil {
		return nil
	}
	ag := a.agent
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		return rediagnosedMsg{report: ag.Rediagnose(ctx)}
	}
}

// rediagnosed shows what the servers said after a rewind.
func (a *App) rediagnosed(msg rediagnosedMsg) {
	for _, n := range msg.report.Notices {
		a.transcript.AddNotice(n)
	}
	if !msg.report.Checked() {
		return
	}
	a.tree.SetProblems(msg.report.Problems)
	a.diagErrors, a.diagSeen = msg.report.Total, true
}

// rewindDialog shows what a rewind will change — each file, with its diff
// — and does it on y. Files changed outside pincer since the turn are
// marked, and overwriting them takes a second y.
type rewindDialog struct {
	app    *App
	plan   rewind.Plan
	files  []rewindFile
	sel    int
	diff   *diffview.Model
	armed  bool // the first y was given and there are outside changes
	opened time.Time
	// sizedW and sizedH are the space the diff was last sized for.
	sizedW, sizedH int
}

// pick selects file i and builds its diff.
func (d *rewindDialog) pick(i int) {
	if len(d.files) == 0 {
		return
	}
	d.sel = max(0, min(i, len(d.files)-1))
	d.diff, d.sizedW, d.sizedH = nil, 0, 0
	if ch := d.files[d.sel].diff; ch != nil {
		m := diffview.NewPreview(ch, d.app.theme)
		d.diff = &m
	}
}

func (d *rewindDialog) diffInit() tea.Cmd {
	if d.diff == nil {
		return nil
	}
	return d.diff.Init()
}

// Update implements dialog.
func (d *rewindDialog) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := msg.String()
	if time.Since(d.opened) < settleTime && k != "esc" {
		return false, nil
	}
	switch k {
	case "esc", "n":
		d.app.transcript.AddNotice("Rewind cancelled; nothing changed.")
		return true, nil
	case "y":
		if len(d.plan.Outside) > 0 && !d.armed {
			d.armed = true
			return false, nil
		}
		return true, d.app.applyRewind(d.plan)
	case "up", "ctrl+p":
		d.pick(d.sel - 1)
		return false, d.diffInit()
	case "down", "ctrl+n", "tab":
		d.pick(d.sel + 1)
		return false, d.diffInit()
	case "pgup", "pgdown", "j", "k", "v", "home", "end":
		if d.diff != nil {
			m, cmd := d.diff.Update(msg)
			d.diff = &m
			if k == "v" { // another layout: another height
				d.sizedW, d.sizedH = 0, 0
			}
			return false, cmd
		}
	}
	return false, nil
}

// Message passes the diff's colouring results and the wheel to it.
func (d *rewindDialog) Message(msg tea.Msg) tea.Cmd {
	if d.diff == nil {
		return nil
	}
	m, cmd := d.diff.Update(msg)
	d.diff = &m
	return cmd
}

// View implements dialog.
func (d *rewindDialog) View(width, height int, st themes.Styles) string {
	p := d.plan
	w, h := min(width-2, 160), height-2
	inner := w - 4
	typed, _ := agent.SplitAttachments(p.Turn.Prompt)
	title := fmt.Sprintf("Rewind to #%d %s — %s", p.Turn.N, safetext.LineOf(human.OneLine(typed, 50)), p.Mode)
	var head []string
	if p.Mode != rewind.ConversationOnly {
		line := "Files: nothing to change; they are as they were."
		if n := len(d.files); n > 0 {
			line = filesBack(n, kindCounts(d.files))
		}
		head = append(head, st.Text.Render(wrapText(line, inner)))
		if len(p.Kept) > 0 {
			head = append(head, st.Muted.Render(wrapText(fmt.Sprintf("Left alone: %s (not recorded: too large or unreadable).", strings.Join(safePaths(p.Kept, 3), ", ")), inner)))
		}
	}
	if p.Mode != rewind.CodeOnly {
		head = append(head, st.Text.Render(wrapText(fmt.Sprintf("Conversation: %s after it are no longer sent to the model (they stay in the session's history, marked rewound); the prompt goes back into the input box.", human.Plural(p.Dropped, "message")), inner)))
	}
	if len(p.Outside) > 0 {
		head = append(head, st.Danger.Render(wrapText(fmt.Sprintf("⚠ %s changed outside pincer since that turn and would be overwritten: %s", human.Plural(len(p.Outside), "file"), strings.Join(safePaths(p.Outside, 4), ", ")), inner)))
	}
	var list []string
	rows := min(len(d.files), max(3, (h-12)/3))
	start := max(0, min(d.sel-rows/2, len(d.files)-rows))
	for i := start; i < start+rows && i < len(d.files); i++ {
		f := d.files[i]
		mark := "  "
		if i == d.sel {
			mark = "› "
		}
		line := mark + kindMark(f.change.Kind) + " " + safetext.LineOf(f.change.Path)
		if f.outside {
			line += "  (changed outside pincer)"
		}
		style := st.Text
		if i == d.sel {
			style = st.Selected
		}
		list = append(list, style.Render(ansi.Truncate(line, inner, "…")))
	}
	if len(d.files) > rows {
		list = append(list, st.Muted.Render(fmt.Sprintf("  %d of %d files · ↑/↓ to move", d.sel+1, len(d.files))))
	}
	keys := "y rewind · ↑/↓ file · pgup/pgdn scroll the diff · esc cancel"
	if d.armed {
		keys = "y overwrite the files changed outside pincer too · esc cancel"
		head = append(head, st.Danger.Render("Press y again to overwrite them."))
	}
	keyLines := wrapText(keys, inner)
	body := strings.Join(head, "\n")
	if len(list) > 0 {
		body += "\n\n" + strings.Join(list, "\n")
	}
	diffH := h - 4 - lipgloss.Height(body) - lipgloss.Height(keyLines) - 2
	if d.diff != nil && diffH >= 3 {
		if d.sizedW != inner || d.sizedH != diffH {
			// The content's height depends on the width: size it first.
			// Sized again only when the space changes, not every frame.
			d.sizedW, d.sizedH = inner, diffH
			d.diff.SetSize(inner, diffH)
			d.diff.SetSize(inner, min(diffH, max(d.diff.ContentHeight(), 3)))
		}
		body += "\n\n" + d.diff.View()
	} else if len(d.files) > 0 && d.files[d.sel].diff == nil && diffH >= 1 {
		body += "\n\n" + st.Muted.Render("(no diff to show: a link, or content that could not be read)")
	}
	border := st.Accent
	if len(p.Outside) > 0 {
		border = st.Danger
	}
	return frame(st, w, title, st.Accent, body, keyLines, border)
}

// kindMark is a file's mark in the preview: what the rewind does to it.
func kindMark(k checkpoint.Kind) string {
	switch k {
	case checkpoint.Added:
		return "+" // comes back
	case checkpoint.Removed:
		return "-" // goes away
	}
	return "~"
}

// kindCounts words how many files come back, go and change.
func kindCounts(files []rewindFile) string {
	var added, removed, modified int
	for _, f := range files {
		switch f.change.Kind {
		case checkpoint.Added:
			added++
		case checkpoint.Removed:
			removed++
		default:
			modified++
		}
	}
	var parts []string
	if added > 0 {
		parts = append(parts, fmt.Sprintf("%d back", added))
	}
	if removed > 0 {
		parts = append(parts, fmt.Sprintf("%d removed", removed))
	}
	if modified > 0 {
		parts = append(parts, fmt.Sprintf("%d changed back", modified))
	}
	return strings.Join(parts, ", ")
}

// safePaths draws up to n paths safely, saying how many more there are.
func safePaths(paths []string, n int) []string {
	var out []string
	for i, p := range paths {
		if i == n {
			out = append(out, fmt.Sprintf("and %d more", len(paths)-n))
			break
		}
		out = append(out, safetext.LineOf(filepath.ToSlash(p)))
	}
	return out
}

// filesBack is the rewind preview's line about the n files that change,
// with their kinds counted, in the grammar of one file or several.
func filesBack(n int, kinds string) string {
	if n == 1 {
		return "Files: 1 file goes back to how it was when the turn started (" + kinds + ")."
	}
	return "Files: " + human.Plural(n, "file") + " go back to how they were when the turn started (" + kinds + ")."
}
