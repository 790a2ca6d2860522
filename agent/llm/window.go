package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// OllamaDefaultWindow is the window Ollama runs a model with when neither
// OLLAMA_CONTEXT_LENGTH nor the model's num_ctx says otherwise.
const OllamaDefaultWindow = 4096

// WindowProbeTimeout bounds the questions about the window asked of a
// server: a server that does not answer them in this time is assumed not
// to offer them.
const WindowProbeTimeout = 3 * time.Second

// Server kinds a window can be learned from.
const (
	ServerOllama   = "Ollama"
	ServerLlamaCpp = "llama.cpp"
	ServerLMStudio = "LM Studio"
	ServerModels   = "the server's model list"
)

// Window is a model's context window as a server reports it.
type Window struct {
	Tokens int
	// Server is the kind of server that reported it (ServerOllama, …);
	// Source says how, for people: "Ollama /api/ps", "llama.cpp /props".
	Server, Source string
	// Assumed is set when the server did not say and Tokens is its
	// documented default (Ollama with the model not loaded yet): worth
	// asking again later, and telling the person how to set it.
	Assumed bool
}

// Fix says how to give the model a bigger window on this kind of server,
// for a notice; "" when pincer does not know.
func (w Window) Fix(want int) string {
	n := strconv.Itoa(want)
	switch w.Server {
	case ServerOllama:
		return "start Ollama with OLLAMA_CONTEXT_LENGTH=" + n + " (or set PARAMETER num_ctx " + n + " in a Modelfile)"
	case ServerLlamaCpp:
		return "start llama-server with --ctx-size " + n
	case ServerLMStudio:
		return "load the model in LM Studio with a context length of " + n
	}
	return ""
}

// windowCache keeps what was learned per model for the client's life.
type windowCache struct {
	mu sync.Mutex
	by map[string]Window
}

// Window asks the server how big the model's window is, once per model
// (an assumed answer is asked again next time: Ollama reports the window
// only once the model is loaded; a server that said nothing is not). Tokens is 0 when the server does not
// say. It waits at most WindowProbeTimeout.
func (c *Client) Window(ctx context.Context, model string) Window {
	if model == "" {
		model = c.ModelName()
	}
	c.windows.mu.Lock()
	w, ok := c.windows.by[model]
	c.windows.mu.Unlock()
	if ok {
		return w
	}
	w, reached := discoverWindow(ctx, c.probe, c.base, model, c.key, c.hosted)
	if !w.Assumed && (w.Tokens > 0 || reached) {
		// A server that answered without a window is not asked again
		// either (its endpoints could hang until the timeout at every
		// turn); one that could not be reached is, once it runs.
		c.windows.mu.Lock()
		if c.windows.by == nil {
			c.windows.by = map[string]Window{}
		}
		c.windows.by[model] = w
		c.windows.mu.Unlock()
	}
	return w
}

// DiscoverWindow asks the server at base (an OpenAI-style base URL) for
// model's window, in every way servers offer, at once: llama.cpp's /props,
// Ollama's /api/ps (the window of the loaded model, not the most the model
// could take), LM Studio's /api/v0/models and the /v1/models list (vLLM's
// max_model_len, OpenRouter's context_length). A reachable Ollama that has
// not loaded the model yet gives its default, marked Assumed. A hosted
// service (hosted) is asked only for its model list: its other paths are
// not a local server's.
func DiscoverWindow(ctx context.Context, hc *http.Client, base, model, key string, hosted bool) Window {
	w, _ := discoverWindow(ctx, hc, base, model, key, hosted)
	return w
}

// discoverWindow is DiscoverWindow, also reporting whether the server
// answered any of the questions (with whatever status).
func discoverWindow(ctx context.Context, hc *http.Client, base, model, key string, hosted bool) (Window, bool) {
	ctx, cancel := context.WithTimeout(ctx, WindowProbeTimeout)
	defer cancel()
	root := serverRoot(base)
	type probe struct {
		url  string
		read func([]byte) (Window, bool)
	}
	probes := []probe{
		{root + "/api/ps", func(b []byte) (Window, bool) { return ollamaWindow(b, model) }},
		{root + "/props", llamaCppWindow},
		{root + "/api/v0/models", func(b []byte) (Window, bool) { return lmStudioWindow(b, model) }},
		{base + "/models", func(b []byte) (Window, bool) { return listedWindow(b, model) }},
	}
	if hosted {
		probes = probes[len(probes)-1:]
	}
	found := make([]Window, len(probes))
	seen := make([]bool, len(probes))
	var reached atomic.Bool
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, ok, answered := getJSON(ctx, hc, p.url, key)
			if answered {
				reached.Store(true)
			}
			if ok {
				found[i], seen[i] = p.read(body)
			}
		}()
	}
	wg.Wait()
	// A window a server runs with beats one it merely lists; Ollama's
	// assumed default comes last.
	var assumed Window
	for i := range probes {
		if !seen[i] {
			continue
		}
		if found[i].Assumed {
			assumed = found[i]
			continue
		}
		if found[i].Tokens > 0 {
			return found[i], true
		}
	}
	if assumed.Assumed {
		// Before Ollama loads the model it can still tell the num_ctx the
		// model's Modelfile sets, which the model will be loaded with.
		if n := ollamaModelfileWindow(ctx, hc, root, model, key); n > 0 {
			return Window{Tokens: n, Server: ServerOllama, Source: "Ollama /api/show (the model's num_ctx)"}, true
		}
	}
	return assumed, reached.Load()
}

// numCtxRE finds num_ctx in the parameters /api/show lists, one a line.
var numCtxRE = regexp.MustCompile(`(?m)^\s*num_ctx\s+(\d+)\s*$`)

// ollamaModelfileWindow asks Ollama's /api/show for the num_ctx the
// model's Modelfile sets; 0 when it sets none (the model then runs with
// the server's default, which only /api/ps tells once loaded). The
// context_length of the model's own info is the most it was trained for,
// not what it runs with, and is not used.
func ollamaModelfileWindow(ctx context.Context, hc *http.Client, root, model, key string) int {
	body, _ := json.Marshal(map[string]string{"model": model})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, root+"/api/show", bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0
	}
	var show struct {
		Parameters string `json:"parameters"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&show) != nil {
		return 0
	}
	m := numCtxRE.FindStringSubmatch(show.Parameters)
	if m == nil {
		return 0
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// serverRoot is the server's address without the OpenAI path: where
// llama.cpp, Ollama and LM Studio serve their own endpoints.
func serverRoot(base string) string {
	root := strings.TrimSuffix(base, "/")
	for _, suffix := range []string{"/v1", "/api/v1", "/api/v0"} {
		if strings.HasSuffix(root, suffix) {
			return strings.TrimSuffix(root, suffix)
		}
	}
	return root
}

// getJSON fetches a small JSON document; ok is false unless the server
// answered 200 with a JSON body, answered whether it answered at all.
func getJSON(ctx context.Context, hc *http.Client, url, key string) (body []byte, ok, answered bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, false, false
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, false, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, false, true
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil || !json.Valid(b) {
		return nil, false, true
	}
	return b, true, true
}

// ollamaWindow reads /api/ps: the context_length the model is loaded
// with, or, when the model is not loaded, Ollama's default.
func ollamaWindow(b []byte, model string) (Window, bool) {
	var ps struct {
		Models *[]struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if json.Unmarshal(b, &ps) != nil || ps.Models == nil {
		return Window{}, false
	}
	for _, m := range *ps.Models {
		if sameModel(m.Name, model) || sameModel(m.Model, model) {
			if m.ContextLength > 0 {
				return Window{Tokens: m.ContextLength, Server: ServerOllama, Source: "Ollama /api/ps"}, true
			}
		}
	}
	return Window{Tokens: OllamaDefaultWindow, Server: ServerOllama, Source: "Ollama's default while the model is not loaded", Assumed: true}, true
}

// sameModel compares Ollama model names, where "qwen3" is "qwen3:latest".
func sameModel(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return norm(a) == norm(b)
}

// llamaCppWindow reads llama.cpp's /props: n_ctx of a slot.
func llamaCppWindow(b []byte) (Window, bool) {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Defaults struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if json.Unmarshal(b, &props) != nil {
		return Window{}, false
	}
	n := props.Defaults.NCtx
	if n <= 0 {
		n = props.NCtx
	}
	if n <= 0 {
		return Window{}, false
	}
	return Window{Tokens: n, Server: ServerLlamaCpp, Source: "llama.cpp /props"}, true
}

// lmStudioWindow reads LM Studio's /api/v0/models: the context length the
// model is loaded with.
func lmStudioWindow(b []byte, model string) (Window, bool) {
	var list struct {
		Data []struct {
			ID     string `json:"id"`
			Loaded int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &list) != nil {
		return Window{}, false
	}
	for _, m := range list.Data {
		if m.ID == model && m.Loaded > 0 {
			return Window{Tokens: m.Loaded, Server: ServerLMStudio, Source: "LM Studio /api/v0/models"}, true
		}
	}
	return Window{}, false
}

// listedWindow reads the model's entry in /v1/models: vLLM's
// max_model_len, OpenRouter's context_length (or its top provider's),
// Groq's context_window.
func listedWindow(b []byte, model string) (Window, bool) {
	var list struct {
		Data []struct {
			ID            string `json:"id"`
			MaxModelLen   int    `json:"max_model_len"`
			ContextLength int    `json:"context_length"`
			ContextWindow int    `json:"context_window"`
			TopProvider   struct {
				ContextLength int `json:"context_length"`
			} `json:"top_provider"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &list) != nil {
		return Window{}, false
	}
	for _, m := range list.Data {
		if m.ID != model {
			continue
		}
		for _, n := range []int{m.MaxModelLen, m.TopProvider.ContextLength, m.ContextLength, m.ContextWindow} {
			if n > 0 {
				return Window{Tokens: n, Server: ServerModels, Source: "the server's /models"}, true
			}
		}
	}
	return Window{}, false
}
