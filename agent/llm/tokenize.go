package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// tokenizer remembers whether the server counts tokens for us.
type tokenizer struct {
	mu      sync.Mutex
	checked bool // the server was asked at least once
	offered bool // and answered
}

// CountTokens asks the server to count the tokens of text with the
// model's own tokenizer: llama.cpp's and vLLM's /tokenize. ok is false
// when the server does not offer it (then it is not asked again) or did
// not answer within WindowProbeTimeout. A hosted service is not asked.
func (c *Client) CountTokens(ctx context.Context, text string) (n int, ok bool) {
	if c.hosted {
		return 0, false
	}
	c.tokens.mu.Lock()
	skip := c.tokens.checked && !c.tokens.offered
	c.tokens.mu.Unlock()
	if skip {
		return 0, false
	}
	n, answered := countTokens(ctx, c.probe, serverRoot(c.base), c.ModelName(), c.key, text)
	c.tokens.mu.Lock()
	if !c.tokens.checked || answered {
		c.tokens.checked, c.tokens.offered = true, answered || c.tokens.offered
	}
	c.tokens.mu.Unlock()
	return n, answered && n > 0
}

// countTokens posts text to root/tokenize in a form both servers read:
// llama.cpp takes "content" and answers "tokens", vLLM takes "prompt" (and
// "model") and answers "count" as well.
func countTokens(ctx context.Context, hc *http.Client, root, model, key, text string) (int, bool) {
	ctx, cancel := context.WithTimeout(ctx, WindowProbeTimeout)
	defer cancel()
	body, err := json.Marshal(map[string]any{"content": text, "prompt": text, "model": model, "add_special": false})
	if err != nil {
		return 0, false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, root+"/tokenize", bytes.NewReader(body))
	if err != nil {
		return 0, false
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, false
	}
	var out struct {
		Count  int               `json:"count"`
		Tokens []json.RawMessage `json:"tokens"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&out) != nil {
		return 0, false
	}
	if out.Count > 0 {
		return out.Count, true
	}
	return len(out.Tokens), len(out.Tokens) > 0
}
