package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
	"pincer/internal/human"
)

// The formats Export writes.
const (
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// exportFormatName and exportVersion identify a JSON export, so tools that
// read it can tell what they have.
const (
	exportFormatName = "pincer-session"
	exportVersion    = 1
)

// Document is what Export writes in the JSON format: the session with its
// summary and every message. Its field names are stable.
type Document struct {
	Format  string  `json:"format"`
	Version int     `json:"version"`
	Session Session `json:"session"`
	// Messages are every stored message; those a rewind dropped are
	// there too, with Rewound set.
	Messages []chat.Message `json:"messages"`
	// Rewinds are the session's rewinds in force, oldest first.
	Rewinds []Rewind `json:"rewinds,omitempty"`
}

// ExportOptions say how ExportWith writes a session.
type ExportOptions struct {
	// Format is FormatMarkdown or FormatJSON.
	Format string
	// Redact replaces secret-looking text (keys, tokens, passwords,
	// private key blocks: what the recall index never holds) with
	// RedactMark, for an export that leaves the machine or the person:
	// a file in the project, a paste into an issue.
	Redact bool
}

// ExportStats say what an export did.
type ExportStats struct {
	// Redacted is how many secret-looking pieces were replaced.
	Redacted int
}

// Export writes the session found by ref, with its summary and every
// message, to w: FormatMarkdown is a readable transcript, FormatJSON an
// Export document. Messages a rewind dropped are written too, marked as
// rewound, so a person sees what the model no longer gets. The store is
// read in one transaction and released before anything is written to w.
// Nothing is redacted: ExportWith does that.
func (s *Store) Export(w io.Writer, ref string, format string) error {
	_, err := s.ExportWith(w, ref, ExportOptions{Format: format})
	return err
}

// ExportWith is Export with options: with Redact, secret-looking text is
// replaced, and the stats say how much.
func (s *Store) ExportWith(w io.Writer, ref string, o ExportOptions) (ExportStats, error) {
	var stats ExportStats
	format := o.Format
	if format != FormatMarkdown && format != FormatJSON {
		return stats, fmt.Errorf("unknown export format %q; use %s or %s", format, FormatMarkdown, FormatJSON)
	}
	doc := Document{Format: exportFormatName, Version: exportVersion}
	err := s.view(func(tx *bolt.Tx) error {
		rec, err := resolve(tx, ref)
		if err != nil {
			return err
		}
		doc.Session = withSummary(tx, rec)
		if doc.Messages, err = readMessages(tx, rec.ID, 0); err != nil {
			return err
		}
		rewinds, err := readRewinds(tx, rec.ID)
		for _, r := range rewinds {
			doc.Rewinds = append(doc.Rewinds, r.rewind())
		}
		return err
	})
	if err != nil {
		return stats, err
	}
	if doc.Messages == nil {
		doc.Messages = []chat.Message{}
	}
	if o.Redact {
		stats.Redacted = redactDocument(&doc)
	}
	if format == FormatJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return stats, fmt.Errorf("export session %s as JSON: %w", doc.Session.ID, err)
		}
		return stats, nil
	}
	bw := bufio.NewWriter(w)
	writeMarkdown(bw, doc.Session, doc.Messages, doc.Rewinds)
	if err := bw.Flush(); err != nil {
		return stats, fmt.Errorf("export session %s as markdown: %w", doc.Session.ID, err)
	}
	return stats, nil
}

// redactDocument replaces the secret-looking text of every free-text part
// of doc (the title, the summary, and each message's content, reasoning,
// tool arguments and sub-agent steps) and counts the pieces.
func redactDocument(doc *Document) int {
	n := 0
	red := func(s *string) {
		out, k := RedactSecrets(*s)
		*s, n = out, n+k
	}
	red(&doc.Session.Title)
	red(&doc.Session.Summary)
	for i := range doc.Messages {
		m := &doc.Messages[i]
		red(&m.Content)
		red(&m.Reasoning)
		for j := range m.ToolCalls {
			red(&m.ToolCalls[j].Arguments)
		}
		for j := range m.Steps {
			red(&m.Steps[j].Summary)
			red(&m.Steps[j].Args)
		}
	}
	return n
}

// writeMarkdown renders a transcript: the session's facts, the summary, then
// one section per turn (a turn starts with each user message).
func writeMarkdown(w *bufio.Writer, sess Session, msgs []chat.Message, rewinds []Rewind) {
	title := sess.Name
	if title == "" {
		title = sess.Title
	}
	if title == "" {
		title = sess.ID
	}
	fmt.Fprintf(w, "# %s\n\n", human.Fold(title))
	fmt.Fprintf(w, "- **Session:** `%s`\n", sess.ID)
	if sess.Name != "" {
		fmt.Fprintf(w, "- **Name:** %s\n", sess.Name)
	}
	if sess.Title != "" && sess.Title != title {
		fmt.Fprintf(w, "- **Title:** %s\n", sess.Title)
	}
	fmt.Fprintf(w, "- **Directory:** `%s`\n", sess.Dir)
	if sess.Model != "" {
		fmt.Fprintf(w, "- **Model:** %s\n", sess.Model)
	}
	fmt.Fprintf(w, "- **Created:** %s\n", stamp(sess.Created))
	fmt.Fprintf(w, "- **Last activity:** %s\n", stamp(sess.Updated))
	fmt.Fprintf(w, "- **Messages:** %d\n", sess.MessageCount)
	fmt.Fprintf(w, "- **Tokens:** %d prompt, %d completion%s\n", sess.Usage.PromptTokens, sess.Usage.CompletionTokens, usageNote(sess.Usage, "in part"))
	if sess.Usage.Cost > 0 {
		fmt.Fprintf(w, "- **Cost:** %s\n", human.Dollars(sess.Usage.Cost))
	}
	if sess.ForkOf != "" {
		fmt.Fprintf(w, "- **Forked from:** `%s`\n", sess.ForkOf)
	}
	for _, r := range rewinds {
		fmt.Fprintf(w, "- **Rewound:** messages %d–%d on %s; they are shown below but no longer sent to the model\n", r.From, r.Through, stamp(r.Time))
	}

	if sess.Summary != "" {
		fmt.Fprintf(w, "\n## Summary\n\n_Covers messages 1–%d._\n\n%s\n", sess.SummaryThrough, strings.TrimRight(sess.Summary, "\n"))
	}

	turn := 0
	for i, m := range msgs {
		if m.Role == chat.RoleUser {
			turn++
			fmt.Fprintf(w, "\n## Turn %d%s\n", turn, rewoundMark(m))
		} else if i == 0 {
			w.WriteString("\n## Before the first prompt\n")
		}
		writeMessage(w, m)
	}
}

// usageNote marks counts pincer estimated because the server sent none.
func usageNote(u chat.Usage, part string) string {
	if !u.Estimated {
		return ""
	}
	if part != "" {
		return " (estimated " + part + ": the server sent no counts)"
	}
	return " (estimated)"
}

// writeMessage renders one message under its own heading.
func writeMessage(w *bufio.Writer, m chat.Message) {
	fmt.Fprintf(w, "\n### %s%s\n\n_#%d · %s", heading(m), rewoundMark(m), m.Seq, stamp(m.Time))
	if m.Usage != nil {
		fmt.Fprintf(w, " · %d prompt + %d completion tokens%s", m.Usage.PromptTokens, m.Usage.CompletionTokens, usageNote(*m.Usage, ""))
		if m.Usage.Cost > 0 {
			fmt.Fprintf(w, " · %s", human.Dollars(m.Usage.Cost))
		}
	}
	w.WriteString("_\n")
	if m.Reasoning != "" {
		w.WriteString("\n**Reasoning**\n\n")
		writeFenced(w, "text", m.Reasoning)
	}
	if m.Content != "" {
		w.WriteString("\n")
		prose := m.Role == chat.RoleUser || m.Role == chat.RoleAssistant || m.Kind == chat.KindSummary
		if prose && fencesClosed(m.Content) {
			fmt.Fprintf(w, "%s\n", strings.TrimRight(m.Content, "\n"))
		} else {
			writeFenced(w, "text", m.Content)
		}
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(w, "\n**Tool call** `%s` (`%s`)\n\n", c.Name, c.ID)
		writeFenced(w, "json", c.Arguments)
	}
	if len(m.Steps) > 0 {
		w.WriteString("\n**Sub-agent steps**\n\n")
		writeFenced(w, "text", stepLines(m.Steps))
	}
}

// stepLines lists a sub-agent's steps one a line: a mark, then the call's
// summary, or its tool and arguments when it never ran.
func stepLines(steps []chat.Step) string {
	var b strings.Builder
	for _, s := range steps {
		mark := "✓"
		if s.IsError {
			mark = "✗"
		}
		what := s.Summary
		if what == "" {
			what = strings.TrimSpace(s.Tool + " " + s.Args)
		}
		fmt.Fprintf(&b, "%s %s\n", mark, strings.ReplaceAll(what, "\n", " "))
	}
	return b.String()
}

// rewoundMark is the suffix of the heading of a message a rewind dropped.
func rewoundMark(m chat.Message) string {
	if m.Rewound {
		return " (rewound)"
	}
	return ""
}

// heading names a message for its section title.
func heading(m chat.Message) string {
	var h string
	switch m.Role {
	case chat.RoleUser:
		h = "User"
	case chat.RoleAssistant:
		h = "Assistant"
	case chat.RoleSystem:
		h = "System"
	case chat.RoleTool:
		h = "Tool result"
		if m.ToolName != "" {
			h += ": `" + m.ToolName + "`"
		}
		if m.ToolCallID != "" {
			h += " (`" + m.ToolCallID + "`)"
		}
	default:
		h = string(m.Role)
	}
	if m.Kind != "" {
		h += " — " + m.Kind
	}
	if m.IsError {
		h += " — error"
	}
	return h
}

// writeFenced writes text in a code fence longer than any run of backticks
// inside it, so the text cannot end the block early.
func writeFenced(w *bufio.Writer, lang, text string) {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	fmt.Fprintf(w, "%s%s\n%s\n%s\n", fence, lang, strings.TrimRight(text, "\n"), fence)
}

// fencesClosed reports whether every code fence opened in markdown text is
// closed again; text with an open fence would swallow the rest of the
// transcript, so it is shown verbatim instead.
func fencesClosed(text string) bool {
	open := ""
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		run := strings.Repeat("`", longestRun(line, '`'))
		if len(run) < 3 || !strings.HasPrefix(line, run) {
			continue
		}
		switch {
		case open == "":
			open = run
		case strings.TrimRight(line, "`") == "" && len(run) >= len(open):
			open = ""
		}
	}
	return open == ""
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// stamp formats a time for a transcript.
func stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}
