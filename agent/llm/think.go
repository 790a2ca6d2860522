package llm

import "strings"

// thinkTag is one way reasoning models served without a reasoning parser
// mark their thinking inside the answer's text.
type thinkTag struct{ open, close string }

// thinkTags are the markers recognised at the start of an answer: the
// <think> of DeepSeek-R1 and Qwen3, Claude-style <thinking>, Magistral's
// [THINK], and the analysis channel of gpt-oss's harmony format.
func thinkTags() []thinkTag {
	return []thinkTag{
		{"<think>", "</think>"},
		{"<thinking>", "</thinking>"},
		{"[THINK]", "[/THINK]"},
		{"<|channel|>analysis<|message|>", "<|end|>"},
		{"<|start|>assistant<|channel|>analysis<|message|>", "<|end|>"},
	}
}

// answerMarkers are harmony's frame around the final answer, which come
// after the analysis and are not part of the answer.
func answerMarkers() []string {
	return []string{
		"<|start|>assistant<|channel|>final<|message|>",
		"<|channel|>final<|message|>",
	}
}

// answerEnds are harmony's end-of-answer markers, cut from the end.
func answerEnds() []string { return []string{"<|return|>", "<|end|>"} }

// thinkSplitter routes the thinking a model wrote into its answer's text to
// reasoning, as the text streams: a block that opens at the start of the
// answer (after white space, or after another such block) is reasoning up
// to its closing marker, and markers split across chunks are held back
// until they can be told apart. Thinking anywhere else is left as text: an
// answer may well quote a <think> tag.
type thinkSplitter struct {
	buf     string // text not yet handed out
	closing string // the closing marker of the block being read; "" outside
	started bool   // the answer proper has begun: everything else is text
	// opened says the model's template opens the thinking block itself
	// (an earlier answer closed one it never opened): the text is held
	// until </think> shows it was thinking, or the end shows it was not.
	opened  bool
	held    strings.Builder
	onText  func(string)
	onThink func(string)
}

// add takes the next piece of the answer's text.
func (s *thinkSplitter) add(t string) {
	if s.opened {
		s.held.WriteString(t)
		h := s.held.String()
		if i := strings.Index(h, "</think>"); i >= 0 {
			s.opened = false
			s.held.Reset()
			if th := strings.TrimSpace(h[:i]); th != "" {
				s.onThink(th)
			}
			s.add(h[i+len("</think>"):])
		}
		return
	}
	if s.started {
		s.onText(t)
		return
	}
	s.buf += t
	s.advance(false)
}

// flush hands out what is held back at the end of the answer.
func (s *thinkSplitter) flush() {
	if s.opened {
		s.opened = false
		h := s.held.String()
		s.held.Reset()
		s.add(h)
	}
	if s.started {
		return
	}
	s.advance(true)
	if s.buf == "" {
		return
	}
	if s.closing != "" {
		s.onThink(s.buf)
	} else if t := strings.TrimSpace(s.buf); t != "" {
		s.onText(t)
	}
	s.buf = ""
}

// advance hands out what can be decided; at the end (final), a partial
// marker is decided as text.
func (s *thinkSplitter) advance(final bool) {
	for !s.started {
		if s.closing != "" {
			i := strings.Index(s.buf, s.closing)
			if i < 0 {
				// Hand out all but what could begin the closing marker.
				keep := partialSuffix(s.buf, s.closing)
				if final {
					keep = 0
				}
				if n := len(s.buf) - keep; n > 0 {
					s.onThink(s.buf[:n])
					s.buf = s.buf[n:]
				}
				return
			}
			if i > 0 {
				s.onThink(s.buf[:i])
			}
			s.buf = s.buf[i+len(s.closing):]
			s.closing = ""
			continue
		}
		rest := strings.TrimLeft(s.buf, " \t\r\n")
		if rest == "" {
			s.buf = rest
			return
		}
		matched, partial := false, false
		for _, m := range answerMarkers() {
			if strings.HasPrefix(rest, m) {
				s.buf, matched = rest[len(m):], true
				break
			}
			partial = partial || strings.HasPrefix(m, rest)
		}
		if matched {
			continue
		}
		for _, tag := range thinkTags() {
			if strings.HasPrefix(rest, tag.open) {
				s.buf, s.closing, matched = rest[len(tag.open):], tag.close, true
				break
			}
			partial = partial || strings.HasPrefix(tag.open, rest)
		}
		if matched {
			continue
		}
		if partial && !final {
			s.buf = rest
			return
		}
		s.started = true
		s.buf = ""
		s.onText(rest)
	}
}

// partialSuffix is the length of the longest end of s that is a proper
// beginning of marker.
func partialSuffix(s, marker string) int {
	for n := min(len(s), len(marker)-1); n > 0; n-- {
		if strings.HasSuffix(s, marker[:n]) {
			return n
		}
	}
	return 0
}

// splitThinking parts a whole answer into the thinking written into it and
// the answer proper, as the streaming splitter does, and also takes the
// thinking of a model whose template opened the block in the prompt: an
// answer with a closing </think> but no opening one.
func splitThinking(content string) (thinking, answer string) {
	var th, an strings.Builder
	s := thinkSplitter{onText: func(t string) { an.WriteString(t) }, onThink: func(t string) { th.WriteString(t) }}
	s.add(content)
	s.flush()
	thinking, answer = th.String(), an.String()
	if thinking == "" {
		if i := strings.Index(answer, "</think>"); i >= 0 && !strings.Contains(answer[:i], "<think>") {
			thinking, answer = answer[:i], answer[i+len("</think>"):]
		}
	}
	answer = strings.TrimSpace(answer)
	if thinking != "" {
		for _, end := range answerEnds() {
			answer = strings.TrimSpace(strings.TrimSuffix(answer, end))
		}
	}
	return strings.TrimSpace(thinking), answer
}
