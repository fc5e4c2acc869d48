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
		if len(u.rank(q, "", 0)) != 750 {
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
	all := u.rank(q, "", 0)
	if len(all) != 200 {
		t.Fatalf("floor 0 kept %d of 200", len(all))
	}
	above := 0
	for _, c := range all {
		if c.score >= 0.55 {
			above++
		}
	}
	got := u.rank(q, "", 0.55)
	if above == 0 || above == 200 || len(got) != above {
		t.Fatalf("floor 0.55 kept %d, %d score at least 0.55", len(got), above)
	}
	for i, c := range got {
		if c != all[i] {
			t.Fatalf("rank %d: %+v with the floor, %+v without", i, c, all[i])
		}
	}
}
