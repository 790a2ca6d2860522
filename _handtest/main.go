package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"pincer/agent/agenttest"
)

func main() {
	srv := agenttest.New()
	var mu sync.Mutex
	main := []agenttest.Reply{
		agenttest.Tools("I'll delegate the survey.", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"survey the Go files","prompt":"List the Go files and summarise each."}`}),
		agenttest.Text("The survey is done: see the report above.", 6),
		agenttest.Tools("", agenttest.Call{ID: "call_2", Name: "task", Arguments: `{"description":"write the notes","prompt":"Write NOTES.md.","agent":"scribe"}`}),
		agenttest.Text("OK.", 6),
	}
	slow := func(r agenttest.Reply) agenttest.Reply { r.Piece = 200; r.Delay = 400 * time.Millisecond; return r }
	sub := []agenttest.Reply{
		slow(agenttest.Tools("", agenttest.Call{ID: "s1", Name: "tree_view", Arguments: `{}`})),
		slow(agenttest.Tools("", agenttest.Call{ID: "s2", Name: "glob", Arguments: `{"pattern":"**/*.go"}`})),
		slow(agenttest.Tools("", agenttest.Call{ID: "s3", Name: "read_file", Arguments: `{"path":"a.go"}`}, agenttest.Call{ID: "s4", Name: "read_file", Arguments: `{"path":"b.go"}`})),
		slow(agenttest.Tools("", agenttest.Call{ID: "s5", Name: "run_command", Arguments: `{"command":"touch nope.txt"}`})),
		slow(agenttest.Tools("", agenttest.Call{ID: "s6", Name: "grep", Arguments: `{"pattern":"func"}`})),
		{Body: agenttest.TextBody("a.go defines A; b.go defines B.\nNothing else.", 8, 4321, 210)},
		agenttest.Tools("", agenttest.Call{ID: "w1", Name: "write_file", Arguments: `{"path":"NOTES.md","content":"# Notes\n\nhi\n"}`}),
		agenttest.Text("Wrote NOTES.md (or was refused).", 6),
	}
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		mu.Lock()
		defer mu.Unlock()
		if err := agenttest.CheckStrict(r.Raw); err != nil {
			fmt.Fprintln(os.Stderr, "STRICT:", err)
		}
		msgs, _ := r.Body["messages"].([]any)
		first, _ := msgs[0].(map[string]any)["content"].(string)
		q := &main
		if strings.HasPrefix(first, "You are a sub-agent") {
			q = &sub
		}
		if len(*q) == 0 {
			return agenttest.Text("(script ended)", 5), true
		}
		rep := (*q)[0]
		*q = (*q)[1:]
		return rep, true
	})
	os.WriteFile(os.Args[1], []byte(srv.BaseURL()), 0o644)
	time.Sleep(10 * time.Minute)
	srv.Close()
}
