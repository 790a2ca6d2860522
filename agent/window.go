package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pincer/agent/llm"
)

// learnWindow asks the server for the model's window (Options.Window),
// before a turn: the agent then budgets for the smaller of it and a
// configured context_window (Budget.CapWindow), or for it alone. A server
// that says nothing leaves Budget.ContextWindow in force. It runs on the
// turn's goroutine, never the screen's, and the client caches the answer.
func (a *Agent) learnWindow(ctx context.Context, sink func(Event)) {
	if a.opts.Window == nil {
		return
	}
	w := a.opts.Window(ctx, a.turnModel)
	tokens, from := WindowFor(a.opts.Budget, w)
	if a.refusedWindow > 0 && tokens > a.refusedWindow && (w.Tokens == 0 || w.Assumed) {
		// The server named a smaller window when it refused a request,
		// and has not said otherwise since.
		tokens, from = a.refusedWindow, refusedSource
	}
	if tokens <= 0 {
		return
	}
	a.server = w
	old := a.contextWindow()
	a.learned.Store(int64(tokens))
	a.windowFrom.Store(from)
	if tokens != old || !a.windowShown {
		a.windowShown = true
		sink(WindowKnown{Tokens: tokens, Source: from})
	}
	a.fitProfile(from, sink)
	if w.Tokens > 0 && tokens == w.Tokens && !a.windowTold {
		fixed := a.fixedTokens()
		if want := wantedWindow(fixed); tokens < want {
			a.windowTold = true
			text := fmt.Sprintf("The model's window is %s tokens (%s); pincer's instructions and tools alone take about %s, so older messages will be summarised often and long files cut.",
				humanTokens(tokens), w.Source, humanTokens(fixed))
			if fix := w.Fix(want); fix != "" {
				text += fmt.Sprintf(" For a window of %s, %s.", humanTokens(want), fix)
			}
			sink(Notice{Text: text})
		}
	}
}

// refusedSource says where a window named in a refusal came from.
const refusedSource = "the server's refusal"

// WindowFor is the window to budget for, and where it came from, given
// the budget's configured window and what the server reported: the
// smaller of the two when context_window was set (CapWindow), else the
// reported one; the configured one when the server said nothing, or only
// guessed while context_window was set.
func WindowFor(b Budget, w llm.Window) (int, string) {
	tokens, from := b.ContextWindow, "context_window"
	if !b.CapWindow {
		from = "default"
	}
	switch {
	case w.Tokens <= 0:
	case w.Assumed && b.CapWindow:
		// A guess (Ollama's default before the model is loaded) does not
		// overrule a window the person set: they may well have started
		// the server with it.
	case b.CapWindow && b.ContextWindow > 0 && b.ContextWindow < w.Tokens:
		from = fmt.Sprintf("context_window (%s reports %s)", w.Source, humanTokens(w.Tokens))
	default:
		tokens, from = w.Tokens, w.Source
	}
	return tokens, from
}

// windowFix says how to get a bigger window: on the server when the
// window in force is what the server reported, else in the config.
func (a *Agent) windowFix() string {
	if n := a.refusedWindow; n > 0 && int64(n) == a.learned.Load() {
		// pincer's own setting cannot raise what the server runs with;
		// it can choose the instructions that fit.
		fix := "give the model a bigger window on its server"
		if a.Profile() != ProfileCompact && ProfileFor(n) == ProfileCompact {
			// Only a configured full profile stays full in such a window
			// (see fitProfile).
			fix += `, or set prompt_profile to "compact" so pincer sends its compact instructions`
		}
		return fix
	}
	if w := a.server; w.Tokens > 0 && int64(w.Tokens) == a.learned.Load() {
		if fix := w.Fix(wantedWindow(a.fixedTokens())); fix != "" {
			return "give the model a bigger window: " + fix
		}
	}
	return "raise context_window"
}

// wantedWindow is the window pincer works well in: room for its fixed
// part several times over, at least 16k, in steps of 4k.
func wantedWindow(fixed int) int {
	want := max(16384, fixed*4)
	return (want + 4095) / 4096 * 4096
}

// contextWindow is the window in force: the learned one, else the
// configured one (0 turns budgeting off).
func (a *Agent) contextWindow() int {
	if n := a.learned.Load(); n > 0 {
		return int(n)
	}
	return a.opts.Budget.ContextWindow
}

// ContextWindowSource says where the window in force came from, for
// `pincer config`, the status line and run --json: "context_window",
// "default", or the server's endpoint that reported it.
func (a *Agent) ContextWindowSource() string {
	if s, ok := a.windowFrom.Load().(string); ok && a.learned.Load() > 0 {
		return s
	}
	if a.opts.Budget.CapWindow {
		return "context_window"
	}
	return "default"
}

// fixedTokens estimates what every request carries whatever was said:
// the system prompt and the tool schemas.
func (a *Agent) fixedTokens() int { return a.scaled(a.unscaledFixedTokens()) }

// unscaledFixedTokens is fixedTokens in estimate units, before the
// calibration to what the server counts.
func (a *Agent) unscaledFixedTokens() int {
	n := a.toolsTokens()
	if system := a.system(); system != "" {
		n += messageTokens(Message{Role: RoleSystem, Content: system})
	}
	return n
}

// The calibration of estimates: the ratio of the prompt tokens a server
// counted to pincer's estimate of the same request, per model. Samples
// outside these bounds are not a tokenizer's difference but a server
// counting something else (a cached prefix left out), and are ignored.
const (
	minRatio = 0.5
	maxRatio = 3.0
)

// calibrate learns from the prompt tokens the server counted for req.
func (a *Agent) calibrate(req llm.Request, counted int) {
	est := messagesTokens(req.Messages) + requestToolsTokens(req)
	if counted <= 0 || est <= 0 {
		return
	}
	r := float64(counted) / float64(est)
	if r < minRatio || r > maxRatio {
		return
	}
	if a.ratios == nil {
		a.ratios = map[string]float64{}
	}
	a.ratios[a.modelKey(req.Model)] = r
}

// modelKey names the model a request goes to, for the calibration: the
// turn's own model, else the client's (which /model may switch).
func (a *Agent) modelKey(model string) string {
	if model != "" {
		return model
	}
	if m, ok := a.opts.Model.(interface{ ModelName() string }); ok {
		return m.ModelName()
	}
	return ""
}

// calibrateByCount calibrates the estimate before the model's first
// request, when the server counts tokens for us: the system prompt and
// the tool schemas, which every request carries, counted by the model's
// tokenizer against pincer's estimate of the same text. The first request
// of a small window is then fitted by what the server will count, not by
// a guess a third too low.
func (a *Agent) calibrateByCount(ctx context.Context) {
	if a.opts.CountTokens == nil {
		return
	}
	key := a.modelKey(a.turnModel)
	if _, ok := a.ratios[key]; ok {
		return
	}
	var b strings.Builder
	b.WriteString(a.system())
	for _, t := range a.offer().Specs {
		spec, _ := json.Marshal(map[string]any{"name": t.Name, "description": t.Description, "parameters": t.Parameters})
		b.WriteString("\n")
		b.Write(spec)
	}
	text := b.String()
	est := estimateTokens(text)
	n, ok := a.opts.CountTokens(ctx, text)
	if !ok || est <= 0 {
		return
	}
	r := float64(n) / float64(est)
	if r < minRatio || r > maxRatio {
		return
	}
	if a.ratios == nil {
		a.ratios = map[string]float64{}
	}
	a.ratios[key] = r
}

// ratio is the calibration of the model this turn asks for (1 until the
// server has counted a request).
func (a *Agent) ratio() float64 {
	if r, ok := a.ratios[a.modelKey(a.turnModel)]; ok {
		return r
	}
	return 1
}

// scaled turns an estimate into the tokens the server is expected to
// count.
func (a *Agent) scaled(est int) int { return int(float64(est)*a.ratio() + 0.5) }

// budgetWindow is the window in estimate units: the window in force
// divided by the calibration, which the estimate-based fitting compares
// against.
func (a *Agent) budgetWindow() int {
	w := a.contextWindow()
	if w <= 0 {
		return 0
	}
	return int(float64(w) / a.ratio())
}

// specTokens estimates tool schemas as sent, as toolsTokens does.
func specTokens(ts []llm.ToolSpec) int {
	n := 0
	for _, t := range ts {
		n += 10 + estimateTokens(t.Name) + estimateTokens(t.Description) + estimateTokens(fmt.Sprint(t.Parameters))
	}
	return n
}

// requestToolsTokens estimates the tools as req sends them: described in
// the system prompt with TextTools, else as the server's own tool
// schemas; the same count toolsTokens fits the next request with, so the
// calibration compares like with like.
func requestToolsTokens(req llm.Request) int {
	if req.TextTools && len(req.Tools) > 0 {
		return estimateTokens(llm.TextToolsPrompt(req.Tools))
	}
	return specTokens(req.Tools)
}

// errWindowRefused is the one sentence said when the server refuses a
// request as too long even after pincer compressed and retried.
func errWindowRefused(window int, err error) error {
	return fmt.Errorf("the model server refused the request as longer than its context window even after pincer compressed the conversation (pincer budgets for %s tokens) — set context_window to the window the server really runs with, or start a new session: %w",
		humanTokens(window), err)
}

// afterRefusal handles a request the server refused as too long: the
// estimate was wrong for this model, so it is raised to match what the
// server must have counted, the conversation compressed, and the request
// built again. It returns the new request.
func (a *Agent) afterRefusal(ctx context.Context, req llm.Request, refusal error, final bool, sink func(Event)) (llm.Request, error) {
	est := messagesTokens(req.Messages) + requestToolsTokens(req)
	w := a.contextWindow()
	if n := llm.RefusedWindow(refusal); n > 0 && (w <= 0 || n < w) {
		// The server named its window: the window was wrong, not
		// necessarily the estimate.
		a.refusedWindow, w = n, n
		a.learned.Store(int64(n))
		a.windowFrom.Store(refusedSource)
		sink(WindowKnown{Tokens: n, Source: refusedSource})
		a.fitProfile(refusedSource, sink)
	}
	if w > 0 && est > 0 && float64(est)*a.ratio() <= float64(w) {
		// The server counted more than the window: at least window/est
		// per estimated token, with a margin.
		r := max(a.ratio()*1.2, float64(w)/float64(est)*1.1)
		if a.ratios == nil {
			a.ratios = map[string]float64{}
		}
		a.ratios[a.modelKey(req.Model)] = min(r, maxRatio*2)
	}
	sink(Notice{Text: "The model server refused the request as longer than its context window; compressing the conversation and sending it once more."})
	if err := a.compress(ctx, "", sink); err != nil && !errors.Is(err, errNothingToCompress) {
		if ctx.Err() != nil {
			return req, ctx.Err()
		}
		if errors.Is(err, ErrNotSaved) {
			return req, err
		}
		sink(Notice{Text: "Could not compress the conversation (" + err.Error() + "); sending it cut down to fit instead."})
	}
	return a.request(final, sink)
}

// fitProfile switches to the compact profile when the window in force,
// learned after the profile was chosen, calls for it (ProfileFor, the
// threshold used at the start), and says so once. It never switches
// back: the instructions do not change under the model twice, and a
// window that grows again is rarely the one the session runs in. A
// configured profile is kept.
func (a *Agent) fitProfile(from string, sink func(Event)) {
	if !a.opts.ProfileAuto || a.Profile() == ProfileCompact || ProfileFor(a.contextWindow()) != ProfileCompact {
		return
	}
	before := a.fixedTokens()
	a.compacted.Store(true)
	sink(Notice{Text: fmt.Sprintf("The model's window is %s tokens (%s), so pincer now sends its compact instructions and tool descriptions: about %s tokens instead of %s. Set prompt_profile to \"full\" to keep the full ones.",
		humanTokens(a.contextWindow()), from, humanTokens(a.fixedTokens()), humanTokens(before))})
}

// system is the system prompt in force: the compact one once the
// profile switched to compact (fitProfile), else the one the agent was
// made with.
func (a *Agent) system() string {
	if a.compacted.Load() && a.opts.CompactSystem != "" {
		return a.opts.CompactSystem
	}
	return a.opts.System
}
