package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pincer/session"
	"pincer/tools"
)

// recallArgs are the arguments of the recall tool.
type recallArgs struct {
	Query string `json:"query" jsonschema_description:"Keywords to look for in earlier sessions: names, error messages, file paths, decisions."`
	Scope string `json:"scope,omitempty" jsonschema:"enum=project,enum=all" jsonschema_description:"project searches the sessions of this project directory; all searches every session."`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=20" jsonschema_description:"How many matches to return."`
}

// RecallTool is the recall tool: a ranked keyword search over the messages
// of earlier sessions, so the model can find what was decided or tried
// before. current returns the session in use, whose messages are left out
// (the model has them already).
func RecallTool(st *session.Store, dir string, current func() string) (tools.Tool, error) {
	return tools.New(tools.Spec[recallArgs]{
		Name: "recall",
		Description: "Search the messages of earlier pincer sessions by keywords (ranked by relevance) and get short dated snippets with the session's name. " +
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
		Bind: func(a recallArgs) tools.Call { return &recallCall{st: st, dir: dir, current: current, args: a} },
	})
}

type recallCall struct {
	st      *session.Store
	dir     string
	current func() string
	args    recallArgs
}

func (c *recallCall) Summary() string      { return "recall " + c.args.Query }
func (c *recallCall) Access() tools.Access { return tools.Access{} }

func (c *recallCall) Run(ctx context.Context) (tools.Result, error) {
	o := session.SearchOptions{Limit: c.args.Limit}
	if c.args.Scope != "all" {
		o.Dir = c.dir
	}
	if c.current != nil {
		o.ExcludeSession = c.current()
	}
	hits, err := c.st.Search(c.args.Query, o)
	if err != nil {
		return tools.Result{Content: "recall failed: " + err.Error(), IsError: true}, nil
	}
	return tools.Result{Content: formatHits(c.args.Query, hits, c.args.Scope != "all")}, nil
}

// formatHits writes search hits for the model, one per line block.
func formatHits(query string, hits []session.Hit, project bool) string {
	if len(hits) == 0 {
		where := "in any earlier session"
		if project {
			where = "in this project's earlier sessions (try scope \"all\")"
		}
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

// RecallNote is the text auto_recall adds before a prompt: the best matches
// from earlier sessions of this directory, or "" when there are none or
// the search fails (auto recall must never stop a turn).
func RecallNote(st *session.Store, dir, current, prompt string) string {
	hits, err := st.Search(prompt, session.SearchOptions{Dir: dir, Limit: 3, ExcludeSession: current})
	if err != nil || len(hits) == 0 {
		return ""
	}
	return "Possibly relevant notes from earlier sessions in this project (found automatically; use them only if they help):\n" +
		strings.TrimPrefix(formatHits(prompt, hits, true), fmt.Sprintf("%d matches for %q in earlier sessions, best first:\n", len(hits), prompt))
}
