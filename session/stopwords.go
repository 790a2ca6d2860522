package session

// isStopWord reports whether t is an English word so common that it says
// nothing about what a message is about. Such words are neither indexed nor
// searched for. Words that carry meaning in programming ("go", "new", "id",
// "get", "set", "run", "test") are not stop words. The list also holds the
// forms contractions take once their apostrophe is dropped ("doesnt").
func isStopWord(t string) bool {
	switch t {
	case "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
		"are", "arent", "as", "at",
		"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
		"can", "cannot", "cant", "could", "couldnt",
		"did", "didnt", "do", "does", "doesnt", "doing", "dont", "down", "during",
		"each", "few", "for", "from", "further",
		"had", "hadnt", "has", "hasnt", "have", "havent", "having", "he", "her", "here", "hers",
		"herself", "him", "himself", "his", "how",
		"if", "ill", "im", "in", "into", "is", "isnt", "it", "its", "itself", "ive",
		"just", "lets",
		"me", "more", "most", "my", "myself",
		"no", "nor", "not", "now",
		"of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
		"same", "shall", "she", "should", "shouldnt", "so", "some", "such",
		"than", "that", "thats", "the", "their", "theirs", "them", "themselves", "then", "there",
		"theres", "these", "they", "theyre", "this", "those", "through", "to", "too",
		"under", "until", "up", "us",
		"very",
		"was", "wasnt", "we", "were", "werent", "weve", "what", "whats", "when", "where", "which",
		"while", "who", "whom", "why", "will", "with", "wont", "would", "wouldnt",
		"you", "youd", "youll", "your", "youre", "yours", "yourself", "yourselves", "youve":
		return true
	}
	return false
}
