package llm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"pincer/agent/agenttest"
)

// fakeServer answers GET paths with fixed JSON bodies and 404 elsewhere,
// counting the requests.
func fakeServer(t *testing.T, bodies map[string]string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		body, ok := bodies[r.URL.Path]
		if !ok || (r.Method != http.MethodGet && r.URL.Path != "/api/show") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestDiscoverWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		path    string // the base URL's path
		bodies  map[string]string
		tokens  int
		server  string
		assumed bool
	}{
		{"llama.cpp props", "/v1", map[string]string{
			"/props":     `{"default_generation_settings":{"n_ctx":8192,"n_predict":-1},"total_slots":1}`,
			"/v1/models": `{"object":"list","data":[{"id":"test-model","object":"model"}]}`,
		}, 8192, ServerLlamaCpp, false},
		{"llama.cpp older props", "/v1", map[string]string{"/props": `{"n_ctx":2048}`}, 2048, ServerLlamaCpp, false},
		{"vLLM models", "/v1", map[string]string{
			"/v1/models": `{"object":"list","data":[{"id":"other","max_model_len":1},{"id":"test-model","object":"model","max_model_len":32768}]}`,
		}, 32768, ServerModels, false},
		{"OpenRouter models", "/api/v1", map[string]string{
			"/api/v1/models": `{"data":[{"id":"test-model","context_length":131072,"top_provider":{"context_length":65536}}]}`,
		}, 65536, ServerModels, false},
		{"LM Studio loaded", "/v1", map[string]string{
			"/api/v0/models": `{"data":[{"id":"test-model","state":"loaded","max_context_length":131072,"loaded_context_length":16384}]}`,
			"/v1/models":     `{"data":[{"id":"test-model"}]}`,
		}, 16384, ServerLMStudio, false},
		{"Ollama loaded: ps not show", "/v1", map[string]string{
			"/api/ps":    `{"models":[{"name":"test-model:latest","model":"test-model:latest","size":1,"context_length":4096}]}`,
			"/api/show":  `{"model_info":{"qwen3.context_length":40960}}`,
			"/v1/models": `{"object":"list","data":[{"id":"test-model:latest"}]}`,
		}, 4096, ServerOllama, false},
		{"Ollama loaded with OLLAMA_CONTEXT_LENGTH", "/v1", map[string]string{
			"/api/ps": `{"models":[{"name":"test-model","model":"test-model","context_length":32768}]}`,
		}, 32768, ServerOllama, false},
		{"Ollama not loaded", "/v1", map[string]string{
			"/api/ps":   `{"models":[{"name":"another:7b","context_length":8192}]}`,
			"/api/show": `{"model_info":{"qwen3.context_length":40960}}`,
		}, OllamaDefaultWindow, ServerOllama, true},
		{"Ollama not loaded, Modelfile num_ctx", "/v1", map[string]string{
			"/api/ps":   `{"models":[]}`,
			"/api/show": `{"parameters":"stop                           \"<|im_end|>\"\nnum_ctx                        32768\ntemperature                    0.6","model_info":{"qwen3.context_length":40960}}`,
		}, 32768, ServerOllama, false},
		{"nothing said", "/v1", map[string]string{"/v1/models": `{"data":[{"id":"test-model"}]}`}, 0, "", false},
		{"not JSON", "/v1", map[string]string{"/props": `<html>n_ctx</html>`}, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := fakeServer(t, tt.bodies)
			c, err := NewClient(ClientOptions{BaseURL: srv.URL + tt.path, Model: "test-model"})
			if err != nil {
				t.Fatal(err)
			}
			w := c.Window(context.Background(), "")
			if w.Tokens != tt.tokens || w.Server != tt.server || w.Assumed != tt.assumed {
				t.Fatalf("window %+v, want %d tokens from %q (assumed %v)", w, tt.tokens, tt.server, tt.assumed)
			}
			if w.Tokens > 0 && w.Source == "" {
				t.Errorf("window %+v says not where it came from", w)
			}
		})
	}
}

// TestWindowCached asks the server once per model for a window it
// reported, and again for an assumed one (Ollama loads the model later).
func TestWindowCached(t *testing.T) {
	t.Parallel()
	srv, n := fakeServer(t, map[string]string{"/props": `{"default_generation_settings":{"n_ctx":8192}}`})
	c, err := NewClient(ClientOptions{BaseURL: srv.URL + "/v1", Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	c.Window(context.Background(), "")
	first := n.Load()
	if w := c.Window(context.Background(), ""); w.Tokens != 8192 || n.Load() != first {
		t.Fatalf("second ask: window %+v after %d requests, want 8192 from the cache (%d requests)", w, n.Load(), first)
	}

	silent, n3 := fakeServer(t, map[string]string{})
	c3, err := NewClient(ClientOptions{BaseURL: silent.URL + "/v1", Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	c3.Window(context.Background(), "")
	first = n3.Load()
	if w := c3.Window(context.Background(), ""); w.Tokens != 0 || n3.Load() != first {
		t.Fatalf("a server that said nothing was asked again (window %+v)", w)
	}

	// A server not running yet is asked again (it may be started).
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()
	c4, err := NewClient(ClientOptions{BaseURL: downURL + "/v1", Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	c4.Window(context.Background(), "")
	c4.windows.mu.Lock()
	_, cached := c4.windows.by["test-model"]
	c4.windows.mu.Unlock()
	if cached {
		t.Error("the window of a server that could not be reached was cached")
	}

	srv2, n2 := fakeServer(t, map[string]string{"/api/ps": `{"models":[]}`})
	c2, err := NewClient(ClientOptions{BaseURL: srv2.URL + "/v1", Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	c2.Window(context.Background(), "")
	first = n2.Load()
	if w := c2.Window(context.Background(), ""); !w.Assumed || n2.Load() == first {
		t.Fatalf("an assumed window %+v was not asked about again", w)
	}
}

func TestErrorKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		err              error
		tooLong, noTools bool
		noNative         bool
	}{
		{"openai", &apiError{Status: 400, Code: "context_length_exceeded", Message: "This model's maximum context length is 8192 tokens."}, true, false, false},
		{"vllm", &apiError{Status: 400, Message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens"}, true, false, false},
		{"llama.cpp", &apiError{Status: 400, Type: "exceed_context_size_error", Message: "the request exceeds the available context size, try increasing it"}, true, false, false},
		{"ollama long", &apiError{Status: 400, Message: "input length exceeds the context length"}, true, false, false},
		{"lm studio", &apiError{Status: 400, Message: "The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length"}, true, false, false},
		{"lm studio overflow", &apiError{Status: 400, Message: "Trying to keep the first 6120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}, true, false, false},
		{"llama.cpp old", &apiError{Status: 400, Message: "input is larger than the max context size. skipping"}, true, false, false},
		{"ollama prompt too long", &apiError{Status: 400, Message: "prompt too long; exceeded max context length by 1904 tokens"}, true, false, false},
		{"ollama no tools", &apiError{Status: 400, Message: "registry.ollama.ai/library/gemma3:1b does not support tools"}, false, true, false},
		{"vllm auto tool choice", &apiError{Status: 400, Message: "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"}, false, false, true},
		{"llama.cpp no jinja", &apiError{Status: 500, Message: "tools param requires --jinja flag"}, false, false, true},
		{"server error", &apiError{Status: 500, Message: "maximum context length"}, false, false, false},
		{"other 400", &apiError{Status: 400, Message: "invalid temperature"}, false, false, false},
		{"not an api error", context.Canceled, false, false, false},
	}
	for _, tt := range tests {
		if got := ContextTooLong(tt.err); got != tt.tooLong {
			t.Errorf("%s: ContextTooLong = %v, want %v", tt.name, got, tt.tooLong)
		}
		if got := ToolsUnsupported(tt.err); got != tt.noTools {
			t.Errorf("%s: ToolsUnsupported = %v, want %v", tt.name, got, tt.noTools)
		}
		if got := NativeToolsRefused(tt.err); got != tt.noNative {
			t.Errorf("%s: NativeToolsRefused = %v, want %v", tt.name, got, tt.noNative)
		}
	}
}

// TestRefusedWindow reads the window from the words and fields servers
// refuse a long request with.
func TestRefusedWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want int
	}{
		{"openai", `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","code":"context_length_exceeded"}}`, 8192},
		{"vllm", `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).","type":"BadRequestError","code":400}`, 4096},
		{"lm studio", `{"error":"Trying to keep the first 3312 tokens when context the overflows. However, the model is loaded with context length of only 2500 tokens, which is not enough."}`, 2500},
		{"sglang", `{"object":"error","message":"The input (5000 tokens) is longer than the model's context length (4096 tokens).","code":400}`, 4096},
		{"llama.cpp fields", `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":3312,"n_ctx":2048}}`, 2048},
		{"llama.cpp numbers", `{"error":{"code":400,"message":"the request exceeds the available context size (3312 > 2048)","type":"exceed_context_size_error"}}`, 2048},
		{"llama.cpp older wording", `{"error":{"code":400,"message":"the context window is too small (5000 > 4096) for this prompt"}}`, 4096},
		{"prompt is too long", `{"error":{"type":"invalid_request_error","message":"prompt is too long: 21000 tokens > 20000 maximum"}}`, 20000},
		{"no number", `{"error":{"message":"prompt is too long"}}`, 0},
		{"not a refusal", `{"error":{"message":"invalid max_tokens (4096)","n_ctx":4096}}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Reply{Status: 400, Body: tt.body})
			defer srv.Close()
			c := newTestClient(t, srv.BaseURL(), "")
			_, err := c.Complete(context.Background(), userOnly("hi"), nil)
			if got := RefusedWindow(err); got != tt.want {
				t.Errorf("RefusedWindow(%v) = %d, want %d", err, got, tt.want)
			}
		})
	}
}

func TestCountTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer string // the /tokenize body; "" for a server without it
		hosted bool
		want   int
		ok     bool
	}{
		{"llama.cpp", `{"tokens":[15,27,99,4]}`, false, 4, true},
		{"vLLM", `{"count":7,"max_model_len":8192,"tokens":[1,2,3,4,5,6,7]}`, false, 7, true},
		{"not offered", "", false, 0, false},
		{"hosted is not asked", `{"tokens":[1]}`, true, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				atomic.AddInt32(&asked, 1)
				if r.URL.Path != "/tokenize" || r.Method != http.MethodPost || tt.answer == "" {
					http.NotFound(w, r)
					return
				}
				_, _ = w.Write([]byte(tt.answer))
			}))
			defer srv.Close()
			c, err := NewClient(ClientOptions{BaseURL: srv.URL + "/v1", Model: "test-model", Hosted: tt.hosted})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				n, ok := c.CountTokens(context.Background(), "some text")
				if n != tt.want || ok != tt.ok {
					t.Fatalf("CountTokens = %d, %v; want %d, %v", n, ok, tt.want, tt.ok)
				}
			}
			wantAsked := int32(2)
			switch {
			case tt.hosted:
				wantAsked = 0
			case !tt.ok:
				wantAsked = 1 // not asked again
			}
			if asked != wantAsked {
				t.Errorf("the server was asked %d times, want %d", asked, wantAsked)
			}
		})
	}
}
