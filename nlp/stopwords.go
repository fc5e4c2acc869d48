package nlp

// IsStopword reports whether w (lower case) is an English function word
// that carries no meaning for search or entity keys.
func IsStopword(w string) bool { return stopwords[w] }

// stopwords is a compact English stopword list (articles, pronouns,
// auxiliaries, prepositions, conjunctions and chat fillers). It keeps
// negations out: "not" and "no" change the meaning of a fact.
var stopwords = func() map[string]bool {
	list := []string{
		"a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
		"as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but",
		"by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for",
		"from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself",
		"him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just",
		"me", "more", "most", "my", "myself", "of", "off", "on", "once", "only", "or", "other",
		"our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some",
		"such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there",
		"these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very",
		"was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why",
		"will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "'s", "s", "t",
		"i'm", "i've", "i'd", "i'll", "you're", "you've", "you'd", "you'll", "he's", "she's",
		"it's", "we're", "we've", "we'd", "we'll", "they're", "they've", "they'd", "they'll",
		"that's", "there's", "here's", "what's", "let's", "also", "really", "yeah", "yes", "oh",
		"ok", "okay", "hey", "hi", "hello", "wow", "um", "uh", "well", "like", "get", "got", "gonna",
		"im", "ive", "id", "ill", "youre", "thats", "its", "u", "ur", "lol", "haha", "btw",
		"may", "might", "must", "shall", "us", "much", "many", "every", "even", "still", "yet",
		"ever", "something", "anything", "everything", "nothing", "someone", "anyone", "thing",
		"things", "one", "ones", "lot", "lots", "kind", "sort", "bit", "way", "since",
	}
	m := make(map[string]bool, len(list))
	for _, w := range list {
		m[w] = true
	}
	return m
}()
