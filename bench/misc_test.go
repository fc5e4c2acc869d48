package main

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/bench/dataset"
)

func TestParseProcStatus(t *testing.T) {
	m := parseProcStatus(7, "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n")
	if m != (procMem{PID: 7, PeakRSSMB: 200, RSSMB: 100}) {
		t.Errorf("%+v", m)
	}
}

func TestParseStatCPU(t *testing.T) {
	v, ok := parseStatCPU("42 (java (x) y) S 1 42 42 0 -1 4194560 100 0 0 0 250 130 0 0 20 0 50 0 100")
	if !ok || v != 3.8 {
		t.Errorf("%v %v", v, ok)
	}
	if _, ok := parseStatCPU("garbage"); ok {
		t.Error("want failure")
	}
}

func TestIsCompilerThread(t *testing.T) {
	for stat, want := range map[string]bool{
		"12159 (C1 CompilerThre) S 1 12145 12145 0 -1 1077936192 0 0 0 0 12 3 0 0":   true,
		"12160 (C2 CompilerThre) S 1 12145 12145 0 -1 1077936192 0 0 0 0 900 40 0 0": true,
		"12170 (neo4j.BoltWorke) S 1 12145 12145 0 -1 1077936192 0 0 0 0 900 40 0 0": false,
		"12171 (GC Thread#0) S 1 12145 12145 0 -1 1077936192 0 0 0 0 50 1 0 0":       false,
		"garbage": false,
	} {
		if got := isCompilerThread(stat); got != want {
			t.Errorf("%q: %v, want %v", stat, got, want)
		}
	}
}

func TestCPUPairShowsJIT(t *testing.T) {
	if got := cpuPair(map[string]float64{"graphmem": 1.5, "neo4j": 9, "neo4j_jit": 4.25}); got != "1.50 / 9.00 (JIT 4.25)" {
		t.Errorf("got %q", got)
	}
	if got := cpuPair(map[string]float64{"graphmem": 1.5, "neo4j": 9}); got != "1.50 / 9.00" {
		t.Errorf("got %q", got)
	}
}

func TestSynthDeterministic(t *testing.T) {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	a := newSynth(3).session("e", 10, 20, start)
	b := newSynth(3).session("e", 10, 20, start)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different events")
	}
	if a[0].ID != "e10" || a[0].Role != "user" || a[1].Role != "assistant" || a[19].OccurredAt != "2024-01-01T00:00:29Z" {
		t.Errorf("%+v / %+v", a[0], a[19])
	}
	for _, e := range a {
		if strings.ContainsAny(e.Content, "{}") || e.Content == "" {
			t.Errorf("unfilled template: %q", e.Content)
		}
	}
	if q := newSynth(1).query(); strings.ContainsAny(q, "{}") {
		t.Errorf("query %q", q)
	}
}

func TestInterleave(t *testing.T) {
	a := &conversation{UserID: "a", QA: []question{{Text: "a1"}, {Text: "a2"}, {Text: "a3"}}}
	b := &conversation{UserID: "b", QA: []question{{Text: "b1"}}}
	var got []string
	for _, q := range interleave([]*conversation{a, b}) {
		got = append(got, q.Text)
	}
	if !reflect.DeepEqual(got, []string{"a1", "b1", "a2", "a3"}) {
		t.Errorf("%v", got)
	}
}

// The report must render whatever subset of phases ran.
func TestMarkdownPartial(t *testing.T) {
	r := &results{Meta: meta{CPUs: 2}, Servers: []serverInfo{{Name: "on", SearchProbe: "HTTP 404"}, {Name: "off", SearchAvailable: true}},
		Runs: map[string]*serverRun{"on": {}}}
	r.Targets = targets(r)
	md := markdown(r)
	if !strings.Contains(md, "| target | on | off |") || !strings.Contains(md, "| LoCoMo recall_all@10, categories 1-4 | n/a | n/a |") ||
		!strings.Contains(md, "/v1/search was not available (HTTP 404)") || strings.Contains(md, "## LoCoMo") {
		t.Errorf("%s", md)
	}
}

// TestHalfRecall: the per-half LoCoMo rows count categories 1-4 of the
// conversations in that half only (multi-hop alone when asked), and say
// n/a for a half with no question.
func TestHalfRecall(t *testing.T) {
	yes, no := true, false
	var dev, held string
	for _, id := range []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47"} {
		switch dataset.Half(id) {
		case dataset.Dev:
			dev = id
		default:
			held = id
		}
	}
	if dev == "" || held == "" {
		t.Fatal("no conversation id of each half among the candidates")
	}
	pqs := []perQuestion{
		{UserID: dev, Category: 1, GraphmemAll10: &yes, BM25All10: false},
		{UserID: dev, Category: 2, GraphmemAll10: &no, BM25All10: true},
		{UserID: dev, Category: 5, GraphmemAll10: &yes, BM25All10: true}, // adversarial: not counted
		{UserID: held, Category: 4, GraphmemAll10: &no, BM25All10: false},
	}
	for _, c := range []struct {
		half         string
		mh, graphmem bool
		want         string
	}{
		{dataset.Dev, false, true, "0.500 (n = 2)"},
		{dataset.Dev, true, true, "1.000 (n = 1)"},
		{dataset.Dev, false, false, "0.500 (n = 2)"},
		{dataset.HeldOut, false, true, "0.000 (n = 1)"},
		{dataset.HeldOut, true, true, na},
	} {
		if got := halfRecall(pqs, c.half, c.mh, c.graphmem); got != c.want {
			t.Errorf("halfRecall(%s, multi-hop %v, graphmem %v) = %q, want %q", c.half, c.mh, c.graphmem, got, c.want)
		}
	}
}

func TestQueryCacheShare(t *testing.T) {
	by := parsePromText("# TYPE graphmem_query_embedding_cache_total counter\n"+
		"graphmem_query_embedding_cache_total{result=\"hit\"} 30\n"+
		"graphmem_query_embedding_cache_total{result=\"miss\"} 90\n").byLabel(metricQueryCache, "result")
	after := cacheCounts{by["hit"], by["miss"]}
	if got := after.shareSince(cacheCounts{10, 70}); got != 0.5 {
		t.Errorf("share %v, want 0.5 (20 hits of 40)", got)
	}
	if got := after.shareSince(after); got != 0 {
		t.Errorf("share over no searches %v, want 0", got)
	}
}
