package agent

import (
	"fmt"

	"pincer/session"
	"pincer/tools"
)

// SessionLog records a conversation into one session of the store: every
// finished message at once (one transaction each), and summaries.
type SessionLog struct {
	Store *session.Store
	ID    string
}

// Record stores m.
func (l SessionLog) Record(m Message) (uint64, error) {
	return l.Store.Append(l.ID, toStored(m))
}

// RecordSummary stores the summary with the last sequence number it covers.
func (l SessionLog) RecordSummary(summary string, through uint64) error {
	return l.Store.SetSummary(l.ID, summary, through)
}

// LoadSession reads a stored session back: the history, the summary and
// the sequence number it covers, ready for Agent.Restore. Rewound messages
// are left out: the model is no longer sent them (they stay in the store,
// and in `pincer sessions show`, marked).
func LoadSession(st *session.Store, id string) (history []Message, summary string, through uint64, err error) {
	sess, err := st.Get(id)
	if err != nil {
		return nil, "", 0, err
	}
	stored, err := st.Messages(sess.ID, 0)
	if err != nil {
		return nil, "", 0, fmt.Errorf("read the messages of session %s: %w", sess.ID, err)
	}
	history = make([]Message, 0, len(stored))
	for _, m := range stored {
		if !m.Rewound {
			history = append(history, fromStored(m))
		}
	}
	return history, sess.Summary, sess.SummaryThrough, nil
}

func toStored(m Message) session.Message {
	out := session.Message{
		Role:       string(m.Role),
		Kind:       m.Kind,
		Content:    m.Content,
		Reasoning:  m.Reasoning,
		ToolCallID: m.ToolCallID,
		ToolName:   m.ToolName,
		IsError:    m.IsError,
		Time:       m.Time,
	}
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, session.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	for _, t := range m.Touched {
		out.Touched = append(out.Touched, session.Touch{Path: t.Path, Kind: t.Kind.String()})
	}
	for _, s := range m.Steps {
		out.Steps = append(out.Steps, session.Step(s))
	}
	if u := m.Usage; u != nil {
		out.Usage = &session.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
			ReasoningTokens: u.ReasoningTokens, CachedTokens: u.CachedTokens}
	}
	return out
}

func fromStored(m session.Message) Message {
	out := Message{
		Seq:        m.Seq,
		Role:       Role(m.Role),
		Kind:       m.Kind,
		Content:    m.Content,
		Reasoning:  m.Reasoning,
		ToolCallID: m.ToolCallID,
		ToolName:   m.ToolName,
		IsError:    m.IsError,
		Time:       m.Time,
	}
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	for _, t := range m.Touched {
		if k := tools.ParseTouchKind(t.Kind); k != 0 {
			out.Touched = append(out.Touched, tools.Touch{Path: t.Path, Kind: k})
		}
	}
	for _, s := range m.Steps {
		out.Steps = append(out.Steps, SubStep(s))
	}
	if u := m.Usage; u != nil {
		out.Usage = &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
			TotalTokens: u.PromptTokens + u.CompletionTokens, ReasoningTokens: u.ReasoningTokens, CachedTokens: u.CachedTokens}
	}
	return out
}
