package agent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pincer/internal/human"
	"pincer/session"
	"pincer/tools/sessiontools"
)

// RecallMode says when notes from earlier sessions are added before a
// prompt.
type RecallMode string

// The recall modes: RecallAuto adds only matches strong enough to be worth
// the tokens, RecallAlways adds the best matches whatever their strength,
// RecallOff adds nothing.
const (
	RecallAuto   RecallMode = "auto"
	RecallAlways RecallMode = "always"
	RecallOff    RecallMode = "off"
)

// Auto recall's policy. A candidate must match at least minRelevance of the
// prompt's weight (see session.Store.Recall, which also drops matches made
// of one word or of everyday words only); the threshold was tuned on
// agent/testdata/recall_set.json, where the facts asked about score 0.37
// to 1 and no unrelated request or command gets past Recall at all
// (greetings and thanks have no words to look up). recall_heldout.json
// measures the same on prompts that were never used for tuning. Beyond the first, a note must also come
// within relevanceMargin of the best, so a strong match does not drag weak
// ones along. At most maxRecalled notes of at most recallTokens tokens in
// all are added.
const (
	minRelevance    = 0.25
	relevanceMargin = 0.5
	maxRecalled     = 3
	recallTokens    = 600
	recallNoteRunes = 600
)

// RecalledNote is one note auto recall gave the model: from a session
// (SessionName, SessionID) or from the project's memory (NoteID).
type RecalledNote struct {
	SessionID   string    `json:"session_id,omitempty"`
	SessionName string    `json:"session,omitempty"`
	NoteID      uint64    `json:"note_id,omitempty"`
	Role        string    `json:"role,omitempty"`
	When        time.Time `json:"when"`
	Text        string    `json:"text"`
	Relevance   float64   `json:"relevance"`
}

// Source names where the note came from, for people: the session's name
// (or the start of its id), or "memory" for a saved note.
func (n RecalledNote) Source() string {
	if n.NoteID != 0 {
		return "memory"
	}
	if n.SessionName != "" {
		return n.SessionName
	}
	if len(n.SessionID) > 12 {
		return n.SessionID[:12]
	}
	return n.SessionID
}

// Recaller finds notes from earlier sessions for a prompt. inContext
// reports whether a text is already in what the model is given, so it is
// not given twice.
type Recaller interface {
	Recall(prompt string, inContext func(text string) bool) []RecalledNote
}

// StoreRecall is the Recaller of a session store.
type StoreRecall struct {
	Store *session.Store
	Mode  RecallMode
	// Scope is where it looks: the same as the recall tool's.
	Scope sessiontools.RecallScope
	// Current names the session in use, which is left out.
	Current func() string
}

// Recall returns the notes worth adding before prompt: none when the mode
// is off or the search fails (auto recall must never stop a turn).
func (r StoreRecall) Recall(prompt string, inContext func(string) bool) []RecalledNote {
	if r.Mode == RecallOff || r.Store == nil {
		return nil
	}
	dir, sessions, err := r.Scope.Where(r.Scope.AllProjects)
	if err != nil {
		return nil
	}
	o := session.RecallOptions{Dir: dir, Sessions: sessions}
	if r.Current != nil {
		o.ExcludeSession = r.Current()
	}
	hits, err := r.Store.Recall(prompt, o)
	if err != nil {
		return nil
	}
	return SelectRecalled(hits, r.Mode, inContext)
}

// SelectRecalled applies the mode's policy to ranked candidates: the
// threshold and margin (auto only), leaving out text already in context,
// and the caps on count and tokens.
func SelectRecalled(hits []session.Hit, mode RecallMode, inContext func(string) bool) []RecalledNote {
	var out []RecalledNote
	tokens, best := 0, 0.0
	seen := map[string]bool{}
	for _, h := range hits {
		if len(out) == maxRecalled {
			break
		}
		if mode != RecallAlways {
			if h.Relevance < minRelevance || (best > 0 && h.Relevance < relevanceMargin*best) {
				continue
			}
		}
		text := plainSnippet(h.Snippet)
		if text == "" || seen[text] || (inContext != nil && inContext(text)) {
			continue
		}
		if r := []rune(text); len(r) > recallNoteRunes {
			text = string(r[:recallNoteRunes]) + "…"
		}
		cost := len(text)/4 + 12
		if tokens+cost > recallTokens {
			continue
		}
		seen[text] = true
		tokens += cost
		best = max(best, h.Relevance)
		n := RecalledNote{SessionID: h.SessionID, SessionName: h.SessionName, NoteID: h.NoteID, Role: h.Role, When: h.Time, Text: text, Relevance: h.Relevance}
		if h.Kind == KindSummary {
			n.Role = "summary"
		}
		out = append(out, n)
	}
	return out
}

// plainSnippet is a snippet without its match marks, on one line.
func plainSnippet(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	return strings.Join(strings.Fields(s), " ")
}

// RecallSummary is the one line that tells people what auto recall added:
// "recalled 2 notes from 'db-migration', 3 days ago".
func RecallSummary(notes []RecalledNote, now time.Time) string {
	if len(notes) == 0 {
		return ""
	}
	var sources []string
	newest := time.Time{}
	for _, n := range notes {
		src := "'" + n.Source() + "'"
		if n.NoteID != 0 {
			src = "saved memory"
		}
		if !slices.Contains(sources, src) {
			sources = append(sources, src)
		}
		if n.When.After(newest) {
			newest = n.When
		}
	}
	when := "some time ago"
	if !newest.IsZero() {
		when = human.Ago(now, newest)
	}
	return fmt.Sprintf("recalled %s from %s, %s", human.Plural(len(notes), "note"), strings.Join(sources, " and "), when)
}

// RecallText is the system message that gives the model the notes, exactly
// as sent.
func RecallText(notes []RecalledNote) string {
	if len(notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Notes recalled automatically from earlier work in this project, because they match the user's next message. They may be outdated; use them only if they help.\n")
	for _, n := range notes {
		when := n.When.Local().Format("2006-01-02")
		if n.NoteID != 0 {
			fmt.Fprintf(&b, "\n- Saved note #%d (%s): %s", n.NoteID, when, n.Text)
			continue
		}
		fmt.Fprintf(&b, "\n- Session %q, %s (%s): %s", n.Source(), when, n.Role, n.Text)
	}
	return b.String()
}
