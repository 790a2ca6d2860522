package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"pincer/agent"
	"pincer/checkpoint"
	"pincer/internal/human"
	"pincer/rewind"
)

// builtin are pincer's own slash commands in an editor: those of the
// screen that make sense where the editor draws the conversation.
var builtin = []availableCommand{
	{Name: "undo", Description: "take back the last turn: the files it changed and the conversation"},
	{Name: "redo", Description: "take back the last /undo, while nothing changed since"},
	{Name: "compact", Description: "summarise older messages now", Input: &commandInput{Hint: "what the summary should keep (optional)"}},
}

// sendCommands tells the editor the slash commands: pincer's and the
// person's own.
func (s *session) sendCommands() {
	list := append([]availableCommand(nil), builtin...)
	for _, c := range s.conv.Commands {
		ac := availableCommand{Name: c.Name, Description: c.Description}
		if ac.Description == "" {
			ac.Description = "your command"
		}
		if c.Hint != "" {
			ac.Input = &commandInput{Hint: c.Hint}
		}
		list = append(list, ac)
	}
	s.update(commandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: list})
}

// command runs a slash command: pincer's own, or the person's, whose
// prompt then runs as a turn. handled is false for a name that is
// neither: the text goes to the model as it is.
func (s *session) command(ctx context.Context, name, args string) (stop string, handled bool, err error) {
	switch name {
	case "undo":
		return stopEndTurn, true, s.undo(ctx)
	case "redo":
		return stopEndTurn, true, s.redo(ctx)
	case "compact":
		if err := s.conv.Agent.Compact(ctx, args, s.event); err != nil {
			if ctx.Err() != nil {
				return stopCancelled, true, nil
			}
			s.say("Could not summarise the older messages: " + escapeMarkdown(err.Error()))
			return stopEndTurn, true, nil
		}
		s.say("Summarised the older messages; the model now reads the summary and the recent ones.")
		return stopEndTurn, true, nil
	}
	for _, c := range s.conv.Commands {
		if c.Name != name {
			continue
		}
		run := func(ctx context.Context, command string) (string, error) {
			return s.conv.Agent.RunShell(ctx, command, s.event)
		}
		prompt, err := c.Render(ctx, args, run)
		if err != nil {
			if ctx.Err() != nil {
				return stopCancelled, true, nil
			}
			s.say(escapeMarkdown(fmt.Sprintf("/%s was not sent: %v", name, err)))
			return stopEndTurn, true, nil
		}
		res, err := s.run(ctx, agent.Message{Role: agent.RoleUser, Content: prompt}, agent.TurnOptions{Model: c.Model, Composed: true, Typed: args})
		if err != nil {
			return "", true, err
		}
		return res.(promptResponse).StopReason, true, nil
	}
	return "", false, nil
}

// undo takes back the last turn, as /undo on the screen: it shows what
// the files go back to, asks, asks again before overwriting files changed
// outside pincer since, and reloads the conversation.
func (s *session) undo(ctx context.Context) error {
	rw := s.conv.Rewinder
	if rw == nil {
		s.say("/undo needs the session store, which is not open.")
		return nil
	}
	turns, err := rw.Turns()
	if err != nil {
		return err
	}
	if len(turns) == 0 {
		s.say("There is no turn to undo in this session.")
		return nil
	}
	t := turns[len(turns)-1]
	mode := rewind.Both
	if t.Checkpoint == nil {
		mode = rewind.ConversationOnly
	}
	p, err := rw.Plan(ctx, t.Seq, mode)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		s.say("Cannot undo: " + escapeMarkdown(err.Error()))
		return nil
	}
	typed, _ := agent.SplitAttachments(t.Prompt)
	key := s.nextKey("undo")
	title := "Undo turn #" + fmt.Sprint(t.N) + ": " + oneLine(typed, 80)
	var b strings.Builder
	if mode == rewind.ConversationOnly {
		b.WriteString("The files were not recorded before this turn, so only the conversation goes back; the files stay as they are.\n\n")
	}
	fmt.Fprintf(&b, "Restores %s and stops sending %s to the model.", human.Plural(len(p.Changes), "file"), human.Plural(p.Dropped, "message"))
	if len(p.Kept) > 0 {
		fmt.Fprintf(&b, " Leaves %s alone (too large to record).", human.Plural(len(p.Kept), "file"))
	}
	content := []toolCallContent{textContent(b.String())}
	var locs []toolCallLocation
	for _, c := range p.Changes {
		path := absPath(s.conv.Root, filepath.FromSlash(c.Path))
		locs = append(locs, toolCallLocation{Path: path})
		if d, ok := rewindDiff(rw, path, c); ok {
			content = append(content, d)
		}
	}
	tc := toolCall{SessionUpdate: "tool_call", ToolCallID: key, Title: title, Kind: "edit", Status: statusPending, Content: content, Locations: locs}
	s.update(tc)
	tc.SessionUpdate = ""
	if !s.ask(ctx, tc, []permissionOption{
		{OptionID: optAllow, Name: "Undo it", Kind: allowOnce},
		{OptionID: optReject, Name: "No", Kind: rejectOnce},
	}, optAllow) {
		s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusFailed, Content: []toolCallContent{textContent("Not undone.")}})
		return nil
	}
	if len(p.Outside) > 0 {
		var ob strings.Builder
		ob.WriteString("**Second confirmation.** These files were changed outside pincer since that turn; undoing overwrites those changes:\n")
		for _, o := range p.Outside {
			ob.WriteString("\n- " + escapeMarkdown(oneLine(o, 300)))
		}
		second := toolCall{ToolCallID: key, Title: "Overwrite files changed outside pincer?", Kind: "edit", Status: statusPending, Content: []toolCallContent{textContent(ob.String())}}
		if !s.ask(ctx, second, []permissionOption{
			{OptionID: optReject, Name: "No, keep them", Kind: rejectOnce},
			{OptionID: optRunIt, Name: "Overwrite " + human.Plural(len(p.Outside), "file") + " — yes, undo", Kind: allowOnce},
		}, optRunIt) {
			s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusFailed, Content: []toolCallContent{textContent("Not undone.")}})
			return nil
		}
	}
	s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusInProgress})
	out, err := rw.Apply(ctx, t.Seq, mode, p.Outside, false)
	if err != nil {
		s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusFailed})
		s.say("Could not undo: " + escapeMarkdown(err.Error()))
		return nil
	}
	if err := s.conv.Reload(); err != nil {
		return fmt.Errorf("undone, but the conversation could not be read back: %w", err)
	}
	s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusCompleted})
	var parts []string
	if mode != rewind.ConversationOnly {
		parts = append(parts, "restored "+human.Plural(len(out.Changes), "file"))
	}
	parts = append(parts, human.Plural(out.Dropped, "message")+" no longer sent to the model")
	msg := fmt.Sprintf("Undone turn #%d: %s. /redo takes it back while nothing changes.", t.N, strings.Join(parts, "; "))
	if strings.TrimSpace(typed) != "" {
		msg += "\n\nIts prompt was:\n\n" + fenced(typed, "")
	}
	s.say(msg)
	return nil
}

// redo takes back the last /undo.
func (s *session) redo(ctx context.Context) error {
	rw := s.conv.Rewinder
	if rw == nil {
		s.say("/redo needs the session store, which is not open.")
		return nil
	}
	r, err := rw.Redo(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		s.say("Could not redo: " + escapeMarkdown(err.Error()))
		return nil
	}
	if err := s.conv.Reload(); err != nil {
		return fmt.Errorf("redone, but the conversation could not be read back: %w", err)
	}
	if r.From == 0 {
		s.say("Redone: the files are as they were before the undo.")
	} else {
		s.say("Redone: the turns are back, and the files as they were before the undo.")
	}
	return nil
}

// ask sends one permission request of pincer's own and reports whether
// the editor chose yes.
func (s *session) ask(ctx context.Context, tc toolCall, opts []permissionOption, yes string) bool {
	var resp permissionResponse
	err := s.srv.conn.call(ctx, "session/request_permission", permissionRequest{SessionID: s.id, ToolCall: tc, Options: opts}, &resp)
	return err == nil && resp.Outcome.Outcome == "selected" && resp.Outcome.OptionID == yes
}

// nextKey is a tool call id of pincer's own.
func (s *session) nextKey(what string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.synth++
	return fmt.Sprintf("pincer-%s-%d", what, s.synth)
}

// rewindDiff is the diff of one file a rewind restores, from how it is
// now to how it goes back to; none for a link or a file that cannot be
// read.
func rewindDiff(rw *rewind.Rewinder, path string, c checkpoint.Change) (toolCallContent, bool) {
	const link = 0o120000
	if c.OldMode&0o170000 == link || c.NewMode&0o170000 == link {
		return toolCallContent{}, false
	}
	read := func(hash string) (*string, bool) {
		if hash == "" {
			return nil, true
		}
		data, cut, err := rw.Blob(hash, rewindBlobLimit)
		if err != nil || cut {
			return nil, false
		}
		s := string(data)
		return &s, true
	}
	now, ok1 := read(c.OldHash)
	then, ok2 := read(c.NewHash)
	if !ok1 || !ok2 {
		return toolCallContent{}, false
	}
	after := ""
	if then != nil {
		after = *then
	}
	return diffContent(path, now, after), true
}

// rewindBlobLimit caps the text read for one file of an undo's diffs; a
// bigger file is listed without its diff.
const rewindBlobLimit = 1 << 20
