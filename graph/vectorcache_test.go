package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDot32 agrees with a float64 dot product on odd and even sizes.
func TestDot32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 3, 4, 7, 384} {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			want += float64(a[i]) * float64(b[i])
		}
		if got := dot32(a, b); math.Abs(float64(got)-want) > 1e-4*math.Max(1, math.Abs(want)) {
			t.Fatalf("n=%d: dot32 = %g, want %g", n, got, want)
		}
	}
}

// BenchmarkRank scores one LoCoMo-sized user (750 memories of 384
// dimensions) against a query, as every vector search does.
func BenchmarkRank(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	vec := func() []float32 {
		v := make([]float32, 384)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	u := &userVectors{}
	var vs []cachedVector
	for i := range 750 {
		vs = append(vs, cachedVector{ref: vectorRef{elementID: string(rune(i)), kind: "raw"}, vec: vec()})
	}
	u.put(vs)
	q := vec()
	b.ResetTimer()
	for range b.N {
		if len(u.rank(q, "", 0, 0)) != 750 {
			b.Fatal("rank lost memories")
		}
	}
}

// TestRankFloor: rank keeps exactly the memories scoring at least the
// floor, best first, and the floor 0 keeps every one.
func TestRankFloor(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	vec := func() []float32 {
		v := make([]float32, 16)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	u := &userVectors{}
	var vs []cachedVector
	for i := range 200 {
		vs = append(vs, cachedVector{ref: vectorRef{elementID: fmt.Sprint(i), kind: "raw"}, vec: vec()})
	}
	u.put(vs)
	q := vec()
	all := u.rank(q, "", 0, 0)
	if len(all) != 200 {
		t.Fatalf("floor 0 kept %d of 200", len(all))
	}
	above := 0
	for _, c := range all {
		if c.score >= 0.55 {
			above++
		}
	}
	got := u.rank(q, "", 0.55, 0)
	if above == 0 || above == 200 || len(got) != above {
		t.Fatalf("floor 0.55 kept %d, %d score at least 0.55", len(got), above)
	}
	for i, c := range got {
		if c.ref != all[i].ref || c.score != all[i].score {
			t.Fatalf("rank %d: %+v with the floor, %+v without", i, c, all[i])
		}
	}
}

// TestRankFactRows: a turn's fact vectors are rows under the turn's ref;
// rank returns the turn once, scored by its best row and marked when a
// fact earned it, and Vectors' byRef still names the turn's own text.
func TestRankFactRows(t *testing.T) {
	unit := func(i int) []float32 {
		v := make([]float32, 4)
		v[i] = 1
		return v
	}
	u := &userVectors{}
	u.put([]cachedVector{
		{ref: vectorRef{elementID: "a", kind: "raw", sessionID: "s", id: "1"}, vec: unit(0), facts: [][]float32{unit(1), unit(2)}},
		{ref: vectorRef{elementID: "b", kind: "raw", sessionID: "s", id: "2"}, vec: unit(3)},
	})
	got := u.rank(unit(2), "", 0, 0.5)
	if len(got) != 2 {
		t.Fatalf("rank returned %d rows for 2 memories: %+v", len(got), got)
	}
	if got[0].ref.elementID != "a" || !got[0].ref.fact || got[0].score != 1 {
		t.Fatalf("best hit = %+v, want turn a by its second fact at score 1", got[0])
	}
	if got[1].ref.elementID != "b" || got[1].ref.fact {
		t.Fatalf("second hit = %+v, want turn b by its text", got[1])
	}
	// The turn's own text beats its facts when it is nearer.
	if got := u.rank(unit(0), "", 0, 0.5); got[0].ref.elementID != "a" || got[0].ref.fact {
		t.Fatalf("by text: %+v, want turn a by its text", got[0])
	}
	// A fact below factMin does not count.
	if got := u.rank(unit(2), "", 0, 1.01); got[0].ref.fact {
		t.Fatalf("a fact below factMin found %+v", got[0])
	}
	// Without facts, only the texts are scored.
	if got := u.rank(unit(2), "", 0, 0); len(got) != 2 || got[0].ref.fact || got[1].ref.fact || got[0].score != 0.5 {
		t.Fatalf("without facts: %+v, want both turns by their texts", got)
	}
	i, ok := u.byRef[memoryRef("raw", "s", "1")]
	if !ok || u.vecs[i*u.dims] != 1 {
		t.Fatalf("byRef of turn a = %d (%v), want its text's row", i, ok)
	}
	// Re-putting the turn with its facts replaces rows, adds none.
	rows := len(u.refs)
	u.put([]cachedVector{{ref: vectorRef{elementID: "a", kind: "raw", sessionID: "s", id: "1"}, vec: unit(0), facts: [][]float32{unit(3), unit(2)}}})
	if len(u.refs) != rows {
		t.Fatalf("re-put grew the rows %d -> %d", rows, len(u.refs))
	}
	if got := u.rank(unit(1), "", 0.9, 0.5); len(got) != 0 {
		t.Fatalf("a replaced fact still scores: %+v", got)
	}
}

// TestSplitVectors cuts embed_facts into vectors and ignores a list of
// another model's size.
func TestSplitVectors(t *testing.T) {
	if got := splitVectors([]float32{1, 2, 3, 4, 5, 6}, 3); len(got) != 2 || got[1][0] != 4 {
		t.Fatalf("split = %v", got)
	}
	if got := splitVectors([]float32{1, 2, 3, 4}, 3); got != nil {
		t.Fatalf("a ragged list split into %v", got)
	}
}
