package sessiontools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"pincer/chat"
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

// Where is where the store searches for this scope: a project's
// directory, or only some sessions; all asks for every
// project (granted or approved already).
func (sc RecallScope) Where(all bool) (dir string, sessions []string, err error) {
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
	dir, sessions, err := c.scope.Where(c.wide())
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
		dir := human.Tilde(h.Dir, home)
		who := h.Role
		if h.Kind == chat.KindSummary {
			who = "summary"
		}
		fmt.Fprintf(&b, "\n%d. %s · session %q (%s) · %s:\n   %s\n", i+1, h.Time.Local().Format("2006-01-02 15:04"), name, dir, who, h.Snippet)
	}
	return b.String()
}
