//go:build integration

package main

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// testEmbeddingDims is the vector size every embedding test uses: the test
// database is shared, and its vector index has one size, the local
// embedder's (all-MiniLM-L6-v2), which the other end-to-end tests run.
const testEmbeddingDims = 384

// conceptEmbedder is a fake OpenAI-compatible embeddings server with a tiny
// notion of meaning: words of one concept share a dimension, so "car" and
// "automobile" are close while sharing no letters. It counts calls.
type conceptEmbedder struct {
	*httptest.Server
	calls atomic.Int64
}

var concepts = map[string]string{
	"car": "vehicle", "automobile": "vehicle", "vehicle": "vehicle", "sedan": "vehicle",
	"sushi": "fish", "salmon": "fish", "tuna": "fish",
}

func embedText(text string) []float32 {
	v := make([]float64, testEmbeddingDims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if c, ok := concepts[w]; ok {
			w = c
		}
		h := fnv.New32a()
		_, _ = h.Write([]byte(w))
		v[h.Sum32()%testEmbeddingDims]++
	}
	norm := 0.0
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, len(v))
	for i, x := range v {
		if norm > 0 {
			out[i] = float32(x / math.Sqrt(norm))
		}
	}
	return out
}

func newConceptEmbedder(t *testing.T) *conceptEmbedder {
	f := &conceptEmbedder{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		f.calls.Add(1)
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string         `json:"object"`
			Data   []item         `json:"data"`
			Model  string         `json:"model"`
			Usage  map[string]int `json:"usage"`
		}{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": len(req.Input), "total_tokens": len(req.Input)}}
		for i, in := range req.Input {
			resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: embedText(in)})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(f.Close)
	return f
}

// TestVectorSearchThroughNeo4jIndex: with an OpenAI-compatible embedder,
// turns are embedded by the embedding lane and queries at search, through Neo4j's vector
// index; a query sharing no word with a turn still finds it, and another
// tenant's similar turn never appears.
func TestVectorSearchThroughNeo4jIndex(t *testing.T) {
	t.Parallel()
	emb := newConceptEmbedder(t)
	env := []string{"GRAPHMEM_EMBEDDER", "openai", "GRAPHMEM_EMBEDDING_MODEL", "concept-embed", "GRAPHMEM_EMBEDDING_DIMENSIONS", "384",
		"GRAPHMEM_EMBEDDING_BASE_URL", emb.URL + "/v1"}
	e, other := newE2E(t, env...), newE2E(t, env...)
	for _, x := range []*e2e{e, other} {
		x.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/garage/events", map[string]any{"user_id": "driver",
			"events": []map[string]any{
				{"id": "g1", "kind": "message", "role": "user", "content": "I bought a new automobile last week."},
				{"id": "g2", "kind": "message", "role": "user", "content": "The weather in Oslo is grey today."},
			}})
		x.closeAndWait(t, "garage")
	}
	if emb.calls.Load() == 0 {
		t.Fatal("the embedder was never called")
	}
	res := e.search(t, map[string]any{"user_id": "driver", "query": "car", "tiers": []string{"raw"}, "explain": true})
	found := false
	for _, r := range res.Results {
		if r.ID == "g1" {
			found = true
			if r.ScoreParts.FullText != 0 {
				t.Fatalf("the turn shares no word with the query, yet has a full-text score: %+v", r)
			}
			if !strings.Contains(r.Explanation, "vector") {
				t.Fatalf("explanation does not mention the vector signal: %q", r.Explanation)
			}
		}
	}
	if !found {
		t.Fatalf("vector search did not find the automobile turn for \"car\": %+v", res.Results)
	}
	if len(res.Results) > 2 {
		t.Fatalf("results include more than this tenant's two turns (another tenant's leaked?): %+v", res.Results)
	}
}
