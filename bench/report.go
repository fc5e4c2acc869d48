package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// target is one performance target of the brief with this run's figure
// and the baseline figure of the same run.
type target struct {
	Name     string   `json:"name"`
	Goal     string   `json:"goal"`
	Value    *float64 `json:"value"`
	Baseline *float64 `json:"baseline,omitempty"`
	BaseName string   `json:"baseline_name,omitempty"`
	Met      *bool    `json:"met"`
}

func ptr(v float64) *float64 { return &v }

// targets evaluates the brief's performance targets on what was measured.
func targets(r *results) []target {
	var out []target
	add := func(name, goal string, atLeast bool, limit float64, v, base *float64, baseName string) {
		t := target{Name: name, Goal: goal, Value: v, Baseline: base, BaseName: baseName}
		if v != nil {
			met := *v >= limit
			if !atLeast {
				met = *v <= limit
			}
			t.Met = &met
		}
		out = append(out, t)
	}
	metric := func(sys, group string, get func(metricSet) float64) *float64 {
		if r.Retrieval == nil {
			return nil
		}
		m, ok := r.Retrieval.Systems[sys][group]
		if !ok || m.N == 0 {
			return nil
		}
		return ptr(get(m))
	}
	all10 := func(m metricSet) float64 { return m.AllAt10 }
	mrr := func(m metricSet) float64 { return m.MRR }
	add("LoCoMo recall_all@10, categories 1-4", "≥ 0.65", true, 0.65,
		metric(sysGraphmem, groupHeadline, all10), metric(sysBM25, groupHeadline, all10), "BM25 raw turns")
	add("LoCoMo multi-hop recall_all@10", "≥ 0.30", true, 0.30,
		metric(sysGraphmem, "1", all10), metric(sysBM25, "1", all10), "BM25 raw turns")
	add("LoCoMo MRR@10, categories 1-4", "≥ 0.55", true, 0.55,
		metric(sysGraphmem, groupHeadline, mrr), metric(sysBM25, groupHeadline, mrr), "BM25 raw turns")
	var ingest *float64
	if r.LoCoMoIngest != nil && r.LoCoMoIngest.Seconds > 0 {
		ingest = ptr(r.LoCoMoIngest.Seconds)
	}
	add("LoCoMo ingested, condensed, extracted (s)", "< 60", false, 60, ingest, nil, "")
	var cur, stale, curB *float64
	if r.KU != nil && r.KU.CurrentFirst.N > 0 {
		cur, stale = ptr(r.KU.CurrentFirst.Rate), ptr(r.KU.SupersededTop5.Rate)
		curB = ptr(r.KU.Baseline.CurrentFirst.Rate)
	}
	add("Knowledge update: current fact ranks first", "≥ 0.98", true, 0.98, cur, curB, "BM25 raw events")
	add("Knowledge update: superseded fact unmarked in top 5", "≤ 0.02", false, 0.02, stale, nil, "")
	var p95, floor *float64
	if r.Latency != nil {
		if r.Latency.Search.Requests > 0 {
			p95 = ptr(r.Latency.Search.P95)
		}
		floor = ptr(r.Latency.Health.P95)
	}
	add("Search p95 ms, 8 clients, LoCoMo in memory", "≤ 25", false, 25, p95, floor, "/healthz p95 (HTTP floor)")
	var batched *float64
	if r.Ingest != nil && r.Ingest.Batched.Events > 0 {
		batched = ptr(r.Ingest.Batched.EventsPerSec)
	}
	name := "Ingest events/s, batched"
	if r.Ingest != nil {
		name = fmt.Sprintf("Ingest events/s, %d per request, %d clients", r.Ingest.Batched.BatchSize, r.Ingest.Batched.Clients)
	}
	add(name, "≥ 2000", true, 2000, batched, nil, "")
	if r.Scale != nil {
		var sp *float64
		if r.Scale.SearchSynthetic.Requests > 0 {
			sp = ptr(r.Scale.SearchSynthetic.P95)
		}
		add(fmt.Sprintf("Search p95 ms at %d raw events (target at 1M), %d clients", r.Scale.Ingest.Events, r.Scale.SearchSynthetic.Clients),
			"≤ 60", false, 60, sp, ptr(r.Scale.Health.P95), "/healthz p95 (HTTP floor)")
		add(fmt.Sprintf("Ingest events/s, %d per request, scale run", r.Scale.Config.SessionSize), "≥ 2000", true, 2000, ptr(r.Scale.Ingest.EventsPerSec), nil, "")
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

func f3(v *float64) string {
	if v == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *v)
}

// num prints rates with 3 decimals and larger figures (ms, s, events/s)
// with one.
func num(v *float64) string {
	if v == nil {
		return "—"
	}
	if *v >= 10 || *v <= -10 {
		return fmt.Sprintf("%.1f", *v)
	}
	return fmt.Sprintf("%.3f", *v)
}

func check(t target) string {
	switch {
	case t.Met == nil:
		return "not measured"
	case *t.Met:
		return "met"
	}
	return "**missed**"
}

// markdown renders the short report: every graphmem figure beside the
// baseline of the same run.
func markdown(r *results) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	commit := r.Meta.Commit
	if commit == "" {
		commit = r.Meta.GraphmemVersion
	}
	w("# graphmem benchmark")
	w("")
	w("%s · graphmem %s · %d CPUs · offline engine · harness %.0fs · load average %s at start, %s at end",
		r.Meta.Started, commit, r.Meta.CPUs, r.Meta.Seconds, r.Meta.LoadAvgStart, r.Meta.LoadAvgEnd)
	if !r.Meta.SearchAvailable {
		w("")
		w("> /v1/search was not available (%s): graphmem retrieval figures are missing; baselines only.", r.Meta.SearchProbe)
	}
	w("")
	w("## Targets")
	w("")
	w("| target | goal | graphmem | baseline (same run) | |")
	w("|---|---|---|---|---|")
	for _, t := range r.Targets {
		base := "—"
		if t.Baseline != nil {
			base = num(t.Baseline) + " (" + t.BaseName + ")"
		}
		w("| %s | %s | %s | %s | %s |", t.Name, t.Goal, num(t.Value), base, check(t))
	}

	if rr := r.Retrieval; rr != nil {
		w("")
		skipped := 0
		var reasons []string
		for reason, byCat := range rr.Skipped {
			n := 0
			for _, v := range byCat {
				n += v
			}
			skipped += n
			reasons = append(reasons, fmt.Sprintf("%d %s", n, reason))
		}
		sort.Strings(reasons)
		w("## LoCoMo evidence recall (%d conversations, %d questions, %d scored, %d skipped: %s)",
			countUsers(rr), rr.Questions, rr.Evaluated, skipped, strings.Join(reasons, ", "))
		w("")
		w("Categories 1-4 (n = %d). @k counts the first k turn ids after expanding results into their source events.", rr.Systems[sysBM25][groupHeadline].N)
		w("")
		w("| metric | graphmem | BM25 | recency | oracle |")
		w("|---|---|---|---|---|")
		row := func(name string, group string, get func(metricSet) *float64) {
			cells := []string{name}
			for _, sys := range []string{sysGraphmem, sysBM25, sysRecency, sysOracle} {
				m, ok := rr.Systems[sys][group]
				if !ok {
					cells = append(cells, "—")
					continue
				}
				cells = append(cells, f3(get(m)))
			}
			w("| %s |", strings.Join(cells, " | "))
		}
		val := func(get func(metricSet) float64) func(metricSet) *float64 {
			return func(m metricSet) *float64 { return ptr(get(m)) }
		}
		row("recall_all@10", groupHeadline, val(func(m metricSet) float64 { return m.AllAt10 }))
		row("recall_all@5", groupHeadline, val(func(m metricSet) float64 { return m.AllAt5 }))
		row("recall_any@10", groupHeadline, val(func(m metricSet) float64 { return m.AnyAt10 }))
		row("frac_recall@10", groupHeadline, val(func(m metricSet) float64 { return m.FracAt10 }))
		row("MRR@10", groupHeadline, val(func(m metricSet) float64 { return m.MRR }))
		row("NDCG@10", groupHeadline, val(func(m metricSet) float64 { return m.NDCG10 }))
		row("session recall_all@5", groupHeadline, val(func(m metricSet) float64 { return m.SessAllAt5 }))
		row("recall_all, 1k-token budget", groupHeadline, val(func(m metricSet) float64 { return m.AllBudget1k }))
		row("recall_all, 2k-token budget", groupHeadline, val(func(m metricSet) float64 { return m.AllBudget2k }))
		row("all sources of top-10 results", groupHeadline, val(func(m metricSet) float64 { return m.AllTop10Results }))
		row("tokens of top-10 texts (mean)", groupHeadline, func(m metricSet) *float64 { return ptr(m.TopTokens) })
		row("temporal: absolute date in top-10 text", "2", func(m metricSet) *float64 { return m.DateHit })
		if s, ok := rr.BM25Sessions[groupHeadline]; ok {
			w("")
			w("BM25 over whole sessions: session recall_all@5 %.3f, @10 %.3f.", s.SessAllAt5, s.SessAllAt10)
		}
		if d, ok := rr.Systems[sysBM25]["2"]; ok {
			w("Temporal date check: %d category-2 answers are one absolute date.", d.DateN)
		}
		w("")
		w("| category | n | graphmem all@10 | BM25 all@10 | graphmem MRR | BM25 MRR |")
		w("|---|---|---|---|---|---|")
		for _, cat := range []string{"1", "2", "3", "4", "5"} {
			bm, ok := rr.Systems[sysBM25][cat]
			if !ok {
				continue
			}
			gAll, gMRR := "—", "—"
			if g, ok := rr.Systems[sysGraphmem][cat]; ok {
				gAll, gMRR = f3(ptr(g.AllAt10)), f3(ptr(g.MRR))
			}
			w("| %s %s | %d | %s | %.3f | %s | %.3f |", cat, categoryNames[atoi(cat)], bm.N, gAll, bm.AllAt10, gMRR, bm.MRR)
		}
		if t := rr.Paired; t != nil {
			w("")
			pv := fmt.Sprintf("= %.4f", t.P)
			if t.P < 0.0001 {
				pv = "< 0.0001"
			}
			w("Paired per question (all@10, cats 1-4): graphmem better on %d, BM25 better on %d, tied %d; sign test p %s.",
				t.Wins, t.Losses, t.Ties, pv)
		}
		if s := rr.Search; s != nil {
			w("Search returned %d results in the top 10s (%s); %d without source ids; source ids per result %.1f (max %d); %d of %d source ids are not turns of the user; %d errors; server took_ms p95 %.1f.",
				s.Results, kinds(s.ByKind), sum(s.NoSourceByKind), float64(s.SourceIDs)/float64(max(1, s.Results)), s.MaxSourceIDs,
				s.UnresolvedSourceIDs, s.SourceIDs, s.Errors, s.TookMSp95)
		}
	}

	if k := r.KU; k != nil {
		w("")
		w("## Knowledge updates (%d scenarios, %d checks)", k.Scenarios, k.Checks)
		w("")
		w("| check | graphmem pass | BM25 raw events |")
		w("|---|---|---|")
		types := make([]string, 0, len(k.ByType))
		for t := range k.ByType {
			types = append(types, t)
		}
		sort.Strings(types)
		for _, t := range types {
			pc := k.ByType[t]
			base := "—"
			if bp := k.Baseline.ByType[t]; bp != nil {
				base = fmt.Sprintf("%d/%d", bp.Passed, bp.N)
			}
			w("| %s | %d/%d | %s |", t, pc.Passed, pc.N, base)
		}
		w("| current ranks first (%d search_top checks with a rejected value) | %.3f | %.3f |", k.CurrentFirst.N, k.CurrentFirst.Rate, k.Baseline.CurrentFirst.Rate)
		w("| superseded fact unmarked in top 5 (%d search_top checks) | %.3f | — |", k.SupersededTop5.N, k.SupersededTop5.Rate)
		w("| rejected text unmarked in top 5 (any result kind; stricter) | %.3f | %.3f |", k.RejectedTop5.Rate, k.Baseline.RejectedTop5.Rate)
		for _, list := range []struct {
			name string
			fs   []kuFailure
		}{{"Failures", k.Failures}, {"Passing checks with rejected text unmarked in the top 5", k.Leaks}} {
			if len(list.fs) == 0 {
				continue
			}
			var ids []string
			for _, f := range list.fs {
				ids = append(ids, f.Scenario+" "+f.Check.Type)
			}
			w("")
			w("%s (details in results.json): %s.", list.name, strings.Join(ids, "; "))
		}
	}

	if l := r.Latency; l != nil || r.Ingest != nil || r.LoCoMoIngest != nil {
		w("")
		w("## Latency, throughput, memory")
		w("")
		w("| measure | graphmem | baseline (same run) |")
		w("|---|---|---|")
		if l != nil {
			if l.Search.Requests > 0 {
				w("| search p50 / p95 / p99 ms (%d clients, %.0fs) | %.1f / %.1f / %.1f | /healthz %.1f / %.1f / %.1f; BM25 in-process p95 %.2f |",
					l.Search.Clients, l.Search.Seconds, l.Search.P50, l.Search.P95, l.Search.P99,
					l.Health.P50, l.Health.P95, l.Health.P99, l.BM25InProcess.P95)
				w("| search throughput (req/s) | %.0f (%d errors) | /healthz %.0f |", l.Search.QPS, l.Search.Errors, l.Health.QPS)
				w("| CPU ms per search: graphmem / Neo4j | %s | /healthz %s |", cpuPair(l.Search.CPUms), cpuPair(l.Health.CPUms))
			} else {
				w("| search latency | — | /healthz p95 %.1f ms |", l.Health.P95)
			}
		}
		if in := r.LoCoMoIngest; in != nil && in.Seconds > 0 {
			w("| LoCoMo %d turns ingested + condensed + extracted | %.1f s (%.0f turns/s) | — |", in.Events, in.Seconds, in.EventsPerSec)
		}
		if in := r.Ingest; in != nil {
			w("| ingest, %d per request, %d clients | %.0f events/s | — |", in.Batched.BatchSize, in.Batched.Clients, in.Batched.EventsPerSec)
			w("| ingest, 1 per request, %d clients | %.0f events/s (p95 %.1f ms) | — |", in.Single.Clients, in.Single.EventsPerSec, in.Single.RequestMS.P95)
			w("| CPU ms per 1,000 events batched: graphmem / Neo4j | %s | — |", cpuPair(in.Batched.CPUms))
		}
		for _, name := range []string{"graphmem", "neo4j"} {
			if m, ok := r.Resources[name]; ok {
				w("| peak RSS %s | %.0f MB | — |", name, m.PeakRSSMB)
			}
		}
	}

	if s := r.Scale; s != nil {
		w("")
		w("## Scale run (%d raw events, %d users)", s.Ingest.Events, s.Config.Users)
		w("")
		w("| measure | graphmem | baseline (same run) |")
		w("|---|---|---|")
		w("| ingest, %d per request, %d clients | %.0f events/s (%.0f s) | — |", s.Config.SessionSize, s.Config.Clients, s.Ingest.EventsPerSec, s.Ingest.Seconds)
		w("| search p50 / p95 / p99 ms, synthetic users | %.1f / %.1f / %.1f | /healthz p95 %.1f |", s.SearchSynthetic.P50, s.SearchSynthetic.P95, s.SearchSynthetic.P99, s.Health.P95)
		if l := s.SearchLoCoMo; l != nil {
			w("| search p50 / p95 / p99 ms, LoCoMo users | %.1f / %.1f / %.1f | |", l.P50, l.P95, l.P99)
		}
		w("| CPU ms per search (synthetic users): graphmem / Neo4j | %s | |", cpuPair(s.SearchSynthetic.CPUms))
		for _, name := range []string{"graphmem_after_scale", "neo4j_after_scale"} {
			if m, ok := r.Resources[name]; ok {
				w("| peak RSS %s | %.0f MB | — |", strings.TrimSuffix(name, "_after_scale"), m.PeakRSSMB)
			}
		}
	}
	if n5xx := total5xx(r.HTTP); n5xx > 0 || len(r.Errors) > 0 {
		w("")
		w("## Problems")
		w("")
		if n5xx > 0 {
			w("- %d HTTP 5xx answers (examples in results.json)", n5xx)
		}
		for _, e := range r.Errors {
			w("- %s", e)
		}
	}
	return b.String()
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

// cpuPair prints graphmem / Neo4j CPU milliseconds.
func cpuPair(m map[string]float64) string {
	if m == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f / %.2f", m["graphmem"], m["neo4j"])
}
