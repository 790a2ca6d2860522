package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkShapes are chunks as servers send them, and near misses: the fast
// decoder must take the common ones and, whatever it takes, agree with
// encoding/json.
var chunkShapes = []struct {
	data string
	fast bool // the fast decoder is expected to take it
}{
	{`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`, true},
	{`{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"created":1733,"id":"x","model":"q","system_fingerprint":"b1-x","object":"chat.completion.chunk","timings":{"prompt_n":1,"predicted_ms":1.5e2}}`, true},
	{`{"choices":[{"index":0,"delta":{"content":"line \"quoted\"\n\u00e9 \ud83d\ude00 \/"}}]}`, true},
	{`{"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"think"}}]}`, true},
	{`{"choices":[{"index":0,"delta":{"reasoning":"think"}}]}`, true},
	{`{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"a"}]}}]}`, true},
	{`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, true},
	{`{"choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"a"}}]}`, true},
	{`{"choices":[{"delta":null,"index":null}]}`, true},
	{` { "choices" : [ { "index" : -0 , "delta" : { "content" : "x" } } ] , "usage" : null } `, true},
	{`{"choices":[]}`, true},
	{`{"choices":null}`, true},
	{`{}`, true},
	{`{"choices":[{"index":0,"delta":{"tool_calls":null,"function_call":null,"content":"x"}}]}`, false},
	{`{"choices":[{"index":0,"delta":{"content":"say \"tool_calls\" and \"function_call\""}}]}`, true},
	{"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"caf\xc3\"}}]}", true}, // raw bytes are kept for the text stream
	{`{"object":"error","choices":[]}`, true},

	// Taken by encoding/json.
	{`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}`, false},
	{`{"error":{"message":"boom"}}`, false},
	{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}`, false},
	{`{"choices":[{"index":0,"delta":{"function_call":{"name":"f"}}}]}`, false},
	{`{"choices":[{"index":0,"message":{"content":"whole"}}]}`, false},
	{`{"Choices":[{"index":0,"delta":{"content":"case"}}]}`, false},
	{`{"choices":[{"Index":0,"delta":{"Content":"case"}}]}`, false},
	{`{"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]}`, false},
	{`{"choices":[],"choices":[{"index":0}]}`, false},
	{`{"ch\u006fices":[{"index":0,"delta":{"content":"esc"}}]}`, false},
	{`{"choices":[{"index":0,"finish_reason":"st\u006fp"}]}`, false},
	{"{\"object\":\"caf\xc3\",\"choices\":[]}", false},
	{`{"choices":[{"index":1.0,"delta":{"content":"x"}}]}`, false},
	{`{"choices":[{"index":"0","delta":{"content":"x"}}]}`, false},
	{`{"choices":[{"index":01,"delta":{"content":"x"}}]}`, false},
	{`{"choices":[{"index":12345678901,"delta":{"content":"x"}}]}`, false},
	{`{"choices":[{"index":0,"delta":{"content":"x"}}]}{"choices":[]}`, false},
	{`{"choices":[{"index":0,"delta":{"content":"x"}}]`, false},
	{`{"choices":[{"index":0,"delta":{"content":"tab	raw"}}]}`, false},
	{`{"choices":[{"index":0,"delta":{"content":"bad \x escape"}}]}`, false},
	{`{"id":01,"choices":[]}`, false},
	{`{"id":1.,"choices":[]}`, false},
	{`{"id":tru,"choices":[]}`, false},
	{`{"id":[1,],"choices":[]}`, false},
	{`{"id":{"a":1,},"choices":[]}`, false},
	{`[DONE]`, false},
	{``, false},
}

// TestFastChunkMatchesJSON: the fast decoder takes the shapes servers send
// for text, and what it takes decodes exactly as with encoding/json.
func TestFastChunkMatchesJSON(t *testing.T) {
	for _, tc := range chunkShapes {
		var fast wireChunk
		got := decodeTextChunk([]byte(tc.data), &fast)
		if got != tc.fast {
			t.Errorf("decodeTextChunk(%s) took it: %v, want %v", tc.data, got, tc.fast)
		}
		if got {
			sameAsJSON(t, []byte(tc.data), fast)
		}
	}
}

// FuzzFastChunk checks that whatever the fast decoder takes, encoding/json
// decodes the same way.
func FuzzFastChunk(f *testing.F) {
	for _, tc := range chunkShapes {
		f.Add([]byte(tc.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast wireChunk
		if decodeTextChunk(data, &fast) {
			sameAsJSON(t, data, fast)
		}
	})
}

func sameAsJSON(t *testing.T, data []byte, fast wireChunk) {
	t.Helper()
	var slow wireChunk
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatalf("the fast decoder took %q, which encoding/json refuses: %v", data, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decoding %q:\nfast %#v\njson %#v", data, fast, slow)
	}
}
