package telegram

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/tools"
)

// pending is an approval question waiting for a button press.
type pending struct {
	chat   int64
	owner  int64 // the only user who may answer
	msg    int   // the message with the buttons
	text   string
	labels map[string]string // button code → label
	answer chan string
	row    []models.InlineKeyboardButton // the answer buttons
	nonce  string
	// hunks are an edit's changes by hunk of its diff, when it has
	// several; kept says which of them the person keeps.
	hunks [][]udiff.Edit
	kept  []bool
	// toggledUnshown says a hunk was toggled before the message with the
	// buttons was known (a press can arrive before the answer to
	// sendMessage does): the buttons shown are then redrawn once it is.
	toggledUnshown bool
}

// keyboard is the question's buttons: the answers, and for an edit of
// several hunks one toggle per hunk. Call with b.mu held or before the
// question is shared.
func (p *pending) keyboard() *models.InlineKeyboardMarkup {
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{p.row}}
	var toggles []models.InlineKeyboardButton
	for i, k := range p.kept {
		mark := "✓"
		if !k {
			mark = "✗"
		}
		toggles = append(toggles, models.InlineKeyboardButton{Text: fmt.Sprintf("%s hunk %d", mark, i+1), CallbackData: fmt.Sprintf("p%s:h%d", p.nonce, i)})
	}
	for len(toggles) > 0 {
		n := min(4, len(toggles))
		kb.InlineKeyboard = append(kb.InlineKeyboard, toggles[:n])
		toggles = toggles[n:]
	}
	return kb
}

// hunkEdits groups the line edits that turn before into after by the hunk
// of the unified diff that shows them, or returns nil for fewer than two
// hunks.
func hunkEdits(before, after string) [][]udiff.Edit {
	edits := udiff.Lines(before, after)
	u, err := udiff.ToUnifiedDiff("a", "b", before, edits, 3)
	if err != nil || len(u.Hunks) < 2 || len(u.Hunks) > 20 {
		return nil
	}
	groups := make([][]udiff.Edit, len(u.Hunks))
	for _, e := range edits {
		line := strings.Count(before[:e.Start], "\n") + 1
		i := 0
		for j, h := range u.Hunks {
			if h.FromLine <= line {
				i = j
			}
		}
		groups[i] = append(groups[i], e)
	}
	return groups
}

// partial is the decision for an edit of which only some hunks are kept.
func (p *pending) partial(before string) agent.Decision {
	var edits []udiff.Edit
	var dropped []string
	for i, k := range p.kept {
		if k {
			edits = append(edits, p.hunks[i]...)
		} else {
			dropped = append(dropped, strconv.Itoa(i+1))
		}
	}
	switch {
	case len(dropped) == 0:
		return agent.Decision{Allow: true}
	case len(edits) == 0:
		return agent.Decision{}
	}
	content, err := udiff.Apply(before, edits)
	if err != nil {
		return agent.Decision{}
	}
	return agent.Decision{Allow: true, Content: []byte(content),
		Note: fmt.Sprintf("The user applied the edit without hunk(s) %s of %d.", strings.Join(dropped, ", "), len(p.kept))}
}

// choice is one button of an approval.
type choice struct{ code, label string }

// Button codes; they travel in callback data, so they are short.
const (
	yes    = "y"
	always = "a"
	no     = "n"
)

// approver asks this chat's approvals; only the person whose prompt the
// turn answers can press the buttons.
func (c *chat) approver() agent.Approver {
	return agent.ApproverFunc(func(ctx context.Context, a agent.Approval) (agent.Decision, error) {
		return c.bot.askFor(ctx, c.id, c.turnOwner(), c.turnScheduledBy(), a)
	})
}

// ask sends an approval question and waits for its answer or for ctx to end.
func (b *Bot) ask(ctx context.Context, chat, owner int64, a agent.Approval) (agent.Decision, error) {
	return b.askFor(ctx, chat, owner, "", a)
}

// questionFor is question(a), led by who scheduled the task when by is
// set.
func questionFor(a agent.Approval, by string) (string, []choice) {
	text, choices := question(a)
	if by != "" {
		text = "⏰ Scheduled by " + html.EscapeString(safetext.LineOf(by)) + "\n" + text
	}
	return text, choices
}

// askFor is ask for a scheduled task's turn: the question says who
// scheduled it (by, when set), since in a group its approvals go to the
// owner, who may not have typed it.
func (b *Bot) askFor(ctx context.Context, chat, owner int64, by string, a agent.Approval) (agent.Decision, error) {
	text, choices := questionFor(a, by)
	if len(text) > 3500 {
		// Shown whole or not at all: a long command goes in a file.
		what := a.Command
		if what == "" {
			what = a.Summary
		}
		if a.URL != "" {
			what = a.URL
		}
		if !b.sendFile(ctx, chat, "command.txt", what) {
			// Never a question about something the person cannot see.
			return agent.Decision{}, errors.New("the command is too long for a Telegram message and could not be sent as a file, so it was not shown; it was not run")
		}
		short := a
		short.Command, short.URL = "(too long for a message: the whole of it is in command.txt above)", ""
		text, choices = questionFor(short, by)
	}
	if a.Kind == agent.ApproveEdit && a.Change != nil && a.Step == 1 {
		if doc := b.sendDiff(ctx, chat, a.Change); doc != "" {
			text = doc + text
		}
	}
	nonce := newNonce()
	var row []models.InlineKeyboardButton
	labels := map[string]string{}
	for _, ch := range choices {
		row = append(row, models.InlineKeyboardButton{Text: ch.label, CallbackData: "p" + nonce + ":" + ch.code})
		labels[ch.code] = ch.label
	}
	p := &pending{chat: chat, owner: owner, text: text, labels: labels, answer: make(chan string, 1), row: row, nonce: nonce}
	if a.Kind == agent.ApproveEdit && a.Change != nil && a.Step == 1 {
		p.hunks = hunkEdits(string(a.Change.Before), string(a.Change.After))
		p.kept = make([]bool, len(p.hunks))
		for i := range p.kept {
			p.kept[i] = true
		}
	}
	kb := p.keyboard()
	b.mu.Lock()
	b.pending[nonce] = p
	b.mu.Unlock()
	msg := b.send(ctx, chat, text, text, kb)
	b.mu.Lock()
	p.msg = msg
	redraw := p.toggledUnshown
	if redraw {
		kb = p.keyboard()
	}
	b.mu.Unlock()
	if redraw && msg != 0 {
		b.edit(ctx, chat, msg, text, text, kb)
	}
	defer func() {
		b.mu.Lock()
		delete(b.pending, nonce)
		b.mu.Unlock()
	}()
	if msg == 0 {
		return agent.Decision{}, fmt.Errorf("could not ask in Telegram")
	}
	select {
	case <-ctx.Done():
		out, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5e9)
		defer cancel()
		b.edit(out, chat, msg, text+"\n\n<i>(expired)</i>", text, nil)
		return agent.Decision{}, ctx.Err()
	case code := <-p.answer:
		switch code {
		case yes:
			if len(p.hunks) > 0 {
				b.mu.Lock()
				d := p.partial(string(a.Change.Before))
				b.mu.Unlock()
				return d, nil
			}
			return agent.Decision{Allow: true}, nil
		case always:
			return agent.Decision{Allow: true, AllowRule: a.SuggestedRule}, nil
		}
		return agent.Decision{}, nil
	}
}

// question is the text (HTML) and the buttons of an approval.
func question(a agent.Approval) (string, []choice) {
	var b strings.Builder
	what := a.Command
	if what == "" {
		what = a.Summary
	}
	if a.URL != "" {
		what = a.URL
	}
	dangerous := a.Tier >= safety.Dangerous
	switch {
	case a.Step == 2:
		b.WriteString("⚠️ <b>Second confirmation.</b> Really run this?\n")
	case dangerous:
		b.WriteString("⚠️ <b>Dangerous:</b> ")
	}
	if a.MCP != nil {
		// The names on one line each, cut; the arguments alone in the
		// block, so nothing the server named stands above them.
		what = a.MCP.Arguments
	}
	if a.Step != 2 {
		switch {
		case a.MCP != nil:
			b.WriteString("<b>Call this MCP tool?</b>\n")
			fmt.Fprintf(&b, "tool <code>%s</code> of the server <code>%s</code>\n", html.EscapeString(mcpName(a.MCP.Tool)), html.EscapeString(mcpName(a.MCP.Server)))
		case a.Kind == agent.ApproveCommand:
			b.WriteString("<b>Run this command?</b>\n")
		case a.Kind == agent.ApproveEdit:
			b.WriteString("<b>Apply this edit?</b>\n")
		case a.Kind == agent.ApproveUnsandboxed:
			b.WriteString("<b>Run this outside the sandbox?</b>\n")
		case a.Kind == agent.ApproveWeb:
			b.WriteString("<b>Fetch this page?</b>\n")
		default:
			b.WriteString("<b>Allow this?</b>\n")
		}
	}
	b.WriteString("<pre>" + html.EscapeString(safetext.Sanitize(what, safetext.Exact)) + "</pre>")
	if a.Dir != "" {
		b.WriteString("\nin <code>" + html.EscapeString(safetext.LineOf(a.Dir)) + "</code>")
	}
	for _, r := range a.Reasons {
		b.WriteString("\n• " + html.EscapeString(safetext.LineOf(r)))
	}
	if a.Agent != "" {
		b.WriteString("\n<i>asked by " + html.EscapeString(safetext.LineOf(a.Agent)) + "</i>")
	}
	if a.HookAsked {
		b.WriteString("\n<i>a hook asked for this approval</i>")
	}
	switch {
	case a.Step == 2:
		return b.String(), []choice{{yes, "Yes, run it"}, {no, "Cancel"}}
	case dangerous:
		return b.String(), []choice{{yes, "Continue"}, {no, "Deny"}}
	case a.Kind == agent.ApproveEdit:
		return b.String(), []choice{{yes, "Apply"}, {no, "Reject"}}
	}
	cs := []choice{{yes, "Run"}}
	if a.Kind != agent.ApproveCommand {
		cs[0].label = "Allow"
	}
	if a.SuggestedRule != "" {
		cs = append(cs, choice{always, "Always allow " + safetext.LineOf(a.SuggestedRule)})
	}
	return b.String(), append(cs, choice{no, "Deny"})
}

// mcpName is a server's or a tool's name on one line, cut to 64
// characters: names come from the server and must not draw lines of
// their own above the arguments.
func mcpName(s string) string {
	s = safetext.LineOf(s)
	if r := []rune(s); len(r) > 64 {
		s = string(r[:63]) + "…"
	}
	return s
}

// sendDiff shows an edit's diff: in the question when it is short (the
// returned HTML), else as a .diff document sent before it ("").
func (b *Bot) sendDiff(ctx context.Context, chat int64, ch *tools.Change) string {
	diff := udiff.Unified("a/"+ch.Rel, "b/"+ch.Rel, string(ch.Before), string(ch.After))
	head := "<b>" + html.EscapeString(safetext.LineOf(ch.Rel)) + "</b>"
	if ch.Summary != "" {
		head += ": " + html.EscapeString(safetext.LineOf(ch.Summary))
	}
	head += "\n"
	if len(diff) <= 3000 {
		return head + "<pre>" + html.EscapeString(clean(diff)) + "</pre>\n"
	}
	if !b.sendFile(ctx, chat, strings.ReplaceAll(ch.Rel, "/", "_")+".diff", diff) {
		return head + "(the diff is too long to show here and could not be sent as a file)\n"
	}
	return head + "(the diff is in the file above)\n"
}

// sendFile sends content as a document named name.
func (b *Bot) sendFile(ctx context.Context, chat int64, name, content string) bool {
	err := b.retry(ctx, func() error {
		_, err := b.api.SendDocument(ctx, &tg.SendDocumentParams{ChatID: chat,
			Document: &models.InputFileUpload{Filename: name, Data: strings.NewReader(content)}})
		return err
	})
	if err != nil {
		b.logf("telegram: could not send %s to chat %d: %v", name, chat, b.redact(err))
		return false
	}
	return true
}

// callback handles a button press.
func (b *Bot) callback(ctx context.Context, q *models.CallbackQuery) {
	if !b.allowed(q.From.ID) {
		// A stranger's press in a group: answered (so the button stops
		// spinning) with nothing to read.
		b.answerPress(ctx, q, "")
		return
	}
	if strings.HasPrefix(q.Data, "s") {
		b.picked(ctx, q)
		return
	}
	nonce, code, _ := strings.Cut(strings.TrimPrefix(q.Data, "p"), ":")
	if strings.HasPrefix(code, "h") {
		b.toggleHunk(ctx, q, nonce, code[1:])
		return
	}
	b.mu.Lock()
	p := b.pending[nonce]
	owner := p != nil && q.From.ID == p.owner
	// Only a button that was offered answers: callback data is the
	// client's to send, "always" included.
	ok := owner && p.labels[code] != ""
	msg := 0
	if ok {
		delete(b.pending, nonce)
		msg = p.msg
	}
	b.mu.Unlock()
	reply := pressReply(p != nil, owner)
	if owner && !ok {
		reply = "" // a button that was never offered: nothing to say
	}
	b.answerPress(ctx, q, reply)
	if !ok {
		return
	}
	p.answer <- code
	if msg == 0 {
		return
	}
	b.edit(ctx, p.chat, msg, p.text+"\n\n→ <i>"+html.EscapeString(p.labels[code])+"</i>", p.text, nil)
}

func newNonce() string {
	var n [6]byte
	rand.Read(n[:])
	return hex.EncodeToString(n[:])
}

// switchSession moves the chat to the session name (created when new),
// unless it is another chat's or a private one.
func (b *Bot) switchSession(ctx context.Context, c *chat, name string) {
	if c.busy() {
		b.sendPlain(ctx, c.id, "An answer is in progress; /cancel it first.")
		return
	}
	conv, name, err := b.open(ctx, c, name, false)
	var no refusal
	if errors.As(err, &no) {
		b.sendPlain(ctx, c.id, string(no))
		return
	}
	if err != nil {
		b.sendPlain(ctx, c.id, "Could not open the session "+name+": "+err.Error())
		return
	}
	c.setConv(name, conv)
	b.rememberSession(c.id, name)
	b.sendPlain(ctx, c.id, "This chat is now in the session "+name+".")
}

// picker is a /sessions list waiting for a press.
type picker struct {
	chat  int64
	owner int64
	names []string
}

// pickSession offers the sessions as buttons.
func (b *Bot) pickSession(ctx context.Context, c *chat, from int64) {
	if b.opts.Sessions == nil {
		b.sendPlain(ctx, c.id, "No sessions to pick from; /session NAME switches by name.")
		return
	}
	all, err := b.opts.Sessions()
	if err != nil {
		b.sendPlain(ctx, c.id, "Could not list the sessions: "+err.Error())
		return
	}
	var names []string
	for _, info := range all {
		if mayUse(c.id, info) == "" {
			names = append(names, info.label())
		}
	}
	if len(names) > 20 {
		names = names[:20]
	}
	if len(names) == 0 {
		b.sendPlain(ctx, c.id, "There are no sessions yet.")
		return
	}
	nonce := newNonce()
	var rows [][]models.InlineKeyboardButton
	for i, n := range names {
		rows = append(rows, []models.InlineKeyboardButton{{Text: safetext.LineOf(n), CallbackData: fmt.Sprintf("s%s:%d", nonce, i)}})
	}
	b.mu.Lock()
	b.pickers[nonce] = &picker{chat: c.id, owner: from, names: names}
	b.mu.Unlock()
	b.send(ctx, c.id, "Switch this chat to the session:", "Switch this chat to the session:", &models.InlineKeyboardMarkup{InlineKeyboard: rows})
}

// picked handles a press on a /sessions button.
func (b *Bot) picked(ctx context.Context, q *models.CallbackQuery) {
	nonce, index, _ := strings.Cut(strings.TrimPrefix(q.Data, "s"), ":")
	b.mu.Lock()
	p := b.pickers[nonce]
	ok := p != nil && q.From.ID == p.owner && b.allowed(q.From.ID)
	if ok {
		delete(b.pickers, nonce)
	}
	b.mu.Unlock()
	i, err := strconv.Atoi(index)
	reply := ""
	switch {
	case p == nil:
		reply = "This list has expired; send /sessions again."
	case !ok:
		reply = "Only the person who asked can choose."
	case err != nil || i < 0 || i >= len(p.names):
		reply, ok = "Unknown choice.", false
	}
	b.answerPress(ctx, q, reply)
	if ok {
		b.switchSession(ctx, b.chat(p.chat), p.names[i])
	}
}

// toggleHunk keeps or drops one hunk of an edit in question.
func (b *Bot) toggleHunk(ctx context.Context, q *models.CallbackQuery, nonce, index string) {
	i, err := strconv.Atoi(index)
	b.mu.Lock()
	p := b.pending[nonce]
	ok := p != nil && q.From.ID == p.owner && b.allowed(q.From.ID) && err == nil && i >= 0 && i < len(p.kept)
	var kb *models.InlineKeyboardMarkup
	var chat int64
	var msg int
	var text string
	if ok {
		p.kept[i] = !p.kept[i]
		kb, chat, msg, text = p.keyboard(), p.chat, p.msg, p.text
		p.toggledUnshown = msg == 0
	}
	b.mu.Unlock()
	b.answerPress(ctx, q, pressReply(p != nil, ok))
	if ok && msg != 0 {
		b.edit(ctx, chat, msg, text, text, kb)
	}
}

// pressReply is what a button press on a question is answered with: ""
// when it counts, else why not.
func pressReply(exists, ok bool) string {
	switch {
	case !exists:
		return "This question has expired."
	case !ok:
		return "Only the person who sent the request can answer this."
	}
	return ""
}

// answerPress answers a button press (Telegram shows text as a toast).
func (b *Bot) answerPress(ctx context.Context, q *models.CallbackQuery, text string) {
	b.retry(ctx, func() error {
		_, err := b.api.AnswerCallbackQuery(ctx, &tg.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: text})
		return err
	})
}
