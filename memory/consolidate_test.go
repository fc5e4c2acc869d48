package memory

import (
	"slices"
	"testing"

	"github.com/graphmem/graphmem/graph"
)

// TestFindMergeCandidates drives the scorer with plain values: what is
// proposed, which way, and with which decision.
func TestFindMergeCandidates(t *testing.T) {
	person := func(id, norm string, facts ...graph.FactSig) graph.ConsolidationEntity {
		return graph.ConsolidationEntity{ID: id, Name: norm, Norm: norm, Type: "Person", Facts: facts}
	}
	works := graph.FactSig{Predicate: "WORKS_AT", Out: true, Other: "acme"}
	lives := func(city string) graph.FactSig { return graph.FactSig{Predicate: "LIVES_IN", Out: true, Other: city} }
	kin := func(pred string) graph.FactSig {
		return graph.FactSig{Predicate: pred, Out: true, Other: "me", OtherIsUser: true}
	}
	for _, tc := range []struct {
		name    string
		ents    []graph.ConsolidationEntity
		decided map[string]string
		want    []string // "keep<drop:decision"
	}{
		{"contained name and a shared fact apply", []graph.ConsolidationEntity{person("a", "bob smith", works), person("b", "smith", works)},
			nil, []string{"a<b:apply"}},
		{"contained name alone waits for review", []graph.ConsolidationEntity{person("a", "bob", works), person("b", "bob smith")},
			nil, []string{"b<a:review"}},
		{"same tokens in another order: review without more", []graph.ConsolidationEntity{person("a", "smith bob"), person("b", "bob smith", works)},
			nil, []string{"a<b:review"}},
		{"honorifics are ignored", []graph.ConsolidationEntity{person("a", "dr bob smith", works), person("b", "bob smith", works)},
			nil, []string{"a<b:apply"}},
		{"ambiguous first name never applies", []graph.ConsolidationEntity{person("a", "bob", works, lives("x")),
			person("b", "bob smith", works, lives("x")), person("c", "bob jones")},
			nil, []string{"b<a:review"}}, // bob/bob jones: 0.3, below review
		{"different family ties are never merged", []graph.ConsolidationEntity{person("a", "bob", kin("SIBLING_OF"), works),
			person("b", "bob smith", kin("PARENT_OF"), works)}, nil, nil},
		{"an exclusive slot with two values lowers the score", []graph.ConsolidationEntity{person("a", "bob", works, lives("paris")),
			person("b", "bob smith", works, lives("rome"))}, nil, []string{"b<a:review"}},
		{"the user's entity is never a candidate", []graph.ConsolidationEntity{{ID: "me", Norm: "bob smith", Type: "Person", IsUser: true,
			Facts: []graph.FactSig{works}}, person("b", "bob", works)}, nil, nil},
		{"two types are never merged", []graph.ConsolidationEntity{person("a", "acme", works),
			{ID: "b", Norm: "acme", Type: "Organization", Facts: []graph.FactSig{works}}}, nil, nil},
		{"a decided pair is not proposed again", []graph.ConsolidationEntity{person("a", "bob smith", works), person("b", "smith", works)},
			map[string]string{graph.PairKey("b", "a"): graph.MergeRejected}, nil},
		{"close vectors propose unrelated names", []graph.ConsolidationEntity{
			{ID: "a", Norm: "robert", Type: "Person", Embedding: []float64{1, 0.1}, Facts: []graph.FactSig{works}},
			{ID: "b", Norm: "bobby", Type: "Person", Embedding: []float64{1, 0.12}, Facts: []graph.FactSig{works}}},
			nil, []string{"a<b:review"}},
		{"no relation, no candidate", []graph.ConsolidationEntity{person("a", "ann", works), person("b", "bob", works)}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range FindMergeCandidates(tc.ents, tc.decided) {
				got = append(got, c.KeepID+"<"+c.DropID+":"+c.Decision)
				if c.Score < ReviewScore || c.Score > 1 || len(c.Reasons) == 0 {
					t.Errorf("candidate %+v", c)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
