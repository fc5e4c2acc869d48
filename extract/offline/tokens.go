package offline

import (
	"strings"
	"time"
	"unicode"

	"github.com/graphmem/graphmem/nlp"
)

// tok is one token of an event's text as the rules see it: folded,
// contractions expanded ("I'm" → "i", "am"), and each date expression
// merged into a single "@date" token that carries its resolution.
type tok struct {
	w     string // folded form used for matching
	orig  string // the characters as written (for names)
	start int    // byte offsets in the event text
	end   int
	cap   bool // written with a capital letter
	first bool // first word of its sentence (so a capital proves nothing)
	kind  nlp.TokenKind
	date  *nlp.DateSpan
}

const dateTok = "@date"

// sentence is one sentence of an event, tokenized.
type sentence struct {
	toks     []tok
	text     string
	question bool
}

// expand splits one surface token into the words the rules match on.
func expand(t nlp.Token, next string) []string {
	w := t.Lower()
	if f, ok := chatForms[w]; ok {
		return f
	}
	if !strings.Contains(w, "'") {
		return []string{w}
	}
	switch w {
	case "can't":
		return []string{"can", "not"}
	case "won't":
		return []string{"will", "not"}
	case "shan't":
		return []string{"shall", "not"}
	case "ain't":
		return []string{"is", "not"}
	case "let's":
		return []string{"let", "us"}
	case "y'all":
		return []string{"you"}
	}
	switch {
	case strings.HasSuffix(w, "n't"):
		return []string{strings.TrimSuffix(w, "n't"), "not"}
	case strings.HasSuffix(w, "'m"):
		return []string{strings.TrimSuffix(w, "'m"), "am"}
	case strings.HasSuffix(w, "'re"):
		return []string{strings.TrimSuffix(w, "'re"), "are"}
	case strings.HasSuffix(w, "'ve"):
		return []string{strings.TrimSuffix(w, "'ve"), "have"}
	case strings.HasSuffix(w, "'ll"):
		return []string{strings.TrimSuffix(w, "'ll"), "will"}
	case strings.HasSuffix(w, "'d"):
		return []string{strings.TrimSuffix(w, "'d"), "would"}
	case strings.HasSuffix(w, "'s"):
		base := strings.TrimSuffix(w, "'s")
		if isContractors[base] || isAfterCopula[next] {
			if next == "been" || next == "got" || next == "had" {
				return []string{base, "has"}
			}
			return []string{base, "is"}
		}
		if hasAfterContraction[next] {
			return []string{base, "has"} // "my sister's gone vegan"
		}
		if isBeforeState[next] {
			return []string{base, "is"} // "my girlfriend's vegan", "Sam's moving to Leeds"
		}
		return []string{base, "'s"}
	case strings.HasSuffix(w, "s'"):
		return []string{strings.TrimSuffix(w, "'"), "'s"}
	}
	return []string{w}
}

// sentences tokenizes text into sentences of toks, with dates resolved
// against ref.
func sentences(text string, ref time.Time) []sentence {
	dates := nlp.FindDates(text, ref)
	var out []sentence
	for _, sp := range nlp.SplitSentences(text) {
		raw := nlp.Tokenize(sp.Text)
		toks := make([]tok, 0, len(raw)+4)
		firstWord := true
		for i := 0; i < len(raw); i++ {
			t := raw[i]
			start, end := t.Start+sp.Start, t.End+sp.Start
			if d := dateAt(dates, start); d != nil {
				// Swallow every token of the expression, and its
				// parenthesized annotation when the text has one.
				stop := d.End
				if d.Annotated() {
					if k := strings.IndexByte(text[d.End:], ')'); k >= 0 {
						stop = d.End + k + 1
					}
				}
				for i+1 < len(raw) && raw[i+1].Start+sp.Start < stop {
					i++
				}
				toks = append(toks, tok{w: dateTok, orig: d.Text, start: d.Start, end: d.End, date: d, first: firstWord, kind: nlp.Symbol})
				firstWord = false
				continue
			}
			next := ""
			if i+1 < len(raw) {
				next = raw[i+1].Lower()
			}
			parts := expand(t, next)
			for k, p := range parts {
				o := t.Text
				if len(parts) > 1 {
					if k == 0 {
						o = t.Text[:min(len(p), len(t.Text))]
					} else {
						o = p
					}
				}
				toks = append(toks, tok{w: p, orig: o, start: start, end: end, cap: k == 0 && (t.IsCapitalized() || camelName(t.Text)),
					first: firstWord && k == 0 && (t.Kind == nlp.Word || t.Kind == nlp.Number), kind: t.Kind})
			}
			if (t.Kind == nlp.Word || t.Kind == nlp.Number) && len(parts) > 0 {
				firstWord = false
			}
		}
		s := sentence{toks: toks, text: sp.Text}
		s.question = isQuestion(sp.Text, toks)
		out = append(out, s)
	}
	return out
}

// dateAt returns the date span that starts at byte offset off.
func dateAt(dates []nlp.DateSpan, off int) *nlp.DateSpan {
	for i := range dates {
		if dates[i].Start == off {
			return &dates[i]
		}
	}
	return nil
}

// isQuestion reports whether a sentence asks rather than tells: it ends
// with "?" or opens with an inverted auxiliary or a wh-word followed by an
// auxiliary ("do you like sushi", "what do you do").
func isQuestion(text string, toks []tok) bool {
	t := strings.TrimRight(text, " \"'”’)")
	if strings.HasSuffix(t, "?") || strings.HasSuffix(t, "?!") || strings.HasSuffix(t, "!?") {
		return true
	}
	if strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") {
		return false
	}
	words := make([]string, 0, 3)
	for _, tk := range toks {
		if tk.kind == nlp.Word {
			words = append(words, tk.w)
			if len(words) == 3 {
				break
			}
		}
	}
	if len(words) < 2 || !questionStarters[words[0]] {
		return false
	}
	switch words[0] {
	case "what", "where", "when", "why", "how", "who", "which", "whose", "whom":
		return auxiliaries[words[1]]
	}
	return subjectPronouns[words[1]]
}

// clauses splits a sentence into clauses at punctuation and conjunctions,
// and merges back pieces without a verb (list items, appositives, leading
// adverbials such as "These days," or "Big news:").
func clauses(toks []tok) [][]tok {
	var segs [][]tok
	cur := make([]tok, 0, len(toks))
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, cur)
			cur = make([]tok, 0, len(toks))
		}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == nlp.Punct {
			if t.w == "-" && i > 0 && i+1 < len(toks) && toks[i-1].end == t.start && t.end == toks[i+1].start {
				// A hyphen inside a word ("a 50-minute drive") joins, it
				// does not end a clause as a dash does.
				cur = append(cur, t)
				continue
			}
			switch t.w {
			case ";", ":", "–", "—", "(", ")", "...", "…", "!", ".", "?", "-":
				flush()
				continue
			case ",":
				flush()
				// Keep the comma as a token: rules read "a dog, Rex".
				cur = append(cur, t)
				continue
			}
			continue // quotes and other punctuation carry no clause structure
		}
		if alt("i|we", t.w) && len(cur) > 1 && len(cur) <= 7 && reportEnds(cur) && !alt("i|we|you", cur[0].w) &&
			i+1 < len(toks) && (auxiliaries[toks[i+1].w] || isVerbForm(toks[i+1].w)) {
			// "The doctor says I've got high blood pressure", "turns
			// out I'm coeliac": someone else's report of the speaker
			// is the speaker's news, as with "that" (below).
			flush()
		}
		if t.w == "that" && len(cur) > 1 && reportsThat(cur) && startsClause(toks, i+1) {
			// "I found out in spring that I'm coeliac": the news is a
			// clause of its own, read as the speaker's statement.
			flush()
			continue
		}
		// "before", "after" and "until" open a clause only before one ("after
		// we went camping"), not before a time ("after work").
		if clauseBreakers[t.w] && len(cur) > 0 && !(t.w == "since" && i+1 < len(toks) && toks[i+1].w == dateTok) &&
			!((t.w == "before" || t.w == "after" || t.w == "until") && !startsClause(toks, i+1)) {
			flush()
		}
		if subordinateEnds(cur, toks, i) {
			// "Since the twins arrived I can't do horror anymore": a
			// subordinate clause said first ends where the main clause's
			// subject comes, comma or not, as it would at a comma.
			flush()
		}
		if (t.w == "and" || t.w == "or" || t.w == "&" || t.w == "then") && len(cur) > 0 && startsClause(toks, i+1) &&
			!(t.w == "and" && i+1 < len(toks) && toks[i+1].w == "i" && (onlyNames(cur) || possessiveOnly(cur) || shortKind(cur))) {
			flush()
			cur = append(cur, t) // the new clause remembers it was coordinated
			continue
		}
		cur = append(cur, t)
	}
	flush()
	segs = joinGerundLists(segs)
	// Merge verbless pieces: forward when they come first, backward otherwise.
	var out [][]tok
	var pending []tok
	for _, s := range segs {
		if !hasVerb(s) && !(len(out) == 0 && pastAfterSubject(s)) {
			if len(out) == 0 {
				pending = append(pending, s...)
			} else {
				out[len(out)-1] = append(out[len(out)-1], s...)
			}
			continue
		}
		if len(pending) > 0 && alt("and|but|or|so", s[0].w) && ownSubject(s[1:]) {
			// A clause coordinated with what came before ("9 years in
			// primary, maths lead for 4 of them, and since September I'm
			// deputy head at ...") has no heading: the pieces before it
			// stay a piece of their own.
			out = append(out, pending)
			pending = nil
		}
		if len(pending) > 0 {
			// Keep a comma where the pieces met, so "Thanks Melanie - love
			// the vase" still reads "Melanie" as the person addressed.
			joined := pending
			if s[0].w != "," {
				joined = append(joined, tok{w: ",", orig: ",", kind: nlp.Punct})
			}
			s = append(joined, s...)
			pending = nil
		}
		out = append(out, s)
	}
	if len(pending) > 0 {
		out = append(out, pending)
	}
	return out
}

// fronting are the conjunctions that open a subordinate clause said before
// its main clause ("Since we moved ...", "When the kids are asleep ...").
var fronting = wordSet(`since,when,after,before,once,because,while,although,though,whenever,until`)

// subordinateEnds reports whether toks[i] opens the main clause after a
// fronted subordinate clause written without a comma: cur opens with a
// subordinating conjunction, already holds its own subject and verb, and
// toks[i] is "I" or "we" followed by an auxiliary or a verb. A subject
// right after the conjunction is the subordinate clause's own ("When I
// moved ..."), and a conditional ("if") stays whole: it asserts nothing.
func subordinateEnds(cur, toks []tok, i int) bool {
	if len(cur) < 3 || !fronting[cur[0].w] || !alt("i|we", toks[i].w) || i+1 >= len(toks) {
		return false
	}
	body := cur[1:]
	if !hasVerb(body) && !pastAfterSubject(append([]tok{{w: "it", kind: nlp.Word}}, body...)) {
		return false
	}
	next := toks[i+1]
	if auxiliaries[next.w] || clauseAdverbs[next.w] {
		return true
	}
	_, f, ok := verbOf(next.w)
	return ok && f != formIng && f != formPart
}

// ownSubject reports whether a clause opens with its own subject pronoun,
// after adverbs and a time ("since September I'm ...", "now we're ..."),
// so it shares no subject with a piece before it.
func ownSubject(s []tok) bool {
	i := 0
	for i < len(s) && (clauseAdverbs[s[i].w] || s[i].w == dateTok || alt("since|from|as|of", s[i].w)) {
		i++
	}
	if i >= len(s) {
		return false
	}
	w := s[i].w
	return subjectPronouns[w] || strings.HasPrefix(w, "i'") || strings.HasPrefix(w, "we'") || strings.HasPrefix(w, "i’") || strings.HasPrefix(w, "we’")
}

// pastAfterSubject reports whether a piece the lexicon finds no verb in
// still reads as a clause: a regular past tense right after a subject
// ("the gym closed", "it rained"), unknown to the rules but finite. Such a
// piece is not a heading to merge into the next ("The gym closed and I
// love yoga now" would read "the gym" as the subject of "love").
func pastAfterSubject(s []tok) bool {
	for i := 1; i < len(s); i++ {
		w := s[i].w
		if len(w) < 5 || !strings.HasSuffix(w, "ed") || s[i].cap || s[i].kind != nlp.Word {
			continue
		}
		prev := s[i-1]
		if prev.kind != nlp.Word || determiners[prev.w] || clauseAdverbs[prev.w] || evalAdverbs[prev.w] {
			continue // "the closed shop", "really excited"
		}
		return true
	}
	return false
}

// startsClause reports whether the words at i open a clause of their own:
// a subject pronoun or possessive, or a finite verb (an elliptical clause
// sharing the subject: "I live in Paris and work as a nurse").
func startsClause(toks []tok, i int) bool {
	for i < len(toks) && (clauseAdverbs[toks[i].w] || toks[i].w == dateTok ||
		alt("since|from", toks[i].w) && i+1 < len(toks) && toks[i+1].w == dateTok) {
		i++ // "and since September I'm ..."
	}
	if i >= len(toks) {
		return false
	}
	w := toks[i].w
	switch w {
	case "i", "we", "he", "she", "they", "it", "you", "my", "our", "his", "her", "their", "there", "the":
		return w != "the" || (i+1 < len(toks) && toks[i+1].w == "user")
	}
	if auxiliaries[w] {
		return true
	}
	if _, f, ok := verbOf(w); ok && f != formIng && f != formPart {
		// A known verb right after "and" is a new predicate unless it is
		// obviously a noun in a list ("coffee and tea").
		return !foods[w] && !activities[w]
	}
	return false
}

// hasVerb reports whether a piece contains a verb or an auxiliary.
func hasVerb(s []tok) bool {
	if len(s) > 1 && alt("i|we|he|she|they", s[0].w) && s[1].kind != nlp.Punct {
		// A subject pronoun starts a clause whatever its verb, known to
		// the rules or not ("I feel great since I went swimming").
		return true
	}
	described := false // the verb forms right after a determiner describe a noun ("a retired racing greyhound")
	for i, t := range s {
		if auxiliaries[t.w] {
			return true
		}
		if t.w == "back" && i+1 < len(s) && s[i+1].w == "from" && (i == 0 || alt("just|finally|only|now|safely", s[i-1].w)) {
			return true // "just back from Lisbon": the "I'm" left out
		}
		_, _, ok := verbOf(t.w)
		if ok && !foods[t.w] && !(described && describesNext(s, i)) {
			return true
		}
		// Only a determiner, or a verb form that describes, carries on to
		// the next word: in "the kids love pizza" the noun ends it.
		described = alt("a|an|the", t.w) || described && ok
	}
	return false
}

// describesNext reports whether the verb form at i, inside a noun phrase
// opened by a determiner, describes the word after it ("a retired racing
// greyhound", "a rescue lurcher") rather than being the clause's verb ("a
// dog bit me", "the kids rescued a cat"): a plain word follows it.
func describesNext(s []tok, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	n := s[i+1]
	return n.kind == nlp.Word && !determiners[n.w] && !npStop[n.w] && !auxiliaries[n.w] && !subjectPronouns[n.w] &&
		!alt("me|us|him|her|them|it|you|my|our|his|their|your", n.w)
}

// shortKind reports whether a piece opening a sentence is a short phrase
// with no verb ("Spicy food" in "Spicy food and I don't get on"), which
// makes "and I" part of the subject.
func shortKind(s []tok) bool {
	if len(s) == 0 || len(s) > 3 || !s[0].first {
		return false
	}
	for _, t := range s {
		if t.kind != nlp.Word || subjectPronouns[t.w] || determiners[t.w] || len(t.w) > 4 && strings.HasSuffix(t.w, "ed") {
			return false // "The gym closed and I ...": a clause, whose verb the lexicon may not know
		}
	}
	return !hasVerb(s)
}

// possessiveOnly reports whether a piece is just "my husband" or "our
// friend Sam", which makes "and I" part of the subject.
func possessiveOnly(s []tok) bool {
	if len(s) == 0 || len(s) > 4 || s[0].w != "my" && s[0].w != "our" {
		return false
	}
	return !hasVerb(s) && !pastAfterSubject(s) // "my old gym closed and I..." is two clauses
}

// onlyNames reports whether a piece is just a name ("Sam" in "Sam and I
// got married"), which makes "and I" part of the subject.
func onlyNames(s []tok) bool {
	if len(s) == 0 || len(s) > 3 {
		return false
	}
	for _, t := range s {
		if !t.cap || t.kind != nlp.Word {
			return false
		}
	}
	return true
}

// reportsThat reports whether a clause so far ends by announcing the next
// one: a verb of learning or telling within its last few words ("I found
// out in spring that...", "the doctor told me that...").
func reportsThat(toks []tok) bool {
	for i := max(0, len(toks)-5); i < len(toks); i++ {
		if reportVerbs[toks[i].w] {
			return true
		}
	}
	return false
}

// statedNews are the verbs after which another speaker's report of the
// speaker follows without "that" ("the doctor says I'm anaemic").
var statedNews = wordSet(`says,said,confirmed,confirms,told,tells`)

// reportEnds reports whether a piece ends with a report verb ("the doctor
// says", "she told me").
func reportEnds(cur []tok) bool {
	n := len(cur)
	return statedNews[cur[n-1].w] || n > 2 && cur[n-1].w == "me" && alt("told|tells", cur[n-2].w)
}

// isVerbForm reports whether w is a form of a known verb.
func isVerbForm(w string) bool { _, _, ok := verbOf(w); return ok }

// reportVerbs announce a clause that states the news ("found out that").
var reportVerbs = wordSet(`found,realised,realized,learned,learnt,discovered,noticed,told,said,turns,turned,heard,
confirmed,admitted`)

// camelName reports whether a word is a brand written with a lower-case
// first letter ("iPhone", "iPad", "eBay"): a name, as a capital says.
func camelName(w string) bool {
	r := []rune(w)
	return len(r) >= 3 && unicode.IsLower(r[0]) && unicode.IsUpper(r[1]) && (unicode.IsLower(r[2]) || unicode.IsDigit(r[2]))
}
