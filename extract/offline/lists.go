package offline

import "github.com/graphmem/graphmem/nlp"

// Lists of activities: "I love cycling, knitting, or playing my cello",
// "I'm into hiking, camping, and fishing". The clause splitter cuts at every
// comma and keeps a piece with a verb as a clause of its own, and a gerund
// counts as a verb, so ", knitting" became a clause with no subject and
// only "cycling" got the fact. joinGerundLists puts such pieces back on the
// clause whose list they continue, where emitConjuncts gives each item the
// fact the first one gets. A piece that has a subject, an auxiliary or a
// clause word of its own ("I cooked, then we went out", "I was tired,
// hoping to sleep") is still a clause.

// listHeads are the words after which a run of gerunds is a list of things
// the speaker likes or does: verbs of liking and doing (lemmas) and the
// nouns that announce such a list.
var listHeads = wordSet(`love,enjoy,like,adore,prefer,do,try,practise,practice,take,pick,start,include,into,
hobby,hobbies,activities,interests,passions,pastimes`)

// joinGerundLists merges each piece that continues a gerund list into the
// clause before it. segs are the pieces clauses cut at punctuation.
func joinGerundLists(segs [][]tok) [][]tok {
	out := segs[:0:0]
	// inList marks the pieces that already hold a list, which goes on past
	// an item that is not an activity word ("cycling, playing my cello,
	// and knitting").
	var inList []bool
	for _, s := range segs {
		n := len(out)
		if n > 0 && continuesList(s) && (inList[n-1] || opensList(out[n-1]) || loneActivity(out[n-1])) {
			out[n-1], inList[n-1] = append(out[n-1], s...), true
			continue
		}
		if n > 0 && len(s) > 0 && activityWord(s[0]) && announcesList(out[n-1]) {
			// "my hobbies - painting, ...": the dash stands for "are".
			out[n-1] = append(append(out[n-1], tok{w: ",", orig: ",", kind: nlp.Punct}), s...)
			inList[n-1] = true
			continue
		}
		out, inList = append(out, s), append(inList, false)
	}
	return out
}

// continuesList reports whether a piece is ", [and|or] gerund ...": a list
// item with nothing that would make it a clause of its own.
func continuesList(s []tok) bool {
	i := 0
	if i < len(s) && s[i].w == "," {
		i++
	} else {
		return false
	}
	if i < len(s) && (s[i].w == "and" || s[i].w == "or" || s[i].w == "&") {
		i++
	}
	if i >= len(s) || !listItemStart(s[i]) {
		return false
	}
	for _, t := range s[i+1:] {
		if auxiliaries[t.w] || subjectPronouns[t.w] || clauseBreakers[t.w] || t.w == "then" {
			return false
		}
	}
	return true
}

// opensList reports whether a clause ends in an activity that follows a
// list head: "I love cycling", "I'm into yoga", "my hobbies are painting".
// Without a head ("I bought a painting, hoping she likes it") the gerund
// after the comma opens a clause.
func opensList(s []tok) bool {
	last := len(s) - 1
	for last >= 0 && s[last].kind == nlp.Punct {
		last--
	}
	if last < 1 || !listItemStart(s[last]) {
		return false
	}
	for _, t := range s[:last] {
		if listHeads[t.w] {
			return true
		}
		if lemma, _, ok := verbOf(t.w); ok && listHeads[lemma] {
			return true
		}
	}
	return false
}

// activityWord reports whether a word names an activity as a list item: a
// gerund, or an -ing noun the gerund test leaves out ("painting").
func activityWord(t tok) bool {
	return isGerund(t) || ingNouns[t.w] && !t.cap
}

// listItemStart reports whether a word after "and" or a comma opens the
// next item of an activity list rather than completing the current one:
// "hiking, and reading books", "knitting and yoga".
func listItemStart(t tok) bool {
	return activityWord(t) || activities[t.w] && !t.cap
}

// announcesList reports whether a piece is just a possessive and a noun
// announcing a list ("my hobbies", "our favourite activities").
func announcesList(s []tok) bool {
	if len(s) < 2 || len(s) > 4 || !alt("my|our", s[0].w) || hasVerb(s) {
		return false
	}
	return hobbyNouns[s[len(s)-1].w]
}

// loneActivity reports whether a piece is a pastime's gerund alone, as a
// list said after a dash starts ("- running, reading, or playing my
// violin"): the items after it continue it.
func loneActivity(s []tok) bool {
	return len(s) == 1 && activityWord(s[0])
}
