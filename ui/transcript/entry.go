package transcript

import "pincer/chat"

// Kind is what an entry of the transcript is.
type Kind int

// The kinds of entries.
const (
	KindUser       Kind = iota // a message from the person
	KindAssistant              // an answer, markdown
	KindReasoning              // the model's reasoning before an answer
	KindTool                   // a tool call and its outcome
	KindToolResult             // only for Load: the outcome of the KindTool entry with the same ToolID
	KindNotice                 // a dim line that is not conversation
	KindError                  // an error, in red
	KindRetry                  // a request being retried
	KindCompressed             // the marker where older messages were summarised
	KindRecalled               // what auto recall gave the model: a line, expandable to the note
)

// Entry is one entry of a resumed session for Load. Which fields count
// depends on Kind:
//
//   - KindUser, KindAssistant, KindReasoning, KindNotice, KindError,
//     KindRetry: Text (markdown for KindAssistant). Interrupted marks an
//     answer that was cut short.
//   - KindTool: ToolID, ToolName and ToolArgs (the JSON arguments).
//   - KindToolResult: ToolID, ToolName, Text (the result) and IsError;
//     Steps for a task call's sub-agent.
//   - KindCompressed: Text (the summary) and Count (messages replaced).
type Entry struct {
	Kind        Kind
	Text        string
	Interrupted bool
	ToolID      string
	ToolName    string
	ToolArgs    string
	IsError     bool
	Count       int
	Steps       []chat.Step
}

// toolState is what a tool card shows.
type toolState struct {
	id, name string
	args     string // JSON arguments, possibly still streaming
	summary  string // what the agent said the call does, once it runs
	running  bool
	done     bool
	result   string
	isError  bool
	sub      *subSteps // a task call's sub-agent; nil for other tools
	// diag is the language servers' count after the call changed files
	// ("2 errors", "no problems"); diagBad says it counts errors.
	diag    string
	diagBad bool
}

// item is one entry as the transcript keeps it.
type item struct {
	kind Kind
	text string       // source text of static entries
	body *growingText // the reasoning (KindReasoning)
	doc  *streamDoc   // the answer's markdown (KindAssistant)
	tool *toolState   // KindTool
	n    int          // KindCompressed: messages replaced
	// label is the line a KindRecalled entry shows collapsed; text is
	// then the note the model was given.
	label string

	interrupted bool
	expanded    bool // collapsible entries: shown in full
	touched     bool // the person expanded or collapsed it, so it stays that way
	streaming   bool // more text may arrive (answers and reasoning in flight)

	gen   int // render generation of lines; -1 when they must be rendered
	lines []string
}

// collapsible reports whether enter on the entry changes what it shows.
func (it *item) collapsible() bool {
	switch it.kind {
	case KindReasoning, KindCompressed, KindRecalled:
		return true
	case KindTool:
		// A long command folds, so it expands also while it waits or runs.
		return it.tool.done || len(commandRest(it.tool)) >= commandPreviewLines
	}
	return false
}

// invalidate makes the next view render the entry again.
func (it *item) invalidate() { it.gen = -1 }
