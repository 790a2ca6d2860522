package memory

import (
	"fmt"
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestRunCompressesASmallWindow: with the binary, a session in a
// 6,000-token window that fills up is compressed so that every request
// still begins, after its system messages, with a question (never an
// answer without it), each compression summarises what it must to get
// under the threshold, and the compressed line says the new size.
func TestRunCompressesASmallWindow(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	answer := strings.Repeat("This is a long answer about the layout of the project. ", 60)
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		msgs, _ := r.Body["messages"].([]any)
		if c, _ := msgs[0].(map[string]any)["content"].(string); strings.HasPrefix(c, "You are compressing") {
			return agenttest.Text("The user asked about the layout several times; it was explained.", 40), true
		}
		return agenttest.Text(answer, 200), true
	})
	s := e2etest.NewSandbox(t, srv.BaseURL())
	compressions := 0
	for i := range 6 {
		r := s.Run("", "run", "--json", "--context-window", "6000", "-s", "small", fmt.Sprintf("question %d: explain the layout in detail", i))
		if r.Code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i, r.Code, r.Stderr)
		}
		for _, l := range e2etest.OfType(e2etest.JSONLines(t, r.Stdout), "compressed") {
			compressions++
			if n := l["messages"].(float64); n < 2 {
				t.Errorf("run %d compressed %v messages; every earlier turn that does not fit must go", i, n)
			}
			if after := l["tokens_after"].(float64); after >= 0.8*6000 {
				t.Errorf("run %d: after compression the request is about %v tokens, not under the threshold of 4,800", i, after)
			}
		}
	}
	if compressions == 0 {
		t.Fatal("six long answers in a 6,000-token window were never compressed")
	}
	for i, r := range srv.Requests() {
		msgs, _ := r.Body["messages"].([]any)
		var roles []string
		for _, m := range msgs {
			roles = append(roles, m.(map[string]any)["role"].(string))
		}
		if roles[0] == "system" && strings.HasPrefix(msgs[0].(map[string]any)["content"].(string), "You are compressing") {
			continue
		}
		j := 0
		for j < len(roles) && roles[j] == "system" {
			j++
		}
		if j == len(roles) || roles[j] != "user" {
			t.Errorf("request %d goes %v: after the system messages comes no question", i, roles)
		}
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
}
