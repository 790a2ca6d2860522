package transcript

// maxQueuedLines is how many lines one queued message takes at most.
const maxQueuedLines = 3

// SetQueued shows the messages typed while the agent is busy, in order, at
// the bottom of the transcript. Pass nil once they are sent.
func (m *Model) SetQueued(texts []string) {
	s := m.s
	s.queued = append(s.queued[:0:0], texts...)
	s.queuedGen = -1
	s.grew()
}

// queuedBlock renders the queued messages.
func (s *state) queuedBlock() []string {
	if len(s.queued) == 0 {
		return nil
	}
	if s.queuedGen == s.gen {
		return s.queuedLines
	}
	w := s.contentWidth()
	var out []string
	for _, q := range s.queued {
		lines := wrapPlain("queued: "+q, w)
		if len(lines) > maxQueuedLines {
			lines = append(lines[:maxQueuedLines-1], "…")
		}
		out = append(out, styleLines(lines, s.styles.Muted)...)
	}
	s.queuedLines, s.queuedGen = out, s.gen
	return out
}
