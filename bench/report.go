package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// target is one target of the issues with each server's figure and the
// baseline figure of the same run.
type target struct {
	Name     string        `json:"name"`
	Goal     string        `json:"goal"`
	Issue    string        `json:"issue,omitempty"`
	Values   []targetValue `json:"values"`
	Baseline *float64      `json:"baseline,omitempty"`
	BaseName string        `json:"baseline_name,omitempty"`
}

type targetValue struct {
	Server string   `json:"server"`
	Value  *float64 `json:"value"`
	Limit  float64  `json:"limit"`
	Met    *bool    `json:"met"`
}

func ptr(v float64) *float64 { return &v }

// targets evaluates the issues' targets on what was measured, per server.
func targets(r *results) []target {
	var out []target
	type getter func(name string, run *serverRun, info serverInfo) (v *float64, limit float64)
	add := func(name, goal, issue string, atLeast bool, limit float64, get getter, base *float64, baseName string) {
		t := target{Name: name, Goal: goal, Issue: issue, Baseline: base, BaseName: baseName}
		for _, info := range r.Servers {
			v, lim := get(info.Name, r.Runs[info.Name], info)
			if lim == 0 {
				lim = limit
			}
			tv := targetValue{Server: info.Name, Value: v, Limit: lim}
			if v != nil {
				met := *v >= lim
				if !atLeast {
					met = *v <= lim
				}
				tv.Met = &met
			}
			t.Values = append(t.Values, tv)
		}
		out = append(out, t)
	}
	locomo := func(group string, get func(metricSet) float64) getter {
		return func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
			if run == nil || run.Retrieval == nil {
				return nil, 0
			}
			m, ok := run.Retrieval.Systems[sysGraphmem][group]
			if !ok || m.N == 0 {
				return nil, 0
			}
			return ptr(get(m)), 0
		}
	}
	bm25 := func(group string, get func(metricSet) float64) *float64 {
		for _, info := range r.Servers {
			if run := r.Runs[info.Name]; run != nil && run.Retrieval != nil {
				if m, ok := run.Retrieval.Systems[sysBM25][group]; ok && m.N > 0 {
					return ptr(get(m))
				}
			}
		}
		return nil
	}
	all10 := func(m metricSet) float64 { return m.AllAt10 }
	mrr := func(m metricSet) float64 { return m.MRR }
	add("LoCoMo recall_all@10, categories 1-4", "≥ 0.72", "#18 (#17: on ≥ off, aim ≥ 0.68)", true, 0.72,
		locomo(groupHeadline, all10), bm25(groupHeadline, all10), "BM25 raw turns")
	add("LoCoMo multi-hop recall_all@10", "≥ 0.30", "#18", true, 0.30, locomo("1", all10), bm25("1", all10), "BM25 raw turns")
	add("LoCoMo MRR@10, categories 1-4", "≥ 0.60", "#18", true, 0.60, locomo(groupHeadline, mrr), bm25(groupHeadline, mrr), "BM25 raw turns")
	add("LoCoMo ingested, condensed, extracted (s)", "≤ 12", "#18", false, 12, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil || run.LoCoMoIngest == nil || run.LoCoMoIngest.Seconds == 0 {
			return nil, 0
		}
		return ptr(run.LoCoMoIngest.Seconds), 0
	}, nil, "")
	ku := func(set string, get func(*kuReport) *float64) getter {
		return func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
			if run == nil || run.KU[set] == nil {
				return nil, 0
			}
			return get(run.KU[set]), 0
		}
	}
	passRate := func(k *kuReport) *float64 {
		if k.All.N == 0 {
			return nil
		}
		return ptr(k.All.Rate)
	}
	add("Knowledge update, visible: checks passed", "≥ 0.95", "#10", true, 0.95, ku(kuVisible, passRate), nil, "")
	add("Knowledge update, held-out half: checks passed", "≥ 0.90", "#10", true, 0.90, ku(kuHeldOut, passRate), nil, "")
	add("Knowledge update, visible: current fact ranks first", "≥ 0.98", "brief", true, 0.98, ku(kuVisible, func(k *kuReport) *float64 {
		if k.CurrentFirst.N == 0 {
			return nil
		}
		return ptr(k.CurrentFirst.Rate)
	}), nil, "")
	add("Knowledge update, visible: superseded fact unmarked in top 5", "≤ 0.02", "brief", false, 0.02, ku(kuVisible, func(k *kuReport) *float64 {
		if k.SupersededTop5.N == 0 {
			return nil
		}
		return ptr(k.SupersededTop5.Rate)
	}), nil, "")
	add("Empty result lists (knowledge-update and paraphrase questions)", "0", "#17", false, 0, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil || (len(run.KU) == 0 && run.Paraphrase == nil) {
			return nil, 0
		}
		n := 0
		for _, k := range run.KU {
			n += k.EmptyResults
		}
		if run.Paraphrase != nil {
			n += run.Paraphrase.EmptyResults
		}
		return ptr(float64(n)), 0
	}, nil, "")
	var paraBase *float64
	for _, info := range r.Servers {
		if run := r.Runs[info.Name]; run != nil && run.Paraphrase != nil && run.Paraphrase.BM25.N > 0 {
			paraBase = ptr(run.Paraphrase.BM25.At3)
			break
		}
	}
	add("Paraphrase: evidence in the top 3", "≥ 0.90", "#17", true, 0.90, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil || run.Paraphrase == nil || run.Paraphrase.Graphmem.N == 0 {
			return nil, 0
		}
		return ptr(run.Paraphrase.Graphmem.At3), 0
	}, paraBase, "BM25 raw turns")
	add("CPU ms per search, graphmem + Neo4j (8 clients)", "≤ 3.8, + ≤ 2 with vectors", "#18, #17", false, 3.8,
		func(_ string, run *serverRun, info serverInfo) (*float64, float64) {
			if run == nil || run.Latency == nil || run.Latency.Search.CPUms == nil {
				return nil, 0
			}
			limit := 3.8
			if info.VectorsSeen {
				limit = 5.8
			}
			return ptr(round4(run.Latency.Search.CPUms["graphmem"] + run.Latency.Search.CPUms["neo4j"])), limit
		}, nil, "")
	var floor *float64
	for _, info := range r.Servers {
		if run := r.Runs[info.Name]; run != nil && run.Latency != nil {
			floor = ptr(run.Latency.Health.P95)
			break
		}
	}
	add("Search p95 ms, 8 clients, LoCoMo in memory", "≤ 25", "#18", false, 25, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil || run.Latency == nil || run.Latency.Search.Requests == 0 {
			return nil, 0
		}
		return ptr(run.Latency.Search.P95), 0
	}, floor, "/healthz p95 (HTTP floor)")
	add("Search p95 ms, 1 client", "≤ 6", "#18", false, 6, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil || run.Latency == nil || run.Latency.Single == nil || run.Latency.Single.Requests == 0 {
			return nil, 0
		}
		return ptr(run.Latency.Single.P95), 0
	}, nil, "")
	add("Embedding lane texts/s (raw backlog of the ingest phase; else LoCoMo)", "≥ 250", "#17", true, 250, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil {
			return nil, 0
		}
		for _, e := range []*embedStats{run.IngestEmbedding, run.LoCoMoEmbedding} {
			if e != nil && e.TextsPerSec != nil {
				return e.TextsPerSec, 0
			}
		}
		return nil, 0
	}, nil, "")
	add("Ingest events/s, 500 per request, 2 clients", "≥ 2000", "brief", true, 2000, func(_ string, run *serverRun, _ serverInfo) (*float64, float64) {
		if run == nil || run.Ingest == nil || run.Ingest.Batched.Events == 0 {
			return nil, 0
		}
		return ptr(run.Ingest.Batched.EventsPerSec), 0
	}, nil, "")
	// Vectors on must never lose to vectors off: the first server's figure
	// minus the second's, shown in the first server's column.
	if len(r.Servers) >= 2 {
		a, b := r.Servers[0].Name, r.Servers[1].Name
		diff := func(get func(*serverRun) *float64) getter {
			return func(name string, _ *serverRun, _ serverInfo) (*float64, float64) {
				if name != a {
					return nil, 0
				}
				va, vb := get(r.Runs[a]), get(r.Runs[b])
				if va == nil || vb == nil {
					return nil, 0
				}
				return ptr(round4(*va - *vb)), 0
			}
		}
		add(fmt.Sprintf("LoCoMo recall_all@10 (1-4): %s minus %s", a, b), "≥ 0", "#17", true, 0, diff(func(run *serverRun) *float64 {
			v, _ := locomo(groupHeadline, all10)("", run, serverInfo{})
			return v
		}), nil, "")
		add(fmt.Sprintf("Paraphrase evidence@10: %s minus %s", a, b), "≥ 0", "#17", true, 0, diff(func(run *serverRun) *float64 {
			if run == nil || run.Paraphrase == nil || run.Paraphrase.Graphmem.N == 0 {
				return nil
			}
			return ptr(run.Paraphrase.Graphmem.At10)
		}), nil, "")
	}
	if r.Scale != nil && len(r.Servers) > 0 {
		first := r.Servers[0].Name
		var sp *float64
		if r.Scale.SearchSynthetic.Requests > 0 {
			sp = ptr(r.Scale.SearchSynthetic.P95)
		}
		only := func(v *float64) getter {
			return func(name string, _ *serverRun, _ serverInfo) (*float64, float64) {
				if name != first {
					return nil, 0
				}
				return v, 0
			}
		}
		add(fmt.Sprintf("Search p95 ms at %d raw events (target at 1M), %d clients", r.Scale.Ingest.Events, r.Scale.SearchSynthetic.Clients),
			"≤ 60", "brief", false, 60, only(sp), ptr(r.Scale.Health.P95), "/healthz p95 (HTTP floor)")
		add(fmt.Sprintf("Ingest events/s, %d per request, scale run", r.Scale.Config.SessionSize), "≥ 2000", "brief", true, 2000,
			only(ptr(r.Scale.Ingest.EventsPerSec)), nil, "")
	}
	return out
}

func writeResults(dir string, r *results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(raw, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(markdown(r)), 0o644)
}

func countUsers(rr *retrievalReport) int {
	seen := map[string]bool{}
	for _, q := range rr.PerQuestion {
		seen[q.UserID] = true
	}
	return len(seen)
}

func kinds(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func total5xx(m map[string]endpointStats) int {
	n := 0
	for _, s := range m {
		n += s.Status5xx
	}
	return n
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// cpuPair prints graphmem / Neo4j CPU milliseconds, and the part of
// Neo4j's that its JIT compilers spent when it was measured.
func cpuPair(m map[string]float64) string {
	if m == nil {
		return "—"
	}
	if jit, ok := m["neo4j"+jitSuffix]; ok {
		return fmt.Sprintf("%.2f / %.2f (JIT %.2f)", m["graphmem"], m["neo4j"], jit)
	}
	return fmt.Sprintf("%.2f / %.2f", m["graphmem"], m["neo4j"])
}
