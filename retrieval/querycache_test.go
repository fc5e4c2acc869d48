package retrieval

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// countingEmbedder gives each text a vector from its length and counts the
// texts it embedded.
type countingEmbedder struct {
	mu    sync.Mutex
	texts []string
}

func (c *countingEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.texts = append(c.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), 1}
	}
	return out, nil
}

func cachedService(t *testing.T, emb Embedder, size int) *Service {
	t.Helper()
	at := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	g := &fakeGraph{raws: []graph.RawEvent{{NewRawEvent: graph.NewRawEvent{ID: "e1", Kind: graph.RawMessage, Role: "user",
		Content: "We moved to Cardiff last month.", OccurredAt: at}, SessionID: "s1"}}}
	cfg := DefaultConfig()
	cfg.QueryCache = size
	s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
		Embedder: emb, Vectors: &factVectors{}, Now: func() time.Time { return at.Add(time.Hour) }}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRepeatedQuestionsAreEmbeddedOnce: a search asked again by the same
// tenant takes its question's vector from the cache; another tenant's
// same question is embedded for it (no tenant learns what another asked
// from how fast its search returns), and without a cache every search
// embeds.
func TestRepeatedQuestionsAreEmbeddedOnce(t *testing.T) {
	t.Parallel()
	emb := &countingEmbedder{}
	s := cachedService(t, emb, 16)
	search := func(tenant, q string) {
		t.Helper()
		if _, err := s.Search(t.Context(), tenant, SearchInput{UserID: "alice", Query: q}); err != nil {
			t.Fatal(err)
		}
	}
	search("t1", "Where does the user live?")
	search("t1", "Where does the user live?")
	search("t1", "Which city does the user live in?")
	search("t2", "Where does the user live?")
	want := []string{"Where does the user live?", "Which city does the user live in?", "Where does the user live?"}
	if !slices.Equal(emb.texts, want) {
		t.Errorf("embedded %q, want %q", emb.texts, want)
	}
	if h, m := s.QueryCacheStats(); h != 1 || m != 3 {
		t.Errorf("hits %d misses %d, want 1 and 3", h, m)
	}

	off := &countingEmbedder{}
	s = cachedService(t, off, 0)
	for range 2 {
		if _, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: "Where does the user live?"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(off.texts) != 2 {
		t.Errorf("without a cache the question was embedded %d times, want 2", len(off.texts))
	}
}

// TestCachedVectorsAreCopies: a caller that changes the vector it got
// does not change what the next search gets.
func TestCachedVectorsAreCopies(t *testing.T) {
	t.Parallel()
	s := cachedService(t, &countingEmbedder{}, 2)
	first, err := s.embedQuery(t.Context(), "t1", "abc")
	if err != nil {
		t.Fatal(err)
	}
	first[0][0] = -1
	again, err := s.embedQuery(t.Context(), "t1", "abc")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again[0], []float32{3, 1}) {
		t.Errorf("cached vector %v, want [3 1]", again[0])
	}
}
