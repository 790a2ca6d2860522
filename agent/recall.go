package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"pincer/internal/human"
	"pincer/session"
	"pincer/tools"
)

// recallArgs are the arguments of the recall tool.
type recallArgs struct {
	Query string `json:"query" jsonschema_description:"Keywords to look for in earlier sessions: names, error messages, file paths, decisions."`
	Scope string `json:"scope,omitempty" jsonschema:"enum=project,enum=all" jsonschema_description:"project (the default) searches this project's earlier sessions. all reaches other projects' sessions: use it only when the user asks about work in another project; it may need the user's approval or be refused."`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=20" jsonschema_description:"How many matches to return."`
}

// RecallScope is where recall may look: the same for the recall tool as
// for automatic recall, so the model cannot read further by asking.
type RecallScope struct {
	// Dir is the project.
	Dir string
	// AllProjects lets recall read every project's sessions and notes
	// unasked (recall_scope "all", which a project's own file may set only
	// once it is trusted). Without it, the tool asks before it reads other
	// projects, and automatic recall never does.
	AllProjects bool
	// Sessions, when set, keeps recall to the sessions it returns and
	// leaves out the project's notes: a Telegram chat's own sessions.
	// Nothing wider is then asked about: the tool refuses it.
	Sessions func() ([]string, error)
	// Narrowed says, for the model, why recall is held to Sessions and who
	// can change it ("this Telegram chat's own sessions").
	Narrowed string
}

// options are the store's options for this scope; all asks for every
// project (granted or approved already).
func (sc RecallScope) options(all bool) (dir string, sessions []string, err error) {
	if sc.Sessions != nil {
		sessions, err = sc.Sessions()
		if sessions == nil {
			sessions = []string{}
		}
		return sc.Dir, sessions, err
	}
	if all {
		return "", nil, nil
	}
	return sc.Dir, nil, nil
}

// beyondProject is what a call of recall over every project reaches, as
// the approval names it.
const beyondProject = "reads the sessions and notes of every project on this computer, not only this one (recall_scope is \"project\")"

// RecallTool is the recall tool: a ranked keyword search over the messages
// of earlier sessions, so the model can find what was decided or tried
// before. current returns the session in use, whose messages are left out
// (the model has them already). It keeps to scope: reading other projects
// is asked about, unless recall_scope "all" grants it, or refused, in a
// scope narrowed to some sessions.
func RecallTool(st *session.Store, scope RecallScope, current func() string) (tools.Tool, error) {
	return tools.New(tools.Spec[recallArgs]{
		Name: "recall",
		Description: "Search the messages of earlier pincer sessions of this project by keywords (ranked by relevance) and get short dated snippets with the session's name. " +
			"Use it when the user refers to earlier work (\"like we did last week\", \"the bug from yesterday\") or when a past decision or error may matter. " +
			"It does not search files; use grep for that.",
		Defaults: recallArgs{Scope: "project", Limit: 8},
		Example:  recallArgs{Query: "flaky integration test timeout"},
		Check: func(a *recallArgs) error {
			if strings.TrimSpace(a.Query) == "" {
				return errors.New(`"query" is empty; give the keywords to search for`)
			}
			return nil
		},
		Bind: func(a recallArgs) tools.Call {
			return &recallCall{st: st, scope: scope, current: current, args: a}
		},
	})
}

type recallCall struct {
	st      *session.Store
	scope   RecallScope
	current func() string
	args    recallArgs
}

func (c *recallCall) Summary() string {
	if c.wide() {
		return "recall " + c.args.Query + " (in every project's sessions)"
	}
	return "recall " + c.args.Query
}

// wide reports whether the call asks for every project.
func (c *recallCall) wide() bool { return c.args.Scope == "all" }

// Access names the crossing when the call would read other projects
// without recall_scope "all": the agent asks first.
func (c *recallCall) Access() tools.Access {
	if c.wide() && !c.scope.AllProjects && c.scope.Sessions == nil {
		return tools.Access{Beyond: beyondProject}
	}
	return tools.Access{}
}

// Run searches; it runs only once the person approved what Access named.
func (c *recallCall) Run(ctx context.Context) (tools.Result, error) {
	if c.wide() && c.scope.Sessions != nil {
		return tools.Result{IsError: true, Content: fmt.Sprintf("recall here reads only %s; other sessions and projects are not searched. Nothing was searched.", c.scope.Narrowed)}, nil
	}
	dir, sessions, err := c.scope.options(c.wide())
	if err != nil {
		return tools.Result{Content: "recall failed: " + err.Error(), IsError: true}, nil
	}
	o := session.SearchOptions{Limit: c.args.Limit, Dir: dir, Sessions: sessions}
	if c.current != nil {
		o.ExcludeSession = c.current()
	}
	hits, err := c.st.Search(c.args.Query, o)
	if err != nil {
		return tools.Result{Content: "recall failed: " + err.Error(), IsError: true}, nil
	}
	where := "in any earlier session"
	switch {
	case sessions != nil:
		where = "in " + c.scope.Narrowed
	case dir != "":
		where = "in this project's earlier sessions"
	}
	return tools.Result{Content: formatHits(c.args.Query, hits, where)}, nil
}

// formatHits writes search hits for the model, one per line block; where
// says what was searched when nothing was found.
func formatHits(query string, hits []session.Hit, where string) string {
	if len(hits) == 0 {
		return fmt.Sprintf("Nothing found for %q %s.", query, where)
	}
	home, _ := os.UserHomeDir()
	var b strings.Builder
	fmt.Fprintf(&b, "%d matches for %q in earlier sessions, best first:\n", len(hits), query)
	for i, h := range hits {
		name := h.SessionName
		if name == "" {
			name = h.SessionID
			if len(name) > 12 {
				name = name[:12]
			}
		}
		dir := h.Dir
		if home != "" && strings.HasPrefix(dir, home+string(filepath.Separator)) {
			dir = "~" + dir[len(home):]
		}
		who := h.Role
		if h.Kind == KindSummary {
			who = "summary"
		}
		fmt.Fprintf(&b, "\n%d. %s · session %q (%s) · %s:\n   %s\n", i+1, h.Time.Local().Format("2006-01-02 15:04"), name, dir, who, h.Snippet)
	}
	return b.String()
}

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
	Scope RecallScope
	// Current names the session in use, which is left out.
	Current func() string
}

// Recall returns the notes worth adding before prompt: none when the mode
// is off or the search fails (auto recall must never stop a turn).
func (r StoreRecall) Recall(prompt string, inContext func(string) bool) []RecalledNote {
	if r.Mode == RecallOff || r.Store == nil {
		return nil
	}
	dir, sessions, err := r.Scope.options(r.Scope.AllProjects)
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
