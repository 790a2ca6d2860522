package sessiontools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/session"
	"pincer/tools"
)

// rememberArgs are the arguments of the remember tool.
type rememberArgs struct {
	Text string `json:"text" jsonschema_description:"The fact or decision, self-contained."`
}

// RememberTool is the remember tool: the model saves a note to the
// project's memory, which auto recall brings back in later sessions. It
// changes something outside the project files, so the person approves it
// first and the dialog shows the exact text.
func RememberTool(st *session.Store, dir string) (tools.Tool, error) {
	return tools.New(tools.Spec[rememberArgs]{
		Name:        "remember",
		Description: "Save a note to this project's memory; later sessions are reminded of it when relevant. Use it when the user asks you to remember something.",
		Mutates:     true,
		Example:     rememberArgs{Text: "The staging database listens on port 5433, not 5432."},
		Check: func(a *rememberArgs) error {
			if strings.TrimSpace(a.Text) == "" {
				return errors.New(`"text" is empty; give the note to remember`)
			}
			return nil
		},
		Bind: func(a rememberArgs) tools.Call { return &rememberCall{st: st, dir: dir, args: a} },
	})
}

type rememberCall struct {
	st   *session.Store
	dir  string
	args rememberArgs
}

// Summary is what the approval dialog shows: the whole note.
func (c *rememberCall) Summary() string {
	return "remember for this project: " + strings.TrimSpace(c.args.Text)
}
func (c *rememberCall) Access() tools.Access { return tools.Access{} }

func (c *rememberCall) Run(context.Context) (tools.Result, error) {
	n, err := c.st.AddNote(c.dir, c.args.Text)
	if err != nil {
		return tools.Result{Content: "could not save the note: " + err.Error(), IsError: true}, nil
	}
	return tools.Result{Content: fmt.Sprintf("Saved as note #%d. The user can see and change notes with /memory and pincer memory.", n.ID)}, nil
}
