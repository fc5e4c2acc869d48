package offline

import (
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

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

// languageAbilityFrame reads how well the speaker speaks a language, said
// without "speak": "my Japanese is rusty", "I'm a native Welsh speaker",
// "I'm bilingual in English and Tagalog", "I can get by in Portuguese",
// "I'm at B2 level in Italian". Each names a language the speaker speaks.
// It reports whether it read the clause.
func (r *studyRules) languageAbilityFrame(c *clause) bool {
	sp := c.said.speaker
	t := c.toks
	if sp == "" || c.hedge || c.neg || len(t) < 3 {
		return false
	}
	speaks := func(np nounPhrase, how string) {
		c.subj = sp
		r.speaks(c, sp, np, how)
	}
	// "my Japanese is rusty", "my Spanish is decent these days"
	if alt("my|our", c.at(0)) && languages[c.at(1)] {
		if n, ok, neg, _ := c.copulaAt(2); ok && !neg && proficiency[c.at(n)] {
			speaks(nounPhrase{toks: t[1:2], next: 2}, " ("+c.at(n)+")")
			return true
		}
		return false
	}
	if !alt("i|we", c.at(0)) {
		return false
	}
	for i := 1; i+1 < len(t); i++ {
		switch {
		case languages[t[i].w] && c.at(i+1) == "speaker" && alt("native|fluent|first-language|heritage", c.at(i-1)):
			// "I'm a native Welsh speaker"
			speaks(nounPhrase{toks: t[i : i+1], next: i + 1}, " (a "+c.at(i-1)+" speaker)")
			return true
		case alt("bilingual|trilingual", t[i].w) && c.at(i+1) == "in":
			items, _ := takeList(t, i+2)
			read := false
			for _, np := range items {
				if isLanguage(np) {
					speaks(np, "")
					read = true
				}
			}
			return read
		case c.seq(i, "get", "by", "in") || c.seq(i, "getting", "by", "in"):
			// read, but the clause is left to its other rules too: "I'm
			// fluent in Polish and getting by in Czech"
			if np := takeNP(t, i+3); languages[np.lower()] {
				speaks(np, " (gets by)")
			}
		case t[i].w == "level" && c.at(i+1) == "in" && i >= 2 && cefrLevel(c.at(i-1)):
			// "I'm at B2 level in Italian now"
			if np := takeNP(t, i+2); languages[np.lower()] {
				speaks(np, " (level "+strings.ToUpper(c.at(i-1))+")")
				return true
			}
		}
	}
	return false
}

// proficiency are the words that say how well one speaks a language.
var proficiency = wordSet(`rusty,good,decent,basic,fluent,conversational,ok,okay,passable,shaky,poor,terrible,
excellent,native,solid,limited`)

// cefrLevel reports whether w is a CEFR level ("a1" to "c2").
func cefrLevel(w string) bool {
	return len(w) == 2 && (w[0] == 'a' || w[0] == 'b' || w[0] == 'c') && (w[1] == '1' || w[1] == '2')
}
