package ui

import (
	"strings"
	"testing"

	"pincer/agent"
)

// TestUsageShown: the status line shows the session's tokens, marked "~"
// when any count was estimated, and the cost where it is known; /usage
// says the last turn's and the session's, the sub-agents' apart.
func TestUsageShown(t *testing.T) {
	for _, tt := range []struct {
		name           string
		events         []any
		status, absent []string
		usage          []string
	}{
		{"server counts, priced",
			[]any{agent.Usage{PromptTokens: 12000, CompletionTokens: 3000, Cost: 0.009}},
			[]string{"↑12.0k ↓3.0k", "$0.0090"}, []string{"~"},
			[]string{"Last turn: 12,000 tokens in, 3,000 out, $0.0090.", "Session: 12,000 tokens in, 3,000 out, $0.0090."}},
		{"estimated, no price",
			[]any{agent.Usage{PromptTokens: 900, CompletionTokens: 40, Estimated: true}},
			[]string{"↑~900 ↓~40"}, []string{"$"},
			[]string{"Last turn: about 900 tokens in, 40 out, no price known (estimated where the server sent no counts).", `set the model's price in the config: "prices"`}},
		{"with a sub-agent",
			[]any{agent.Usage{PromptTokens: 1000, CompletionTokens: 100, Cost: 0.5},
				agent.SubEvent{Call: "c1", Event: agent.Usage{PromptTokens: 2000, CompletionTokens: 200, Cost: 1}}},
			[]string{"↑1.0k ↓100", "$1.50", "sub 2.2k"}, nil,
			[]string{"Session: 3,000 tokens in, 300 out, $1.50.", "Of which sub-agents: 2,000 tokens in, 200 out, $1.00."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestApp(t, 240, 30) // wide enough that no line of /usage wraps
			a.Update(eventsMsg(tt.events))
			status := screen(a)
			status = status[strings.LastIndex(strings.TrimRight(status, "\n"), "\n")+1:]
			for _, want := range tt.status {
				if !strings.Contains(status, want) {
					t.Errorf("status line lacks %q: %s", want, status)
				}
			}
			for _, not := range tt.absent {
				if strings.Contains(status, not) {
					t.Errorf("status line has %q: %s", not, status)
				}
			}
			typeText(a, "/usage")
			a.closePopups()
			press(a, "enter")
			text := strings.Join(strings.Fields(strings.ReplaceAll(screen(a), "│", " ")), " ")
			for _, want := range tt.usage {
				if !strings.Contains(text, strings.Join(strings.Fields(want), " ")) {
					t.Errorf("/usage lacks %q:\n%s", want, screen(a))
				}
			}
		})
	}
}
