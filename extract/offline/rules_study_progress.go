package offline

import "github.com/graphmem/graphmem/ontology"

// partway reads, in a be-clause at i, a course the speaker is part-way
// through: "halfway through a nursing diploma", "nearly done with my
// master's", "in the first term of an art foundation course", "in the
// final year of a law degree". It reports whether it read the clause.
func (r *studyRules) partway(c *clause, i int) bool {
	j := i
	switch {
	case alt("halfway|partway|midway", c.at(j)) && c.at(j+1) == "through":
		j += 2
	case c.at(j) == "in" && c.at(j+1) == "the" && studyYears[c.at(j+2)] && alt("year|term|semester|module", c.at(j+3)) && c.at(j+4) == "of":
		j += 5
	default:
		return false
	}
	if !alt("a|an|my|the|our", c.at(j)) {
		return false
	}
	np := takeNP(c.toks, j)
	if !usableObject(np) || !courseNouns[np.head()] && !degreeNouns[np.head()] {
		return false
	}
	k, _ := c.object(np, ontology.Concept, 1)
	if k == "" {
		return false
	}
	art := "a"
	if np.det == "an" {
		art = "an"
	}
	c.emit(fx{pred: "STUDIES", obj: k, art: art, tmpl: "{S} is doing {aO} (" + words(c.toks[i:j]) + " it)"})
	r.studyPlace(c, np.next, false)
	return true
}

// languageProgressFrame: "my Italian is getting really good", "my Irish is
// coming back since I started classes", "my German has improved": a
// language the speaker is making progress in is one they are learning.
func (r *studyRules) languageProgressFrame(c *clause) bool {
	if c.said.speaker == "" || !alt("my|our", c.at(0)) || !languages[c.at(1)] {
		return false
	}
	i := 2
	if !alt("is|has|'s", c.at(i)) {
		return false
	}
	i++
	for alt("really|slowly|finally|actually|definitely|so|much|been", c.at(i)) {
		i++
	}
	if !alt("getting|improving|improved|coming|progressing|progressed", c.at(i)) || c.at(i) == "getting" && alt("worse|rusty", c.at(i+1)) {
		return false
	}
	k, _ := c.object(nounPhrase{toks: c.toks[1:2]}, ontology.Language, 2)
	if k == "" {
		return false
	}
	c.subj = c.said.speaker
	c.emit(fx{pred: "LEARNING", obj: k, tmpl: "{S} is learning {O}", noDate: true})
	return true
}
