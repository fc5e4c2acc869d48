package knowledge

import (
	"slices"
	"strings"
	"unicode"

	"github.com/graphmem/graphmem/ontology"
)

// Entity resolution rules. The graph finds candidates (same key, full-text,
// vectors); these functions decide which candidate, if any, a mention is.
// A missed merge is cheaper than a wrong one: when in doubt, no merge.

// Candidate is a stored entity considered for a merge.
type Candidate struct {
	ID        string
	Name      string
	Norm      string // normalized name, the key two mentions share
	Type      ontology.EntityType
	IsUser    bool
	AliasKeys []string
	Mentions  int64
	// Kin are its family ties to the user, "TYPE|qualifier".
	Kin []string
}

// Mention is the entity a write names, as matching sees it.
type Mention struct {
	Type ontology.EntityType
	Norm string
	Kin  []string // family ties to the user stated in the write
}

// TypesCompatible reports whether two entity types may be one entity: the
// same type, a generic Concept and anything, or a few pairs an extractor
// confuses (a company named after a place, a product that is an artwork,
// a food sold as a product).
func TypesCompatible(a, b ontology.EntityType) bool {
	if a == b || a == ontology.Concept || b == ontology.Concept {
		return true
	}
	pair := [2]ontology.EntityType{min(a, b), max(a, b)}
	switch pair {
	case [2]ontology.EntityType{ontology.Organization, ontology.Place},
		[2]ontology.EntityType{ontology.Artwork, ontology.Product},
		[2]ontology.EntityType{ontology.Food, ontology.Product}:
		return true
	}
	return false
}

// NameTerms splits a normalized name into search terms (letters and digits).
func NameTerms(norm string) []string {
	return strings.FieldsFunc(norm, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// tokenSet is the sorted, deduplicated terms of a key; legal-form
// suffixes are dropped when org is set and something else remains.
func tokenSet(norm string, org bool) []string {
	terms := NameTerms(norm)
	if org {
		var kept []string
		for _, t := range terms {
			if !ontology.IsLegalForm(t) {
				kept = append(kept, t)
			}
		}
		if len(kept) > 0 {
			terms = kept
		}
	}
	slices.Sort(terms)
	return slices.Compact(terms)
}

// PickCompatible chooses among same-key candidates of compatible types:
// a specific type over Concept, then the most mentioned.
func PickCompatible(cands []Candidate, typ ontology.EntityType) (Candidate, bool) {
	var best Candidate
	found := false
	for _, c := range cands {
		if !TypesCompatible(c.Type, typ) {
			continue
		}
		better := !found ||
			(best.Type == ontology.Concept && c.Type != ontology.Concept) ||
			((best.Type == ontology.Concept) == (c.Type == ontology.Concept) && c.Mentions > best.Mentions)
		if better {
			best, found = c, true
		}
	}
	return best, found
}

// FuzzyMatch applies the conservative similarity rules to full-text
// candidates: a stored alias equal to the name, the same set of name
// tokens (legal forms aside), or a first name extending to a full name of
// a Person when exactly one stored person has that first name and their
// family ties to the user do not contradict. Ambiguity (several candidates
// pass) means no merge.
func FuzzyMatch(m Mention, cands []Candidate) (Candidate, bool) {
	org := m.Type == ontology.Organization
	want := tokenSet(m.Norm, org)
	var hits []Candidate
	for _, c := range cands {
		if !TypesCompatible(c.Type, m.Type) || c.IsUser {
			continue
		}
		corg := org || c.Type == ontology.Organization
		same := slices.Equal(tokenSet(m.Norm, corg), tokenSet(c.Norm, corg))
		for _, k := range c.AliasKeys {
			same = same || k == m.Norm || slices.Equal(tokenSet(k, corg), tokenSet(m.Norm, corg))
		}
		if same {
			hits = append(hits, c)
		}
	}
	if len(hits) == 1 {
		return hits[0], true
	}
	if len(hits) > 1 || m.Type != ontology.Person || len(want) == 0 {
		return Candidate{}, false
	}
	// A first name and a full name: "Emma" and "Emma Stone".
	terms := NameTerms(m.Norm)
	var sameFirst []Candidate
	for _, c := range cands {
		ct := NameTerms(c.Norm)
		if c.Type == ontology.Person && !c.IsUser && len(ct) > 0 && ct[0] == terms[0] {
			sameFirst = append(sameFirst, c)
		}
	}
	if len(sameFirst) != 1 {
		return Candidate{}, false
	}
	c := sameFirst[0]
	ct := NameTerms(c.Norm)
	extends := (len(terms) == 1 && len(ct) > 1) || (len(ct) == 1 && len(terms) > 1)
	if !extends || kinContradicts(m.Kin, c.Kin) {
		return Candidate{}, false
	}
	return c, true
}

// kinContradicts: both sides have family ties to the user and share none
// (a sister Emma is not a cousin Emma Stone).
func kinContradicts(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, x := range a {
		if slices.Contains(b, x) {
			return false
		}
	}
	return true
}
