package knowledge

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// EmbeddingText is the part of a turn its vector stands for: what the
// speaker says, without the questions they ask. Users tell an assistant
// things in passing, inside requests ("We finally moved to Cardiff last
// month. Can you help me register with a GP?"), and a sentence encoder
// averages the whole turn: the question's words pull the vector away from
// the statement a later question about the user is near ("Where does the
// user live now?" is at cosine 0.12 to the whole turn, 0.23 to its first
// sentence). A question sentence that carries a clause of the speaker's
// own ("Now that I drive a Kia Niro, what's the best way to charge it?")
// is kept, and a turn that is only a question, or whose other sentences
// say nothing, keeps its whole text. Full-text search and every reading
// of the turn still see the whole text; only the vector changes.
func EmbeddingText(text string) string {
	spans := nlp.SplitSentences(text)
	if len(spans) < 2 {
		return text
	}
	kept := make([]string, 0, len(spans))
	for _, s := range spans {
		if !asksOnly(s.Text) {
			kept = append(kept, s.Text)
		}
	}
	if len(kept) == len(spans) || len(kept) == 0 {
		return text
	}
	out := strings.Join(kept, " ")
	if ReadStatement(out).Form == FormChatter {
		return text // "Thanks so much!" beside the question: the question is the content
	}
	return out
}

// EmbeddingTextVersion names the rule EmbeddingText follows; vectors of
// turns embedded under another rule are embedded again.
const EmbeddingTextVersion = "statements-1"

// asksOnly reports whether a sentence is a question (isQuestion, as
// ReadStatement reads it) that states nothing of the speaker's: no clause
// of the speaker's before the clause that asks (statedPrefix) and no
// first-person subject before its question word ("Since I'm vegetarian
// could you swap the chicken?" states the diet).
func asksOnly(sentence string) bool {
	trimmed := strings.TrimSpace(sentence)
	ws := tokens(trimmed)
	if !isQuestion(trimmed, ws) || statedPrefix(trimmed) != "" {
		return false
	}
	first := slices.IndexFunc(ws, func(w string) bool { return questionStarts[w] })
	if first < 0 {
		first = len(ws)
	}
	return !slices.ContainsFunc(ws[:first], func(w string) bool { return subjectPronouns[w] })
}
