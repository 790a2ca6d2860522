package agent

import (
	"fmt"

	"pincer/agent/llm"
	"pincer/internal/human"
)

// Pricer says what a model costs, in dollars per million prompt (input)
// and completion (output) tokens; ok is false when it is not known. The
// model "" is the client's own.
type Pricer func(model string) (input, output float64, ok bool)

// account is what one request used: the server's counts, or when it sent
// none an estimate (characters over four) marked Estimated, with the cost
// where the model's price is known. A request that failed before any
// answer counts nothing.
func (a *Agent) account(req llm.Request, reply llm.Reply) Usage {
	u := reply.Usage
	if u.PromptTokens == 0 && u.CompletionTokens == 0 {
		if reply.Content == "" && reply.Reasoning == "" && len(reply.ToolCalls) == 0 {
			return Usage{}
		}
		out := estimateTokens(reply.Content) + estimateTokens(reply.Reasoning)
		for _, c := range reply.ToolCalls {
			out += estimateTokens(c.Name) + estimateTokens(c.Arguments)
		}
		u = Usage{PromptTokens: messagesTokens(req.Messages) + a.toolsTokens(), CompletionTokens: out, Estimated: true}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	if a.opts.Price != nil {
		if in, out, ok := a.opts.Price(req.Model); ok {
			u.Cost = (float64(u.PromptTokens)*in + float64(u.CompletionTokens)*out) / 1e6
		}
	}
	return u
}

// withoutUsage passes on every event but the server's usage, which the
// loop reports once the request is accounted (see account).
func withoutUsage(sink func(Event)) func(Event) {
	return func(ev Event) {
		if _, ok := ev.(Usage); !ok {
			sink(ev)
		}
	}
}

// DescribeUsage says what u counts for a person, in one line:
// "12,345 tokens in, 678 out, $0.0123", with "about" when any part was
// estimated and "no price known" when nothing was priced.
func DescribeUsage(u Usage) string {
	about := ""
	if u.Estimated {
		about = "about "
	}
	s := fmt.Sprintf("%s%s tokens in, %s out", about, human.Count(u.PromptTokens), human.Count(u.CompletionTokens))
	switch {
	case u.Cost > 0:
		s += ", " + human.Dollars(u.Cost)
	case u.PromptTokens+u.CompletionTokens > 0:
		s += ", no price known"
	}
	if u.Estimated {
		s += " (estimated where the server sent no counts)"
	}
	return s
}
