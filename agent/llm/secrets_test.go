package llm

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/chat"
)

const testKey = "sk-test-9f8e7d6c5b4a3210"

// TestCredentialsNeverLeaveInErrors has servers echo the key back in every
// way an error reaches the person: an error object in the stream, an error
// body, a retried failure's notice.
func TestCredentialsNeverLeaveInErrors(t *testing.T) {
	t.Parallel()
	streamErr := fmt.Sprintf("data: {\"error\":{\"message\":\"Incorrect API key provided: %s\",\"type\":\"invalid_request_error\",\"code\":\"%s\"}}\n\n", testKey, testKey)
	tests := []struct {
		name    string
		replies []agenttest.Reply
	}{
		{"error object in the stream", []agenttest.Reply{{Body: streamErr}}},
		{"error event in the stream", []agenttest.Reply{{Body: "event: error\ndata: {\"message\":\"bad key " + testKey + "\"}\n\n"}}},
		{"error body", []agenttest.Reply{agenttest.Error(401, "Incorrect API key provided: "+testKey)}},
		{"plain error body", []agenttest.Reply{{Status: 403, Body: "forbidden for " + testKey}}},
		{"the key three times in one body (errors pass two scrubs)", []agenttest.Reply{{Status: 403, Body: "key " + testKey + " refused; check " + testKey + " (" + testKey + ")"}}},
		{"retried, then failed", []agenttest.Reply{agenttest.Error(503, "overloaded; key "+testKey), agenttest.Error(400, "key "+testKey+" is bad")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(tt.replies...)
			defer srv.Close()
			c, err := NewClient(ClientOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Model: "test-model", MaxRetries: 1,
				Backoff: func(int) time.Duration { return time.Millisecond }})
			if err != nil {
				t.Fatal(err)
			}
			var shown []string
			_, err = c.Complete(context.Background(), Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}}, func(ev Event) {
				if r, ok := ev.(Retrying); ok {
					shown = append(shown, r.Err.Error())
				}
			})
			if err == nil {
				t.Fatal("Complete succeeded")
			}
			shown = append(shown, err.Error())
			for _, s := range shown {
				if strings.Contains(s, testKey) {
					t.Errorf("the key shows in %q", s)
				}
				if !strings.Contains(s, "<redacted>") {
					t.Errorf("%q does not say something was removed", s)
				}
			}
		})
	}
}

// TestBaseURLWithAQueryKeepsItsQuery: a gateway that takes its key as a
// query parameter gets the endpoint path right and the parameter on every
// request, and the key stays out of errors.
func TestBaseURLWithAQueryKeepsItsQuery(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("hello", 5), agenttest.Error(401, "bad api-key "+testKey))
	defer srv.Close()
	base := srv.BaseURL() + "?api-key=" + testKey
	c, err := NewClient(ClientOptions{BaseURL: base, Model: "test-model", MaxRetries: -1, Secrets: []string{testKey}})
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}}
	if r, err := c.Complete(context.Background(), req, nil); err != nil || r.Content != "hello" {
		t.Fatalf("Complete = %q, %v", r.Content, err)
	}
	got := srv.Requests()[0]
	if got.Path != "/v1/chat/completions" || got.Query != "api-key="+testKey {
		t.Errorf("request went to %s?%s, want /v1/chat/completions?api-key=…", got.Path, got.Query)
	}
	_, err = c.Complete(context.Background(), req, nil)
	if err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("error %v shows the key from the base URL", err)
	}
	names, err := c.Models(context.Background())
	if err != nil || len(names) == 0 {
		t.Errorf("Models = %v, %v", names, err)
	}
	if names, err := ListModels(context.Background(), ClientOptions{BaseURL: base}); err != nil || len(names) == 0 {
		t.Errorf("ListModels = %v, %v", names, err)
	}
}

// TestUnreachableServerErrorsHideURLCredentials: Go's own errors quote the
// request URL; the user name, password and key parameter stay out.
func TestUnreachableServerErrorsHideURLCredentials(t *testing.T) {
	t.Parallel()
	base := "http://alice:" + testKey + "@127.0.0.1:1/v1?token=" + testKey + "x"
	secrets := []string{"alice", testKey, testKey + "x"}
	c, err := NewClient(ClientOptions{BaseURL: base, Model: "m", MaxRetries: -1, Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}}, nil)
	_, lerr := ListModels(context.Background(), ClientOptions{BaseURL: base, Secrets: secrets})
	for _, e := range []error{err, lerr} {
		if e == nil {
			t.Fatal("a request to a closed port succeeded")
		}
		if strings.Contains(e.Error(), testKey) || strings.Contains(e.Error(), "alice") {
			t.Errorf("error shows a credential: %v", e)
		}
	}
	if _, err := NewClient(ClientOptions{BaseURL: "ftp://" + testKey + "@h", Model: "m", Secrets: secrets}); err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("NewClient error %v shows the key", err)
	}
}

// TestScrubberRemovesEveryOccurrence: a message that carries a secret
// more than once, or two secrets one inside the other, keeps none of them.
func TestScrubberRemovesEveryOccurrence(t *testing.T) {
	t.Parallel()
	inner := testKey[:12]
	sc := newScrubber(inner, testKey)
	for _, in := range []string{
		testKey + " " + testKey,
		"a " + testKey + " b " + testKey + " c " + testKey,
		"x" + testKey + testKey + "y",
		inner + " and " + testKey,
	} {
		got := sc.text(in)
		if strings.Contains(got, inner) || strings.Contains(got, testKey[12:]) {
			t.Errorf("text(%q) = %q: a secret is left", in, got)
		}
		if strings.Count(got, "<redacted>") != strings.Count(in, inner) {
			t.Errorf("text(%q) = %q: want one <redacted> for each secret", in, got)
		}
	}
	err := sc.err(fmt.Errorf("bad key %s (was %s)", testKey, testKey))
	if strings.Contains(err.Error(), inner) {
		t.Errorf("err kept the key: %v", err)
	}
}
