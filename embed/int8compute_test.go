//go:build cgo

package embed

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
)

// TestInt8ComputeRewritesTheProductsAfterNoLayerNorm: of the 36 matrix
// products of all-MiniLM-L6-v2 (6 layers × Q, K, V, attention output, two
// feed-forward), the 12 whose input is not a LayerNorm's output (attention
// output, second feed-forward) move to the int8 kernel; a second rewrite
// finds nothing left; garbage is refused.
func TestInt8ComputeRewritesTheProductsAfterNoLayerNorm(t *testing.T) {
	cfg := DefaultLocalConfig(modelDir(t))
	raw, err := os.ReadFile(cfg.ModelFile)
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := Int8Compute(raw)
	if err != nil {
		t.Fatal(err)
	}
	if n != 12 {
		t.Errorf("rewrote %d products, want 12", n)
	}
	if len(out) >= len(raw) {
		t.Errorf("rewritten model is %d bytes, the original %d: the Cast and Mul nodes should be gone", len(out), len(raw))
	}
	if _, _, err := Int8Compute(out); err == nil {
		t.Error("a second rewrite found products to rewrite: the first left some")
	}
	if _, _, err := Int8Compute([]byte("not a model")); err == nil {
		t.Error("garbage was rewritten without an error")
	}
}

// TestInt8ComputeQueriesRankLikeTheReference is the bar for using int8
// compute on the query side (cmd/graphmem: the query embedder): the
// question's vector is compared with stored vectors computed in fp32, so
// what matters is that it ranks them as the reference question vector does.
// For each LoCoMo question of the reference set, the 740 reference turns are
// ranked by cosine with the reference question vector and with the int8
// one: the top 10 must overlap by at least 9.5 on average (every product
// in int8 gave 9.42, and lost paraphrase recall) and the best turn stay in
// the int8 top 3 for at least 95% of questions.
func TestInt8ComputeQueriesRankLikeTheReference(t *testing.T) {
	l := newTestLocal(t, func(c *LocalConfig) { c.Compute = ComputeInt8 })
	_, sents := loadReference(t)
	var turns, questions []refSentence
	for _, s := range sents {
		switch {
		case strings.HasPrefix(s.Source, "locomo-turn:"):
			turns = append(turns, s)
		case strings.HasPrefix(s.Source, "locomo-question:"), strings.HasPrefix(s.Source, "ku-query:"):
			questions = append(questions, s)
		}
	}
	if len(turns) < 700 || len(questions) < 200 {
		t.Fatalf("reference has %d turns and %d questions, want at least 700 and 200", len(turns), len(questions))
	}
	texts := make([]string, len(questions))
	for i, q := range questions {
		texts[i] = q.text
	}
	got, err := l.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	rank := func(q []float32) []int {
		idx := make([]int, len(turns))
		score := make([]float64, len(turns))
		for i, tr := range turns {
			idx[i], score[i] = i, Cosine(q, tr.emb)
		}
		sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
		return idx
	}
	overlap, bestKept, minCos, sumCos := 0, 0, 1.0, 0.0
	for i, q := range questions {
		c := Cosine(got[i], q.emb)
		sumCos += c
		minCos = min(minCos, c)
		want, have := rank(q.emb)[:10], rank(got[i])
		in := map[int]bool{}
		for _, x := range have[:10] {
			in[x] = true
		}
		for _, x := range want {
			if in[x] {
				overlap++
			}
		}
		for _, x := range have[:3] {
			if x == want[0] {
				bestKept++
			}
		}
	}
	n := float64(len(questions))
	t.Logf("%d questions: top-10 overlap %.2f of 10, best turn in the int8 top 3 for %.1f%%; question cosine to the reference min %.4f, mean %.4f",
		len(questions), float64(overlap)/n, 100*float64(bestKept)/n, minCos, sumCos/n)
	if float64(overlap)/n < 9.5 {
		t.Errorf("top-10 overlap %.2f, want >= 9.5", float64(overlap)/n)
	}
	if float64(bestKept)/n < 0.95 {
		t.Errorf("best turn kept in the top 3 for %.1f%%, want >= 95%%", 100*float64(bestKept)/n)
	}
}
