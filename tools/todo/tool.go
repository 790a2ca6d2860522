package todo

import (
	"context"

	"pincer/tools"
)

// description is what the model reads about the tool: what it is for,
// when to use it and when not.
const description = "Keep a task list for multi-step work; the user sees it beside the conversation. " +
	"Each call sends the WHOLE list, which replaces the previous one (send [] to clear it). " +
	"Use it when a task needs 3 or more distinct steps, or the user asks for several things: write the list before you start, " +
	"mark an item in_progress when you begin it (normally one at a time), and mark it completed as soon as it is done, not in a batch at the end. " +
	"Add steps you discover and remove ones that no longer apply. " +
	"Do not use it for a single simple step, a question, or a conversation. " +
	"Each item: content (one short imperative sentence, under 300 characters), status (pending, in_progress or completed) and an optional short id. At most 50 items. " +
	"It changes no files and needs no approval."

// Tool returns the todo_write tool. It needs nothing of the project: a
// call only checks the list and says it was saved; the list lives in the
// conversation (see the package comment).
func Tool() tools.Tool { return tool{} }

type tool struct{}

func (tool) Name() string        { return Name }
func (tool) Description() string { return description }
func (tool) Mutates() bool       { return false }

// Parameters is written by hand: tools.New takes flat argument structs,
// and the list is an array of objects.
func (tool) Parameters() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"todos": map[string]any{
				"type":        "array",
				"description": "The whole task list in order; it replaces the previous list.",
				"maxItems":    MaxItems,
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"content": map[string]any{
							"type":        "string",
							"description": "The step, as one short imperative sentence.",
							"minLength":   1,
							"maxLength":   MaxContent,
						},
						"status": map[string]any{
							"type": "string",
							"enum": []any{string(Pending), string(InProgress), string(Completed)},
						},
						"id": map[string]any{
							"type":        "string",
							"description": "Optional short id, unique in the list.",
							"maxLength":   MaxID,
						},
					},
					"required":             []any{"content", "status"},
					"additionalProperties": false,
				},
			},
		},
		"required":             []any{"todos"},
		"additionalProperties": false,
	}
}

// Decode checks the list; its error is written for the model.
func (tool) Decode(arguments string) (tools.Call, error) {
	items, err := Parse(arguments)
	if err != nil {
		return nil, err
	}
	return call{items: items}, nil
}

type call struct{ items []Item }

// Summary is the card's label: "todo_write 2/5 done".
func (c call) Summary() string { return Name + " " + Count(c.items).String() }

// Access is empty: the call touches nothing.
func (c call) Access() tools.Access { return tools.Access{} }

// Run has nothing to do but say so: the list is the call's arguments.
func (c call) Run(context.Context) (tools.Result, error) {
	return tools.Result{Content: Saved(c.items)}, nil
}
