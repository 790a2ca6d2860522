package transcript

import (
	"slices"
	"strings"
)

// AddUser appends a message from the person.
func (m *Model) AddUser(text string) {
	m.s.push(&item{kind: KindUser, text: text, gen: -1})
}

// AppendText adds a piece of the answer in flight, starting an answer if
// none is in flight. Reasoning in flight collapses as the answer starts.
func (m *Model) AppendText(delta string) {
	s := m.s
	if delta == "" {
		return
	}
	if s.answer == nil {
		s.endReasoning()
		s.answer = &item{kind: KindAssistant, doc: newStreamDoc(""), streaming: true, gen: -1}
		s.items = append(s.items, s.answer)
		s.arrived()
	}
	s.answer.doc.append(delta)
	s.answer.invalidate()
	s.arrivedText()
}

// AppendReasoning adds a piece of the model's reasoning in flight. It is
// shown in full while it streams.
func (m *Model) AppendReasoning(delta string) {
	s := m.s
	if delta == "" {
		return
	}
	if s.reasoning == nil {
		s.reasoning = &item{kind: KindReasoning, body: &growingText{gen: -1}, expanded: true, streaming: true, gen: -1}
		s.items = append(s.items, s.reasoning)
	}
	s.reasoning.body.append(delta)
	s.reasoning.invalidate()
	s.arrived()
}

// ToolCallDelta shows a tool call whose arguments are still streaming.
// index is the call's position in the message in flight; argsSoFar is all
// of the arguments received so far. The card shows the key argument (path,
// command, pattern, …) as soon as it can be read.
func (m *Model) ToolCallDelta(index int, id, name, argsSoFar string) {
	s := m.s
	card := s.calls[index]
	if card == nil && id != "" {
		card = s.byID[id]
	}
	if card == nil {
		s.endReasoning()
		card = &item{kind: KindTool, tool: &toolState{}, gen: -1}
		s.push(card)
	}
	s.calls[index] = card
	t := card.tool
	if id != "" && t.id == "" {
		t.id = id
		s.byID[id] = card
	}
	if name != "" {
		t.name = name
	}
	t.args = argsSoFar
	card.invalidate()
	s.arrived()
}

// ToolCall shows a finished tool call as the model made it: the card of
// the call id (made when it streamed, or now) gets its final name and
// arguments, so a refused call still shows what was asked for.
func (m *Model) ToolCall(id, name, args string) {
	s := m.s
	card := s.card(id, name)
	t := card.tool
	if name != "" {
		t.name = name
	}
	t.args = args
	card.invalidate()
	s.arrived()
}

// ToolStarted marks the call id as running. summary says what it does
// (e.g. "edit_file main.go"); it replaces the key argument on the card.
func (m *Model) ToolStarted(id, summary string) {
	s := m.s
	card := s.card(id, "")
	card.tool.running = true
	card.tool.summary = summary
	card.invalidate()
	s.arrived()
}

// ToolResult shows the outcome of the call id: a mark and the first lines
// of content, expandable to all of it. summary, when set, says what the
// call was on a card that never started (a refused call), so it reads as
// a started one would ("read_file a.go (recovered from text)").
func (m *Model) ToolResult(id, name, summary, content string, isError bool) {
	s := m.s
	card := s.card(id, name)
	t := card.tool
	if t.summary == "" {
		t.summary = summary
	}
	t.running, t.done = false, true
	t.result, t.isError = content, isError
	card.invalidate()
	s.arrived()
}

// ToolDiagnostics shows on the card of call id what the language servers
// counted after it changed files (label, e.g. "2 errors"); errors says
// the count is of errors. The result, expanded, lists them.
func (m *Model) ToolDiagnostics(id, label string, errors bool) {
	s := m.s
	card := s.card(id, "")
	card.tool.diag, card.tool.diagBad = sanitizeLine(label), errors
	card.invalidate()
	s.arrived()
}

// SettleAnswer makes the answer in flight read as the finished message
// says, before FinishAssistant, when the whole answer showed what its
// pieces could not: a model whose template opened the thinking block
// streams its thinking as text, and only its closing </think> says where
// the thinking ended. Any other answer is left as it streamed. The thinking then becomes a folded
// reasoning entry before the answer (unless reasoning already streamed).
func (m *Model) SettleAnswer(reasoning, content string) {
	s := m.s
	if s.answer == nil || !strings.Contains(s.answer.doc.text(), "</think>") ||
		strings.TrimSpace(s.answer.doc.text()) == strings.TrimSpace(content) {
		return
	}
	at := slices.Index(s.items, s.answer)
	if at < 0 {
		return
	}
	if content == "" {
		s.items = slices.Delete(s.items, at, at+1)
		s.answer = nil
	} else {
		s.answer.doc = newStreamDoc(content)
		s.answer.invalidate()
	}
	streamed := false
	for i := at - 1; i >= 0 && s.items[i].kind != KindUser; i-- {
		streamed = streamed || s.items[i].kind == KindReasoning
	}
	if reasoning = strings.TrimSpace(reasoning); reasoning != "" && !streamed {
		r := &item{kind: KindReasoning, body: &growingText{gen: -1}, gen: -1}
		r.body.append(reasoning)
		s.items = slices.Insert(s.items, at, r)
	}
	s.changed()
}

// FinishAssistant ends the message in flight: the answer's last block is
// rendered once more and kept from then on. interrupted marks an answer the
// person cut short; with no answer in flight it adds the mark alone.
func (m *Model) FinishAssistant(interrupted bool) {
	s := m.s
	s.endReasoning()
	switch {
	case s.answer != nil && interrupted:
		s.answer.doc.finishInterrupted()
		s.answer.streaming = false
		s.answer.interrupted = true
		s.answer.invalidate()
		s.grew()
	case s.answer != nil:
		s.answer.doc.finish()
		s.answer.streaming = false
		s.answer.interrupted = interrupted
		s.answer.invalidate()
		s.grew()
	case interrupted:
		s.push(&item{kind: KindAssistant, doc: newStreamDoc(""), interrupted: true, gen: -1})
	}
	s.answer = nil
	clear(s.calls)
}

// AddNotice appends a dim line that is not part of the conversation.
func (m *Model) AddNotice(text string) {
	m.s.push(&item{kind: KindNotice, text: text, gen: -1})
}

// AddError appends an error, in the theme's error colour.
func (m *Model) AddError(text string) {
	m.s.push(&item{kind: KindError, text: text, gen: -1})
}

// AddRetry appends a notice that a request is being retried.
func (m *Model) AddRetry(text string) {
	m.s.push(&item{kind: KindRetry, text: text, gen: -1})
}

// AddCompressed appends the marker where n earlier messages were replaced
// by summary; expanding it shows the summary.
func (m *Model) AddCompressed(summary string, n int) {
	m.s.push(&item{kind: KindCompressed, text: summary, n: n, gen: -1})
}

// AddRecalled appends the line that says what auto recall added before the
// prompt ("recalled 2 notes from 'db-migration', 3 days ago"); expanding it
// shows note, exactly what the model was given.
func (m *Model) AddRecalled(label, note string) {
	m.s.push(&item{kind: KindRecalled, label: label, text: note, gen: -1})
}

// Load appends the entries of a resumed session. Nothing is rendered until
// it comes into view, so loading costs little however long the session.
// KindToolResult entries complete the KindTool entry with the same ToolID.
func (m *Model) Load(entries ...Entry) {
	s := m.s
	for _, e := range entries {
		switch e.Kind {
		case KindToolResult:
			card := s.card(e.ToolID, e.ToolName)
			t := card.tool
			t.done, t.result, t.isError = true, e.Text, e.IsError
			if len(e.Steps) > 0 {
				t.sub = loadSteps(e.Steps)
			}
			card.invalidate()
			continue
		case KindTool:
			card := &item{kind: KindTool, tool: &toolState{id: e.ToolID, name: e.ToolName, args: e.ToolArgs}, gen: -1}
			if e.ToolID != "" {
				s.byID[e.ToolID] = card
			}
			s.items = append(s.items, card)
			continue
		}
		it := &item{kind: e.Kind, text: e.Text, n: e.Count, interrupted: e.Interrupted, gen: -1}
		switch e.Kind {
		case KindAssistant:
			it.doc = finishedDoc(e.Text)
			if e.Interrupted {
				it.doc.closing = unclosedMarkup(e.Text)
			}
			it.text = ""
		case KindReasoning:
			it.body = &growingText{gen: -1}
			it.body.append(e.Text)
			it.text = ""
		}
		s.items = append(s.items, it)
	}
	s.grew()
}

// push appends an entry.
func (s *state) push(it *item) {
	if s.answer != nil && !s.answer.doc.paused {
		// What comes after the answer ends its text for now: its last
		// words, held back while they might change, are drawn.
		s.answer.doc.paused = true
		s.answer.invalidate()
	}
	s.items = append(s.items, it)
	s.grew()
}

// card finds the card of call id, or appends one when the call was never
// announced.
func (s *state) card(id, name string) *item {
	if c := s.byID[id]; c != nil && id != "" {
		if name != "" && c.tool.name == "" {
			c.tool.name = name
		}
		return c
	}
	c := &item{kind: KindTool, tool: &toolState{id: id, name: name}, gen: -1}
	if id != "" {
		s.byID[id] = c
	}
	s.push(c)
	return c
}

// endReasoning closes the reasoning in flight and collapses it, unless the
// person chose to keep it open.
func (s *state) endReasoning() {
	r := s.reasoning
	if r == nil {
		return
	}
	r.streaming = false
	if !r.touched {
		r.expanded = false
	}
	r.invalidate()
	s.reasoning = nil
	s.changed()
}
