package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// recalled names what a recall found: session names, and "note" for a
// saved note.
func recalled(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		name := h.SessionName
		if h.NoteID != 0 {
			name = "note"
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// TestRecallNeedsASpecificMatch: the prompts that recalled unrelated notes
// in the field share one word, or only everyday words, with what is
// stored; they must recall nothing, while a question that names what it
// is about still recalls it.
func TestRecallNeedsASpecificMatch(t *testing.T) {
	s := newTestStore(t)
	for name, text := range map[string]string{
		"db":      "Noted: staging Postgres listens on 5433 since the old cluster keeps 5432.",
		"kafka":   "The orders topic has 12 partitions keyed by customer_id so that events for one customer stay ordered.",
		"support": "A customer question about an invoice goes to the billing team; questions about access go to IT.",
		"mail":    "The mail worker sends the emails queued in the outbox table.",
		"scale":   "The API runs two replicas in staging.",
		"codegen": "Never touch the generated files in internal/gen by hand.",
		"perf":    "The report endpoint was slow because of an N+1 query.",
		"build":   "The build failed with a compile error; I fixed the import.",
		"lint":    "Ran go vet and gofmt, no issues.",
		"cache":   "Redis is only a cache here: every key has a TTL of 10 minutes.",
	} {
		sess := mustCreate(t, s, name, "/p")
		say(t, s, sess.ID, text)
	}
	if _, err := s.AddNote("/p", "One release a week at most, and one more only with a second reviewer."); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		prompt string
		want   []string
	}{
		{"listen to me", nil},
		{"one more thing", nil},
		{"question f", nil},
		{"queued two", nil},
		{"touch a file", nil},
		{"why is the build slow?", nil},
		{"run go vet", nil},
		{"the second one", nil},
		// One word that is not written as a name is chance in a short
		// prompt too.
		{"what happens if redis is down", nil},
		{"what happens if Redis is down", []string{"cache"}},
		{"what TTL do the redis keys have?", []string{"cache"}},
		{"which port does staging postgres listen on?", []string{"db"}},
		{"how many partitions does the orders topic have?", []string{"kafka"}},
		{"who answers a customer question about an invoice?", []string{"support"}},
		{"how many replicas run in staging", []string{"scale"}},
		{"can I edit the generated files in internal/gen?", []string{"codegen"}},
	}
	for _, tt := range tests {
		hits, err := s.Recall(tt.prompt, RecallOptions{Dir: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		if got := recalled(hits); !slices.Equal(got, tt.want) {
			t.Errorf("Recall(%q) found %q, want %q", tt.prompt, got, tt.want)
		}
	}
}

// TestRecallWordsCommonInTheStore: a word found in a large share of the
// store's messages cannot carry a match with an everyday word, where the
// same word, rare, does.
func TestRecallWordsCommonInTheStore(t *testing.T) {
	for _, common := range []bool{false, true} {
		t.Run(fmt.Sprint("common=", common), func(t *testing.T) {
			s := newTestStore(t)
			work := mustCreate(t, s, "work", "/p")
			var talk []string
			for i := range 100 {
				if common && i%10 == 0 {
					talk = append(talk, fmt.Sprintf("the pipeline passed on build %d", i))
					continue
				}
				talk = append(talk, fmt.Sprintf("message %d about the parser", i))
			}
			say(t, s, work.ID, talk...)
			fact := mustCreate(t, s, "fact", "/p")
			say(t, s, fact.ID, "check the pipeline logs before merging")
			hits, err := s.Recall("check the pipeline", RecallOptions{Dir: "/p"})
			if err != nil {
				t.Fatal(err)
			}
			got := recalled(hits)
			if common && len(got) > 0 {
				t.Errorf("with pipeline in 10%% of the messages, Recall found %q; want nothing", got)
			}
			if !common && !slices.Equal(got, []string{"fact"}) {
				t.Errorf("with pipeline in one message, Recall found %q; want the fact", got)
			}
		})
	}
}

func TestWrittenAsName(t *testing.T) {
	tests := []struct {
		text, word string
		want       bool
	}{
		{"what happens if Redis is down", "Redis", true},
		{"Redis is down", "Redis", false},
		{"it failed. Redis is down", "Redis", false},
		{"what happens if redis is down", "redis", false},
		{"TestUploadRetry failed again", "TestUploadRetry", true},
		{"what TTL do the keys have", "TTL", true},
		{"who gets checkout_v2", "checkout_v2", true},
		{"compiled by make i18n", "i18n", true},
		{"port 5433 again", "5433", true},
		{"use log.Printf here", "log", true},
		{"use log.Printf here", "Printf", true},
		{"edit db/migrations", "migrations", true},
		{"ask in #billing-help", "billing", true},
		{"ping @oncall now", "oncall", true},
		{"make them table-driven", "table", false},
		{"listen to me", "listen", false},
		{"the end.", "end", false},
	}
	for _, tt := range tests {
		start := strings.Index(tt.text, tt.word)
		if got := writtenAsName(tt.text, start, start+len(tt.word)); got != tt.want {
			t.Errorf("writtenAsName(%q, %q) = %v, want %v", tt.text, tt.word, got, tt.want)
		}
	}
}
