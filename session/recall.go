package session

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Recall limits: a prompt is a question, not a document, so only its
// longest words (which tend to be its most specific) are looked up (a pasted log would otherwise cost a lookup
// per word), and a few candidates are enough for a note of a few lines.
const (
	maxPromptTerms     = 8
	defaultRecallLimit = 8
	recallPerSession   = 2
	// maxRecallDF is the most messages a term may be in for recall to
	// look it up (see dropCommon).
	maxRecallDF = 2000
	// noteBoost lifts the notes people asked to remember above old
	// messages that match as well.
	noteBoost = 1.25
	// questionWeight scales the relevance of an earlier question of the
	// person's: what was said about a subject is worth recalling, what was
	// asked about it much less, and a short question matches a new one
	// better than the longer statement that answers it.
	questionWeight = 0.5
	// singleWordRelevance is the share of a prompt's weight one word
	// must carry for a message that holds only that word to be recalled.
	singleWordRelevance = 0.5
)

// RecallOptions narrows a Recall.
type RecallOptions struct {
	// Dir keeps the messages and notes of that project only; "" means
	// every project.
	Dir string
	// ExcludeSession leaves out the session doing the recalling.
	ExcludeSession string
	// Limit is the most candidates returned; 0 means 8.
	Limit int
	// Sessions, when not nil, keeps only the messages of these sessions
	// (ids), within Dir, and leaves out the project's notes, which belong
	// to no session: a Telegram chat recalls only its own sessions. An
	// empty list recalls nothing.
	Sessions []string
}

// Recall finds what earlier sessions and the project's notes say about a
// prompt, for adding to the model's context before it answers. Unlike
// Search it gives every candidate a Relevance from 0 to 1: its BM25 score
// divided by the weight of the whole prompt, where a word the store has
// never seen weighs as much as the rarest word can. A message that matches
// the specific words of a question scores near 1; one that shares a single
// word of a longer prompt, or only common words, scores low, whatever the
// size of the store. A candidate must hold at least two of the prompt's
// words, unless the prompt has one or the word it holds carries half the
// prompt's weight. Words of greeting and thanks ("hi", "thanks",
// "please") are not looked up at all. Notes (Kind "note", NoteID set) are
// always considered and rank above messages that match as well. Private
// and forgotten sessions are never indexed, so never recalled.
func (s *Store) Recall(prompt string, o RecallOptions) ([]Hit, error) {
	terms := recallTerms(prompt)
	if len(terms) == 0 {
		return nil, nil
	}
	if len(terms) > maxPromptTerms {
		// A pasted log or a long explanation: every term looked up costs
		// a read of each index segment, so only the longest words, which
		// tend to be the specific ones, are.
		slices.SortStableFunc(terms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
		terms = terms[:maxPromptTerms]
	}
	limit := o.Limit
	if limit <= 0 {
		limit = defaultRecallLimit
	}
	dir := ""
	if o.Dir != "" {
		var err error
		if dir, err = cleanDir(o.Dir); err != nil {
			return nil, err
		}
	}
	var hits []Hit
	err := s.view(func(tx *bolt.Tx) error {
		ix, err := openIndex(tx)
		if err != nil {
			return err
		}
		t := ix.totals()
		weights, err := termWeights(ix, t, terms)
		if err != nil {
			return err
		}
		if err := useKnownForms(ix, t, terms, weights); err != nil {
			return err
		}
		terms, weights = dropCommon(terms, weights)
		if len(terms) == 0 {
			return nil
		}
		total := 0.0
		var present []string
		var presentDF []uint64
		for i, w := range weights {
			total += w.idf
			if w.df > 0 {
				present = append(present, terms[i])
				presentDF = append(presentDF, w.df)
			}
		}
		if total <= 0 {
			return nil
		}
		if len(present) > 0 {
			sel, err := newSelector(tx, ix, dir, o.ExcludeSession)
			if err == nil && o.Sessions != nil {
				sel, err = sel.within(ix, o.Sessions)
			}
			if err != nil {
				return err
			}
			scores, idf, err := scoreDocs(ix, present, presentDF, sel)
			if err != nil {
				return err
			}
			if len(scores) > 0 {
				c := collector{tx: tx, ix: ix, idf: idf, limit: limit, perSession: recallPerSession,
					sessions: map[uint32]*sessionRecord{}, taken: map[uint32]int{}, rewinds: map[uint32][]rewindRecord{}}
				found, err := c.collect(scores)
				if err != nil {
					return err
				}
				for _, h := range found {
					if h.Rewound {
						continue // taken out of its own conversation; not worth bringing back
					}
					h.Relevance = min(1, h.Score/total)
					if isQuestion(h) {
						h.Relevance *= questionWeight
					}
					hits = append(hits, h)
				}
			}
		}
		if o.Sessions == nil {
			notes, err := scoreNotes(tx, t, dir, terms, weights, total)
			if err != nil {
				return err
			}
			hits = append(hits, notes...)
		}
		// One shared word is chance, unless the prompt is one word or
		// the word carries half its weight.
		need := min(2, len(terms))
		hits = slices.DeleteFunc(hits, func(h Hit) bool { return h.Terms < need && h.Relevance < singleWordRelevance })
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recall for %q: %w", prompt, err)
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Relevance, a.Relevance); c != 0 {
			return c
		}
		return cmp.Compare(b.NoteID, a.NoteID) // notes first
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// termWeight is one query term's document frequency in the index and its
// idf; a term the index lacks weighs as much as one found in a single
// message of a store one message larger.
type termWeight struct {
	df  uint64
	idf float64
}

// termWeights looks up the document frequency of each term: one value per
// segment and a scan of pending, as scoreDocs's first pass does.
func termWeights(ix indexBuckets, t totals, terms []string) ([]termWeight, error) {
	out := make([]termWeight, len(terms))
	err := ix.segmeta.ForEach(func(k, _ []byte) error {
		b := ix.segments.Bucket(k)
		if b == nil {
			return fmt.Errorf("a search index segment is missing; the store is inconsistent")
		}
		for i, term := range terms {
			if v := b.Get([]byte(term)); v != nil {
				n, err := postCount(v)
				if err != nil {
					return err
				}
				out[i].df += n
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(terms))
	for i, t := range terms {
		index[t] = i
	}
	err = ix.pending.ForEach(func(_, v []byte) error {
		_, err := eachPendingTerm(v, func(term []byte, _ uint64) {
			if i, ok := index[string(term)]; ok {
				out[i].df++
			}
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	n := float64(t.docs)
	for i := range out {
		df := float64(out[i].df) // 0 for a word never seen: as rare as can be
		out[i].idf = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return out, nil
}

// dropCommon leaves out the terms of more than maxRecallDF messages: their
// postings would cost milliseconds to score on a large store, and words
// that common weigh little in a match anyway.
func dropCommon(terms []string, w []termWeight) ([]string, []termWeight) {
	var outT []string
	var outW []termWeight
	for i, t := range terms {
		if w[i].df <= maxRecallDF {
			outT, outW = append(outT, t), append(outW, w[i])
		}
	}
	return outT, outW
}

// scoreNotes scores the notes of dir ("" for all) against the terms, with
// the same BM25 as messages, and returns those that match at all.
func scoreNotes(tx *bolt.Tx, t totals, dir string, terms []string, w []termWeight, total float64) ([]Hit, error) {
	avgLen := 0.0
	if t.docs > 0 {
		avgLen = float64(t.length) / float64(t.docs)
	}
	idf := map[string]float64{}
	for i, term := range terms {
		idf[term] = w[i].idf
	}
	var hits []Hit
	err := eachNote(tx, func(r noteRecord) error {
		if dir != "" && r.Dir != dir {
			return nil
		}
		text, _ := redactSecrets(r.Text)
		tf, length := analyse(text)
		if length == 0 {
			return nil
		}
		avg := avgLen
		if avg == 0 {
			avg = float64(length)
		}
		score, matched := 0.0, 0
		for i, term := range terms {
			n := tf[term]
			for _, f := range wordForms(term) {
				if n > 0 {
					break
				}
				n = tf[f]
			}
			if n == 0 {
				continue
			}
			matched++
			f := float64(n)
			score += w[i].idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(length)/avg))
		}
		if score <= 0 {
			return nil
		}
		hits = append(hits, Hit{
			NoteID:    r.ID,
			Dir:       r.Dir,
			Kind:      KindNote,
			Role:      RoleUser,
			Time:      r.Updated,
			Snippet:   text, // a note may hold a key: recall never passes it on
			Score:     score,
			Terms:     matched,
			Relevance: min(1, noteBoost*score/total),
		})
		return nil
	})
	return hits, err
}

// KindNote marks a Hit that is a note from the project's memory.
const KindNote = "note"

// recallTerms are the terms of a prompt worth looking up: its search terms
// without the words of greeting, thanks and small talk.
func recallTerms(prompt string) []string {
	return slices.DeleteFunc(queryTerms(prompt), isChatWord)
}

// isChatWord reports whether t is a word of conversation rather than of
// subject matter: it says nothing about what earlier work to recall.
func isChatWord(t string) bool {
	switch strings.TrimSpace(t) {
	case "hi", "hello", "hey", "hiya", "yo", "howdy", "greetings", "morning", "afternoon", "evening", "night",
		"good", "great", "nice", "cool", "awesome", "perfect", "excellent", "fine", "well", "wow",
		"thanks", "thank", "thx", "ty", "cheers", "appreciate", "appreciated",
		"please", "pls", "plz", "sorry", "ok", "okay", "k", "yes", "yeah", "yep", "yup", "sure", "nope", "nah",
		"bye", "goodbye", "later", "see", "ya", "lol", "haha", "hmm", "um", "uh", "oh", "ah",
		"help", "can", "could", "would", "want", "like", "need", "know", "tell", "say", "let", "lets",
		"ahead", "again", "done", "anything", "something", "everything", "thing", "things", "stuff",
		"today", "there", "got", "do", "doing", "go", "continue", "proceed", "work", "next", "start", "started", "think", "sounds", "looks", "seems",
		"much", "lot", "really", "still", "just", "maybe", "also", "even":
		return true
	}
	return false
}

// useKnownForms replaces each term the index lacks by another form of the
// word that it has ("listen" by "listens", "migrations" by "migration"),
// since the index keeps words as written: a question seldom uses the same
// inflection as the message that answers it.
func useKnownForms(ix indexBuckets, t totals, terms []string, w []termWeight) error {
	var all []string
	forms := make([][]string, len(terms))
	for i, term := range terms {
		if w[i].df == 0 {
			forms[i] = wordForms(term)
			all = append(all, forms[i]...)
		}
	}
	if len(all) == 0 {
		return nil
	}
	fw, err := termWeights(ix, t, all)
	if err != nil {
		return err
	}
	k := 0
	for i := range terms {
		for _, f := range forms[i] {
			if w[i].df == 0 && fw[k].df > 0 && !slices.Contains(terms, f) {
				terms[i], w[i] = f, fw[k]
			}
			k++
		}
	}
	return nil
}

// wordForms are the other English inflections of a word worth trying:
// plural and singular, and the -ed and -ing forms.
func wordForms(t string) []string {
	if len(t) < 4 || !isASCIIWord(t) {
		return nil
	}
	var out []string
	switch {
	case strings.HasSuffix(t, "ies"):
		out = append(out, t[:len(t)-3]+"y")
	case strings.HasSuffix(t, "es"):
		out = append(out, t[:len(t)-2], t[:len(t)-1])
	case strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss"):
		out = append(out, t[:len(t)-1])
	case strings.HasSuffix(t, "ing"):
		out = append(out, t[:len(t)-3], t[:len(t)-3]+"e")
	case strings.HasSuffix(t, "ed"):
		out = append(out, t[:len(t)-2], t[:len(t)-1])
	case strings.HasSuffix(t, "y"):
		out = append(out, t+"s", t[:len(t)-1]+"ies")
	default:
		out = append(out, t+"s", t+"es")
	}
	return out
}

func isASCIIWord(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isQuestion reports whether h is a question the person asked.
func isQuestion(h Hit) bool {
	text := strings.TrimSpace(strings.ReplaceAll(h.Snippet, snippetMark, ""))
	return h.Role == RoleUser && strings.HasSuffix(text, "?")
}
