package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"pincer/agent/llm"
	"pincer/chat"
	"pincer/internal/human"
)

// Budget configures context compression. Its values come from the
// configuration, which owns their defaults (config.DefaultCompressAt and
// config.DefaultKeepRecent); New refuses a budget that would compress
// before every request or keep nothing.
type Budget struct {
	ContextWindow int // tokens the model accepts; 0 turns compression off
	// CapWindow says ContextWindow was set by the person: a window learned
	// from the server (Options.Window) is then capped by it, where
	// otherwise the learned one replaces it.
	CapWindow  bool
	CompressAt float64 // fraction of the window that triggers compression, in (0, 1]
	KeepRecent int     // at most this many recent messages are kept verbatim, at least 2
}

// check says what is wrong with a budget that compresses: one with a
// window, or whose window the server may report (learns).
func (b Budget) check(learns bool) error {
	switch {
	case b.ContextWindow <= 0 && !learns:
		return nil
	case !(b.CompressAt > 0 && b.CompressAt <= 1):
		return fmt.Errorf("agent: Budget.CompressAt is %v; give a fraction of the window above 0 and at most 1", b.CompressAt)
	case b.KeepRecent < 2:
		return fmt.Errorf("agent: Budget.KeepRecent is %d; keep at least 2 messages", b.KeepRecent)
	}
	return nil
}

// summaryState is the summary of older messages: the text and the sequence
// number of the last message it covers.
type summaryState struct {
	text    string
	through uint64
}

const summaryPreamble = "Summary of the earlier part of this conversation (older messages were compressed):\n\n"

// summaryInstructions tell the model how to compress. The user's own words
// matter most: a summary that paraphrases a constraint loses it.
const summaryInstructions = `You are compressing the earlier part of a coding session between a user and an AI coding assistant, so that the assistant can continue the work with a smaller context. Write the summary the assistant will read instead of those messages.

Keep word for word, as quotes: the user's goal and every explicit instruction, preference or constraint the user gave ("do not touch X", "use Y", "tests must pass").

Then, under these Markdown headings, write what matters for continuing:
## Goal and constraints
## Decisions (what was decided and why)
## Files (each file read, created or changed, with its path and what changed)
## Commands (commands run and their outcome: passed, failed, the key error lines)
## Open problems
## Next steps

Be specific: names, paths, line numbers, numbers and error messages. Leave out chit-chat. Never invent anything that is not in the messages. If an earlier summary is given, merge it in and keep its quotes.`

// estimateTokens guesses the tokens of a text without a tokenizer: about
// four bytes of ASCII per token, and one token per other character (CJK
// text and symbols cost about one each).
func estimateTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		other++
		i += n
	}
	return (ascii+3)/4 + other
}

// messageTokens estimates one message as sent, with a little overhead for
// its role and framing.
func messageTokens(m Message) int {
	n := 4 + estimateTokens(m.Content) + estimateTokens(m.Reasoning)
	for _, c := range m.ToolCalls {
		n += 8 + estimateTokens(c.Name) + estimateTokens(c.Arguments)
	}
	return n
}

func messagesTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += messageTokens(m)
	}
	return n
}

// toolsTokens estimates the tool schemas sent with every request, as the
// profile offers them (deferred tools by name only).
func (a *Agent) toolsTokens() int {
	return requestToolsTokens(llm.Request{Tools: a.offer().Specs, TextTools: a.textToolsOn()})
}

// Estimate is the expected prompt size of the next request in tokens. It
// prefers what the server reported for the last request, plus an estimate
// of what was added since; before any report, it estimates everything.
// Estimates are calibrated by what the server counted before (see
// calibrate).
func (a *Agent) Estimate() int {
	if a.lastPrompt > 0 && a.lastSent <= len(a.history) {
		return a.lastPrompt + a.scaled(messagesTokens(a.history[a.lastSent:]))
	}
	return a.scaled(messagesTokens(a.requestMessages()) + a.toolsTokens())
}

// NextRequestTokens estimates the prompt of the next request as it will be
// sent: the system prompt, the summary, the messages after it cut down to
// fit the window as request does, and the tool schemas. It is what a
// "context used" gauge shows when the server has not reported on the
// current history (after a compression, say).
func (a *Agent) NextRequestTokens() int {
	tools := a.toolsTokens()
	msgs, _ := fitToWindow(a.requestMessages(), a.budgetWindow(), tools)
	return a.scaled(messagesTokens(msgs) + tools)
}

// ContextWindow is the window in force, for a front end's "context used"
// display: the one learned from the server (capped by context_window when
// that is set), else the configured one; 0 when compression is off. It is
// safe to call while a turn runs.
func (a *Agent) ContextWindow() int { return a.contextWindow() }

// Summary returns the current summary text and the sequence number of the
// last message it covers.
func (a *Agent) Summary() (string, uint64) { return a.summary.text, a.summary.through }

// compressIfNeeded compresses older messages when the next request would
// reach the budget. A failed compression is reported and the session goes
// on uncompressed; only a cancelled context is returned as an error.
func (a *Agent) compressIfNeeded(ctx context.Context, sink func(Event)) error {
	b := a.opts.Budget
	window := a.contextWindow()
	if window <= 0 {
		return nil
	}
	if float64(a.Estimate()) < b.CompressAt*float64(window) {
		return nil
	}
	err := a.compress(ctx, "", sink)
	if err != nil && !errors.Is(err, errNothingToCompress) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, ErrNotSaved) {
			return err
		}
		sink(Notice{Text: "Could not compress the conversation (" + err.Error() + "); going on with the full history."})
	}
	return nil
}

// errNothingToCompress is returned when every message is among the recent
// ones that are kept.
var errNothingToCompress = errors.New("nothing old enough to compress")

// Compact compresses the history now, keeping the recent messages; focus,
// when given, says what the summary should concentrate on. It is /compact.
func (a *Agent) Compact(ctx context.Context, focus string, sink func(Event)) error {
	if sink == nil {
		sink = func(Event) {}
	}
	return a.compress(ctx, focus, sink)
}

// sent reports whether a history message is sent to the model: markers of
// where compression happened and stand-ins for messages that could not be
// read are for people only.
func sent(m Message) bool { return m.Kind != KindSummary && m.Kind != chat.KindDamaged }

// keptFrom returns the index in history of the first message kept
// verbatim when the messages from start on are compressed. The kept part
// holds at most keep messages and about budget tokens, and begins where a
// turn begins, at a user message: no answer is sent without its question,
// and no tool result without its call. When the last turn alone is larger
// than that, the cut falls inside it, at an assistant message, and the
// request repeats the turn's question before it (see requestMessages); the
// last step of the turn is always kept. start means nothing can be
// compressed.
func keptFrom(history []Message, start, keep, budget int) int {
	n := len(history)
	tokens := make([]int, n+1) // tokens[c]: of the sent messages from c on
	count := make([]int, n+1)
	for c := n - 1; c >= 0; c-- {
		tokens[c], count[c] = tokens[c+1], count[c+1]
		if sent(history[c]) {
			tokens[c] += messageTokens(history[c])
			count[c]++
		}
	}
	for c := start; c < n; c++ {
		if history[c].Role == RoleUser && count[c] <= keep && tokens[c] <= budget {
			return c // start when everything fits
		}
	}
	question := lastUser(history, n)
	if question < 0 {
		return start
	}
	asked := messageTokens(history[question])
	last := -1 // the turn's last assistant message
	for c := max(question, start) + 1; c < n; c++ {
		if history[c].Role != RoleAssistant {
			continue
		}
		if count[c]+1 <= keep && tokens[c]+asked <= budget {
			return c
		}
		last = c
	}
	switch {
	case last > start:
		return last
	case question > start:
		return question
	}
	return start
}

// lastUser is the index of the last user message before index end, or -1.
func lastUser(history []Message, end int) int {
	for i := end - 1; i >= 0; i-- {
		if history[i].Role == RoleUser && sent(history[i]) {
			return i
		}
	}
	return -1
}

// compressBudget is how many tokens the messages kept verbatim may take:
// what is left under the compression threshold once the system messages,
// the tools, the summary and the next answer are counted, so one
// compression brings the request under the threshold when it can.
func (a *Agent) compressBudget() int {
	b := a.opts.Budget
	window := a.budgetWindow()
	if window <= 0 {
		return math.MaxInt // only /compact compresses; keep what keep_recent says
	}
	fixed := messagesTokens(a.systemMessages(false)) + a.toolsTokens()
	return int(b.CompressAt*float64(window)) - fixed - 2*summaryTokens(window)
}

// summaryTokens is how long a summary may be: a tenth of the window.
func summaryTokens(window int) int { return max(window/10, 200) }

// compress summarises history[start:cut] (with the previous summary) and
// makes the result the new summary.
func (a *Agent) compress(ctx context.Context, focus string, sink func(Event)) error {
	start := a.summaryStart()
	cut := keptFrom(a.history, start, a.opts.Budget.KeepRecent, a.compressBudget())
	old := make([]Message, 0, cut-start)
	for _, m := range a.history[start:cut] {
		if sent(m) {
			old = append(old, m)
		}
	}
	if len(old) == 0 {
		return errNothingToCompress
	}
	before := a.Estimate()
	var spent Usage
	summary, err := a.summarise(ctx, a.summary.text, old, focus, &spent)
	if spent != (Usage{}) {
		// The summary requests are paid for like any other: counted in
		// the session's totals (on the marker below) and shown.
		sink(spent)
	}
	if err != nil {
		return err
	}
	through := a.history[cut-1].Seq
	if through == 0 {
		through = uint64(cut) // not recorded: count positions instead
	}
	if r := a.opts.Recorder; r != nil {
		if err := r.RecordSummary(summary, through); err != nil {
			return notSaved(err)
		}
	}
	a.summary = summaryState{text: summary, through: through}
	a.lastPrompt, a.lastSent = 0, 0
	// A marker in the history shows where compression happened; it is not
	// sent (the summary itself is, as a system message).
	marker := Message{Role: RoleSystem, Kind: KindSummary, Content: summary}
	if spent != (Usage{}) {
		marker.Usage = &spent
	}
	if _, err := a.add(marker, sink); err != nil {
		return err
	}
	sink(Compressed{Summary: summary, Messages: len(old), Before: before, After: a.NextRequestTokens()})
	return nil
}

// summaryStart is the index of the first history message after the summary.
func (a *Agent) summaryStart() int {
	if a.summary.text == "" {
		return 0
	}
	for i, m := range a.history {
		if m.Seq > a.summary.through || (m.Seq == 0 && uint64(i) >= a.summary.through) {
			return i
		}
	}
	return len(a.history)
}

// summarise asks the model for a summary of old messages, in as many
// requests as it takes to fit them in the window: each request carries the
// summary so far and the next slice of messages.
func (a *Agent) summarise(ctx context.Context, previous string, old []Message, focus string, spent *Usage) (string, error) {
	window := a.budgetWindow()
	if window <= 0 {
		window = 30000
	}
	// Leave room for the instructions, the summary so far and the answer
	// (a quarter of the window).
	sliceBudget := window*3/4 - estimateTokens(summaryInstructions) - estimateTokens(previous)
	if sliceBudget < window/8 {
		sliceBudget = window / 8
	}
	running := previous
	for len(old) > 0 {
		var b strings.Builder
		n := 0
		for n < len(old) {
			part := transcriptLine(old[n])
			if n > 0 && estimateTokens(b.String())+estimateTokens(part) > sliceBudget {
				break
			}
			b.WriteString(part)
			n++
		}
		old = old[n:]
		s, err := a.summaryRequest(ctx, running, b.String(), focus, summaryTokens(window)*3/4, spent)
		if err != nil {
			return "", err
		}
		running = s
	}
	return running, nil
}

// summaryRequest asks for one summary of at most about words words, and
// adds what the request cost to spent.
func (a *Agent) summaryRequest(ctx context.Context, previous, transcript, focus string, words int, spent *Usage) (string, error) {
	var user strings.Builder
	if previous != "" {
		user.WriteString("Earlier summary:\n\n" + previous + "\n\n")
	}
	user.WriteString("Messages to compress:\n\n" + transcript)
	if focus != "" {
		user.WriteString("\n\nThe user asks the summary to focus on: " + focus)
	}
	fmt.Fprintf(&user, "\n\nWrite the summary now, in at most about %d words.", words)
	req := llm.Request{Messages: []Message{
		{Role: RoleSystem, Content: summaryInstructions},
		{Role: RoleUser, Content: user.String()},
	}}
	quiet := func(Event) {} // the summary is not part of the answer on screen
	reply, err := a.opts.Model.Complete(ctx, req, quiet)
	*spent = spent.Plus(a.account(req, reply))
	if err != nil {
		return "", fmt.Errorf("the summary request failed: %w", err)
	}
	s := strings.TrimSpace(reply.Content)
	if s == "" {
		return "", errors.New("the model returned an empty summary")
	}
	return s, nil
}

// transcriptLine renders one message for the summary request: plainly, with
// long tool output cut to its head and tail.
func transcriptLine(m Message) string {
	var b strings.Builder
	switch m.Role {
	case RoleUser:
		b.WriteString("[user]\n" + m.Content)
	case RoleAssistant:
		b.WriteString("[assistant]\n" + m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "\n(calls %s %s)", c.Name, cutMiddle(c.Arguments, 1500))
		}
	case RoleTool:
		status := "result"
		if m.IsError {
			status = "error"
		}
		fmt.Fprintf(&b, "[%s %s]\n%s", m.ToolName, status, cutMiddle(m.Content, 3000))
	default:
		b.WriteString("[" + string(m.Role) + "]\n" + m.Content)
	}
	b.WriteString("\n\n")
	return b.String()
}

// cutMiddle keeps the head and tail of s within about n bytes, saying what
// was cut.
func cutMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, tail := n*2/3, n/3
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[:head] + fmt.Sprintf("\n[… %d characters cut …]\n", start-head) + s[start:]
}

// fitToWindow makes sure a request is not sent over the window: it cuts the
// oldest tool outputs first, down to their head and tail, and only then
// drops the oldest messages, whole turns at a time. msgs begins with the
// system messages, which are never touched.
func fitToWindow(msgs []Message, window, fixed int) ([]Message, []string) {
	if window <= 0 {
		return msgs, nil
	}
	limit := windowLimit(window)
	total := fixed + messagesTokens(msgs)
	if total <= limit {
		return msgs, nil
	}
	var notes []string
	out := append([]Message(nil), msgs...)
	cutOutputs := 0
	for i := range out {
		if total <= limit {
			break
		}
		if out[i].Role != RoleTool || len(out[i].Content) <= 600 {
			continue
		}
		before := messageTokens(out[i])
		out[i].Content = cutMiddle(out[i].Content, 500) + "\n[this output was cut to fit the context window]"
		total -= before - messageTokens(out[i])
		cutOutputs++
	}
	if cutOutputs > 0 {
		notes = append(notes, fmt.Sprintf("Cut %s down to fit the context window.", human.Plural(cutOutputs, "old tool output")))
	}
	// Still too big: drop the oldest turns after the system messages.
	first := 0
	for first < len(out) && out[first].Role == RoleSystem {
		first++
	}
	dropped := 0
	for {
		// Drop the oldest message, and with an assistant message the tool
		// results that answer it, so the rest stays well-formed; once
		// something is dropped, the rest of its turn goes too, so no
		// earlier answer is left without its question. The question of
		// the last turn stays, and so does the last message, or the last
		// step of the turn: the assistant message and the results that
		// follow it.
		d, question := first, lastUser(out, len(out))
		orphan := dropped > 0 && d < question && out[d].Role != RoleUser
		if total <= limit && !orphan {
			break
		}
		if d == question {
			d++
		}
		keepFrom := len(out) - 1
		for i := len(out) - 1; i > question; i-- {
			if out[i].Role == RoleAssistant {
				keepFrom = i
				break
			}
		}
		if d >= keepFrom {
			break
		}
		total -= messageTokens(out[d])
		calls := len(out[d].ToolCalls)
		out = append(out[:d], out[d+1:]...)
		dropped++
		for calls > 0 && d < len(out)-1 && out[d].Role == RoleTool {
			total -= messageTokens(out[d])
			out = append(out[:d], out[d+1:]...)
			dropped++
			calls--
		}
	}
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("Left out the %s: even cut down, they did not fit the context window.", human.Plural(dropped, "oldest message")))
		// Dropping can stop between a call and its results; repair that.
		out = wellFormed(out)
	}
	return out, notes
}

// unnamedCall is the name given to a tool call that arrived without one (a
// model's slip, or a stream fragment that never got its header). Strict
// servers reject a history holding a call with an empty name, so without a
// name one such call would make every later request of the session fail.
const unnamedCall = "unnamed_tool_call"

// nameCalls gives every nameless tool call in msgs, and every tool result
// answering one, the name unnamedCall, in place; it returns how many calls
// it named. Callers pass messages whose ToolCalls they own.
func nameCalls(msgs []Message) int {
	named := 0
	unnamed := map[string]bool{}
	for i := range msgs {
		for j := range msgs[i].ToolCalls {
			if strings.TrimSpace(msgs[i].ToolCalls[j].Name) == "" {
				msgs[i].ToolCalls[j].Name = unnamedCall
				unnamed[msgs[i].ToolCalls[j].ID] = true
				named++
			}
		}
		if msgs[i].Role == RoleTool && msgs[i].ToolName == "" && unnamed[msgs[i].ToolCallID] {
			msgs[i].ToolName = unnamedCall
		}
	}
	return named
}

// windowLimit is how much of the window a request may fill: local
// servers count the answer in the same window, so a reserve for it is
// kept (see answerReserve).
func windowLimit(window int) int { return window - answerReserve(window) }

// answerReserve is the room kept for the answer: an eighth of the window,
// at least 256 tokens (a tool call with its arguments) and at most 4,096,
// never more than a quarter of a tiny window.
func answerReserve(window int) int {
	return min(max(window/8, 256), 4096, window/4)
}

// checkFits refuses a prompt that cannot fit the window even alone with
// the instructions and tools: sending it would only fail, or be cut by the
// server without a word. Nothing is stored or sent.
func (a *Agent) checkFits(user Message) error {
	window := a.budgetWindow()
	if window <= 0 {
		return nil
	}
	fixed := a.unscaledFixedTokens()
	own := messageTokens(user)
	if fixed+own <= windowLimit(window) {
		return nil
	}
	if own > windowLimit(window) || fixed < window/10 {
		return fmt.Errorf("your message is about %s tokens; the model's window is %s — shorten it or %s",
			humanTokens(own), humanTokens(a.contextWindow()), a.windowFix())
	}
	if server, n := a.heaviestServer(); n > fixed/2 {
		return fmt.Errorf("your message is about %s tokens and pincer's instructions and tools about %s, of which the tools of the MCP server %s are %s; the model's window is %s — hide that server's tools you do not need (hide_tools), disable it, or %s",
			humanTokens(own), humanTokens(fixed), server, humanTokens(n), humanTokens(a.contextWindow()), a.windowFix())
	}
	return fmt.Errorf("your message is about %s tokens and pincer's instructions and tools about %s; the model's window is %s — shorten it or %s",
		humanTokens(own), humanTokens(fixed), humanTokens(a.contextWindow()), a.windowFix())
}

// heaviestServer names the MCP server whose tools cost the most tokens in
// every request, and how many.
func (a *Agent) heaviestServer() (string, int) {
	if a.opts.DynamicTools == nil {
		return "", 0
	}
	byServer := map[string]int{}
	best, most := "", 0
	for _, t := range a.opts.DynamicTools() {
		s, ok := t.(interface{ Server() string })
		if !ok {
			continue
		}
		name := s.Server()
		byServer[name] += 10 + estimateTokens(t.Name()) + estimateTokens(t.Description()) + estimateTokens(fmt.Sprint(t.Parameters()))
		if byServer[name] > most {
			best, most = name, byServer[name]
		}
	}
	return best, most
}

// tooBig refuses a request that is still over the window after
// fitToWindow cut what it could.
func tooBig(msgs []Message, window, fixed int) error {
	return tooBigFor(msgs, window, fixed, window, 1, func() string { return "raise context_window" })
}

// tooBigFor is tooBig for a window in estimate units that stands for
// shown tokens (the window in force, divided by the calibration ratio),
// saying fix() as the way out (asked only for the error: it measures the
// tools offered): the error speaks the server's numbers, the request's
// estimate scaled as the window is.
func tooBigFor(msgs []Message, window, fixed, shown int, ratio float64, fix func() string) error {
	if window <= 0 {
		return nil
	}
	total := fixed + messagesTokens(msgs)
	if total <= windowLimit(window) {
		return nil
	}
	return fmt.Errorf("the request is about %s tokens even after leaving out older messages, and the model's window is %s with room kept for the answer — %s, or start a new session",
		humanTokens(int(float64(total)*ratio+0.5)), humanTokens(shown), fix())
}

// humanTokens writes a token count the way people say it: 850, 30k,
// 1.25M.
func humanTokens(n int) string {
	trim := func(f float64) string {
		s := strconv.FormatFloat(f, 'f', 2, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		return s
	}
	switch {
	case n >= 1_000_000:
		return trim(float64(n)/1e6) + "M"
	case n >= 10_000:
		return strconv.Itoa((n+500)/1000) + "k"
	case n >= 1000:
		return trim(float64(n)/1e3) + "k"
	}
	return strconv.Itoa(n)
}
