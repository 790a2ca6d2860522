package session

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
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
	// singleWordRelevance is the share of a prompt's weight a name must
	// carry for a message that holds only that name to be recalled.
	singleWordRelevance = 0.5
	// A word in more than storeCommonShare of the store's messages, and
	// in more than storeCommonMin, is common there (see storeCommon).
	storeCommonShare = 0.02
	storeCommonMin   = 4
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
// words, one of them specific (not an everyday word, not common in the
// store), unless it holds a name the prompt gives that carries half the
// weight of the prompt's specific words: one shared word is chance, and
// "listen to me" is not a question about the note that says what the
// database listens on. Words of greeting and thanks ("hi", "thanks",
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
	named := namedTerms(prompt)
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
		asTyped := slices.Clone(terms)
		if err := useKnownForms(ix, t, terms, weights); err != nil {
			return err
		}
		q := newRecallQuery(asTyped, terms, weights, named, t.docs)
		if len(q.terms) == 0 {
			return nil
		}
		total := q.total
		var present []string
		var presentDF []uint64
		var presentAt []int // index in q.terms of each present term
		for i, w := range q.weights {
			if w.df > 0 {
				present = append(present, q.terms[i])
				presentDF = append(presentDF, w.df)
				presentAt = append(presentAt, i)
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
			// Chance matches go before ranking, so they cannot take the
			// places of real ones.
			scores = slices.DeleteFunc(scores, func(d scored) bool {
				return !q.enough(remapTerms(d.terms, presentAt), d.score)
			})
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
			notes, err := scoreNotes(tx, t, dir, q)
			if err != nil {
				return err
			}
			hits = append(hits, notes...)
		}
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

// recallQuery is a prompt's terms as recall looks them up, with what
// each may do in a match.
type recallQuery struct {
	terms   []string
	weights []termWeight
	// specific has bit i set when term i may carry a match: it is neither
	// an everyday word (isCommonWord) nor common in the store.
	specific uint32
	// named has bit i set when term i is specific and was written as a
	// name (see namedTerms).
	named uint32
	// total is the weight of the prompt, the sum of its terms' idf;
	// specificWeight that of its specific terms.
	total, specificWeight float64
}

// newRecallQuery leaves out the terms of more than maxRecallDF messages
// (their postings would cost milliseconds to score on a large store, and
// words that common weigh little in a match anyway) and marks which of
// the rest are specific and which are names. asTyped holds the terms as
// the prompt wrote them, terms the forms the index knows (useKnownForms).
func newRecallQuery(asTyped, terms []string, w []termWeight, named map[string]bool, docs uint64) recallQuery {
	var q recallQuery
	for i, t := range terms {
		if w[i].df > maxRecallDF {
			continue
		}
		bit := termBit(len(q.terms))
		q.terms, q.weights = append(q.terms, t), append(q.weights, w[i])
		q.total += w[i].idf
		if isCommonWord(asTyped[i]) || isCommonWord(t) || storeCommon(w[i].df, docs) {
			continue
		}
		q.specific |= bit
		q.specificWeight += w[i].idf
		if named[asTyped[i]] {
			q.named |= bit
		}
	}
	return q
}

// storeCommon reports whether a word found in df of the store's docs
// messages is too common there to carry a match: in more than
// storeCommonShare of them, and in more than a handful (in a small store
// every word is in a large share of it).
func storeCommon(df, docs uint64) bool {
	return df > storeCommonMin && float64(df) > storeCommonShare*float64(docs)
}

// enough reports whether a candidate that holds the terms of mask (bit i
// for term i) with the given score is a match rather than chance: it
// shares two of the prompt's words, one of them specific, or it holds a
// name of the prompt that scores at least singleWordRelevance of the
// weight of the prompt's specific words. So a prompt of one word recalls
// something only by a name ("Kafka", "checkout_v2"), and a word every
// conversation uses never makes a match by itself.
func (q recallQuery) enough(mask uint32, score float64) bool {
	if bits.OnesCount32(mask) >= 2 && mask&q.specific != 0 {
		return true
	}
	return mask&q.named != 0 && score >= singleWordRelevance*q.specificWeight
}

// remapTerms turns a mask over a subset of the query's terms (bit j for
// the subset's term j) into a mask over the query's terms, where the
// subset's term j is term at[j].
func remapTerms(mask uint32, at []int) uint32 {
	var out uint32
	for j, i := range at {
		if mask&termBit(j) != 0 {
			out |= termBit(i)
		}
	}
	return out
}

// scoreNotes scores the notes of dir ("" for all) against the query, with
// the same BM25 as messages, and returns those that match enough (see
// recallQuery.enough).
func scoreNotes(tx *bolt.Tx, t totals, dir string, q recallQuery) ([]Hit, error) {
	avgLen := 0.0
	if t.docs > 0 {
		avgLen = float64(t.length) / float64(t.docs)
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
		score, matched := 0.0, uint32(0)
		for i, term := range q.terms {
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
			matched |= termBit(i)
			f := float64(n)
			score += q.weights[i].idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(length)/avg))
		}
		if score <= 0 || !q.enough(matched, score) {
			return nil
		}
		hits = append(hits, Hit{
			NoteID:    r.ID,
			Dir:       r.Dir,
			Kind:      KindNote,
			Role:      string(chat.RoleUser),
			Time:      r.Updated,
			Snippet:   text, // a note may hold a key: recall never passes it on
			Score:     score,
			Terms:     bits.OnesCount32(matched),
			Relevance: min(1, noteBoost*score/q.total),
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
	return h.Role == string(chat.RoleUser) && strings.HasSuffix(text, "?")
}

// namedTerms returns the terms of prompt written the way names are: with
// a digit or an underscore (checkout_v2, i18n), with a capital after the
// first letter (PagerDuty, TTL), capitalised inside a sentence (Redis), or
// joined to another word by a dot, a slash, a colon, or after a # or an @
// (log.Printf, db/migrations, #billing-help). A name is specific enough
// to recall a note that shares nothing else with the prompt.
func namedTerms(prompt string) map[string]bool {
	named := map[string]bool{}
	scanUnits(prompt, func(start, end int, terms []string) {
		if writtenAsName(prompt, start, end) {
			for _, t := range terms {
				named[t] = true
			}
		}
	})
	return named
}

// writtenAsName reports whether the word text[start:end] is written as a
// name (see namedTerms).
func writtenAsName(text string, start, end int) bool {
	word := text[start:end]
	for i, r := range word {
		if r == '_' || unicode.IsDigit(r) || (i > 0 && unicode.IsUpper(r)) {
			return true
		}
	}
	before, _ := utf8.DecodeLastRuneInString(text[:start])
	after, n := utf8.DecodeRuneInString(text[end:])
	afterNext, _ := utf8.DecodeRuneInString(text[min(len(text), end+n):])
	switch {
	case before == '#' || before == '@':
		return true
	case strings.ContainsRune("./:", before) && start > 1:
		prev, _ := utf8.DecodeLastRuneInString(text[:start-1])
		if isWordRune(prev) {
			return true
		}
	}
	if strings.ContainsRune("./:", after) && isWordRune(afterNext) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(first) {
		return false
	}
	// Capitalised: a name unless it starts a sentence.
	lead := strings.TrimRightFunc(text[:start], unicode.IsSpace)
	if lead == "" {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(lead)
	return len(lead) < start && !strings.ContainsRune(".!?\n\"'(", last)
}
