package todo

import (
	"context"

	"pincer/tools"
)

// description is what the model reads about the tool: what it is for,
// when to use it and when not.
const description = "Keep a task list for multi-step work; the user sees it. " +
	"Each call sends the WHOLE list, replacing the previous one ([] clears it). " +
	"Use it when a task needs 3 or more steps or the user asks for several things: write the list before starting, " +
	"mark an item in_progress when you begin it (one at a time) and completed as soon as it is done. " +
	"Add steps you discover; drop ones that no longer apply. Skip it for a single simple step or a question. " +
	"Items: content (a short imperative sentence, at most 300 characters), status (pending, in_progress, completed), optional short id; at most 50 items."

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
				"description": "The whole list, in order.",
				"maxItems":    MaxItems,
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"content": map[string]any{"type": "string", "maxLength": MaxContent},
						"status": map[string]any{
							"type": "string",
							"enum": []any{string(Pending), string(InProgress), string(Completed)},
						},
						"id": map[string]any{"type": "string", "maxLength": MaxID},
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
