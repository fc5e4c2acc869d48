package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/graphmem/graphmem/bench/dataset"
)

// The short report: one compact table per phase, a column per server
// (vectors on and off in make bench) and the same-run baselines beside
// them. results.json holds everything the tables summarize.

// mdWriter accumulates the report.
type mdWriter struct {
	b     strings.Builder
	names []string // server columns
}

func (m *mdWriter) w(format string, args ...any) { fmt.Fprintf(&m.b, format+"\n", args...) }

// table starts a table: first the label column, then one per server, then
// the extra columns.
func (m *mdWriter) table(label string, extra ...string) {
	cols := append(append([]string{label}, m.names...), extra...)
	m.w("")
	m.w("| %s |", strings.Join(cols, " | "))
	m.w("|%s", strings.Repeat("---|", len(cols)))
}

// row writes a label, one cell per server (cell(name)) and the extras.
func (m *mdWriter) row(label string, cell func(name string) string, extra ...string) {
	cells := []string{label}
	for _, n := range m.names {
		cells = append(cells, cell(n))
	}
	m.w("| %s |", strings.Join(append(cells, extra...), " | "))
}

// na is what a figure the run could not measure reads as.
const na = "n/a"

func f3(v *float64) string {
	if v == nil {
		return na
	}
	return fmt.Sprintf("%.3f", *v)
}

// num prints rates with 3 decimals and larger figures (ms, s, events/s)
// with one.
func num(v *float64) string {
	if v == nil {
		return na
	}
	if *v >= 10 || *v <= -10 {
		return fmt.Sprintf("%.1f", *v)
	}
	return fmt.Sprintf("%.3f", *v)
}

func frac(passed, n int) string {
	if n == 0 {
		return na
	}
	return fmt.Sprintf("%d/%d (%.2f)", passed, n, float64(passed)/float64(n))
}

func targetCell(tv targetValue) string {
	switch {
	case tv.Value == nil:
		return na
	case *tv.Met:
		return num(tv.Value) + " ✓"
	}
	return "**" + num(tv.Value) + " ✗**"
}

func markdown(r *results) string {
	m := &mdWriter{}
	for _, s := range r.Servers {
		m.names = append(m.names, s.Name)
	}
	runOf := func(name string) *serverRun {
		if run := r.Runs[name]; run != nil {
			return run
		}
		return &serverRun{}
	}
	m.w("# graphmem benchmark")
	m.w("")
	m.w("%s · commit %s · %d CPUs · offline engine · harness %.0fs · load average %s at start, %s at end",
		r.Meta.Started, r.Meta.Commit, r.Meta.CPUs, r.Meta.Seconds, r.Meta.LoadAvgStart, r.Meta.LoadAvgEnd)
	m.w("")
	var phases []string
	for _, ph := range allPhases {
		if s, ok := r.Meta.PhaseSeconds[ph]; ok {
			phases = append(phases, fmt.Sprintf("%s %.0fs", ph, s))
		}
	}
	m.w("Phases: %s.", strings.Join(phases, ", "))
	for _, s := range r.Servers {
		vec := "no vector signal seen in any search"
		if s.VectorsSeen {
			vec = "vector signals seen in search results"
		}
		emb := "no embedding metrics"
		if s.EmbeddingMetrics {
			emb = "embedding metrics exposed"
		}
		m.w("- **%s**: %s, graphmem %s; %s; %s.", s.Name, s.Addr, s.Version, vec, emb)
		if !s.SearchAvailable {
			m.w("  /v1/search was not available (%s): its retrieval figures are missing.", s.SearchProbe)
		}
	}

	m.w("")
	m.w("## Targets")
	m.table("target", "goal", "baseline (same run)")
	for _, t := range r.Targets {
		base := "—"
		if t.Baseline != nil {
			base = num(t.Baseline) + " (" + t.BaseName + ")"
		}
		byName := map[string]targetValue{}
		for _, v := range t.Values {
			byName[v.Server] = v
		}
		m.row(t.Name, func(n string) string {
			if v, ok := byName[n]; ok {
				return targetCell(v)
			}
			return na
		}, t.Goal+" ("+t.Issue+")", base)
	}
	locomoMD(m, r, runOf)
	kuMD(m, r, runOf)
	paraMD(m, r, runOf)
	costMD(m, r, runOf)
	embedMD(m, runOf)
	scaleMD(m, r)
	problemsMD(m, r)
	return m.b.String()
}

func locomoMD(m *mdWriter, r *results, runOf func(string) *serverRun) {
	var rr *retrievalReport
	for _, n := range m.names {
		if rr = runOf(n).Retrieval; rr != nil {
			break
		}
	}
	if rr == nil {
		return
	}
	skipped := 0
	var reasons []string
	for reason, byCat := range rr.Skipped {
		k := 0
		for _, v := range byCat {
			k += v
		}
		skipped += k
		reasons = append(reasons, fmt.Sprintf("%d %s", k, reason))
	}
	sort.Strings(reasons)
	m.w("")
	m.w("## LoCoMo evidence recall (%d conversations, %d questions, %d scored, %d skipped: %s)",
		countUsers(rr), rr.Questions, rr.Evaluated, skipped, strings.Join(reasons, ", "))
	m.w("")
	m.w("Categories 1-4 (n = %d) unless named. @k counts the first k turn ids after expanding results into their source events.",
		rr.Systems[sysBM25][groupHeadline].N)
	m.table("metric", "BM25", "recency", "oracle")
	metric := func(run *retrievalReport, sys, group string, get func(metricSet) *float64) string {
		if run == nil {
			return na
		}
		mm, ok := run.Systems[sys][group]
		if !ok || mm.N == 0 {
			return na
		}
		return f3(get(mm))
	}
	row := func(label, group string, get func(metricSet) *float64) {
		m.row(label, func(n string) string { return metric(runOf(n).Retrieval, sysGraphmem, group, get) },
			metric(rr, sysBM25, group, get), metric(rr, sysRecency, group, get), metric(rr, sysOracle, group, get))
	}
	val := func(get func(metricSet) float64) func(metricSet) *float64 {
		return func(mm metricSet) *float64 { return ptr(get(mm)) }
	}
	row("recall_all@10", groupHeadline, val(func(mm metricSet) float64 { return mm.AllAt10 }))
	row("recall_all@5", groupHeadline, val(func(mm metricSet) float64 { return mm.AllAt5 }))
	row("recall_any@10", groupHeadline, val(func(mm metricSet) float64 { return mm.AnyAt10 }))
	row("MRR@10", groupHeadline, val(func(mm metricSet) float64 { return mm.MRR }))
	row("NDCG@10", groupHeadline, val(func(mm metricSet) float64 { return mm.NDCG10 }))
	for _, cat := range []string{"1", "2", "3", "4", "5"} {
		if _, ok := rr.Systems[sysBM25][cat]; !ok {
			continue
		}
		row(fmt.Sprintf("cat %s %s (n = %d): recall_all@10", cat, categoryNames[atoi(cat)], rr.Systems[sysBM25][cat].N), cat,
			val(func(mm metricSet) float64 { return mm.AllAt10 }))
	}
	row("multi-hop MRR@10", "1", val(func(mm metricSet) float64 { return mm.MRR }))
	// Halves by conversation (dataset.Half of the sample id): the project's
	// reviewers check on conversations it never saw, so the held-out half is
	// whole conversations.
	for _, h := range []string{dataset.Dev, dataset.HeldOut} {
		for _, mh := range []bool{false, true} {
			label := fmt.Sprintf("recall_all@10, %s half of the conversations", h)
			if mh {
				label = fmt.Sprintf("multi-hop recall_all@10, %s half of the conversations", h)
			}
			m.row(label, func(n string) string {
				if s := runOf(n).Retrieval; s != nil {
					return halfRecall(s.PerQuestion, h, mh, true)
				}
				return na
			}, halfRecall(rr.PerQuestion, h, mh, false), "—", "—")
		}
	}
	row("recall_all, 1k-token budget", groupHeadline, val(func(mm metricSet) float64 { return mm.AllBudget1k }))
	row("recall_all, 2k-token budget", groupHeadline, val(func(mm metricSet) float64 { return mm.AllBudget2k }))
	row("tokens of top-10 texts (mean)", groupHeadline, func(mm metricSet) *float64 { return ptr(mm.TopTokens) })
	row("temporal: absolute date in top-10 text", "2", func(mm metricSet) *float64 { return mm.DateHit })
	m.row("searches with a vector signal", func(n string) string {
		if s := runOf(n).Retrieval; s != nil && s.Search != nil {
			return fmt.Sprintf("%d/%d", s.Search.VectorSeen, s.Search.Searches)
		}
		return na
	}, "—", "—", "—")
	m.row("empty result lists / errors", func(n string) string {
		if s := runOf(n).Retrieval; s != nil && s.Search != nil {
			return fmt.Sprintf("%d / %d", s.Search.EmptyResults, s.Search.Errors)
		}
		return na
	}, "—", "—", "—")
	m.row("ingested + condensed + extracted (s, turns/s)", func(n string) string {
		if in := runOf(n).LoCoMoIngest; in != nil && in.Seconds > 0 {
			return fmt.Sprintf("%.1f (%.0f)", in.Seconds, in.EventsPerSec)
		}
		return na
	}, "—", "—", "—")
	m.w("")
	for _, n := range m.names {
		if t := runOf(n).Retrieval; t != nil && t.Paired != nil {
			m.w("%s vs BM25, all@10 per question (1-4): %s.", n, signLine(*t.Paired))
		}
	}
	if r.Paired != nil && r.Paired.LoCoMoAll10 != nil {
		m.w("%s vs %s, all@10 per question (1-4): %s.", r.Paired.A, r.Paired.B, signLine(*r.Paired.LoCoMoAll10))
	}
}

func signLine(t signTest) string {
	pv := fmt.Sprintf("= %.4f", t.P)
	if t.P < 0.0001 {
		pv = "< 0.0001"
	}
	return fmt.Sprintf("better on %d, worse on %d, tied %d; sign test p %s", t.Wins, t.Losses, t.Ties, pv)
}

func kuMD(m *mdWriter, r *results, runOf func(string) *serverRun) {
	var sets []string
	var any *serverRun
	for _, set := range kuSetNames {
		for _, n := range m.names {
			if runOf(n).KU[set] != nil {
				sets = append(sets, set)
				any = runOf(n)
				break
			}
		}
	}
	if len(sets) == 0 {
		return
	}
	m.w("")
	var sizes []string
	for _, set := range sets {
		k := any.KU[set]
		sizes = append(sizes, fmt.Sprintf("%s %d scenarios, %d checks", set, k.Scenarios, k.Checks))
	}
	m.w("## Knowledge updates (%s)", strings.Join(sizes, "; "))
	m.w("")
	m.w("Pass rules of datasets/knowledge-update/README.md. dev and held-out are the halves of bench/data/ku-own.jsonl (bench/dataset.Half); chats-dev is bench/data/ku-chats-a, -c and -e.jsonl, chats-held-out ku-chats-b, -d and -f.jsonl (assistant chats written blind, split by file); blind-dev and blind-held-out are the halves (by dataset.Half) of ku-chats-g and -h.jsonl, written blind after the rules they test, and only the dev half's failures were read.")
	m.table("set · check", "BM25 raw events")
	for _, set := range sets {
		types := map[string]bool{}
		for _, n := range m.names {
			if k := runOf(n).KU[set]; k != nil {
				for t := range k.ByType {
					types[t] = true
				}
			}
		}
		var tl []string
		for t := range types {
			tl = append(tl, t)
		}
		sort.Strings(tl)
		for _, t := range tl {
			base := "—"
			if bp := any.KU[set].Baseline.ByType[t]; bp != nil {
				base = frac(bp.Passed, bp.N)
			}
			m.row(set+" · "+t, func(n string) string {
				if k := runOf(n).KU[set]; k != nil && k.ByType[t] != nil {
					return frac(k.ByType[t].Passed, k.ByType[t].N)
				}
				return na
			}, base)
		}
		m.row("**"+set+" · all**", func(n string) string {
			if k := runOf(n).KU[set]; k != nil {
				return "**" + frac(k.All.Passed, k.All.N) + "**"
			}
			return na
		}, "—")
		for _, kind := range []string{"updates", "controls"} {
			if any.KU[set].ByKind[kind] == nil {
				continue
			}
			m.row(set+" · "+kind, func(n string) string {
				if k := runOf(n).KU[set]; k != nil && k.ByKind[kind] != nil {
					return frac(k.ByKind[kind].Passed, k.ByKind[kind].N)
				}
				return na
			}, "—")
		}
		m.row(set+" · current ranks first", func(n string) string {
			if k := runOf(n).KU[set]; k != nil {
				return frac(k.CurrentFirst.Passed, k.CurrentFirst.N)
			}
			return na
		}, frac(any.KU[set].Baseline.CurrentFirst.Passed, any.KU[set].Baseline.CurrentFirst.N))
		m.row(set+" · superseded fact unmarked in top 5", func(n string) string {
			if k := runOf(n).KU[set]; k != nil {
				return frac(k.SupersededTop5.Passed, k.SupersededTop5.N)
			}
			return na
		}, "—")
		m.row(set+" · empty result lists", func(n string) string {
			if k := runOf(n).KU[set]; k != nil {
				return fmt.Sprint(k.EmptyResults)
			}
			return na
		}, "—")
	}
	if r.Paired != nil {
		for _, set := range sets {
			if t := r.Paired.KUPass[set]; t != nil {
				m.w("")
				m.w("%s vs %s, %s checks: %s.", r.Paired.A, r.Paired.B, set, signLine(*t))
			}
		}
	}
	// Only the visible set's failures are listed: the project's own set is
	// read as totals (held-out must not be tuned on line by line), and
	// results.json has every outcome.
	for _, n := range m.names {
		k := runOf(n).KU[kuVisible]
		if k == nil || len(k.Failures) == 0 {
			continue
		}
		var ids []string
		for _, f := range k.Failures {
			ids = append(ids, f.Scenario+" "+f.Check.Type)
		}
		m.w("")
		m.w("%s, visible failures (details in results.json): %s.", n, strings.Join(ids, "; "))
	}
}

func paraMD(m *mdWriter, r *results, runOf func(string) *serverRun) {
	var any *paraReport
	for _, n := range m.names {
		if p := runOf(n).Paraphrase; p != nil && p.Questions > 0 {
			any = p
			break
		}
	}
	if any == nil {
		return
	}
	m.w("")
	m.w("## Paraphrase (%d questions of %d users, each user's turns among the %d turns of %s)",
		any.Questions, any.Users, any.DistractorTurns, any.Distractor)
	m.w("")
	m.w("Questions share no content word with their evidence (bench/data/paraphrase.jsonl). Evidence@k: a result in the top k has an evidence turn among its sources.")
	m.table("measure", "BM25 raw turns")
	para := func(get func(*paraReport) string) func(string) string {
		return func(n string) string {
			if p := runOf(n).Paraphrase; p != nil && p.Questions > 0 {
				return get(p)
			}
			return na
		}
	}
	score := func(s paraScores, hits int) string {
		return fmt.Sprintf("%d (%.3f)", hits, float64(hits)/float64(max(1, s.N)))
	}
	m.row("evidence@1", para(func(p *paraReport) string { return score(p.Graphmem, p.Graphmem.Hits1) }), score(any.BM25, any.BM25.Hits1))
	m.row("evidence@3", para(func(p *paraReport) string { return score(p.Graphmem, p.Graphmem.Hits3) }), score(any.BM25, any.BM25.Hits3))
	m.row("evidence@10", para(func(p *paraReport) string { return score(p.Graphmem, p.Graphmem.Hits10) }), score(any.BM25, any.BM25.Hits10))
	m.row("MRR@10", para(func(p *paraReport) string { return fmt.Sprintf("%.3f", p.Graphmem.MRR) }), fmt.Sprintf("%.3f", any.BM25.MRR))
	m.row("evidence@3, turn level (results expanded)", para(func(p *paraReport) string { return score(p.GraphmemTurns, p.GraphmemTurns.Hits3) }), "—")
	for _, h := range []string{dataset.Dev, dataset.HeldOut} {
		if s, ok := any.ByHalf[h]; ok {
			m.row(fmt.Sprintf("evidence@3, %s half (n = %d)", h, s.N), para(func(p *paraReport) string {
				c := p.ByHalf[h]
				return score(c, c.Hits3)
			}), "—")
		}
	}
	if s, ok := any.ByKind["current"]; ok {
		m.row(fmt.Sprintf("evidence@3, kind current (n = %d)", s.N), para(func(p *paraReport) string {
			c := p.ByKind["current"]
			return score(c, c.Hits3)
		}), "—")
	}
	m.row("empty result lists", para(func(p *paraReport) string { return fmt.Sprint(p.EmptyResults) }), "—")
	m.row("searches with a vector signal", para(func(p *paraReport) string { return fmt.Sprintf("%d/%d", p.VectorSeen, p.Questions) }), "—")
	m.row("ingest + extraction (s)", para(func(p *paraReport) string { return fmt.Sprintf("%.1f (%d turns)", p.IngestSeconds, p.Turns) }), "—")
	if r.Paired != nil && r.Paired.ParaphraseAt3 != nil {
		m.w("")
		m.w("%s vs %s, evidence@3 per question: %s.", r.Paired.A, r.Paired.B, signLine(*r.Paired.ParaphraseAt3))
	}
}

func costMD(m *mdWriter, r *results, runOf func(string) *serverRun) {
	has := false
	for _, n := range m.names {
		run := runOf(n)
		has = has || run.Latency != nil || run.Ingest != nil
	}
	if !has {
		return
	}
	m.w("")
	m.w("## Latency, CPU, throughput, memory")
	m.table("measure")
	lat := func(get func(*latencyReport) string) func(string) string {
		return func(n string) string {
			if l := runOf(n).Latency; l != nil && l.Search.Requests > 0 {
				return get(l)
			}
			return na
		}
	}
	m.row("search p50 / p95 / p99 ms, 8 clients", lat(func(l *latencyReport) string {
		return fmt.Sprintf("%.1f / %.1f / %.1f", l.Search.P50, l.Search.P95, l.Search.P99)
	}))
	m.row("query embedding cache hits, 8 clients / 1 client", lat(func(l *latencyReport) string {
		if len(l.QueryCacheHits) == 0 {
			return na
		}
		parts := make([]string, len(l.QueryCacheHits))
		for i, h := range l.QueryCacheHits {
			parts[i] = fmt.Sprintf("%.0f%%", 100*h)
		}
		return strings.Join(parts, " / ")
	}))
	m.row("search throughput, 8 clients (req/s)", lat(func(l *latencyReport) string { return fmt.Sprintf("%.0f (%d errors)", l.Search.QPS, l.Search.Errors) }))
	m.row("CPU ms per search: graphmem / Neo4j", lat(func(l *latencyReport) string { return cpuPair(l.Search.CPUms) }))
	m.row("search p50 / p95 ms, 1 client", lat(func(l *latencyReport) string {
		if l.Single == nil || l.Single.Requests == 0 {
			return na
		}
		return fmt.Sprintf("%.1f / %.1f", l.Single.P50, l.Single.P95)
	}))
	m.row("CPU ms per search, 1 client: graphmem / Neo4j", lat(func(l *latencyReport) string {
		if l.Single == nil {
			return na
		}
		return cpuPair(l.Single.CPUms)
	}))
	m.row("/healthz p95 ms (HTTP floor); BM25 in-process p95 ms", func(n string) string {
		if l := runOf(n).Latency; l != nil {
			return fmt.Sprintf("%.1f; %.2f", l.Health.P95, l.BM25InProcess.P95)
		}
		return na
	})
	ing := func(get func(*ingestReport) string) func(string) string {
		return func(n string) string {
			if in := runOf(n).Ingest; in != nil {
				return get(in)
			}
			return na
		}
	}
	m.row("ingest, 500 per request, 2 clients (events/s)", ing(func(in *ingestReport) string { return fmt.Sprintf("%.0f", in.Batched.EventsPerSec) }))
	m.row("ingest, 1 per request, 4 clients (events/s, p95 ms)", ing(func(in *ingestReport) string {
		return fmt.Sprintf("%.0f (%.1f)", in.Single.EventsPerSec, in.Single.RequestMS.P95)
	}))
	m.row("CPU ms per 1,000 events batched: graphmem / Neo4j", ing(func(in *ingestReport) string { return cpuPair(in.Batched.CPUms) }))
	m.row("peak RSS graphmem (MB)", func(n string) string {
		for _, key := range []string{"graphmem:" + n, "graphmem"} {
			if mem, ok := r.Resources[key]; ok {
				return fmt.Sprintf("%.0f", mem.PeakRSSMB)
			}
		}
		return na
	})
	if mem, ok := r.Resources["neo4j"]; ok {
		m.w("")
		m.w("Neo4j (shared by the servers): peak RSS %.0f MB. CPU ms per search counts Neo4j's CPU while that server's load ran alone.", mem.PeakRSSMB)
	}
}

func embedMD(m *mdWriter, runOf func(string) *serverRun) {
	type window struct {
		label string
		get   func(*serverRun) *embedStats
	}
	windows := []window{
		{"LoCoMo ingest", func(r *serverRun) *embedStats { return r.LoCoMoEmbedding }},
		{"paraphrase ingest", func(r *serverRun) *embedStats {
			if r.Paraphrase == nil {
				return nil
			}
			return r.Paraphrase.Embedding
		}},
		{"raw ingest phase (backlog only)", func(r *serverRun) *embedStats { return r.IngestEmbedding }},
	}
	has := false
	for _, n := range m.names {
		for _, w := range windows {
			has = has || w.get(runOf(n)) != nil
		}
	}
	if !has {
		return
	}
	m.w("")
	m.w("## Embedding lane (from /metrics: %s, %s, %s)", metricEmbedded, metricBacklog, metricLag)
	m.w("")
	m.w("texts/s: texts embedded during the window / time until the counter stopped growing; per embedder-second: / %s. n/a: the server exposes no such metric or embedded nothing.", metricEmbedSeconds)
	m.w("")
	m.w("Cells: texts embedded · texts/s (per embedder-second) · max backlog · max lag s · embedding still running after the jobs were done (s).")
	m.table("window")
	for _, w := range windows {
		m.row(w.label, func(n string) string { return embedCell(w.get(runOf(n))) })
	}
}

// embedCell summarizes one window's figures in one cell.
func embedCell(e *embedStats) string {
	if e == nil || !e.Available || e.Texts == nil {
		return na
	}
	s := fmt.Sprintf("%.0f · %s (%s) · %s · %s · %s", *e.Texts, num(e.TextsPerSec), num(e.TextsPerEmbedderSec),
		num(e.MaxBacklog), num(e.MaxLagSeconds), num(e.TailSeconds))
	if !e.Drained {
		s += " · **not drained**"
	}
	return s
}

func scaleMD(m *mdWriter, r *results) {
	s := r.Scale
	if s == nil {
		return
	}
	m.w("")
	m.w("## Scale run (%d raw events, %d users, on %s)", s.Ingest.Events, s.Config.Users, m.names[0])
	m.w("")
	m.w("| measure | graphmem | baseline (same run) |")
	m.w("|---|---|---|")
	m.w("| ingest, %d per request, %d clients | %.0f events/s (%.0f s) | — |", s.Config.SessionSize, s.Config.Clients, s.Ingest.EventsPerSec, s.Ingest.Seconds)
	if s.DrainSeconds > 0 {
		m.w("| every session closed, condensed, extracted, insights derived | %.0f s = %.0f turns/s; CPU ms per turn %s | — |",
			s.DrainSeconds, float64(s.Ingest.Events)/s.DrainSeconds, cpuPair(s.DrainCPUms))
	}
	m.w("| search p50 / p95 / p99 ms, synthetic users | %.1f / %.1f / %.1f | /healthz p95 %.1f |", s.SearchSynthetic.P50, s.SearchSynthetic.P95, s.SearchSynthetic.P99, s.Health.P95)
	if l := s.SearchLoCoMo; l != nil {
		m.w("| search p50 / p95 / p99 ms, LoCoMo users | %.1f / %.1f / %.1f | |", l.P50, l.P95, l.P99)
	}
	m.w("| CPU ms per search (synthetic users): graphmem / Neo4j | %s | |", cpuPair(s.SearchSynthetic.CPUms))
	for _, name := range []string{"graphmem_after_scale", "neo4j_after_scale"} {
		if mem, ok := r.Resources[name]; ok {
			m.w("| peak RSS %s | %.0f MB | — |", strings.TrimSuffix(name, "_after_scale"), mem.PeakRSSMB)
		}
	}
}

func problemsMD(m *mdWriter, r *results) {
	n5xx := 0
	for _, run := range r.Runs {
		n5xx += total5xx(run.HTTP)
	}
	if n5xx == 0 && len(r.Errors) == 0 {
		return
	}
	m.w("")
	m.w("## Problems")
	m.w("")
	if n5xx > 0 {
		m.w("- %d HTTP 5xx answers (examples in results.json)", n5xx)
	}
	for _, e := range r.Errors {
		m.w("- %s", e)
	}
}

// halfRecall is recall_all@10 over categories 1-4 (multi-hop alone with mh)
// of the questions whose conversation falls in half h, with n; of graphmem
// or, with graphmem false, of BM25.
func halfRecall(pqs []perQuestion, h string, mh, graphmem bool) string {
	hit, n := 0, 0
	for _, q := range pqs {
		if q.Category < 1 || q.Category > 4 || mh && q.Category != 1 || dataset.Half(q.UserID) != h {
			continue
		}
		ok := q.BM25All10
		if graphmem {
			if q.GraphmemAll10 == nil {
				continue
			}
			ok = *q.GraphmemAll10
		}
		n++
		if ok {
			hit++
		}
	}
	if n == 0 {
		return na
	}
	return fmt.Sprintf("%.3f (n = %d)", float64(hit)/float64(n), n)
}
