package embed

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// countingEmbedder gives each text a vector derived from its length and
// counts the texts it was asked to embed.
type countingEmbedder struct {
	calls, texts int
	fail         bool
}

func (c *countingEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.calls++
	c.texts += len(texts)
	if c.fail {
		return nil, errors.New("model down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), 1, 0}
	}
	return out, nil
}
func (c *countingEmbedder) Dimensions() int { return 3 }
func (c *countingEmbedder) Model() string   { return "counting" }

func TestQueryCacheAnswersARepeatedQuestionWithoutTheModel(t *testing.T) {
	inner := &countingEmbedder{}
	q, err := NewQueryCache(inner, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := q.Embed(ctx, []string{"Where does the user live?"})
	if err != nil {
		t.Fatal(err)
	}
	first[0][0] = -99 // the caller's copy: the cache must not see this
	again, err := q.Embed(ctx, []string{"Where does the user live?"})
	if err != nil {
		t.Fatal(err)
	}
	if inner.calls != 1 {
		t.Errorf("model ran %d times for one question asked twice", inner.calls)
	}
	if !slices.Equal(again[0], []float32{25, 1, 0}) {
		t.Errorf("cached vector %v, want the model's [25 1 0]", again[0])
	}
	if h, m := q.Stats(); h != 1 || m != 1 {
		t.Errorf("hits %d misses %d, want 1 and 1", h, m)
	}
	if q.Model() != "counting" || q.Dimensions() != 3 {
		t.Errorf("model %q dims %d", q.Model(), q.Dimensions())
	}
}

func TestQueryCacheEvictsTheLeastRecentlyAsked(t *testing.T) {
	inner := &countingEmbedder{}
	q, _ := NewQueryCache(inner, 2)
	ctx := context.Background()
	for _, text := range []string{"a", "bb", "a", "ccc", "a", "bb"} {
		if _, err := q.Embed(ctx, []string{text}); err != nil {
			t.Fatal(err)
		}
	}
	// a, bb miss; a hits; ccc misses and evicts bb; a hits; bb misses.
	if inner.calls != 4 {
		t.Errorf("model ran %d times, want 4", inner.calls)
	}
}

func TestQueryCachePassesBatchesAndFailuresThrough(t *testing.T) {
	inner := &countingEmbedder{}
	q, _ := NewQueryCache(inner, 8)
	ctx := context.Background()
	for range 2 {
		vecs, err := q.Embed(ctx, []string{"x", "yy"})
		if err != nil || len(vecs) != 2 {
			t.Fatalf("%v %v", vecs, err)
		}
	}
	if inner.texts != 4 {
		t.Errorf("batches were cached: the model embedded %d texts, want 4", inner.texts)
	}
	inner.fail = true
	if _, err := q.Embed(ctx, []string{"z"}); err == nil {
		t.Fatal("the model's error was lost")
	}
	inner.fail = false
	if _, err := q.Embed(ctx, []string{"z"}); err != nil || inner.calls != 4 {
		t.Errorf("a failed question was cached: calls %d, err %v", inner.calls, err)
	}
	if _, err := NewQueryCache(inner, 0); err == nil {
		t.Error("a cache of no entries was accepted")
	}
}
