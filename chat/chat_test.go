package chat

import (
	"encoding/json"
	"testing"
)

// TestTouchKindJSON: a touched file's kind is written by its name, as the
// store and the exports have always written it, and a name this pincer
// does not know reads as no kind rather than as another one.
func TestTouchKindJSON(t *testing.T) {
	for _, tt := range []struct {
		kind TouchKind
		json string
	}{
		{TouchRead, `{"path":"a.go","kind":"read"}`},
		{TouchChanged, `{"path":"a.go","kind":"changed"}`},
		{TouchCreated, `{"path":"a.go","kind":"created"}`},
	} {
		got, err := json.Marshal(Touch{Path: "a.go", Kind: tt.kind})
		if err != nil || string(got) != tt.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.kind, got, err, tt.json)
		}
		var back Touch
		if err := json.Unmarshal([]byte(tt.json), &back); err != nil || back.Kind != tt.kind {
			t.Errorf("Unmarshal(%s) = %+v, %v; want kind %v", tt.json, back, err, tt.kind)
		}
	}
	var future Touch
	if err := json.Unmarshal([]byte(`{"path":"a.go","kind":"renamed"}`), &future); err != nil || future.Kind != 0 {
		t.Errorf("an unknown kind reads as %+v, %v; want kind 0 and no error", future, err)
	}
}

// TestUsageJSONLeavesOutTheTotal: the JSON form of usage (stored
// messages, exports) has no total; Plus sums every field.
func TestUsageJSONLeavesOutTheTotal(t *testing.T) {
	u := Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CachedTokens: 2}
	got, err := json.Marshal(u)
	if want := `{"prompt_tokens":10,"completion_tokens":5,"cached_tokens":2}`; err != nil || string(got) != want {
		t.Errorf("Marshal = %s, %v; want %s", got, err, want)
	}
	sum := u.Plus(Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3, ReasoningTokens: 4, CachedTokens: 5})
	if want := (Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18, ReasoningTokens: 4, CachedTokens: 7}); sum != want {
		t.Errorf("Plus = %+v, want %+v", sum, want)
	}
}
