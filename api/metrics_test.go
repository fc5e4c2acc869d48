package api

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMetricsExportTheQueryCache(t *testing.T) {
	m := NewMetrics()
	hits, misses := int64(3), int64(4)
	m.WatchQueryCache(func() (int64, int64) { return hits, misses })
	scrape := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		b, _ := io.ReadAll(rec.Body)
		return string(b)
	}
	body := scrape()
	for _, want := range []string{`graphmem_query_embedding_cache_total{result="hit"} 3`, `graphmem_query_embedding_cache_total{result="miss"} 4`} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	hits = 10 // read at each scrape, not once
	if body := scrape(); !strings.Contains(body, `graphmem_query_embedding_cache_total{result="hit"} 10`) {
		t.Error("the hit count was not read again at the second scrape")
	}
}

func TestMetricsExportTheRawCache(t *testing.T) {
	m := NewMetrics()
	hits, misses := int64(7), int64(2)
	m.WatchRawCache(func() (int64, int64) { return hits, misses })
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	for _, want := range []string{`graphmem_raw_cache_turns_total{result="hit"} 7`, `graphmem_raw_cache_turns_total{result="miss"} 2`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
