package knowledge

import (
	"testing"

	"github.com/graphmem/graphmem/ontology"
)

func TestFuzzyMatch(t *testing.T) {
	person := func(id, norm string, kin ...string) Candidate {
		return Candidate{ID: id, Norm: norm, Type: ontology.Person, Kin: kin}
	}
	cases := []struct {
		name    string
		mention Mention
		cands   []Candidate
		want    string // matched id, "" for no merge
	}{
		{"legal form aside, one company", Mention{Type: ontology.Organization, Norm: "acme corp"},
			[]Candidate{{ID: "acme", Norm: "acme", Type: ontology.Organization}}, "acme"},
		{"word order does not matter", Mention{Type: ontology.Place, Norm: "york new"},
			[]Candidate{{ID: "ny", Norm: "new york", Type: ontology.Place}}, "ny"},
		{"a stored alias", Mention{Type: ontology.Person, Norm: "bobby"},
			[]Candidate{{ID: "bob", Norm: "robert smith", Type: ontology.Person, AliasKeys: []string{"bobby"}}}, "bob"},
		{"first name to the only full name", Mention{Type: ontology.Person, Norm: "emma"},
			[]Candidate{person("es", "emma stone")}, "es"},
		{"two people share the first name: no merge", Mention{Type: ontology.Person, Norm: "emma"},
			[]Candidate{person("es", "emma stone"), person("ew", "emma watson")}, ""},
		{"a sister Emma is not a cousin Emma Stone", Mention{Type: ontology.Person, Norm: "emma", Kin: []string{"SIBLING_OF|"}},
			[]Candidate{person("es", "emma stone", "RELATIVE_OF|cousin")}, ""},
		{"incompatible types never merge", Mention{Type: ontology.Food, Norm: "paris"},
			[]Candidate{{ID: "p", Norm: "paris", Type: ontology.Place}}, ""},
		{"the user's own entity is never a candidate", Mention{Type: ontology.Person, Norm: "alice"},
			[]Candidate{{ID: "u", Norm: "alice", Type: ontology.Person, IsUser: true}}, ""},
		{"the first-name rule is for people only", Mention{Type: ontology.Place, Norm: "san"},
			[]Candidate{{ID: "sf", Norm: "san francisco", Type: ontology.Place}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := FuzzyMatch(tc.mention, tc.cands)
			got := ""
			if ok {
				got = c.ID
			}
			if got != tc.want {
				t.Errorf("matched %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPickCompatible(t *testing.T) {
	cands := []Candidate{
		{ID: "concept", Type: ontology.Concept, Mentions: 9},
		{ID: "org", Type: ontology.Organization, Mentions: 1},
		{ID: "place", Type: ontology.Place, Mentions: 3},
		{ID: "food", Type: ontology.Food, Mentions: 50},
	}
	// A specific type beats Concept; then the most mentioned; Food is not
	// compatible with an Organization.
	if c, ok := PickCompatible(cands, ontology.Organization); !ok || c.ID != "place" {
		t.Errorf("picked %+v", c)
	}
	if _, ok := PickCompatible([]Candidate{{ID: "f", Type: ontology.Food}}, ontology.Person); ok {
		t.Error("a food is not a person")
	}
}

func TestTypesCompatible(t *testing.T) {
	for _, tc := range []struct {
		a, b ontology.EntityType
		want bool
	}{
		{ontology.Person, ontology.Person, true},
		{ontology.Concept, ontology.Animal, true},
		{ontology.Place, ontology.Organization, true},
		{ontology.Product, ontology.Artwork, true},
		{ontology.Food, ontology.Product, true},
		{ontology.Person, ontology.Place, false},
		{ontology.Food, ontology.Artwork, false},
	} {
		if got := TypesCompatible(tc.a, tc.b); got != tc.want || TypesCompatible(tc.b, tc.a) != tc.want {
			t.Errorf("%s/%s: %v, want %v (both ways)", tc.a, tc.b, got, tc.want)
		}
	}
}
