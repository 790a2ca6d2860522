package llm

import (
	"strings"
	"sync"

	"pincer/chat"
)

// shaper fixes up what open models put in the answer's text, as it
// streams and once it is complete: thinking written into the text goes to
// the reasoning, and an answer that is only a tool-call block becomes
// calls (held back meanwhile, so the raw block does not flash on screen).
type shaper struct {
	mu    sync.Mutex
	sink  func(Event)
	think thinkSplitter
	hold  *callHold // nil when no tools were offered
}

func newShaper(sink func(Event), tools, opened bool) *shaper {
	s := &shaper{sink: sink}
	text := func(t string) { s.sink(TextDelta{Text: t}) }
	if tools {
		s.hold = &callHold{out: text}
		text = s.hold.add
	}
	s.think = thinkSplitter{opened: opened, onText: text, onThink: func(t string) { s.sink(ReasoningDelta{Text: t}) }}
	return s
}

// event passes one streamed event on, reshaping the answer's text.
func (s *shaper) event(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := ev.(TextDelta); ok {
		s.think.add(t.Text)
		return
	}
	s.sink(ev)
}

// finish reshapes the finished reply as its stream was, and recovers the
// tool calls an answer wrote as text (only from a complete answer).
// opened reports that the answer closed a thinking block it never opened:
// the model's template opens it, and later answers will do the same.
func (s *shaper) finish(r Reply, offered, deferred []ToolSpec, complete bool) (_ Reply, opened bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.think.flush()
	if i := strings.Index(r.Content, "</think>"); i >= 0 && !strings.Contains(r.Content[:i], "<think>") {
		opened = true
	}
	if th, answer := splitThinking(r.Content); th != "" {
		r.Content = answer
		r.Reasoning = strings.TrimSpace(strings.TrimSpace(r.Reasoning) + "\n\n" + th)
	}
	if complete && len(r.ToolCalls) == 0 && r.DroppedCalls == 0 {
		calls, problem := readTextCalls(r.Content, offered, deferred)
		if problem != "" {
			// An answer that is only a call the model botched: it stands
			// as one call that is not run, whose result tells the model
			// what to fix, so the turn goes on instead of ending on a
			// block of JSON.
			calls = []chat.ToolCall{{ID: textCallPrefix + "1", Name: botchedName(r.Content, append(offered[:len(offered):len(offered)], deferred...)), Arguments: "{}", FromText: true, Unreadable: problem}}
		}
		if calls != nil {
			r.ToolCalls, r.Content = calls, ""
			for i, c := range calls {
				s.sink(ToolCallDelta{Index: i, ID: c.ID, Name: c.Name, ArgsSoFar: c.Arguments})
			}
			if s.hold != nil {
				s.hold = nil // what it held was the calls
			}
			return r, opened
		}
	}
	if s.hold != nil {
		s.hold.release()
	}
	return r, opened
}

// botchedName is the name a botched text call stands under: the offered
// tool it seems to name, else "tool_call".
func botchedName(content string, offered []ToolSpec) string {
	for _, t := range offered {
		if strings.Contains(content, `"`+t.Name+`"`) || strings.Contains(content, `'`+t.Name+`'`) || strings.Contains(content, t.Name+"<｜tool▁sep｜>") || strings.Contains(content, t.Name+mistralArgs) || strings.Contains(content, t.Name+"(") {
			return t.Name
		}
	}
	return "tool_call"
}
