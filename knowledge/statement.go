package knowledge

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphmem/graphmem/nlp"
)

// Form is what a turn does: state something, ask something, or only keep
// the conversation going.
type Form string

const (
	FormStatement Form = "statement"
	FormQuestion  Form = "question"
	// FormChatter carries no content: "Thanks!", "Sounds good.", "Hi!".
	FormChatter Form = "chatter"
)

// Statement is how a turn reads, for ranking: a question the user asked
// or an acknowledgement is not evidence of what holds for the user.
type Statement struct {
	Form Form
	// Self is true when the turn speaks in the first person ("I", "my",
	// "we"), which a statement about the user does.
	Self bool
	// Hypothetical is true when every declarative sentence is hedged or
	// wished ("maybe", "I might", "I wonder", "I want to try"): it says
	// what could be, not what is.
	Hypothetical bool
	// AsksIf is true when the turn asks what would follow from a change
	// it only supposes ("Hypothetically, if I swapped to an EV, what would
	// I save?", "What if we moved to Porto?"): whatever it also states, it
	// reports no change.
	AsksIf bool
	// Other is true when every declarative sentence is about someone
	// else ("My dad retired", "My son switched to medicine", or the one
	// spoken to: "Your new flat looks lovely").
	Other bool
	// Correction is true when the turn takes back what its speaker just
	// said ("Actually, it's O positive", "Scratch that, 8:30", "Sorry, I
	// meant Wednesday"): it replaces the speaker's previous statement in
	// the same conversation, whatever words it shares with it.
	Correction bool
	// Change is true when the turn says something changed or holds now
	// ("lately", "from now on", "no longer", "moved me to"): a newer
	// statement on the same slot that marks itself as the update.
	Change bool
	// Ending is true when the turn says something of the speaker's ended
	// ("we sold the car", "Miso passed away", "I quit the choir"): it closes
	// an earlier statement about the same thing even in a slot that holds
	// many values (pets, hobbies, possessions).
	Ending bool
}

// endings are the phrases of something ended or given up.
var endings = slices.Concat(givenUp, leftWork, []string{"gave away", "given away", "passed away", "died", "put down",
	"put to sleep", "rehomed", "re-homed", "got rid of", "quitted", "broke up", "split up", "lost", "ended", "moved out", "left",
	"retired", "dropped out", "don't have", "do not have", "not anymore", "anymore", "any more", "scrapped", "wrote off",
	"written off", "returned", "sold off", "separate ways", "parted ways", "called off", "lapse", "lapsed", "called it quits",
	"stolen", "nicked", "totalled", "totaled"})

// corrections are the phrases with which a speaker takes back what they
// just said; they count at the start of a sentence or after a comma.
var corrections = []string{"actually", "scratch that", "correction", "let me correct", "to correct", "i meant",
	"sorry i meant", "i misspoke", "my mistake", "my bad", "wait no", "no wait", "oh wait", "oops", "i was wrong", "not quite", "make that",
	"on second thought", "strike that", "i misread", "i misremembered", "i mixed up", "i got that wrong", "i got it wrong",
	"i was mistaken", "i mistyped", "typo"}

// changes mark a statement that reports a change or the present state.
var changes = slices.Concat(turnedFrom, swapWords, movedWords, amountMoves, cameRound, []string{"now", "from now on",
	"these days", "lately", "nowadays", "new", "currently", "since then", "at the moment", "these past", "recently", "finally",
	"makes it", "that makes", "so far", "qualified", "took over", "taken over", "in total", "all told", "brings us",
	"brings me", "brings it", "bringing us", "bringing me", "bringing it"})

// hedges mark a sentence that says what could be rather than what is.
var hedges = []string{"maybe", "might", "wonder", "wonders", "wondering", "whether i", "would like", "'d like", "want to", "wanna", "thinking about",
	"thinking of", "considering", "someday", "one day", "hoping to", "hope to", "dream of", "if i", "could be",
	"not sure", "perhaps", "probably", "tempted", "plan to", "planning to", "going to try", "try going", "should i",
	// a condition in the first person, contracted or plural ("no idea if
	// I'm serious", "if we swapped to an EV"), and the word that says so
	"if i'm", "if i'd", "if i've", "if i'll", "if we", "if we're", "if we'd", "hypothetically", "in theory"}

// others are the relations whose "my X ..." opens a sentence about them.
var others = set("mum", "mom", "mother", "dad", "father", "parents", "son", "daughter", "kids", "children", "brother",
	"sister", "friend", "friends", "colleague", "colleagues", "boss", "neighbour", "neighbor", "cousin", "aunt", "uncle",
	"grandma", "grandpa", "grandmother", "grandfather", "nephew", "niece", "roommate", "flatmate", "housemate",
	"husband", "wife", "partner", "boyfriend", "girlfriend", "fiance", "fiancé", "fiancee", "fiancée", "mate", "mates",
	"sibling", "siblings", "brothers", "sisters", "stepmum", "stepmom", "stepdad", "coworker", "co-worker", "teammate",
	"manager", "grandparents", "grandkids", "in-laws")

// relationAdjectives may sit between "my" and the relation ("my best mate
// Jonas", "my older sister", "my little brother").
var relationAdjectives = set("best", "oldest", "old", "older", "elder", "eldest", "younger", "youngest", "little", "big",
	"baby", "twin", "step", "new", "ex", "late", "dear", "closest", "childhood", "work", "uni", "school")

// ackWords are the words of turns that say nothing about anyone: thanks,
// greetings, agreement, interjections. Together with function words they
// make up chatter.
var ackWords = set("thanks", "thank", "thx", "ty", "great", "good", "ok", "okay", "nice", "cool", "sure", "sounds", "hi", "hello",
	"hey", "bye", "goodbye", "yes", "yeah", "yep", "no", "nope", "wow", "awesome", "perfect", "lol", "haha", "amazing", "right",
	"fine", "alright", "got", "it", "that", "this", "so", "much", "very", "really", "lot", "lots", "appreciate", "welcome", "glad",
	"love", "you", "me", "will", "do", "again", "too", "well", "done", "true", "exactly", "indeed", "interesting", "fun",
	"see", "later", "night", "morning", "there", "appreciated", "everyone", "all", "cheers", "congrats", "congratulations", "choice", "idea", "help", "helpful", "just", "what")

// functionWords are words that carry no content by themselves.
var functionWords = set("a", "an", "the", "is", "are", "was", "be", "and", "or", "but", "to", "of", "for", "on", "in", "at",
	"with", "i", "i'm", "im", "we", "a", "my", "your", "its", "it's", "that's", "thats", "s", "m", "re", "ll", "ve", "d")

// firstPerson are the words of a speaker talking about themself.
var firstPerson = set("i", "i'm", "im", "i've", "ive", "i'd", "i'll", "me", "my", "mine", "myself", "we", "we're", "we've",
	"our", "ours", "us")

// subjectPronouns are the first-person words that make the speaker a
// clause's subject ("me", "my", "us" and "our" can sit in a sentence about
// someone else: "My mum moved in with us").
var subjectPronouns = set("i", "i'm", "im", "i've", "ive", "i'd", "i'll", "we", "we're", "we've", "we'll", "we'd")

// thirdPerson are the subjects of a sentence about someone else. Not the
// possessives: "Her name is Luna" names the user's cat.
var thirdPerson = set("he", "she", "they", "he's", "she's", "they're", "he'll", "she'll", "they'll")

// secondPerson are the words of a sentence addressed to, and speaking of,
// the one spoken to.
var secondPerson = set("you", "your", "yours", "you're", "youre", "you've", "you'll", "you'd", "yourself", "yourselves", "y'all")

// questionStarts open a question even without its mark.
var questionStarts = set("what", "which", "who", "whom", "whose", "where", "when", "why", "how", "can", "could", "would",
	"should", "do", "does", "did", "is", "are", "was", "were", "will", "shall", "may", "any")

// MentionsRelation reports whether text names one of the user's relations
// ("my sister", "the user's dad"): a question about them is answered by
// statements about someone else.
func MentionsRelation(text string) bool {
	return slices.ContainsFunc(tokens(text), func(w string) bool { return others[w] })
}

// AsksAboutOthers reports whether a question asks about people in the
// user's life: it names a relation (MentionsRelation), asks who ("Who
// lives with the user?", "Whose birthday is next week?") or asks about the
// family or household. Statements about someone else answer it.
func AsksAboutOthers(query string) bool {
	return slices.ContainsFunc(tokens(query), func(w string) bool { return others[w] || askedPeople[w] })
}

// askedPeople are the question words and nouns that ask for people.
var askedPeople = set("who", "whom", "whose", "family", "household", "relatives", "relative")

// ReadStatement reads a turn's form and person. A turn with one
// declarative sentence of three words or more is a statement even when it
// ends with a question ("I moved to Oslo last week. Any tips?"): the
// statement is what a memory keeps.
func ReadStatement(text string) Statement {
	words := tokens(text)
	st := Statement{Form: FormChatter}
	content := 0
	for _, w := range words {
		if firstPerson[w] {
			st.Self = true
		}
		if !ackWords[w] && !functionWords[w] {
			content++
		}
	}
	if content == 0 {
		return st
	}
	declarative, question := false, false
	hedged, aboutOther, plain, addressed, news := 0, 0, 0, 0, 0
	var stated []string // the sentences, and clauses before a question, that state
	for _, s := range sentences(text) {
		ws := tokens(s)
		if len(ws) == 0 {
			continue
		}
		if isQuestion(s, ws) {
			question = true
			if supposes(ws) {
				st.AsksIf = true
				continue // a supposing question states nothing, not even before its "if"
			}
			// "My flight to Rome leaves at 6:40 on Friday, when should I
			// leave?": the clauses before the question state.
			if s = statedPrefix(s); s == "" {
				continue
			}
			ws = tokens(s)
		}
		stated = append(stated, s)
		if len(ws) >= 3 {
			declarative = true
			switch {
			case hedgedSentence(s):
				hedged++
			case aboutSomeoneElse(ws):
				// "My sister's flat", "my best mate Jonas", unless a later
				// clause has the speaker as its subject ("My dad has
				// dementia, so I look after him"): that clause is the
				// speaker's own, and the sentence is about both. "She just
				// moved to Dublin for a new job": about the one just named,
				// unless the speaker is in it too ("They promoted me to
				// manager", "He retired, so I do the school run now").
				aboutOther++
			case slices.ContainsFunc(ws, func(w string) bool { return firstPerson[w] }):
				plain++
			case subjectDropped(ws):
				// "Got diagnosed with coeliac last month", "Moved to Lyon in
				// May": the speaker's own news without the "I".
				plain++
			case slices.ContainsFunc(ws, func(w string) bool { return secondPerson[w] }):
				// Addressed to the one spoken to and with no word of the
				// speaker's own ("You both looked great on your wedding
				// day!", "Your garden is gorgeous"): about them.
				aboutOther++
				addressed++
			default:
				// Neither hedged nor about someone else nor in the first
				// person ("Six more years of fees!", "Probably pays
				// nothing"): a comment, which neither makes a hedged
				// turn a statement nor a turn about a relative the user's own.
				// One that gives a figure or says what holds now ("The car
				// fund is at 5,200 now.", "Down to 78 kilos now!") is news,
				// though: the question after it does not make the turn a
				// question.
				if newsLike(ws) {
					news++
				}
			}
		}
	}
	st.Hypothetical = hedged > 0 && plain == 0 && aboutOther == 0
	st.Correction, st.Change = revision(text)
	if st.AsksIf && st.Change {
		// The change a supposing question names ("if we moved to Porto") is
		// not one: only the turn's statements can report one.
		_, st.Change = revision(strings.Join(stated, " "))
	}
	st.Ending = ending(text)
	st.Other = aboutOther > 0 && plain == 0 && hedged == 0
	switch {
	case question && plain == 0 && hedged == 0 && news == 0 && aboutOther == addressed:
		// Remarks around a question ("That's so nice! What pet do you
		// have?", "Wow, great photo! Is that recent?"): the turn asks; its
		// remarks say nothing of the speaker. News of a relative before a
		// question ("My brother moved to Cardiff. Any gift ideas?") still
		// states, about the brother.
		st.Form = FormQuestion
	case declarative:
		st.Form = FormStatement
	case question:
		st.Form = FormQuestion
	default:
		st.Form = FormStatement
	}
	return st
}

// OwnSentences is text without its sentences about someone else: those
// opened by a relation with no later clause of the speaker's ("My
// sister's moved to Cardiff for her new job"), and those whose subject is
// he, she or they with no word of the speaker's ("She just moved to
// Dublin"), as ReadStatement reads them. A change word in what is left is
// a change of the speaker's: "My sister's moved to Cardiff 😭 help me plan
// a weekend visiting her" reports the sister's move, not the speaker's.
func OwnSentences(text string) string {
	var own []string
	for _, s := range sentences(text) {
		if ws := tokens(s); !aboutSomeoneElse(ws) {
			own = append(own, s)
		}
	}
	return strings.Join(own, " ")
}

// OwnClauses is OwnSentences cut finer: the clauses of text (clauseSplit)
// that are not about someone else.
// "My husband's just started as a site manager, so I'm doing every school
// run now" keeps only "I'm doing every school run now": a word that says a
// state began, read in it, is the speaker's.
func OwnClauses(text string) string {
	var own []string
	for _, s := range sentences(text) {
		for _, clause := range clauseSplit.Split(s, -1) {
			if ws := tokens(clause); len(ws) > 0 && !aboutSomeoneElse(ws) {
				own = append(own, strings.TrimSpace(clause))
			}
		}
	}
	return strings.Join(own, " ")
}

// aboutSomeoneElse reports whether a sentence's words are about someone
// other than the speaker: opened by a relation with no later clause whose
// subject is the speaker, or by he/she/they with no word of the speaker's.
func aboutSomeoneElse(ws []string) bool {
	if len(ws) < 3 {
		return false
	}
	return relationOpens(ws) && !slices.ContainsFunc(ws[2:], func(w string) bool { return subjectPronouns[w] }) ||
		thirdPerson[ws[0]] && !slices.ContainsFunc(ws[1:], func(w string) bool { return firstPerson[w] })
}

// revision reads the correction and change markers of a turn: a
// correction phrase opening a sentence or clause ("Actually, ...", "..., I
// meant Friday") or "actually" anywhere in a short clause ("it's actually
// O positive"); a change word anywhere.
func revision(text string) (correction, change bool) {
	for _, s := range sentences(text) {
		for _, clause := range revisionSplit.Split(s, -1) {
			ws := tokens(clause)
			if len(ws) == 0 {
				continue
			}
			low := strings.Join(ws, " ") + " "
			for _, c := range corrections {
				if strings.HasPrefix(low, c+" ") || (c == "actually" && strings.Contains(" "+low, " actually ")) {
					correction = true
				}
			}
			if gotWrong.MatchString(low) {
				correction = true // "I got the date wrong", "I had the time wrong"
			}
			for _, c := range changes {
				if strings.Contains(" "+low, " "+c+" ") {
					change = true
				}
			}
		}
	}
	return correction, change
}

// revisionSplit cuts a sentence where a correction may open a clause of
// its own: commas and dashes ("Sorry, I got the date wrong — I meant
// Friday").
var revisionSplit = regexp.MustCompile(`,|\s[—–-]\s|[—–]`)

// gotWrong is a speaker saying they said, read or wrote something wrong,
// after any interjections: "I got the date wrong", "wait sorry, I read the
// letter wrong", "I'd copied the wrong line", "I wrote the wrong number".
// The verbs are of saying, reading and writing: "I took the wrong bus" is
// news, not a correction.
var gotWrong = regexp.MustCompile(`^((sorry|oops|ah|oh|wait|ugh|argh|hmm|hang on|no) )*i('d|'ve|’d|’ve)? ` +
	`(got|had|put|wrote|written|read|typed|copied|said|told|gave|given|entered|quoted|noted|heard|remembered|understood)` +
	`( you)? ((\S+ ){0,3}wrong |the wrong )`)

// ending reports whether text holds an ending phrase.
func ending(text string) bool {
	low := " " + strings.Join(tokens(text), " ") + " "
	return slices.ContainsFunc(endings, func(e string) bool { return strings.Contains(low, " "+e+" ") })
}

// EndsValue reports whether text says that value ended for the speaker:
// a clause names it (as whole words, or with a plural s) and holds an
// ending word, in a sentence neither about someone else nor hedged.
// "Sold the car!" ends "car" and "We finally left Leipzig and the flat
// behind" ends "Leipzig"; "My sister left Leipzig", "I might sell the
// car" and "I live near Leipzig and sold the old sofa" do not.
func EndsValue(text, value string) bool {
	v := strings.Join(tokens(value), " ")
	if v == "" {
		return false
	}
	named := []string{v, v + "s", v + "es"}
	for _, s := range sentences(text) {
		if ws := tokens(s); aboutSomeoneElse(ws) || hedgedSentence(s) {
			continue
		}
		for _, clause := range clauseSplit.Split(s, -1) {
			if saysAny(strings.Join(tokens(clause), " "), named) && ending(clause) {
				return true
			}
		}
	}
	return false
}

// hedgedSentence reports whether a sentence says only what could be: it
// holds a hedge, and none of its clauses states something of the speaker's
// without one ("I weigh 82 kg and want to get to 75" states the weight;
// "I might take up the cello" and "I'm thinking about moving, maybe in
// spring" state nothing).
func hedgedSentence(sentence string) bool {
	hedgedIn := func(ws []string) bool {
		low := " " + strings.Join(ws, " ") + " "
		return slices.ContainsFunc(hedges, func(h string) bool { return strings.Contains(low, " "+h+" ") }) || wouldClause(ws)
	}
	if !hedgedIn(tokens(sentence)) {
		return false
	}
	for _, clause := range clauseSplit.Split(sentence, -1) {
		ws := tokens(clause)
		if len(ws) >= 3 && !hedgedIn(ws) && slices.ContainsFunc(ws, func(w string) bool { return subjectPronouns[w] }) {
			return false
		}
	}
	return true
}

// supposes reports whether a question's words suppose a change of the
// speaker's: "hypothetically", "what if", or a first-person condition in
// the past of supposition ("if I swapped to an EV", "if we moved to
// Porto", "if I sold the van"). A condition in the present is a practical
// question ("what can I eat if I'm numb?", "if I get tired, should I
// stop?").
func supposes(ws []string) bool {
	for i, w := range ws {
		if w == "hypothetically" || w == "what" && i+1 < len(ws) && ws[i+1] == "if" {
			return true
		}
		if w != "if" || i+2 >= len(ws) || ws[i+1] != "i" && ws[i+1] != "we" {
			continue
		}
		v := ws[i+2]
		if v == "were" || len(v) > 4 && strings.HasSuffix(v, "ed") || supposedPasts[v] {
			return true
		}
	}
	return false
}

// supposedPasts are the irregular pasts a supposed change is said in.
var supposedPasts = set("sold", "bought", "took", "went", "got", "left", "quit", "made", "became", "gave", "sent", "began", "chose", "drove", "rode")

// wouldClause reports whether the words hold "I'd" or "we'd" as "would"
// ("I'd miss the people more than the playing", "we'd save about £600"):
// before a plain verb, not a participle ("I'd copied the wrong line",
// "I'd been there before" are "had").
func wouldClause(ws []string) bool {
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] != "i'd" && ws[i] != "we'd" && ws[i] != "i’d" && ws[i] != "we’d" {
			continue
		}
		next := ws[i+1]
		if wouldStates[next] {
			continue // "I'd rather walk", "I'd never miss a match", "I'd say I'm a decent cook": a taste or a habit
		}
		if next == "already" || next == "just" || next == "only" {
			if i+2 >= len(ws) {
				return false
			}
			next = ws[i+2]
		}
		if !strings.HasSuffix(next, "ed") && !strings.HasSuffix(next, "en") && !participles[next] {
			return true
		}
	}
	return false
}

// wouldStates follow an "I'd" that states a taste, a habit or a view, not a
// condition.
var wouldStates = set("rather", "sooner", "never", "always", "happily", "definitely", "say", "describe", "call")

// participles are the irregular past participles "I'd" means "had" before.
var participles = set("been", "had", "got", "gone", "done", "made", "said", "told", "left", "lost", "met", "read",
	"bought", "brought", "thought", "found", "put", "set", "kept", "heard", "seen", "run", "come", "become", "won",
	"sold", "sent", "spent", "built", "felt", "held", "paid", "taught", "caught", "split", "quit", "cut", "hit", "let")

// clauseSplit cuts a sentence where one clause ends and another begins.
var clauseSplit = regexp.MustCompile(`(?i)[,;:]|\s(?:and|but|so|while|though|although)\s`)

// isQuestion reports whether a sentence (trimmed, with its words ws) asks:
// it ends with a question mark, or opens with a question word and ends
// with neither a full stop nor an exclamation mark.
func isQuestion(s string, ws []string) bool {
	last, _ := utf8.DecodeLastRuneInString(s)
	return strings.HasSuffix(s, "?") || questionEmoji[last] ||
		len(ws) > 0 && questionStarts[ws[0]] && last != '.' && last != '!' && !nlp.IsEmoji(last)
}

// questionEmoji end a sentence as a question mark does; any other emoji
// ends it as an exclamation mark does ("Did Ben Nevis today 🙌").
var questionEmoji = map[rune]bool{'🤔': true, '❓': true, '❔': true}

// emoji reports whether r is a pictograph (Unicode's other symbols: 🙌,
// 😢, 🐑, ☀), which chat uses as a full stop. Variation selectors and
// joiners inside an emoji are not symbols and stay with the text.

// newsLike reports whether a sentence's words give a figure, say what
// holds now or report a change: a digit, a word of the present state, a
// verb of change ("The class moved to Thursday mornings").
func newsLike(ws []string) bool {
	return slices.ContainsFunc(ws, func(w string) bool {
		return w[0] >= '0' && w[0] <= '9' || nowWords[w] || changeVerbs[w]
	})
}

// nowWords say what holds at present.
var nowWords = set("now", "currently", "nowadays", "anymore")

// changeVerbs report that something of the speaker's changed, or was
// gained or lost ("The Trek was nicked", "a new boiler was bought").
var changeVerbs = set("moved", "pushed", "switched", "changed", "rescheduled", "postponed", "cancelled", "canceled",
	"replaced", "swapped", "sold", "quit", "stopped", "ended", "raised", "dropped", "promoted", "rebooked",
	"bought", "stolen", "nicked", "totalled", "totaled", "wrecked")

// statedPrefix returns the clauses of a question sentence before the
// clause that asks, when they say something in the first person ("My
// flight to Rome leaves at 6:40 on Friday, when should I leave?", "We
// moved to Leeds, is the weather bad there?"), else "". "Hey, could you
// help?" and "Is it normal that my dog sleeps all day?" state nothing.
func statedPrefix(sentence string) string {
	// Clauses end at commas and dashes ("Now that I've moved onto days —
	// 8 till 4:30 — how do I reset my body clock?").
	cuts := revisionSplit.FindAllStringIndex(sentence, -1)
	for k := len(cuts) - 1; k >= 0; k-- {
		ws := tokens(sentence[cuts[k][1]:])
		for len(ws) > 0 && (ws[0] == "and" || ws[0] == "so" || ws[0] == "but" || ws[0] == "then") {
			ws = ws[1:]
		}
		if len(ws) == 0 || !questionStarts[ws[0]] {
			continue
		}
		prefix := strings.TrimSpace(sentence[:cuts[k][0]])
		pw := tokens(prefix)
		if len(pw) >= 3 && slices.ContainsFunc(pw, func(w string) bool { return firstPerson[w] }) {
			return prefix
		}
		return ""
	}
	return ""
}

// sentences splits text after '.', '!', '?' and ';', keeping the mark: a
// semicolon joins clauses that stand alone ("I've switched my gym days to
// Tuesday; does the routine still work?" states, then asks). Chat ends
// sentences with no mark too: at a line break, and at an emoji, which is
// kept as the mark ("Did Ben Vorlich today, that's 14 Munros so far 🙌
// what should I pack?" states, then asks).
// Sentences splits a chat text into the sentences ReadStatement reads
// one by one: at sentence punctuation, semicolons, line breaks and emoji,
// which end a sentence in chat ("Sad week, a fox got Peg 😢 We've picked
// up two ex-batts").
func Sentences(text string) []string { return sentences(text) }

func sentences(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if r == '.' || r == '!' || r == '?' || r == ';' || r == '\n' || nlp.IsEmoji(r) {
			end := i + utf8.RuneLen(r)
			if s := strings.TrimSpace(text[start:end]); s != "" {
				out = append(out, s)
			}
			start = end
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// tokens are the lower-cased words of text, apostrophes kept.
func tokens(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// subjectDropped reports whether a sentence opens with a verb of the
// speaker's own news and no subject ("Got a new job!", "Moved to Lyon in
// May", "Just finished my last exam"): chat drops the "I".
func subjectDropped(ws []string) bool {
	i := 0
	for i < len(ws) && droppedOpeners[ws[i]] {
		i++
	}
	if i >= len(ws) {
		return false
	}
	w := ws[i]
	return droppedVerbs[w] || len(w) > 4 && strings.HasSuffix(w, "ed") && !functionWords[w]
}

// droppedOpeners may stand before the verb of a subject-dropped sentence.
var droppedOpeners = set("just", "finally", "recently", "also", "still", "never", "already", "quick", "update", "news", "so", "and",
	"oh", "well", "yeah", "yes", "ok", "okay", "hey", "guess", "what")

// droppedVerbs are irregular past tenses that open a subject-dropped
// sentence.
var droppedVerbs = set("got", "had", "went", "made", "took", "bought", "sold", "left", "quit", "found", "began", "became",
	"broke", "ran", "swam", "won", "lost", "met", "saw", "gave", "sent", "spent", "kept", "came", "did", "wrote", "drove", "flew",
	"been", "gone", "done", "seen", "taken", "begun", "started", "finished", "booked", "signed", "bit", "fell", "grew", "chose",
	"caught", "threw", "forgot", "felt", "heard", "brought", "taught", "held", "paid", "spoke", "woke", "rode", "stuck", "told",
	"thought", "drank", "ate", "wore", "slept", "built", "lent")

// relationOpens reports whether a sentence opens with one of the speaker's
// relations: "my sister's flat...", "my best mate Jonas...".
func relationOpens(ws []string) bool {
	if len(ws) < 2 || ws[0] != "my" {
		return false
	}
	i := 1
	for i < len(ws)-1 && i < 3 && relationAdjectives[ws[i]] {
		i++
	}
	return others[strings.TrimSuffix(strings.TrimSuffix(ws[i], "'s"), "’s")]
}
