package main

import (
	"math"
	"reflect"
	"testing"
)

func TestBM25Tokens(t *testing.T) {
	got := bm25Tokens("Caroline: I'm going to the LGBTQ support-group, don't worry! [a photo of 2 cats]")
	want := []string{"caroline", "going", "lgbtq", "support", "group", "worry", "photo", "2", "cats"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}

// The expected scores were computed independently with rank_bm25's
// BM25Okapi formulas (k1 1.5, b 0.75, epsilon 0.25).
func TestBM25Scores(t *testing.T) {
	ix := newBM25([]string{"Alice: I love hiking in the mountains", "Bob: hiking boots are expensive",
		"Alice: the mountains near Denver are beautiful", "Bob: I bought new boots yesterday",
		"Alice: dinner was great", "Bob: see you tomorrow"})
	got := ix.scores("hiking in the Denver mountains")
	want := []float64{1.1755733298042381, 0.5877866649021191, 1.6962423811527012, 0, 0, 0}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("scores = %v, want %v", got, want)
		}
	}
	if r := ix.rank("hiking in the Denver mountains"); !reflect.DeepEqual(r, []int{2, 0, 1, 3, 4, 5}) {
		t.Errorf("rank = %v", r)
	}
	// A term in every document gets the floored idf: 0.25 × mean idf.
	ix = newBM25([]string{"pear x", "plum x", "fig x"})
	pos := math.Log(2.5) - math.Log(1.5)
	neg := math.Log(0.5) - math.Log(3.5)
	if want := 0.25 * (3*pos + neg) / 4; math.Abs(ix.idf["x"]-want) > 1e-12 {
		t.Errorf("idf(x) = %v, want %v", ix.idf["x"], want)
	}
	if s := newBM25(nil).scores("anything"); len(s) != 0 {
		t.Errorf("empty index: %v", s)
	}
}
