package agent

import "strconv"

// callKeys names the tool calls of one model request for the screen. A
// server's ids cannot do that: some give every turn the same ids ("call_0",
// "functions.run_command:0") and some send none, so a front end that keys
// its cards by them shows one turn's command beside another turn's call.
// A key is made the first time a call appears in the stream and follows
// the call through every event about it.
type callKeys struct {
	next     func() string
	byIndex  map[int]string // stream position → key
	serverID map[int]string // stream position → the id the server gave
	order    []int          // stream positions in the order they appeared
}

// newCallKeys starts the keys of one request.
func (a *Agent) newCallKeys() *callKeys {
	return &callKeys{
		next: func() string {
			a.callSeq++
			return "pincer-call-" + strconv.Itoa(a.callSeq)
		},
		byIndex:  map[int]string{},
		serverID: map[int]string{},
	}
}

// watch returns a sink that stamps each ToolCallDelta with its call's key
// before passing it on.
func (k *callKeys) watch(sink func(Event)) func(Event) {
	return func(ev Event) {
		if d, ok := ev.(ToolCallDelta); ok {
			key, seen := k.byIndex[d.Index]
			if !seen {
				key = k.next()
				k.byIndex[d.Index] = key
				k.order = append(k.order, d.Index)
			}
			if d.ID != "" {
				k.serverID[d.Index] = d.ID
			}
			d.Call = key
			ev = d
		}
		sink(ev)
	}
}

// assign returns the key of each finished call, in order: the streamed
// call with the same server id, else the next streamed call not yet taken
// (calls the stream announced but the reply dropped are skipped that way),
// else a new key for a call that never streamed.
func (k *callKeys) assign(calls []ToolCall) []string {
	if len(calls) == 0 {
		return nil
	}
	taken := map[int]bool{}
	keys := make([]string, len(calls))
	for i, c := range calls {
		if c.ID == "" {
			continue
		}
		for _, idx := range k.order {
			if !taken[idx] && k.serverID[idx] == c.ID {
				taken[idx], keys[i] = true, k.byIndex[idx]
				break
			}
		}
	}
	for i := range calls {
		if keys[i] != "" {
			continue
		}
		for _, idx := range k.order {
			if !taken[idx] {
				taken[idx], keys[i] = true, k.byIndex[idx]
				break
			}
		}
		if keys[i] == "" {
			keys[i] = k.next()
		}
	}
	return keys
}

// withCall returns a sink that stamps the events of one running call
// (ToolStarted, and a task's SubEvent) with its key.
func withCall(sink func(Event), key string) func(Event) {
	return func(ev Event) {
		switch s := ev.(type) {
		case ToolStarted:
			s.Call = key
			ev = s
		case SubEvent:
			s.Call = key
			ev = s
		}
		sink(ev)
	}
}
