package llm

import (
	"time"
)

// Event is what Complete reports while a request streams, as it happens:
// TextDelta, ReasoningDelta, ToolCallDelta, chat.Usage (as the server
// reports it), Retrying and Waiting. The agent passes them on to the
// front ends with its own events.
type Event = any

// TextDelta is a piece of the assistant's answer as it streams.
type TextDelta struct{ Text string }

// ReasoningDelta is a piece of the model's reasoning ("thinking") as it
// streams, for models that expose it.
type ReasoningDelta struct{ Text string }

// ToolCallDelta reports a tool call while its arguments still stream, so a
// card can show the tool and its key argument before the call is complete.
// Index is the call's position in the assistant message; Call is pincer's
// own key for the call, unique in the conversation, which the later events
// about the same call carry too (ID is the server's, and servers reuse
// theirs): the client leaves it empty, and the agent stamps it.
type ToolCallDelta struct {
	Index     int
	Call      string
	ID        string
	Name      string
	ArgsSoFar string
}

// Retrying says a request failed before any answer arrived and will be sent
// again after Wait.
type Retrying struct {
	Attempt int // the attempt that failed, from 1
	Wait    time.Duration
	Err     error
}

// Waiting says a request reached the model server and its answer has not
// begun: a front end can count the seconds from here and say what the
// wait is, instead of a bare spinner. FirstByte is how long this attempt
// waits for the first byte (0: no limit); Budget is how long all attempts
// together may wait on a server that stays silent (0: no limit).
type Waiting struct {
	FirstByte, Budget time.Duration
}
