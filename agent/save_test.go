package agent

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"pincer/agent/agenttest"
)

// fullDisk stores the first ok messages, then fails every save the way a
// full disk does.
type fullDisk struct {
	ok        int
	records   []Message
	failed    int
	summaries int
}

func (d *fullDisk) Record(m Message) (uint64, error) {
	if len(d.records) >= d.ok {
		d.failed++
		return 0, fmt.Errorf("session store /data/pincer.db: write: %w", syscall.ENOSPC)
	}
	d.records = append(d.records, m)
	return uint64(len(d.records)), nil
}

func (d *fullDisk) RecordSummary(string, uint64) error {
	d.summaries++
	return fmt.Errorf("session store /data/pincer.db: write: %w", syscall.ENOSPC)
}

// TestAFailedSaveStopsTheTurn fills the disk after each message of a turn
// in turn: the turn ends with ErrNotSaved, nothing after the failed message
// is saved or done, and no request goes out for a prompt that was not saved.
func TestAFailedSaveStopsTheTurn(t *testing.T) {
	calls := agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"a.txt"}`},
		agenttest.Call{ID: "c2", Name: "read_file", Arguments: `{"path":"a.txt"}`})
	tests := []struct {
		ok        int    // messages saved before the disk is full
		requests  int    // requests the server should see
		roles     string // roles saved
		toolsDone int    // tool results shown
	}{
		{0, 0, "", 0},                                   // the prompt itself
		{1, 1, "user", 0},                               // the answer that calls tools: they do not run
		{2, 1, "user assistant", 1},                     // the first tool result: the second call does not run
		{3, 1, "user assistant tool", 2},                // the second tool result: no next request
		{4, 2, "user assistant tool tool", 2},           // the final answer
		{5, 2, "user assistant tool tool assistant", 2}, // nothing fails
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("disk full after %d", tt.ok), func(t *testing.T) {
			h := newHarness(t, 10, calls, agenttest.Text("done", 5))
			h.write("a.txt", "hello")
			disk := &fullDisk{ok: tt.ok}
			h.agent.SetRecorder(disk)
			res, err := h.run("read a.txt twice")
			wantFail := tt.ok < 5
			if wantFail != errors.Is(err, ErrNotSaved) {
				t.Fatalf("Run = %v, want ErrNotSaved: %v", err, wantFail)
			}
			if wantFail && (res.StopReason != "error" || !errors.Is(err, syscall.ENOSPC)) {
				t.Errorf("stop reason %q, error %v; want error wrapping ENOSPC", res.StopReason, err)
			}
			if disk.failed > 1 {
				t.Errorf("%d saves were tried after the first failure", disk.failed-1)
			}
			got := ""
			for i, m := range disk.records {
				if i > 0 {
					got += " "
				}
				got += string(m.Role)
			}
			if got != tt.roles {
				t.Errorf("saved %q, want %q", got, tt.roles)
			}
			if n := len(h.srv.Requests()); n != tt.requests {
				t.Errorf("%d requests sent, want %d", n, tt.requests)
			}
			done := 0
			for _, ev := range h.events {
				if _, ok := ev.(ToolResult); ok {
					done++
				}
			}
			if done != tt.toolsDone {
				t.Errorf("%d tool results, want %d", done, tt.toolsDone)
			}
			// What the agent holds agrees with what was saved.
			if len(h.agent.History()) != len(disk.records) {
				t.Errorf("history has %d messages, the session %d", len(h.agent.History()), len(disk.records))
			}
		})
	}
}

// TestAFailedSummarySaveStopsTheTurn: a summary that cannot be saved is
// not used either, and the turn stops.
func TestAFailedSummarySaveStopsTheTurn(t *testing.T) {
	h := newHarness(t, 10, agenttest.Text("the summary", 5), agenttest.Text("answer", 5))
	disk := &fullDisk{ok: 100}
	h.agent.SetRecorder(disk)
	var old []Message
	for i := 0; i < 14; i++ {
		old = append(old, Message{Role: RoleUser, Content: "question"}, Message{Role: RoleAssistant, Content: "answer"})
	}
	h.agent.Restore(old, "", 0)
	if err := h.agent.Compact(t.Context(), "", nil); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("Compact with a full disk = %v, want ErrNotSaved", err)
	}
	if s, _ := h.agent.Summary(); s != "" {
		t.Errorf("the unsaved summary is in use: %q", s)
	}
}
