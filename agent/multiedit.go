package agent

import (
	"context"
	"fmt"
	"strings"

	"pincer/chat"
	"pincer/safety"
	"pincer/tools"
)

// multiPlanner is an edit of several files (lsp_rename): each file's
// change is judged and reviewed on its own, like an edit_file of it.
type multiPlanner interface {
	PlanAll(ctx context.Context) ([]*tools.Change, error)
}

// runEdits plans the changes of call, has the person review each file's
// diff, and applies those accepted.
func (a *Agent) runEdits(ctx context.Context, tc ToolCall, call tools.Call, mp multiPlanner, v safety.Verdict, hookAsked bool, sink func(Event)) tools.Result {
	chs, err := mp.PlanAll(ctx)
	if err != nil {
		return tools.Result{Content: err.Error(), IsError: true}
	}
	for _, ch := range chs {
		if err := tools.CheckWritable(ch); err != nil {
			return tools.Result{Content: err.Error() + "; nothing was changed.", IsError: true}
		}
	}
	var applied, refused []string
	var r tools.Result
	started := false
	for i, ch := range chs {
		fv := worse(v, a.judge(tools.Access{Writes: []string{ch.Path}}))
		if fv.Denied {
			refused = append(refused, ch.Rel+" (a deny rule)")
			continue
		}
		if d := a.opts.Diagnostics; d != nil {
			d.Before(ch.Path, ch.Before)
		}
		dec := ask(ctx, a.opts.Approver, Approval{
			Kind: ApproveEdit, CallID: tc.ID, Tool: tc.Name,
			Summary: fmt.Sprintf("%s (file %d of %d)", call.Summary(), i+1, len(chs)),
			Paths:   []string{ch.Path}, Change: ch, Tier: max(fv.Tier, safety.Confirm), Reasons: fv.Reasons, HookAsked: hookAsked,
			PathAsked: fv.Tier > safety.Safe,
		})
		if !dec.Allow {
			refused = append(refused, ch.Rel+commentOf(dec))
			continue
		}
		content := ch.After
		if dec.Content != nil {
			content = dec.Content
		}
		a.awaitCheckpoint(sink)
		if !started {
			sink(ToolStarted{ID: tc.ID, Name: tc.Name, Summary: call.Summary()})
			started = true
		}
		if err := tools.Apply(ch, content); err != nil {
			refused = append(refused, ch.Rel+" ("+err.Error()+")")
			continue
		}
		applied = append(applied, ch.Rel)
		r.Touched = append(r.Touched, chat.Touch{Path: ch.Rel, Kind: chat.TouchChanged})
	}
	switch {
	case len(applied) == 0:
		r.IsError = true
		r.Content = "Nothing was changed: the user did not accept the edits of " + strings.Join(refused, ", ") + "."
	case len(refused) == 0:
		r.Content = fmt.Sprintf("%s: changed %s.", chs[0].Summary, strings.Join(applied, ", "))
	default:
		r.Content = fmt.Sprintf("%s: changed %s; not changed (the user refused): %s. The code may not build until those are changed too.",
			chs[0].Summary, strings.Join(applied, ", "), strings.Join(refused, ", "))
	}
	return r
}
