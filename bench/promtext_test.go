package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const samplePage = `# HELP graphmem_embeddings_total Texts embedded by the embedding lane, by tier.
# TYPE graphmem_embeddings_total counter
graphmem_embeddings_total{kind="raw"} 1200
graphmem_embeddings_total{kind="event"} 35
graphmem_embeddings_total{kind="in{sight}, \"odd\""} 5
graphmem_embedding_seconds_total 2.5
graphmem_embedding_backlog 17
graphmem_embedding_lag_seconds 1.25e+00
process_cpu_seconds_total 3.14 1700000000000
garbage line without value
broken{kind="x" 4
`

func TestParsePromText(t *testing.T) {
	p := parsePromText(samplePage)
	if v, ok := p.sum(metricEmbedded); !ok || v != 1240 {
		t.Errorf("embeddings sum %v %v", v, ok)
	}
	if v, ok := p.sum("process_cpu_seconds_total"); !ok || v != 3.14 {
		t.Errorf("a sample with a timestamp: %v %v", v, ok)
	}
	if v, ok := p.sum(metricLag); !ok || v != 1.25 {
		t.Errorf("exponent notation: %v %v", v, ok)
	}
	if _, ok := p.sum("graphmem_missing"); ok {
		t.Error("an absent metric must say so")
	}
	if _, ok := p["broken"]; ok {
		t.Error("an unterminated label set is skipped")
	}
	kinds := p.byLabel(metricEmbedded, "kind")
	if kinds["raw"] != 1200 || kinds["event"] != 35 || kinds[`in{sight}, "odd"`] != 5 || len(kinds) != 3 {
		t.Errorf("by kind: %v", kinds)
	}
}

func TestLabelValue(t *testing.T) {
	cases := map[string]string{
		`kind="raw",outcome="ok"`:   "ok",
		`outcome="a\"b",kind="raw"`: `a"b`,
		`kind="r\"aw",outcome="ok"`: "ok",
		`kind="x"`:                  "",
		`outcome="line\nbreak"`:     "line\nbreak",
		`outcome=unquoted`:          "",
		`a="1", outcome="spaced"`:   "spaced",
		`outcome="unterminated`:     "",
		``:                          "",
	}
	for labels, want := range cases {
		if got := labelValue(labels, "outcome"); got != want {
			t.Errorf("labelValue(%q) = %q, want %q", labels, got, want)
		}
	}
}

func TestEmbedReadingOf(t *testing.T) {
	at := time.Unix(100, 0)
	r := embedReadingOf(parsePromText(samplePage), at)
	if !r.HasEmbedded || r.Embedded != 1240 || r.Seconds != 2.5 || !r.HasBacklog || r.Backlog != 17 || r.Lag != 1.25 || !r.At.Equal(at) {
		t.Errorf("%+v", r)
	}
	if r.ByKind["raw"] != 1200 {
		t.Errorf("by kind %v", r.ByKind)
	}
	none := embedReadingOf(parsePromText("graphmem_http_requests_total 3\n"), at)
	if none.HasBacklog || none.HasEmbedded || none.HasLag {
		t.Errorf("a server without the lane: %+v", none)
	}
}

func TestDrainedPair(t *testing.T) {
	t0 := time.Unix(0, 0)
	zero := func(sec int, embedded float64) embedReading {
		return embedReading{At: t0.Add(time.Duration(sec) * time.Second), HasBacklog: true, Embedded: embedded}
	}
	if !drainedPair(zero(0, 50), zero(6, 50), 6*time.Second) {
		t.Error("two zeros 6 s apart with no new embeddings: drained")
	}
	if drainedPair(zero(0, 50), zero(5, 50), 6*time.Second) {
		t.Error("too close together: the gauge may be one stale value")
	}
	if drainedPair(zero(0, 50), zero(7, 60), 6*time.Second) {
		t.Error("the counter grew in between: not drained")
	}
	busy := zero(7, 50)
	busy.Backlog = 3
	if drainedPair(zero(0, 50), busy, 6*time.Second) {
		t.Error("a backlog: not drained")
	}
	if drainedPair(embedReading{At: t0}, embedReading{At: t0.Add(time.Minute)}, time.Second) {
		t.Error("no backlog metric: never drained")
	}
}

func TestEmbedWatchObserve(t *testing.T) {
	start := time.Unix(1000, 0)
	w := &embedWatch{start: start}
	w.observe(embedReading{At: start, Embedded: 10, Backlog: 0, HasBacklog: true})
	w.observe(embedReading{At: start.Add(2 * time.Second), Embedded: 40, Backlog: 90, Lag: 3, HasBacklog: true})
	w.observe(embedReading{At: start.Add(4 * time.Second), Embedded: 100, Backlog: 30, Lag: 1, HasBacklog: true})
	w.observe(embedReading{At: start.Add(9 * time.Second), Embedded: 100, Backlog: 0, HasBacklog: true})
	if w.first.Embedded != 10 || w.maxBacklog != 90 || w.maxLag != 3 || !w.lastChange.Equal(start.Add(4*time.Second)) {
		t.Errorf("first %v max backlog %v max lag %v last change %v", w.first.Embedded, w.maxBacklog, w.maxLag, w.lastChange)
	}
}

// metricsServer serves /metrics from page(n), n counting scrapes.
func metricsServer(t *testing.T, page func(n int64) string) *client {
	t.Helper()
	var n atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, page(n.Add(1)))
	}))
	t.Cleanup(ts.Close)
	return newClient(ts.URL, "", 5*time.Second)
}

func TestEmbedWatchFinish(t *testing.T) {
	ctx := context.Background()
	t.Run("no lane", func(t *testing.T) {
		c := metricsServer(t, func(int64) string { return "graphmem_http_requests_total 1\n" })
		st := watchEmbedding(ctx, c, time.Hour).finish(ctx, time.Now(), time.Second)
		if st.Available || st.Texts != nil || st.Note == "" {
			t.Errorf("%+v", st)
		}
	})
	t.Run("vectors off", func(t *testing.T) {
		c := metricsServer(t, func(int64) string { return "graphmem_embedding_backlog 0\n" })
		st := watchEmbedding(ctx, c, time.Hour).finish(ctx, time.Now(), time.Second)
		if !st.Available || st.Texts != nil || !st.Drained {
			t.Errorf("%+v", st)
		}
	})
	t.Run("drains", func(t *testing.T) {
		// The lane embeds 50 texts per scrape until 200 more are done,
		// then the backlog reads 0.
		c := metricsServer(t, func(n int64) string {
			done := min(n-1, 4) * 50
			return fmt.Sprintf("graphmem_embeddings_total{kind=\"raw\"} %d\ngraphmem_embedding_seconds_total %g\ngraphmem_embedding_backlog %d\ngraphmem_embedding_lag_seconds %d\n",
				1000+done, float64(done)/100, 200-done, (200-done)/50)
		})
		w := watchEmbedding(ctx, c, time.Hour)
		w.gap, w.poll = 30*time.Millisecond, 10*time.Millisecond
		jobsDone := time.Now()
		st := w.finish(ctx, jobsDone, 5*time.Second)
		if !st.Available || !st.Drained || st.Texts == nil || *st.Texts != 200 || st.ByKind["raw"] != 200 {
			t.Fatalf("%+v", st)
		}
		if *st.MaxBacklog != 200 || *st.MaxLagSeconds != 4 {
			t.Errorf("max backlog %v lag %v, want the first scrape's 200 and 4", *st.MaxBacklog, *st.MaxLagSeconds)
		}
		if st.TextsPerEmbedderSec == nil || *st.TextsPerEmbedderSec != 100 {
			t.Errorf("texts per embedder second %v", st.TextsPerEmbedderSec)
		}
		if st.TextsPerSec == nil || *st.TextsPerSec <= 0 || st.TailSeconds == nil {
			t.Errorf("throughput %v tail %v", st.TextsPerSec, st.TailSeconds)
		}
	})
	t.Run("stale gauge", func(t *testing.T) {
		// The counter stops growing while the gauge still shows the old
		// backlog for a few scrapes (it is refreshed every 5 s), then 0.
		c := metricsServer(t, func(n int64) string {
			done, backlog := min(n-1, 2)*50, int64(100)
			if n > 5 {
				backlog = 0
			}
			return fmt.Sprintf("graphmem_embeddings_total{kind=\"raw\"} %d\ngraphmem_embedding_backlog %d\n", done, backlog)
		})
		w := watchEmbedding(ctx, c, time.Hour)
		w.gap, w.poll = 30*time.Millisecond, 10*time.Millisecond
		st := w.finish(ctx, time.Now(), 5*time.Second)
		if !st.Drained || *st.Texts != 100 {
			t.Errorf("%+v", st)
		}
	})
}

func TestEmbedCell(t *testing.T) {
	if embedCell(nil) != na || embedCell(&embedStats{Available: true}) != na {
		t.Error("no figures: n/a")
	}
	e := &embedStats{Available: true, Texts: ptr(3000), TextsPerSec: ptr(250.5), TextsPerEmbedderSec: ptr(410),
		MaxBacklog: ptr(1200), MaxLagSeconds: ptr(4.5), TailSeconds: ptr(2)}
	if got := embedCell(e); got != "3000 · 250.5 (410.0) · 1200.0 · 4.500 · 2.000 · **not drained**" {
		t.Errorf("%q", got)
	}
	e.Drained = true
	if got := embedCell(e); strings.Contains(got, "not drained") {
		t.Errorf("%q", got)
	}
}
