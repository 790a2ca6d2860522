package agent

import (
	"fmt"

	"pincer/session"
)

// SessionLog records a conversation into one session of the store: every
// finished message at once (one transaction each), and summaries.
type SessionLog struct {
	Store *session.Store
	ID    string
}

// Record stores m.
func (l SessionLog) Record(m Message) (uint64, error) {
	return l.Store.Append(l.ID, m)
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
			history = append(history, m)
		}
	}
	return history, sess.Summary, sess.SummaryThrough, nil
}
