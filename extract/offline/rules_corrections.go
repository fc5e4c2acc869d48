package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Corrections: the speaker takes back what they just said ("sorry, I
// meant Wednesday", "let me correct that: 450", "wait, no, it's 73",
// "it's actually O positive"). The corrected value fills the slot of the
// speaker's last fact in the window, marked as a correction of the slip,
// so the policy closes the slip with an empty validity and history keeps
// both. The markers are data (correctionMarkers); what is corrected is
// found by position, never by the words of one sentence.

// correctionMarkers open a correction; they are matched on a sentence's
// words with punctuation left out.
var correctionMarkers = [][]string{
	{"sorry", "i", "meant"}, {"sorry", "i", "mean"}, {"i", "meant"}, {"i", "mean"}, {"sorry", "i", "misspoke"},
	{"let", "me", "correct", "that"}, {"let", "me", "correct", "myself"}, {"correction"},
	{"scratch", "that"}, {"actually", "scratch", "that"}, {"wait", "no"}, {"no", "wait"}, {"my", "mistake"},
	{"my", "bad"}, {"oops"}, {"sorry", "typo"}, {"i", "got", "that", "wrong"}, {"i", "was", "wrong"},
	{"it", "'s", "actually"}, {"it", "is", "actually"}, {"actually", "it", "'s"}, {"actually", "it", "is"},
	{"sorry", "it", "'s"}, {"sorry", "that", "'s"}, {"that", "should", "be"}, {"make", "that"},
}

// correctionFiller are words between the marker and the corrected value.
var correctionFiller = wordSet(`it,'s,is,was,they,could,only,do,make,that,actually,the,a,an,no,sorry,wait,
meant,mean,i,just,checked,right,one,correct,should,be,at,on,in,really,oh,of,course,er,um,so,we,'re,are,my,
then,instead,rather`)

// correction reads a sentence that corrects the speaker's last fact and
// reports whether it did.
func (w *window) correction(u *utterance, s sentence) bool {
	last := u.talk.lastFact
	if u.speaker == "" || last == nil {
		return false
	}
	var ws []tok
	var at []int // index of each word in s.toks
	for k, t := range s.toks {
		if t.kind == nlp.Word || t.kind == nlp.Number || t.w == dateTok {
			ws = append(ws, t)
			at = append(at, k)
		}
	}
	rest, weak := -1, false
	for _, m := range correctionMarkers {
		if hasPrefix(ws, m) {
			rest = len(m)
			// "I mean, ..." is as often a gloss as a correction: only a
			// name or a number after it corrects anything.
			weak = len(m) == 2 && m[0] == "i"
			break
		}
	}
	if rest < 0 {
		return false
	}
	old := w.out.ents[last.obj]
	if old == nil {
		return false
	}
	i := rest
	for i < len(ws) && correctionFiller[ws[i].w] && (ws[i].w == "i" || !ws[i].cap || ws[i].first) {
		i++
	}
	if i >= len(ws) || ws[i].w == "not" || weak && !ws[i].cap && ws[i].kind != nlp.Number {
		return false
	}
	var key string
	if old.typ == ontology.Value {
		j := i
		for j < len(ws) && (ws[j].kind == nlp.Number || valueWords[ws[j].w] || measureUnits[ws[j].w] ||
			ws[j].cap || ws[j].w == dateTok) && j-i < 4 {
			j++
		}
		if j == i {
			return false
		}
		text := strings.TrimSpace(s.text[ws[i].start-s.toks[0].start : ws[j-1].end-s.toks[0].start])
		if ws[i].w == dateTok && ws[i].date != nil {
			text = ws[i].date.Phrase()
		}
		key = w.out.entity("#"+nlp.Fold(text), text, ontology.Value, 3).key
	} else {
		np := takeNP(s.toks, at[i]) // on the sentence's tokens: a comma ends the phrase
		if np.empty() || !usableObject(np) {
			return false
		}
		key = w.out.named(np.surface(), old.typ, old.typeRank)
	}
	if key == "" || key == last.obj {
		return false
	}
	f := &fact{subj: last.subj, pred: last.pred, obj: key, qual: last.qual, pol: last.pol, conf: 0.9,
		strength: last.strength, tmpl: last.tmpl, objArticle: last.objArticle, rank: last.rank,
		validFrom: last.validFrom, correction: true, corrects: last.obj}
	w.out.add(f, u.event.ID)
	u.talk.lastFact = f
	return true
}
