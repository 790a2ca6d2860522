package session

// isCommonWord reports whether t is an everyday English word (beyond the
// stop words) or a word every coding conversation uses: numbers, the
// verbs of asking and doing ("listen", "touch", "fix", "run"), and nouns
// that name no particular thing ("question", "thing", "file", "test").
// Recall still scores such words, but they cannot make a match on their
// own: "listen to me" is not a question about the note that says the
// database listens on 5433. Words that name parts of a project ("build",
// "cache", "deploy", "database") are not on the list; in a large store
// their own frequency (see storeCommonShare) keeps them from carrying a
// match when they are common there.
func isCommonWord(t string) bool {
	switch t {
	// numbers and order
	case "one", "ones", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"hundred", "thousand", "first", "second", "third", "last", "next", "previous", "once", "twice",
		"half", "single", "double", "several", "many", "every", "another", "else", "others", "either", "neither",
		"lot", "lots", "bit", "little", "less", "least", "number", "numbers",
		// asking, saying, perceiving, thinking
		"listen", "hear", "look", "looking", "see", "seen", "watch", "show", "showing", "tell", "told", "say", "said",
		"ask", "asked", "answer", "answers", "talk", "speak", "mean", "means", "meant", "think", "thought",
		"believe", "guess", "wonder", "understand", "remember", "forget", "feel", "seem", "seemed",
		"try", "tried", "trying", "want", "wanted", "need", "needed", "needs", "hope", "wish", "mind", "care",
		"question", "questions", "idea", "ideas", "reason", "example", "examples", "point", "fact", "word", "words",
		"explain", "describe", "mention", "mentioned", "note", "notes", "hold", "holds", "wait", "waiting",
		// doing, in any conversation with a coding assistant
		"make", "made", "makes", "making", "get", "gets", "getting", "give", "gave", "given", "take", "took", "taken",
		"put", "keep", "keeps", "kept", "come", "came", "comes", "went", "gone", "bring", "leave", "left", "stay",
		"stop", "stopped", "begin", "end", "ended", "finish", "finished", "happen", "happens", "happened",
		"change", "changed", "changes", "changing", "move", "moved", "turn", "use", "used", "uses", "using",
		"works", "worked", "working", "call", "called", "find", "found", "check", "checked", "fix", "fixed", "fixes",
		"add", "added", "adding", "write", "wrote", "written", "read", "open", "opened", "close", "closed",
		"run", "ran", "runs", "touch", "set", "pass", "passes", "passed", "rename", "remove", "removed",
		"delete", "done", "did", "does", "doing", "going", "able",
		// things in general
		"thing", "stuff", "way", "ways", "kind", "sort", "part", "parts", "piece", "side", "case", "cases",
		"time", "times", "day", "days", "week", "weeks", "month", "months", "year", "years",
		"moment", "minute", "minutes", "hour", "hours", "seconds", "tomorrow", "yesterday", "tonight",
		"people", "person", "someone", "somebody", "anyone", "anybody", "everyone", "everybody", "nobody",
		"nothing", "place", "world", "life", "name", "names", "line", "lines", "file", "files", "folder",
		"code", "project", "test", "tests", "problem", "problems", "issue", "issues", "error", "errors", "bug", "bugs",
		"result", "results", "output", "version", "main", "rest", "top", "bottom", "front", "back",
		// qualities and manners
		"new", "old", "big", "small", "large", "long", "short", "high", "low", "fast", "slow", "quick", "quickly",
		"early", "late", "easy", "hard", "simple", "right", "wrong", "true", "false", "real", "full", "empty",
		"whole", "best", "better", "worse", "worst", "different", "important", "ready", "free", "clear",
		"possible", "correct", "exactly", "actually", "probably", "already", "always", "never", "often",
		"sometimes", "usually", "almost", "quite", "rather", "enough", "instead", "together", "away",
		"around", "anyway", "ever", "yet", "soon", "here", "interesting", "carefully", "careful":
		return true
	}
	return false
}
