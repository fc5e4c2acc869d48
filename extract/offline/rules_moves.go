package offline

import (
	"slices"

	"github.com/graphmem/graphmem/ontology"
)

// Indirect moves: where the speaker lives, said through the home rather
// than the verb "live" ("our place in Utrecht has a garden", "we're renting
// a bungalow in Nairobi", "the new flat in Lyon is tiny", "I'm back in
// Hobart for good"). The dwelling scan reads any clause of the speaker's,
// whatever its verb and its subject, and lets the clause's own rules run
// after it.

// dwellingScan emits LIVES_IN for every "POSS|new <dwelling> in PLACE" of a
// clause, and for "a <dwelling> in PLACE" after a renting or buying verb of
// the speaker's. A former home ("our old flat in Leeds") is where the
// speaker used to live.
func (r *placeRules) dwellingScan(c *clause) {
	sp := c.said.speaker
	if sp == "" || c.hedge {
		return
	}
	t := c.toks
	for i := range t {
		if t[i].w == "will" || t[i].w == "'ll" || t[i].w == "would" || t[i].w == "might" || t[i].w == "could" ||
			t[i].w == "if" || t[i].w == "want" || t[i].w == "looking" || t[i].w == "hoping" {
			return // a home still to find is a plan, not a fact
		}
		if alt("rent|rents|renting|rented|let|letting|lets", t[i].w) && c.at(i+1) == "out" || t[i].w == "sublet" {
			return // "I rent out my flat in Leeds": a home let to others
		}
	}
	for i := 0; i < len(t); i++ {
		// "we're renting in Brighton for now": a home rented or
		// shared, not named
		if alt("renting|rent|rents|sharing", t[i].w) && c.at(i+1) == "in" && speakerOpens(t, i) {
			np := takeNP(t, i+2)
			if k, _ := c.object(np, ontology.Place, 2); k != "" && isPlaceLike(np) && np.hasName {
				c.emit(fx{subj: sp, pred: "LIVES_IN", obj: k, conf: 0.8, tmpl: "{S} lives in {O} (renting there)", rank: 1})
			}
			continue
		}
		if !dwellingNouns[t[i].w] {
			continue
		}
		at, near := dwellingPlace(c, i+1)
		if at < 0 {
			continue
		}
		former, current, owned := false, false, false
		j := i - 1
		for ; j >= 0 && j >= i-3; j-- {
			w := t[j].w
			switch {
			case formerDwelling[w]:
				former = true
			case currentDwelling[w]:
				current = true
			case w == "my" || w == "our":
				owned = true
			}
			if w == "my" || w == "our" || w == "a" || w == "an" || w == "the" || w == "'s" || w == "this" {
				break
			}
		}
		if j < 0 || j < i-3 || !alt("my|our|a|an|the|this", t[j].w) {
			continue // "my sister's flat in Rome" is hers
		}
		if slices.ContainsFunc(t[j+1:i], func(x tok) bool { return secondHomes[x.w] }) {
			continue // "our holiday cottage near Kendal" is not where they live
		}
		det := t[j].w
		// A home just taken is current even when it is the speaker's
		// first ("we picked up the keys to our first house in Norwich",
		// "we've moved into a two-bed in Leith").
		taken := j > 0 && (dwellingVerbs[t[j-1].w] || t[j-1].w == "to" && c.at(j-2) == "keys" ||
			t[j-1].w == "into" && j > 1 && alt("moved|moving|move", t[j-2].w) ||
			t[j-1].w == "to" && j > 1 && alt("upsized|downsized|relocated|moved", t[j-2].w)) // "we downsized to a two-bed in Ripon"
		if taken && former && !slices.ContainsFunc(t[j+1:i], func(x tok) bool { return formerDwelling[x.w] && x.w != "first" }) {
			former = false
		}
		switch {
		case taken && (det == "a" || det == "an") && alt("into|to", t[j-1].w) && speakerOpens(t, j-2):
		case owned:
		case det == "the" && current:
		case det == "this" && j > 0 && t[j-1].w == "in" && speakerOpens(t, j-1):
			// "we've been in this flat in Hackney for six years"
		case (det == "a" || det == "an") && j > 0 && dwellingVerbs[t[j-1].w] && speakerVerb(c, j-1):
		default:
			continue
		}
		np := takeNP(t, at)
		if !isPlaceLike(np) || !np.hasName {
			continue
		}
		k, _ := c.object(np, ontology.Place, 2)
		if k == "" {
			continue
		}
		if former {
			c.emit(fx{subj: sp, pred: "LIVES_IN", obj: k, neg: true, conf: 0.7, tmpl: "{S} used to live " + pick(near, "in {O}", "near {O}"), noDate: true})
			continue
		}
		c.emit(fx{subj: sp, pred: "LIVES_IN", obj: k, conf: 0.8, tmpl: "{S} lives " + pick(near, "in {O}", "near {O}") + " (" + words(t[j:i+1]) + " there)", rank: 1})
	}
}

// dwellingPlace finds the place a dwelling noun ending at i-1 is placed
// in: "in Leith", "near Kendal", "just outside Hexham", "on the outskirts
// of Leeds", after a copula ("our new place is in Glasgow") or a "with"
// of whom it is shared ("a flat with two nurses in Cardiff"). It returns
// the index of the place's phrase, and whether the home is near it rather
// than in it; -1 when no place follows.
func dwellingPlace(c *clause, i int) (int, bool) {
	if alt("is|'s", c.at(i)) {
		i++
	}
	if c.at(i) == "with" {
		for k := i + 1; k < len(c.toks) && k <= i+5; k++ {
			if c.at(k) == "in" {
				return k + 1, false
			}
		}
		return -1, false
	}
	if c.at(i) == "just" || c.at(i) == "right" {
		i++
	}
	switch {
	case c.at(i) == "in":
		return i + 1, false
	case alt("near|outside", c.at(i)):
		if c.at(i+1) == "of" {
			i++
		}
		return i + 1, true
	case c.seq(i, "close", "to"):
		return i + 2, true
	case c.seq(i, "on", "the") && alt("outskirts|edge", c.at(i+2)) && c.at(i+3) == "of":
		return i + 4, true
	}
	return -1, false
}

// speakerOpens reports whether the words before index v are the speaker's
// subject and auxiliaries ("we've been renting", "I just bought").
func speakerOpens(t []tok, v int) bool {
	for k := v - 1; k >= 0 && k >= v-5; k-- {
		switch t[k].w {
		case "i", "we":
			return true
		case "'ve", "have", "had", "'d", "are", "'re", "am", "'m", "been", "just", "finally", "recently", "also", "did",
			"actually", "now":
			continue
		}
		return false
	}
	return false
}

// speakerVerb reports whether the verb at v is the speaker's: opened by
// the speaker's subject (speakerOpens), or, in a clause whose subject was
// left out after "and" or "so" ("we finally left Croydon and are renting a
// little place in Hebden Bridge"), only auxiliaries open it and the clause
// carries on the speaker's subject.
func speakerVerb(c *clause, v int) bool {
	if speakerOpens(c.toks, v) {
		return true
	}
	if !c.coord || c.carried != c.said.speaker || c.said.speaker == "" {
		return false
	}
	for k := v - 1; k >= 0; k-- {
		switch c.toks[k].w {
		case "'ve", "have", "are", "'re", "am", "'m", "been", "just", "finally", "recently", "also", "now", "and", "so", "then":
			continue
		}
		return false
	}
	return true
}

// settledIn reports whether "in PLACE" at i is followed by a word of
// permanence ("back in Hobart for good").
func (c *clause) settledIn(np nounPhrase) bool {
	for _, p := range permanence {
		if c.seq(np.next, p...) {
			return true
		}
	}
	// "I'm in Turin, in a shared flat near the station"
	for k := np.next; k < len(c.toks); k++ {
		if dwellingNouns[c.toks[k].w] && k > 0 && alt("a|an|my|our|the", c.at(k-1)) ||
			dwellingNouns[c.toks[k].w] && k > 1 && alt("a|an|my|our", c.at(k-2)) {
			return true
		}
	}
	return false
}
