package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
)

// LoCoMo evidence recall: every system answers the same questions over the
// same turns and is scored by the same functions (metrics.go).

// categoryNames follow the verified LoCoMo mapping (benchmarks.md §1).
var categoryNames = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

// Systems compared on the same questions.
const (
	sysGraphmem = "graphmem"
	sysBM25     = "bm25"
	sysRecency  = "recency"
	sysOracle   = "oracle"
	// headline groups categories 1-4; category 5 is reported apart.
	groupHeadline = "1-4"
	// topK is the size of the result list the main metrics read.
	topK = 10
)

// tokenCounter counts cl100k tokens (the codec of tiktoken-go/tokenizer).
type tokenCounter interface {
	Count(string) (int, error)
}

func countTokens(tc tokenCounter, s string) int {
	if s == "" {
		return 0
	}
	n, err := tc.Count(s)
	if err != nil {
		return (len(s) + 3) / 4
	}
	return n
}

type retrievalReport struct {
	Questions int `json:"questions"`
	Evaluated int `json:"evaluated"`
	// Skipped counts items left out of every system's metrics, by reason
	// and category.
	Skipped map[string]map[string]int `json:"skipped"`
	// DroppedEvidence lists evidence pieces that did not resolve (the item
	// is still scored on the ids that did).
	DroppedEvidence []string          `json:"dropped_evidence"`
	Categories      map[string]string `json:"categories"`
	// Systems maps system → group ("1".."5", "1-4") → metrics.
	Systems map[string]map[string]metricSet `json:"systems"`
	// BM25Sessions ranks whole sessions instead of turns (session recall
	// only), the other baseline of benchmarks.md.
	BM25Sessions map[string]sessionMetrics `json:"bm25_sessions"`
	// Paired compares graphmem with BM25 per question on recall_all@10,
	// categories 1-4.
	Paired      *signTest        `json:"paired_graphmem_vs_bm25_all@10,omitempty"`
	Search      *searchAnomalies `json:"graphmem_search,omitempty"`
	PerQuestion []perQuestion    `json:"per_question"`
	Note        string           `json:"note,omitempty"`
}

type sessionMetrics struct {
	N           int     `json:"n"`
	SessAllAt5  float64 `json:"session_recall_all@5"`
	SessAllAt10 float64 `json:"session_recall_all@10"`
}

type perQuestion struct {
	UserID   string `json:"user_id"`
	Index    int    `json:"qa_index"`
	Category int    `json:"category"`
	Gold     int    `json:"gold"`
	// All@10 and RR per system, in systems order graphmem, bm25.
	GraphmemAll10 *bool    `json:"graphmem_all@10,omitempty"`
	GraphmemRR    *float64 `json:"graphmem_rr,omitempty"`
	BM25All10     bool     `json:"bm25_all@10"`
	BM25RR        float64  `json:"bm25_rr"`
}

// searchAnomalies describe what graphmem's search returned, so results
// without provenance or with unknown ids are visible, not silently scored 0.
type searchAnomalies struct {
	Searches            int            `json:"searches"`
	Errors              int            `json:"errors"`
	ErrorExamples       []string       `json:"error_examples,omitempty"`
	EmptyResults        int            `json:"empty_result_lists"`
	Results             int            `json:"results_top10"`
	ByKind              map[string]int `json:"top10_results_by_kind"`
	NoSourceByKind      map[string]int `json:"top10_results_without_source_ids_by_kind"`
	SourceIDs           int            `json:"source_ids_top10"`
	SourceIDsByKind     map[string]int `json:"top10_source_ids_by_kind"`
	MaxSourceIDs        int            `json:"max_source_ids_of_one_result"`
	UnresolvedSourceIDs int            `json:"source_ids_not_a_turn_of_the_user"`
	UnresolvedExamples  []string       `json:"unresolved_examples,omitempty"`
	TurnsPerQuery       float64        `json:"expanded_turns_per_query_mean"`
	// VectorSeen counts searches where a top-10 result had a vector signal.
	VectorSeen int     `json:"searches_with_vector_signal"`
	TookMSp50  float64 `json:"server_took_ms_p50"`
	TookMSp95  float64 `json:"server_took_ms_p95"`
}

// evalItem is one evaluable question with what each system returned.
type evalItem struct {
	conv *conversation
	q    question
	// graphmem's answers: the top-10 search and the long one for budgets.
	top, long []searchResult
	took      float64
	err       error
}

// evalRetrieval runs every question through graphmem (when search is
// available) and the baselines, and scores them.
func evalRetrieval(ctx context.Context, c *client, convs []*conversation, tc tokenCounter, searchOK bool,
	budgetLimit, workers int, p *progress) *retrievalReport {
	rep := &retrievalReport{Skipped: map[string]map[string]int{}, Categories: map[string]string{},
		Systems: map[string]map[string]metricSet{}, BM25Sessions: map[string]sessionMetrics{}}
	for k, v := range categoryNames {
		rep.Categories[strconv.Itoa(k)] = v
	}
	skip := func(reason string, cat int) {
		if rep.Skipped[reason] == nil {
			rep.Skipped[reason] = map[string]int{}
		}
		rep.Skipped[reason][strconv.Itoa(cat)]++
	}
	var items []*evalItem
	for _, cv := range convs {
		for _, q := range cv.QA {
			rep.Questions++
			for _, d := range q.Dropped {
				rep.DroppedEvidence = append(rep.DroppedEvidence, fmt.Sprintf("%s qa[%d]: %q", q.UserID, q.Index, d))
			}
			if len(q.Gold) == 0 {
				if len(q.Dropped) == 0 {
					skip("no evidence", q.Category)
				} else {
					skip("evidence does not resolve", q.Category)
				}
				continue
			}
			items = append(items, &evalItem{conv: cv, q: q})
		}
	}
	rep.Evaluated = len(items)

	if searchOK {
		searchAll(ctx, c, items, budgetLimit, workers, p)
	} else {
		rep.Note = "graphmem /v1/search was not available: only the baselines were scored"
	}

	scores := map[string][]qScores{}
	cats := make([]int, len(items))
	var gmAll, bmAll []bool
	anom := &searchAnomalies{ByKind: map[string]int{}, NoSourceByKind: map[string]int{}, SourceIDsByKind: map[string]int{}}
	var took []float64
	expanded := 0
	bySess := map[*conversation]*convIndex{}
	for i, it := range items {
		cx := bySess[it.conv]
		if cx == nil {
			cx = newConvIndex(it.conv, tc)
			bySess[it.conv] = cx
		}
		cats[i] = it.q.Category
		var date *answerDate
		if it.q.Category == 2 {
			if d, ok := parseAnswerDate(it.q.Answer); ok {
				date = &d
			}
		}
		bm := cx.bm25.rank(it.q.Text)
		bmScore := score(cx.turnRanking(bm, budgetLimit), it.q.Gold, date)
		scores[sysBM25] = append(scores[sysBM25], bmScore)
		scores[sysRecency] = append(scores[sysRecency], score(cx.turnRanking(cx.recency, budgetLimit), it.q.Gold, date))
		scores[sysOracle] = append(scores[sysOracle], score(cx.turnRanking(cx.oracle(it.q.Gold), budgetLimit), it.q.Gold, date))
		pq := perQuestion{UserID: it.q.UserID, Index: it.q.Index, Category: it.q.Category, Gold: len(it.q.Gold),
			BM25All10: bmScore.AllAt10, BM25RR: round4(bmScore.RR)}
		if searchOK {
			anom.Searches++
			if it.err != nil {
				anom.Errors++
				if len(anom.ErrorExamples) < 5 {
					anom.ErrorExamples = append(anom.ErrorExamples, it.err.Error())
				}
			}
			r := resultRanking(it.top, it.long, tc)
			cx.inspect(it.top, anom)
			expanded += len(r.Turns)
			took = append(took, it.took)
			gs := score(r, it.q.Gold, date)
			scores[sysGraphmem] = append(scores[sysGraphmem], gs)
			all, rr := gs.AllAt10, round4(gs.RR)
			pq.GraphmemAll10, pq.GraphmemRR = &all, &rr
			if it.q.Category <= 4 {
				gmAll = append(gmAll, gs.AllAt10)
				bmAll = append(bmAll, bmScore.AllAt10)
			}
		}
		rep.PerQuestion = append(rep.PerQuestion, pq)
	}
	for sys, ss := range scores {
		rep.Systems[sys] = groupScores(ss, cats)
	}
	rep.BM25Sessions = sessionBaseline(items)
	if searchOK {
		t := pairedSignTest(gmAll, bmAll)
		rep.Paired = &t
		if anom.Searches > 0 {
			anom.TurnsPerQuery = round4(float64(expanded) / float64(anom.Searches))
		}
		pp := percentiles(took, 50, 95)
		anom.TookMSp50, anom.TookMSp95 = pp[0], pp[1]
		rep.Search = anom
	}
	return rep
}

// groupScores aggregates per category and for categories 1-4.
func groupScores(ss []qScores, cats []int) map[string]metricSet {
	groups := map[string][]qScores{}
	for i, s := range ss {
		groups[strconv.Itoa(cats[i])] = append(groups[strconv.Itoa(cats[i])], s)
		if cats[i] >= 1 && cats[i] <= 4 {
			groups[groupHeadline] = append(groups[groupHeadline], s)
		}
	}
	out := map[string]metricSet{}
	for g, s := range groups {
		out[g] = aggregate(s)
	}
	return out
}

// searchAll runs the top-10 and long searches of every item with a few
// concurrent clients (order does not matter: results are stored per item).
func searchAll(ctx context.Context, c *client, items []*evalItem, budgetLimit, workers int, p *progress) {
	var next, done atomic.Int64
	stop := p.every("locomo retrieval", func() string {
		return fmt.Sprintf("%d/%d questions searched", done.Load(), len(items))
	})
	defer stop()
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(items) || ctx.Err() != nil {
					return
				}
				it := items[i]
				top, err := c.search(ctx, searchRequest{UserID: it.q.UserID, Query: it.q.Text, Limit: topK})
				it.top, it.took, it.err = top.Results, top.TookMS, err
				if err == nil && budgetLimit > topK {
					long, err := c.search(ctx, searchRequest{UserID: it.q.UserID, Query: it.q.Text, Limit: budgetLimit})
					it.long, it.err = long.Results, err
				} else {
					it.long = it.top
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
}

// resultRanking reduces graphmem's results to the shared ranking shape:
// each result expands to its source event ids, in rank order, de-duplicated.
func resultRanking(top, long []searchResult, tc tokenCounter) ranking {
	var r ranking
	var ids []string
	for i, res := range top {
		if i >= topK {
			break
		}
		ids = append(ids, res.SourceEventIDs...)
		r.TopTexts = append(r.TopTexts, res.Text)
		r.TopTokens += countTokens(tc, res.Text)
	}
	r.Turns = dedupe(ids)
	for _, res := range long {
		r.Budget = append(r.Budget, budgetItem{Tokens: countTokens(tc, res.Text), IDs: res.SourceEventIDs})
	}
	return r
}

// convIndex holds the per-conversation baseline structures.
type convIndex struct {
	conv    *conversation
	bm25    *bm25Index
	texts   []string
	tokens  []int
	recency []int // turn indexes, newest first
	pos     map[string]int
}

func newConvIndex(cv *conversation, tc tokenCounter) *convIndex {
	cx := &convIndex{conv: cv, pos: map[string]int{}}
	for i, t := range cv.Turns {
		cx.texts = append(cx.texts, t.indexText())
		cx.tokens = append(cx.tokens, countTokens(tc, t.indexText()))
		cx.pos[t.ID] = i
		cx.recency = append(cx.recency, i)
	}
	sort.SliceStable(cx.recency, func(a, b int) bool {
		return cv.Turns[cx.recency[a]].At.After(cv.Turns[cx.recency[b]].At)
	})
	cx.bm25 = newBM25(cx.texts)
	return cx
}

// oracle puts the gold turns first, then the rest by recency: it must score
// 1.0 on recall_all@10 wherever the gold fits in 10, which checks the
// harness itself.
func (cx *convIndex) oracle(gold []string) []int {
	var out []int
	g := map[int]bool{}
	for _, id := range gold {
		if i, ok := cx.pos[id]; ok {
			out = append(out, i)
			g[i] = true
		}
	}
	for _, i := range cx.recency {
		if !g[i] {
			out = append(out, i)
		}
	}
	return out
}

// turnRanking turns a ranked list of turn indexes into the shared shape:
// the first 10 turns for the rank metrics, the first budgetLimit for the
// token budgets (the same long-list length graphmem is asked for).
func (cx *convIndex) turnRanking(order []int, budgetLimit int) ranking {
	var r ranking
	for k, i := range order {
		if k < topK {
			r.Turns = append(r.Turns, cx.conv.Turns[i].ID)
			r.TopTexts = append(r.TopTexts, cx.texts[i])
			r.TopTokens += cx.tokens[i]
		}
		if k >= max(budgetLimit, topK) {
			break
		}
		r.Budget = append(r.Budget, budgetItem{Tokens: cx.tokens[i], IDs: []string{cx.conv.Turns[i].ID}})
	}
	return r
}

// inspect counts the anomalies of one top-10 result list.
func (cx *convIndex) inspect(top []searchResult, a *searchAnomalies) {
	if len(top) == 0 {
		a.EmptyResults++
	}
	if vectorSeen(top) {
		a.VectorSeen++
	}
	for i, r := range top {
		if i >= topK {
			break
		}
		a.Results++
		a.ByKind[r.Kind]++
		if len(r.SourceEventIDs) == 0 {
			a.NoSourceByKind[r.Kind]++
		}
		a.SourceIDsByKind[r.Kind] += len(r.SourceEventIDs)
		a.MaxSourceIDs = max(a.MaxSourceIDs, len(r.SourceEventIDs))
		for _, id := range r.SourceEventIDs {
			a.SourceIDs++
			if _, ok := cx.pos[id]; !ok {
				a.UnresolvedSourceIDs++
				if len(a.UnresolvedExamples) < 10 {
					a.UnresolvedExamples = append(a.UnresolvedExamples, fmt.Sprintf("%s (%s %s)", id, r.Kind, r.ID))
				}
			}
		}
	}
}

// sessionBaseline ranks whole sessions with BM25 (the session texts joined)
// and reports session-level recall_all@5/@10 per category group.
func sessionBaseline(items []*evalItem) map[string]sessionMetrics {
	type sessIx struct {
		bm25 *bm25Index
		ids  []string
	}
	six := map[*conversation]*sessIx{}
	acc := map[string][2]float64{}
	count := map[string]int{}
	for _, it := range items {
		s := six[it.conv]
		if s == nil {
			s = &sessIx{}
			var docs []string
			for _, ls := range it.conv.Sessions {
				text := ""
				for _, t := range ls.Turns {
					text += t.indexText() + "\n"
				}
				docs = append(docs, text)
				s.ids = append(s.ids, "D"+strconv.Itoa(ls.Num))
			}
			s.bm25 = newBM25(docs)
			six[it.conv] = s
		}
		var ranked []string
		for _, i := range s.bm25.rank(it.q.Text) {
			ranked = append(ranked, s.ids[i])
		}
		var goldSess []string
		for _, id := range it.q.Gold {
			goldSess = append(goldSess, sessionOf(id))
		}
		goldSess = dedupe(goldSess)
		g := setOf(goldSess)
		a5 := hits(ranked, g, 5) == len(goldSess)
		a10 := hits(ranked, g, 10) == len(goldSess)
		for _, grp := range []string{strconv.Itoa(it.q.Category), groupHeadline} {
			if grp == groupHeadline && it.q.Category > 4 {
				continue
			}
			v := acc[grp]
			if a5 {
				v[0]++
			}
			if a10 {
				v[1]++
			}
			acc[grp] = v
			count[grp]++
		}
	}
	out := map[string]sessionMetrics{}
	for g, v := range acc {
		n := float64(count[g])
		out[g] = sessionMetrics{N: count[g], SessAllAt5: round4(v[0] / n), SessAllAt10: round4(v[1] / n)}
	}
	return out
}
