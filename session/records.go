package session

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"pincer/chat"
)

// recordVersion is written into every record so a later migration can tell
// old records from new ones.
const recordVersion = 1

// The record types are the stored form. They are kept apart from the
// exported types so that the API can change without changing the file.

type usageRecord struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	Reasoning  int `json:"reasoning,omitempty"`
	Cached     int `json:"cached,omitempty"`
	// Estimated and Cost are chat.Usage's; records written before they
	// existed read as server counts without a price.
	Estimated bool    `json:"estimated,omitempty"`
	Cost      float64 `json:"cost,omitempty"`
}

type sessionRecord struct {
	V              int         `json:"v"`
	ID             string      `json:"id"`
	Name           string      `json:"name,omitempty"`
	Dir            string      `json:"dir"`
	Model          string      `json:"model,omitempty"`
	Created        time.Time   `json:"created"`
	Updated        time.Time   `json:"updated"`
	Usage          usageRecord `json:"usage"`
	SummaryThrough uint64      `json:"summary_through,omitempty"`
	Title          string      `json:"title,omitempty"`
	MessageCount   int         `json:"message_count"`
	ForkOf         string      `json:"fork_of,omitempty"`
	Headless       bool        `json:"headless,omitempty"`
	Private        bool        `json:"private,omitempty"`
	Forgotten      bool        `json:"forgotten,omitempty"`
}

// unrecalled reports whether the session is kept out of the search index:
// private, or forgotten by recall.
func (r sessionRecord) unrecalled() bool { return r.Private || r.Forgotten }

type toolCallRecord struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type messageRecord struct {
	V         int    `json:"v"`
	Seq       uint64 `json:"seq"`
	Role      string `json:"role"`
	Kind      string `json:"kind,omitempty"`
	Content   string `json:"content,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningField is chat.Message.ReasoningField.
	ReasoningField string           `json:"reasoning_field,omitempty"`
	ToolCalls      []toolCallRecord `json:"tool_calls,omitempty"`
	ToolCallID     string           `json:"tool_call_id,omitempty"`
	ToolName       string           `json:"tool_name,omitempty"`
	IsError        bool             `json:"is_error,omitempty"`
	Time           time.Time        `json:"time"`
	Usage          *usageRecord     `json:"usage,omitempty"`
	Touched        []touchRecord    `json:"touched,omitempty"`
	Steps          []stepRecord     `json:"steps,omitempty"`
}

type stepRecord struct {
	Tool    string `json:"tool"`
	Summary string `json:"summary,omitempty"`
	Args    string `json:"args,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}

type touchRecord struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// toUsageRecord keeps what a usage record holds: the server's own total is
// not stored.
func toUsageRecord(u chat.Usage) usageRecord {
	return usageRecord{Prompt: u.PromptTokens, Completion: u.CompletionTokens, Reasoning: u.ReasoningTokens, Cached: u.CachedTokens,
		Estimated: u.Estimated, Cost: u.Cost}
}

// usage reads a usage record back; its total is prompt plus completion.
func (r usageRecord) usage() chat.Usage {
	return chat.Usage{PromptTokens: r.Prompt, CompletionTokens: r.Completion, TotalTokens: r.Prompt + r.Completion,
		ReasoningTokens: r.Reasoning, CachedTokens: r.Cached, Estimated: r.Estimated, Cost: r.Cost}
}

func toSessionRecord(s Session) sessionRecord {
	return sessionRecord{
		V:              recordVersion,
		ID:             s.ID,
		Name:           s.Name,
		Dir:            s.Dir,
		Model:          s.Model,
		Created:        s.Created.UTC(),
		Updated:        s.Updated.UTC(),
		Usage:          toUsageRecord(s.Usage),
		SummaryThrough: s.SummaryThrough,
		Title:          s.Title,
		MessageCount:   s.MessageCount,
		ForkOf:         s.ForkOf,
		Headless:       s.Headless,
		Private:        s.Private,
		Forgotten:      s.Forgotten,
	}
}

// session converts the record; the summary lives in its own bucket and is
// filled in by the caller when it needs it.
func (r sessionRecord) session() Session {
	return Session{
		ID:             r.ID,
		Name:           r.Name,
		Dir:            r.Dir,
		Model:          r.Model,
		Created:        r.Created,
		Updated:        r.Updated,
		Usage:          r.Usage.usage(),
		SummaryThrough: r.SummaryThrough,
		Title:          r.Title,
		MessageCount:   r.MessageCount,
		ForkOf:         r.ForkOf,
		Headless:       r.Headless,
		Private:        r.Private,
		Forgotten:      r.Forgotten,
	}
}

// toMessageRecord is m as stored. What a message holds only while it is
// in use (a call's Oversize, Rewound) is not stored.
func toMessageRecord(m chat.Message) messageRecord {
	r := messageRecord{
		V:              recordVersion,
		Seq:            m.Seq,
		Role:           string(m.Role),
		Kind:           m.Kind,
		Content:        m.Content,
		Reasoning:      m.Reasoning,
		ReasoningField: m.ReasoningField,
		ToolCallID:     m.ToolCallID,
		ToolName:       m.ToolName,
		IsError:        m.IsError,
		Time:           m.Time.UTC(),
	}
	for _, c := range m.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, toolCallRecord{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	if m.Usage != nil {
		u := toUsageRecord(*m.Usage)
		r.Usage = &u
	}
	for _, t := range m.Touched {
		r.Touched = append(r.Touched, touchRecord{Path: t.Path, Kind: t.Kind.String()})
	}
	for _, s := range m.Steps {
		r.Steps = append(r.Steps, stepRecord(s))
	}
	return r
}

// message reads a record back. A touched file of a kind this pincer does
// not know (a record from a newer one) is left out, not misread.
func (r messageRecord) message() chat.Message {
	m := chat.Message{
		Seq:            r.Seq,
		Role:           chat.Role(r.Role),
		Kind:           r.Kind,
		Content:        r.Content,
		Reasoning:      r.Reasoning,
		ReasoningField: r.ReasoningField,
		ToolCallID:     r.ToolCallID,
		ToolName:       r.ToolName,
		IsError:        r.IsError,
		Time:           r.Time,
	}
	for _, c := range r.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, chat.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	if r.Usage != nil {
		u := r.Usage.usage()
		m.Usage = &u
	}
	for _, t := range r.Touched {
		if k := chat.ParseTouchKind(t.Kind); k != 0 {
			m.Touched = append(m.Touched, chat.Touch{Path: t.Path, Kind: k})
		}
	}
	for _, s := range r.Steps {
		m.Steps = append(m.Steps, chat.Step(s))
	}
	return m
}

// decodeSession decodes the record stored under the key id. A record that
// does not decode, or that names another session, was damaged on disk: the
// error (ErrDamagedRecord) says which session it is and how to be rid of it.
func decodeSession(id string, raw []byte) (sessionRecord, error) {
	var r sessionRecord
	err := json.Unmarshal(raw, &r)
	switch {
	case err != nil:
	case r.ID != id:
		err = fmt.Errorf("it names session %q", r.ID)
	case r.V < 1:
		err = fmt.Errorf("its version %d is not one pincer writes", r.V)
	}
	if err != nil {
		e := newError(ErrDamagedRecord, err,
			"the record of session %s cannot be read (%v); it was damaged on disk: delete it with 'pincer sessions rm %s'",
			printableID(id), err, printableID(id)).(*storeError)
		e.subject = id
		return sessionRecord{}, e
	}
	return r, nil
}

// printableID shows a key from the file safely: a damaged key may hold
// any bytes.
func printableID(id string) string {
	if utf8.ValidString(id) && !strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ' ' || r == '\'' }) {
		return id
	}
	return strconv.Quote(id)
}

func decodeMessage(raw []byte) (messageRecord, error) {
	var r messageRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("decode message record: %w", err)
	}
	return r, nil
}

type taskRecord struct {
	V         int       `json:"v"`
	ID        string    `json:"id"`
	Session   string    `json:"session,omitempty"`
	Dir       string    `json:"dir,omitempty"`
	Prompt    string    `json:"prompt"`
	Next      time.Time `json:"next"`
	EveryNS   int64     `json:"every_ns,omitempty"`
	Created   time.Time `json:"created"`
	LastRun   time.Time `json:"last_run,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	Failures  int       `json:"failures,omitempty"`
	Runs      int       `json:"runs,omitempty"`
	// ClaimedUntil is when a scheduler's claim on the task runs out (see
	// ClaimTask); zero when nobody runs it.
	ClaimedUntil time.Time `json:"claimed_until,omitzero"`
	ByModel      bool      `json:"by_model,omitempty"`
	Chat         int64     `json:"chat,omitempty"`
	By           string    `json:"by,omitempty"`
}

func toTaskRecord(t Task) taskRecord {
	r := taskRecord{
		V:         recordVersion,
		ID:        t.ID,
		Session:   t.Session,
		Dir:       t.Dir,
		Prompt:    t.Prompt,
		Next:      t.Next.UTC(),
		EveryNS:   int64(t.Every),
		Created:   t.Created.UTC(),
		LastError: t.LastError,
		Failures:  t.Failures,
		Runs:      t.Runs,
		ByModel:   t.ByModel,
		Chat:      t.Chat,
		By:        t.By,
	}
	if !t.LastRun.IsZero() {
		r.LastRun = t.LastRun.UTC()
	}
	return r
}

func (r taskRecord) task() Task {
	return Task{
		ID:        r.ID,
		Session:   r.Session,
		Dir:       r.Dir,
		Prompt:    r.Prompt,
		Next:      r.Next,
		Every:     time.Duration(r.EveryNS),
		Created:   r.Created,
		LastRun:   r.LastRun,
		LastError: r.LastError,
		Failures:  r.Failures,
		Runs:      r.Runs,
		ByModel:   r.ByModel,
		Chat:      r.Chat,
		By:        r.By,
	}
}

func decodeTask(raw []byte) (taskRecord, error) {
	var r taskRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("decode task record: %w", err)
	}
	return r, nil
}

type checkpointRecord struct {
	V       int       `json:"v"`
	Seq     uint64    `json:"seq"`
	Before  string    `json:"before"`
	After   string    `json:"after,omitempty"`
	Time    time.Time `json:"time"`
	Skipped []string  `json:"skipped,omitempty"`
}

func toCheckpointRecord(c Checkpoint) checkpointRecord {
	return checkpointRecord{V: recordVersion, Seq: c.Seq, Before: c.Before, After: c.After, Time: c.Time.UTC(), Skipped: c.Skipped}
}

func (r checkpointRecord) checkpoint() Checkpoint {
	return Checkpoint{Seq: r.Seq, Before: r.Before, After: r.After, Time: r.Time, Skipped: r.Skipped}
}

type rewindRecord struct {
	V              int       `json:"v"`
	From           uint64    `json:"from"`
	Through        uint64    `json:"through"`
	Time           time.Time `json:"time"`
	Code           string    `json:"code,omitempty"`
	Summary        string    `json:"summary,omitempty"`
	SummaryThrough uint64    `json:"summary_through,omitempty"`
	// SummaryAfter is the session's SummaryThrough right after the rewind,
	// so Redo can tell that the session was compacted since.
	SummaryAfter uint64 `json:"summary_after,omitempty"`
}

func toRewindRecord(r Rewind) rewindRecord {
	return rewindRecord{V: recordVersion, From: r.From, Through: r.Through, Time: r.Time.UTC(), Code: r.Code,
		Summary: r.Summary, SummaryThrough: r.SummaryThrough}
}

func (r rewindRecord) rewind() Rewind {
	return Rewind{From: r.From, Through: r.Through, Time: r.Time, Code: r.Code, Summary: r.Summary, SummaryThrough: r.SummaryThrough}
}
