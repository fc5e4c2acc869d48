package knowledge

import (
	"regexp"
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// The language of change: the words with which a user says that what
// they said before no longer holds (revises, turns), still holds (keeps),
// holds beside something new (adds), or happens at a new time
// (Rescheduled). Ranking reads them to decide which of two statements is
// the current one; ReadStatement reads the weaker change words (changes,
// endings) that mark a turn as an update at all. One lexicon serves both:
// the phrase groups are written once (givenUp, leftWork, swapWords,
// movedWords, turnedFrom, amountMoves, cameRound).
//
// Phrases are matched whole-word in lower-cased text whose punctuation
// reads as spaces, so "instead," and "I quit." match "instead" and "quit".

// givenUp are the phrases of something given up or got rid of: an ending
// when ReadStatement reads a turn, a revision when ranking compares two.
var givenUp = []string{"gave up", "given up", "quit", "stopped", "sold", "cancelled", "canceled", "ditched", "no longer"}

// leftWork are the phrases of leaving a job in other words than "quit".
var leftWork = []string{"resigned", "handed in my notice", "handed my notice in", "put in my notice", "put my notice in"}

// The phrase groups that the change lexicons below share.
var (
	// swapWords replace one thing by another.
	swapWords = []string{"switched", "swapped", "replaced", "traded", "changed", "ditched", "converted"}
	// movedWords move a thing to another time or place.
	movedWords = []string{"moved", "pushed", "rescheduled", "rebooked"}
	// turnedFrom say what held no longer does.
	turnedFrom = []string{"anymore", "any more", "no longer", "instead", "gone off"}
	// amountMoves say that an amount rose or fell.
	amountMoves = []string{"up to", "down to", "went up", "gone up", "went down", "gone down"}
	// cameRound say a taste turned towards a thing.
	cameRound = []string{"come around", "grown on", "grew on"}
)

// reviseWords mark a statement that revises an earlier one: a new time,
// amount or choice, or an end. A bare "now" or "lately" does not (it
// also opens a second value: "lately I'm into padel").
var reviseWords = slices.Concat(givenUp, leftWork, amountReviseWords, swapWords, movedWords, turnedFrom, []string{
	"postponed", "brought forward", "give up", "cut", "dropped", "promoted", "went freelance", "gone freelance", "went full",
	"gone full", "bit the bullet"})

// amountReviseWords revise an amount only ("the price has gone up again").
var amountReviseWords = slices.Concat(amountMoves, []string{"raised", "a raise", "pay rise"})

// choiceReviseWords are the revision words that are not of an amount.
var choiceReviseWords = slices.DeleteFunc(slices.Clone(reviseWords), func(w string) bool { return slices.Contains(amountReviseWords, w) })

// turnWords mark a statement that turns away from something said before
// ("gone off", "converted me", "not anymore"), not a mere "now".
var turnWords = slices.Concat(turnedFrom, cameRound, []string{"went off", "used to", "switched", "swapped", "replaced",
	"came around", "come round", "converted", "changed my mind", "fallen out of love", "lost interest", "over it", "gave up",
	"given up"})

// addWords mark a statement that adds a value to a many-value slot rather
// than replacing one ("I also love...", "padel as well", "another hobby").
var addWords = []string{"also", "too", "as well", "another", "either", "besides", "on top of"}

// keepWords mark a statement that keeps what it had, named after them
// ("I'll stick with Monzo", "still on Vodafone"), whatever change words it
// also holds; bareKeepWords decline without naming it.
var keepWords = []string{"stick with", "sticking with", "stay with", "staying with", "still with", "still using", "still on"}

// rescheduleWords move something in time; with a day or a time after them
// the change is of when, not of what.
var rescheduleWords = slices.Concat(movedWords, []string{"postponed", "brought forward", "shifted"})

// amountShifts say that an amount rose or fell.
var amountShifts = slices.Concat(amountReviseWords, []string{"going up", "going down", "cut", "dropped"})

// dayOrTime is a weekday, a time of day or a part of the week.
var dayOrTime = regexp.MustCompile(`(?i)\b((mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|mornings|evenings|\d{1,2}(:\d{2})?\s?(am|pm)|\d{1,2}:\d{2}|o'clock)\b`)

// Revises reports whether text revises an earlier statement: "switched",
// "cancelled", "instead", "up to", "handed in my notice".
func Revises(text string) bool { return saysAny(text, reviseWords) }

// RevisesAmountOnly reports whether the only revision text says is of an
// amount: it revises a statement that gives one, not a choice ("my gym
// membership has gone up again" changes no gym).
func RevisesAmountOnly(text string) bool {
	return saysAny(text, amountReviseWords) && !saysAny(text, choiceReviseWords)
}

// Turns reports whether text says the speaker turned from something:
// "gone off", "came around", "not anymore".
func Turns(text string) bool { return saysAny(text, turnWords) }

// Adds reports whether text adds to what was said before ("also",
// "as well", "another") rather than replacing it.
func Adds(text string) bool { return saysAny(text, addWords) }

// Keeps reports whether text declines a change and keeps what it had.
func Keeps(text string) bool { return saysAny(text, keepWords) || saysAny(text, bareKeepWords) }

// bareKeepWords decline a change without naming what is kept: "I'll stay
// where I am", "Nah, not switching", "I think I'll pass".
var bareKeepWords = []string{"staying put", "stay put", "not moving", "not switching", "not changing", "won't switch",
	"won't be switching", "not leaving", "no thanks", "stay where i am", "staying where i am", "stay as i am", "i'll pass on",
	"i'll give it a miss", "i'll give that a miss", "leave it as it is", "leave things as they are"}

// KeepsOnly reports whether text declines a change without naming what it
// keeps ("I'll stay where I am. The ESG option costs triple"): it is no
// answer to what the user has, which the statement it keeps gives. A keep
// that names its value ("I'll stick with Monzo") is one.
func KeepsOnly(text string) bool { return saysAny(text, bareKeepWords) && !saysAny(text, keepWords) }

// Rescheduled reports whether text moves something to a new day or time
// ("Moved my gym sessions to 6:15am", "piano's been pushed to Thursdays").
func Rescheduled(text string) bool {
	return saysAny(text, rescheduleWords) && dayOrTime.MatchString(text)
}

// WithoutAmountShifts returns text, lower-cased and padded with spaces
// (its punctuation kept: it is read again as sentences), without its
// phrases of an amount rising or falling: what is left says whether the
// turn also changes something other than an amount ("the price of my
// budgeting app has gone up again" leaves no change).
func WithoutAmountShifts(text string) string {
	low := " " + strings.ToLower(text) + " "
	for _, w := range amountShifts {
		low = strings.ReplaceAll(low, " "+w+" ", " ")
	}
	return low
}

// saysAny reports whether text holds one of the phrases as whole words.
func saysAny(text string, phrases []string) bool {
	low := padded(text)
	return slices.ContainsFunc(phrases, func(w string) bool { return strings.Contains(low, " "+w+" ") })
}

// padded is text lower-cased with its punctuation read as spaces, between
// two spaces, so that every phrase is found with the spaces that bound it.
func padded(text string) string {
	return " " + strings.ToLower(punctAsSpace.Replace(text)) + " "
}

// punctAsSpace reads sentence punctuation as spaces and a typographic
// apostrophe as a plain one ("won’t switch").

var punctAsSpace = strings.NewReplacer(",", " ", ".", " ", "!", " ", "?", " ", ";", " ", ":", " ", "(", " ", ")", " ", "\"", " ", "’", "'")

// RevisedThing returns the common noun that a revision in text acts on,
// as written ("Switched banks to Starling" → "banks", "Swapped my
// keyboard for a split one" → "keyboard", "cancelled the gym membership"
// → "gym membership"), or "" when the revision names no such thing: its
// object is a name, which is a value rather than the kind of thing
// changed ("ditched the JetBrains stuff", "traded the old Samsung in"), a
// pronoun or a thing pointed back at ("dropped that app"), or missing
// ("switched to decaf"). What a user says they
// replaced tells which slot the change is of, when the new value alone
// does not.
func RevisedThing(text string) string {
	for _, sp := range nlp.SplitSentences(text) {
		toks := nlp.Tokenize(sp.Text)
		for i := 0; i < len(toks); i++ {
			n := replacingVerbAt(toks, i)
			if n == 0 {
				continue
			}
			if thing, ok := objectAfter(toks[i+n:]); ok {
				return thing
			}
		}
	}
	return ""
}

// replacingVerbs are the revision verbs whose object is the thing replaced
// or given up, by the number of words they take.
var replacingVerbs = map[string]bool{"switched": true, "swapped": true, "replaced": true, "ditched": true, "traded": true,
	"sold": true, "cancelled": true, "canceled": true, "quit": true, "dropped": true, "changed": true, "stopped": true,
	"gave up": true, "given up": true, "give up": true}

// replacingVerbAt returns how many tokens a replacing verb at toks[i]
// takes, or 0.
func replacingVerbAt(toks []nlp.Token, i int) int {
	if toks[i].Kind != nlp.Word {
		return 0
	}
	w := toks[i].Lower()
	if i+1 < len(toks) && replacingVerbs[w+" "+toks[i+1].Lower()] {
		return 2
	}
	if replacingVerbs[w] {
		return 1
	}
	return 0
}

// objectAfter reads the noun phrase after a verb: up to three words after
// its determiners and plain adjectives, up to the first preposition,
// conjunction or punctuation. ok is false when there is none, so the next
// verb is read; a name or a pronoun in the phrase gives "" with ok true.
func objectAfter(toks []nlp.Token) (string, bool) {
	i := 0
	for i < len(toks) && toks[i].Kind == nlp.Word && objectOpeners[toks[i].Lower()] {
		i++
	}
	if i < len(toks) && toks[i].Kind == nlp.Word && demonstratives[toks[i].Lower()] {
		return "", true // "dropped that app": the thing said before, whatever it is called
	}
	var words []string
	for ; i < len(toks) && len(words) < 3; i++ {
		t := toks[i]
		if t.Kind != nlp.Word || objectStops[t.Lower()] {
			break
		}
		if t.IsCapitalized() || objectPronouns[t.Lower()] {
			return "", true
		}
		words = append(words, t.Lower())
	}
	if len(words) == 0 {
		return "", false
	}
	if genericHeads[words[len(words)-1]] {
		return "", true
	}
	return strings.Join(words, " "), true
}

// objectOpeners stand before a replaced thing: determiners, possessives
// and adjectives that say nothing of its kind.
var objectOpeners = set("my", "our", "the", "a", "an", "his", "her", "their", "all", "old", "most", "some", "half", "part",
	"rest", "bits", "lots",
	"whole", "entire", "trusty", "ancient", "beloved", "ageing", "aging", "current", "usual", "in", "out")

// objectStops end a replaced thing's noun phrase.
var objectStops = set("to", "for", "with", "and", "but", "or", "because", "so", "in", "at", "on", "last", "yesterday",
	"about", "of", "by", "into", "through",
	"over", "from", "after", "since", "as", "out", "back", "off", "up", "away", "when", "before", "now", "today",
	"recently", "finally", "completely", "entirely", "altogether", "already", "then", "which", "is", "was", "has", "had",
	"ago", "earlier", "again", "though", "anyway", "too", "either")

// demonstratives point back at the thing said before.
var demonstratives = set("that", "this", "those", "these")

// objectPronouns stand for a thing said elsewhere.
var objectPronouns = set("it", "them", "that", "this", "those", "these", "one", "ones", "me", "us", "him", "her", "everything",
	"something", "anything", "everyone", "everybody", "someone", "things", "stuff")

// genericHeads end a noun phrase that says no kind ("the JetBrains
// stuff", "the old one").
var genericHeads = set("stuff", "thing", "things", "one", "ones", "lot", "bit", "mind")

// Began reports whether text says a state of the speaker's began
// recently, which makes it the newer value of its slot even without a
// word of change: "I've been at Hilltop since June", "since picking up a
// kayak in July", "as a newly qualified sonographer", "my first month
// as", "just started at". A state held since long ago ("since I was a
// kid", "since 2009") is not read: nothing says it is new.
func Began(text string) bool {
	for _, m := range beganSince.FindAllStringSubmatch(text, -1) {
		if m[len(m)-1] == "" {
			return true // "since June 2012" is a state held since a date, not one just begun
		}
	}
	return saysAny(text, beganWords)
}

// beganSince is "since" and a month, a season, a recent time or the
// starting of something.
var beganSince = regexp.MustCompile(`(?i)\bsince (last |early |mid |late |the start of |the end of )?(january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|christmas|easter|the new year|new year|last (week|month|year)|picking|starting|joining|moving|switching|taking|getting|buying|adopting|signing)\b( \d{4}\b)?`)

// beganWords say a state is new.
var beganWords = []string{"newly qualified", "newly promoted", "newly appointed", "newly hired", "newly married",
	"first day as", "first week as", "first month as", "first term as", "first year as", "first shift as",
	"first day at", "first week at", "first month at", "first term at", "first year at", "first shift at",
	"just started as", "just started my", "just joined", "just moved", "started as a", "started as an"}

// Temporary reports whether text says a state holds only for a while: a
// stay, a cover or a loan bounded in time ("I'm staying at a friend's in
// Oslo for two weeks", "covering as matron for six weeks"), or said to be
// temporary ("temporarily", "for the time being", "then it's back to").
// Such a state does not replace the lasting one of its slot.
func Temporary(text string) bool {
	if saysAny(text, temporaryWords) {
		return true
	}
	return saysAny(text, stayWords) && boundedSpan.MatchString(text)
}

// temporaryWords say a state is temporary whatever else is said.
var temporaryWords = []string{"temporarily", "for the time being", "then it's back to my", "on secondment",
	"on placement", "house-sitting", "house sitting", "on loan", "stand-in", "standing in for", "filling in for", "covering for"}

// stayWords are the states that a bounded span makes temporary.
var stayWords = []string{"staying", "visiting", "covering", "filling in", "standing in", "subbing", "temping", "borrowing",
	"borrowed", "renting a car", "hired a car", "sleeping at", "crashing at", "crashing with", "locum"}

// boundedSpan says how long, in days to months: "for two weeks", "for the
// next two weeks", "until the 20th", "over the summer", "this week"; not
// "until we retire" or "for three years".
var boundedSpan = regexp.MustCompile(`(?i)\b(for (a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|the next|another|\d+)( (two|three|four|five|six|few|couple of|\d+))? (days?|nights?|weeks?|fortnights?|months?|weekends?)|for the (week|weekend|month|summer)|(until|till) (the \d|the end of|next|this|\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|january|february|march|april|may|june|july|august|september|october|november|december|christmas|easter|the weekend)|over the (summer|holidays|weekend|break)|this (week|weekend))\b`)
