package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Emitting: how a recogniser turns what it read into facts and entities of
// the window's result. Every fact goes through emit, which fills in what the
// clause says about all of its facts (subject, dates, hedging).

// fx describes a fact a rule emits; emit fills in the clause's subject,
// polarity, dates and confidence.
type fx struct {
	subj     string // defaults to the clause's subject
	pred     string
	obj      string
	qual     string
	neg      bool
	conf     float64 // defaults to 0.9
	strength float64
	tmpl     string // the sentence template (see builder.render)
	art      string // the article the speaker gave the object ("a", "the", "{their}")
	rank     int    // which template wins when identical facts merge
	raw      string // the verb phrase kept when pred is ontology.Fallback
	noDate   bool   // the clause's date does not apply to this fact
	ended    bool   // the fact ended when the clause says (its date, else when said): valid_to, not a denial
}

// emit records a fact read from this clause.
func (c *clause) emit(f fx) {
	if f.subj == "" {
		f.subj = c.subj
	}
	if f.conf == 0 {
		f.conf = 0.9
	}
	pol := ontology.Positive
	if f.neg {
		pol = ontology.Negative
	}
	ft := &fact{subj: f.subj, pred: f.pred, obj: f.obj, qual: f.qual, pol: pol, conf: c.conf(f.conf),
		strength: f.strength, tmpl: f.tmpl, objArticle: f.art, rank: f.rank, raw: f.raw}
	if c.date != nil && !f.noDate {
		from := c.date.Time
		ft.validFrom = &from
		ft.date = c.date.Phrase()
	} else if at := c.said.event.OccurredAt; !at.IsZero() {
		ft.validFrom = &at
	}
	if c.until != nil && !f.noDate {
		to := c.until.Until
		ft.validTo = &to
	}
	if f.ended {
		end := c.said.event.OccurredAt
		if c.date != nil {
			end = c.date.Time
		}
		if !end.IsZero() {
			ft.ended, ft.validTo = true, &end
			if ft.validFrom == nil || ft.validFrom.After(end) {
				ft.validFrom = &end
			}
		}
	}
	c.said.out.add(ft, c.said.event.ID)
	if f.subj == c.said.speaker || c.said.out.ents[f.subj] != nil && c.said.out.ents[f.subj].owner == c.said.speaker {
		c.said.talk.lastFact = ft
	}
	if f.obj != "" && f.obj != c.said.speaker {
		c.said.talk.lastObject = f.obj
	}
	if (f.pred == "LIKES" || f.pred == "DISLIKES") && f.obj != "" {
		// anyone's taste: "My partner loves anchovies but I can't bear
		// them" turns the speaker against the partner's thing
		c.said.talk.lastTaste, c.said.talk.lastTasteEvent = f.obj, c.said.event.ID
	}
	c.emitConjuncts(f)
}

// conf is the confidence of a fact read from this clause.
func (c *clause) conf(base float64) float64 {
	switch {
	case c.hedge:
		return min(base, 0.45)
	case c.said.event.Kind == "summary":
		return base * 0.9
	}
	return base
}

// object creates the entity for a phrase and returns its key and the
// article the speaker used ("a", "an" or "").
func (c *clause) object(np nounPhrase, typ ontology.EntityType, rank int) (string, string) {
	if !usableObject(np) {
		return "", ""
	}
	name := np.surface()
	if np.count != "" && !np.hasName {
		name = np.surface()
	}
	if typ == "" {
		var ok bool
		typ, ok = classify(np)
		rank = 0
		if ok {
			rank = 1
		}
	}
	key := c.said.out.named(name, typ, rank)
	if key == "" {
		return "", ""
	}
	c.said.out.mention(c.said.event.ID, key)
	art := ""
	switch np.det {
	case "a", "an":
		art = np.det
	case "the":
		if np.hasName && !places[key] {
			art = "the" // "sold the Corolla"
		}
	case "my", "our":
		if typ != ontology.Person && typ != ontology.Place && !np.hasName {
			art = "{their}"
		}
	}
	if typ == ontology.Person {
		c.notePerson(key)
	}
	c.noteObject(np, key, typ, rank)
	return key, art
}

// value creates a Value entity for a literal ("3000 euros", "Thursdays").
func (c *clause) value(text string) string {
	if text == "" {
		return ""
	}
	e := c.said.out.entity("#"+nlp.Fold(text), text, ontology.Value, 3)
	return e.key
}

// pick returns pos or negT depending on neg.
func pick(neg bool, pos, negT string) string {
	if neg {
		return negT
	}
	return pos
}
