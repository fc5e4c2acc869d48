package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Endings of what the speaker has: a pet that died or was put down ("our
// dog Rufus passed away in March", "we had to put our cat Miso down", "we
// lost our old rabbit"). The pet fact is closed with the day it ended
// (valid_to), not denied, so history keeps it; the words are in
// the verb table (dispatch.go).

// petEnding reads an ending whose subject is the pet ("Rufus died") or
// whose object is ("we lost our cat Miso"). It reports whether it read
// the clause.
func (r *kinRules) petEnding(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" {
		return false
	}
	i := c.verbAt + 1
	var pet string
	switch {
	case c.verb == "pass" && alt("away|on", c.at(i)), c.verb == "die":
		pet = c.subj
	case c.verb == "lose" || c.verb == "bury":
		pet = c.petAt(i)
	case c.verb == "put" && alt("down|to", c.lastWord()):
		pet = c.petAt(i)
	case c.verb == "say" && c.seq(i, "goodbye", "to"):
		pet = c.petAt(i + 2)
	case c.verb == "rehome" || c.verb == "rehouse":
		pet = c.petAt(i)
	case c.verb == "give" && (c.past || c.perfect):
		// "we gave our dog to my parents", "gave the cat away", "gave away
		// our rabbit": given up, as rehomed
		if c.at(i) == "away" {
			pet = c.petAt(i + 1)
		} else if k := c.petAt(i); k != "" && (alt("to|away", c.at(c.afterRelative(i))) || c.lastWord() == "away") {
			pet = k
		}
	}
	if pet == "" {
		return false
	}
	owner, qual := c.said.out.petOwner(pet)
	if owner == "" {
		return false
	}
	how := "died"
	switch c.verb {
	case "rehome", "rehouse":
		how = "rehomed"
	case "give":
		how = "given away"
	}
	c.emit(fx{subj: owner, pred: "HAS_PET", obj: pet, qual: qual, ended: true, tmpl: "{S} no longer has {O} (" + how + "{D})", rank: 3})
	return true
}

// petAt returns the key of the pet named at i ("our cat Miso", "Miso"
// when the window knows Miso for an animal), or "".
func (c *clause) petAt(i int) string {
	if k, _ := c.relativeAt(i, c.said.speaker); k != "" {
		if e := c.said.out.ents[k]; e != nil && e.typ == ontology.Animal {
			return k
		}
		return ""
	}
	if name, _ := nameOf(c.toks, i); name != "" {
		if e := c.said.out.ents[nlp.NormalizeName(name)]; e != nil && e.typ == ontology.Animal {
			return e.key
		}
	}
	return ""
}

// afterRelative returns the index after the pet or relative named at i
// ("our dog Rex", "Rex": the word after Rex), or i when none is named there.
func (c *clause) afterRelative(i int) int {
	if k, n := c.relativeAt(i, c.said.speaker); k != "" {
		return n
	}
	if name, n := nameOf(c.toks, i); name != "" {
		return n
	}
	return i
}

// lastWord is the clause's last word ("down" in "put our cat down").
func (c *clause) lastWord() string {
	for k := len(c.toks) - 1; k >= 0; k-- {
		if c.toks[k].kind == nlp.Word && c.toks[k].w != dateTok {
			return c.toks[k].w
		}
	}
	return ""
}

// petOwner finds who has the pet in this window and the pet fact's
// qualifier (its species), or "" when the window says nobody has it.
func (b *builder) petOwner(pet string) (string, string) {
	if e := b.ents[pet]; e == nil || e.typ != ontology.Animal {
		return "", ""
	}
	for _, f := range b.facts {
		if f.pred == "HAS_PET" && f.obj == pet && f.pol == ontology.Positive {
			return f.subj, f.qual
		}
	}
	if e := b.ents[pet]; e.owner != "" {
		return e.owner, e.role
	}
	return "", ""
}

// ruleEnding is the verb rule of pass (away), die, lose, bury, put (down)
// and say (goodbye to).
func (r *kinRules) ruleEnding(c *clause) { r.petEnding(c) }

// putDownScan reads the passive of a pet's ending, whatever verb the
// clause is parsed around: "our cat had to be put down last week", "Rex
// was put down on Friday". A pet that may yet be ("might need to be put
// down") is not.
func (r *kinRules) putDownScan(c *clause) {
	if c.said.speaker == "" || c.hedge {
		return
	}
	t := c.toks
	for k := 1; k+1 < len(t); k++ {
		if t[k].w == "put" && t[k+1].w == "down" && alt("be|been|was|were|got", t[k-1].w) {
			for _, w := range t[:k] {
				if alt("might|may|could|will|'ll|would|need|needs|should|if|not|never", w.w) {
					return
				}
			}
			pet := c.petAt(0)
			if pet == "" {
				return
			}
			owner, qual := c.said.out.petOwner(pet)
			if owner == "" {
				return
			}
			c.emit(fx{subj: owner, pred: "HAS_PET", obj: pet, qual: qual, ended: true, tmpl: "{S} no longer has {O} (put down{D})", rank: 3})
			return
		}
	}
}
