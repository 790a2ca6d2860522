// Package todo is the task list the model keeps for multi-step work: the
// todo_write tool, the items it carries, and how its arguments are read
// and checked.
//
// The list has no storage of its own. Each todo_write call carries the
// whole list, so the list in force is the one of the last successful call
// in a conversation's history: a resumed session shows it again, and a
// rewound conversation brings back the list it had at that point.
package todo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"pincer/internal/human"
)

// Name is the tool's function name.
const Name = "todo_write"

// Limits of one list. A longer list is no plan a person can follow at a
// glance, and every call repeats the whole list in the conversation.
const (
	MaxItems   = 50  // items in one list
	MaxContent = 300 // characters of one item's text
	MaxID      = 40  // characters of one item's id
)

// Status is where an item stands.
type Status string

// The statuses of an item.
const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Completed  Status = "completed"
)

// Item is one entry of the task list.
type Item struct {
	// ID is the model's own short key for the item; optional.
	ID      string `json:"id,omitempty"`
	Content string `json:"content"`
	Status  Status `json:"status"`
}

// Progress counts a list's items by status.
type Progress struct {
	Total, Completed, InProgress, Pending int
}

// Count counts items by status.
func Count(items []Item) Progress {
	p := Progress{Total: len(items)}
	for _, it := range items {
		switch it.Status {
		case Completed:
			p.Completed++
		case InProgress:
			p.InProgress++
		default:
			p.Pending++
		}
	}
	return p
}

// String is the progress in a few words: "2/5 done".
func (p Progress) String() string {
	if p.Total == 0 {
		return "empty"
	}
	return fmt.Sprintf("%d/%d done", p.Completed, p.Total)
}

// Current returns the first item in progress, if any.
func Current(items []Item) (Item, bool) {
	for _, it := range items {
		if it.Status == InProgress {
			return it, true
		}
	}
	return Item{}, false
}

// example is a valid call, shown with every error.
const example = `{"todos":[{"content":"Read the failing test","status":"completed"},{"content":"Fix the parser","status":"in_progress"},{"content":"Run the tests","status":"pending"}]}`

// ArgumentError is what Parse returns: one problem with the arguments,
// written for the model, with a valid call to copy.
type ArgumentError struct{ Problem string }

// Error is written for the model.
func (e *ArgumentError) Error() string {
	return fmt.Sprintf("invalid arguments for %s: %s. The task list was not changed. A valid call looks like: %s", Name, e.Problem, example)
}

func problem(format string, args ...any) error {
	return &ArgumentError{Problem: fmt.Sprintf(format, args...)}
}

// Parse reads and checks the arguments of a todo_write call and returns the
// list they carry. It is lenient where the meaning is plain (statuses such
// as "done" or "in-progress", whitespace and line breaks inside an item, a
// list sent as a JSON string, keys it does not know such as activeForm)
// and strict where it is not: a missing or empty text, an unknown status,
// an id used twice, a list or an item over the limits.
func Parse(arguments string) ([]Item, error) {
	raw := strings.TrimSpace(arguments)
	if raw == "" || raw == "{}" {
		return nil, problem(`"todos" is missing; send the whole list, even when one item changes (send [] to clear it)`)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &obj); err != nil || obj == nil {
		return nil, problem("the arguments are not a JSON object (%s)", jsonReason(err))
	}
	list, ok := obj["todos"]
	if !ok || string(list) == "null" {
		return nil, problem(`"todos" is missing; send the whole list, even when one item changes (send [] to clear it)`)
	}
	var text string
	if json.Unmarshal(list, &text) == nil {
		// Some models send the array as a JSON string.
		list = json.RawMessage(text)
	}
	var rawItems []json.RawMessage
	if err := json.Unmarshal(list, &rawItems); err != nil {
		return nil, problem(`"todos" must be an array of items, each {"content": ..., "status": ...}`)
	}
	if len(rawItems) > MaxItems {
		return nil, problem(`"todos" has %d items; keep the list to at most %d (merge small steps, or drop finished ones)`, len(rawItems), MaxItems)
	}
	items := make([]Item, 0, len(rawItems))
	ids := map[string]int{}
	for i, r := range rawItems {
		it, err := parseItem(i+1, r)
		if err != nil {
			return nil, err
		}
		if it.ID != "" {
			if first, dup := ids[it.ID]; dup {
				return nil, problem("items %d and %d have the same id %q; give each item its own id, or none", first, i+1, it.ID)
			}
			ids[it.ID] = i + 1
		}
		items = append(items, it)
	}
	return items, nil
}

// parseItem reads the n-th item (from 1).
func parseItem(n int, raw json.RawMessage) (Item, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return Item{}, problem(`item %d is not an object; each item is {"content": ..., "status": ...}`, n)
	}
	content, err := stringField(fields, "content", n)
	if err != nil {
		return Item{}, err
	}
	content = human.Fold(content)
	switch c := utf8.RuneCountInString(content); {
	case c == 0:
		return Item{}, problem(`item %d has no "content"; say what the step is in a few words`, n)
	case c > MaxContent:
		return Item{}, problem(`item %d's "content" is %d characters; keep each item under %d (one step, in a sentence)`, n, c, MaxContent)
	}
	statusText, err := stringField(fields, "status", n)
	if err != nil {
		return Item{}, err
	}
	if strings.TrimSpace(statusText) == "" {
		return Item{}, problem(`item %d has no "status"; use "pending", "in_progress" or "completed"`, n)
	}
	status, ok := ParseStatus(statusText)
	if !ok {
		return Item{}, problem(`item %d has the status %q; use "pending", "in_progress" or "completed"`, n, shorten(statusText))
	}
	id := ""
	if v, ok := fields["id"]; ok && string(v) != "null" {
		var num json.Number
		if json.Unmarshal(v, &id) != nil {
			if json.Unmarshal(v, &num) != nil {
				return Item{}, problem(`item %d's "id" must be a short string`, n)
			}
			id = num.String()
		}
		id = human.Fold(id)
		if c := utf8.RuneCountInString(id); c > MaxID {
			return Item{}, problem(`item %d's "id" is %d characters; keep ids under %d`, n, c, MaxID)
		}
	}
	return Item{ID: id, Content: content, Status: status}, nil
}

// stringField returns the string field key of item n; a missing field is "".
func stringField(fields map[string]json.RawMessage, key string, n int) (string, error) {
	v, ok := fields[key]
	if !ok || string(v) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", problem(`item %d's %q must be a string`, n, key)
	}
	return s, nil
}

// ParseStatus reads a status the way models write it: "done" and
// "complete" are completed, "in-progress" and "active" in progress, "todo"
// pending; case does not matter.
func ParseStatus(s string) (Status, bool) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	switch k {
	case "pending", "todo", "to_do", "not_started", "open":
		return Pending, true
	case "in_progress", "inprogress", "active", "doing", "started", "working":
		return InProgress, true
	case "completed", "complete", "done", "finished":
		return Completed, true
	}
	return "", false
}

// shorten cuts a wrong value the model sent to a length fit to quote.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= 30 {
		return s
	}
	return string([]rune(s)[:30]) + "…"
}

// jsonReason says why a text is not a JSON object.
func jsonReason(err error) string {
	if err == nil {
		return "got null"
	}
	if strings.Contains(err.Error(), "unexpected end of JSON input") {
		return "the text ends before the object is complete; was it cut off?"
	}
	if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
		return "a syntax error at byte " + strconv.FormatInt(se.Offset, 10)
	}
	return "got " + strings.TrimPrefix(err.Error(), "json: cannot unmarshal ")
}

// Saved is the tool's result for the model: short, since the model has the
// list it just sent.
func Saved(items []Item) string {
	p := Count(items)
	switch {
	case p.Total == 0:
		return "Task list cleared."
	case p.Completed == p.Total:
		return fmt.Sprintf("Task list saved: all %d items completed.", p.Total)
	}
	return fmt.Sprintf("Task list saved: %d items (%d completed, %d in progress, %d pending). Update it as you go.",
		p.Total, p.Completed, p.InProgress, p.Pending)
}

// Markdown writes the list as a Markdown checklist under a heading, for a
// transcript: completed items checked, the item in progress in bold.
func Markdown(items []Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Task list\n\n%s.\n\n", Count(items))
	for _, it := range items {
		switch it.Status {
		case Completed:
			fmt.Fprintf(&b, "- [x] %s\n", it.Content)
		case InProgress:
			fmt.Fprintf(&b, "- [ ] **%s** (in progress)\n", it.Content)
		default:
			fmt.Fprintf(&b, "- [ ] %s\n", it.Content)
		}
	}
	return b.String()
}
