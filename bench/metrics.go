package main

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// This file holds the LLM-free retrieval metrics of benchmarks.md §1/§6.
// Every system (graphmem and the baselines) is reduced to the same shape, a
// ranked list of turn ids plus the texts it would put in a prompt, so one
// set of functions scores them all and no system gets a different rule.

// budgetItem is one returned item as it would be packed into a context:
// its token cost and the turns it stands for.
type budgetItem struct {
	Tokens int
	IDs    []string
}

// ranking is what one system returned for one question.
type ranking struct {
	// Turns are the returned turn ids in rank order, de-duplicated; derived
	// items (facts, summaries) are expanded into their source ids in place.
	Turns []string
	// TopTokens is the token count of the texts of the top 10 items.
	TopTokens int
	// TopTexts are the texts of the top 10 items (for the date check).
	TopTexts []string
	// Budget is the long list used for recall at a fixed token budget.
	Budget []budgetItem
}

// qScores are the per-question scores of one system.
type qScores struct {
	AnyAt5, AnyAt10, AllAt5, AllAt10 bool
	FracAt5, FracAt10                float64
	// RR is the reciprocal rank of the first gold turn within the first 10
	// turns (MRR@10), so systems returning long lists gain nothing past 10.
	RR     float64
	NDCG10 float64
	// SessAllAt5: every gold session is among the first 5 distinct sessions.
	SessAllAt5 bool
	// AllTop10Results: every gold turn is a source of one of the top 10
	// items, however many turns they expand to (reported, not headline).
	AllTop10Results bool
	AllBudget1k     bool
	FracBudget1k    float64
	AllBudget2k     bool
	FracBudget2k    float64
	TopTokens       int
	// DateEligible/DateHit: category-2 items whose answer is an absolute
	// date, and whether a top-10 text contains that date.
	DateEligible, DateHit bool
}

// dedupe keeps the first occurrence of each id, preserving order.
func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

// hits counts gold ids among the first k of ranked (k < 0: all).
func hits(ranked []string, gold map[string]bool, k int) int {
	if k >= 0 && k < len(ranked) {
		ranked = ranked[:k]
	}
	n := 0
	for _, id := range ranked {
		if gold[id] {
			n++
		}
	}
	return n
}

func setOf(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// sessionOf maps a turn id "D12:3" to its session "D12".
func sessionOf(id string) string {
	s, _, _ := strings.Cut(id, ":")
	return s
}

// scoreTurns computes the rank metrics of one ranked list against gold,
// which must be non-empty and de-duplicated.
func scoreTurns(ranked, gold []string) qScores {
	g := setOf(gold)
	n := float64(len(gold))
	h5, h10 := hits(ranked, g, 5), hits(ranked, g, 10)
	s := qScores{
		AnyAt5: h5 > 0, AnyAt10: h10 > 0,
		AllAt5: h5 == len(gold), AllAt10: h10 == len(gold),
		FracAt5: float64(h5) / n, FracAt10: float64(h10) / n,
		AllTop10Results: hits(ranked, g, -1) == len(gold),
	}
	var dcg, idcg float64
	for i := 0; i < 10 && i < len(ranked); i++ {
		if g[ranked[i]] {
			if s.RR == 0 {
				s.RR = 1 / float64(i+1)
			}
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := 0; i < 10 && i < len(gold); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	s.NDCG10 = dcg / idcg

	goldSess := map[string]bool{}
	for _, id := range gold {
		goldSess[sessionOf(id)] = true
	}
	var sess []string
	for _, id := range ranked {
		sess = append(sess, sessionOf(id))
	}
	sess = dedupe(sess)
	s.SessAllAt5 = hits(sess, goldSess, 5) == len(goldSess)
	return s
}

// withinBudget returns the turns of the items that fit in budget tokens,
// taken in rank order and stopping at the first item that would overflow,
// as a client packing a prompt would.
func withinBudget(items []budgetItem, budget int) []string {
	used := 0
	var ids []string
	for _, it := range items {
		if used+it.Tokens > budget {
			break
		}
		used += it.Tokens
		ids = append(ids, it.IDs...)
	}
	return dedupe(ids)
}

// score computes every metric of one ranking for one question.
func score(r ranking, gold []string, date *answerDate) qScores {
	s := scoreTurns(r.Turns, gold)
	g := setOf(gold)
	b1 := hits(withinBudget(r.Budget, 1000), g, -1)
	b2 := hits(withinBudget(r.Budget, 2000), g, -1)
	s.AllBudget1k, s.FracBudget1k = b1 == len(gold), float64(b1)/float64(len(gold))
	s.AllBudget2k, s.FracBudget2k = b2 == len(gold), float64(b2)/float64(len(gold))
	s.TopTokens = r.TopTokens
	if date != nil {
		s.DateEligible = true
		for _, t := range r.TopTexts {
			if date.foundIn(t) {
				s.DateHit = true
				break
			}
		}
	}
	return s
}

// metricSet is the mean of qScores over a group of questions.
type metricSet struct {
	N               int      `json:"n"`
	AnyAt5          float64  `json:"recall_any@5"`
	AnyAt10         float64  `json:"recall_any@10"`
	AllAt5          float64  `json:"recall_all@5"`
	AllAt10         float64  `json:"recall_all@10"`
	FracAt5         float64  `json:"frac_recall@5"`
	FracAt10        float64  `json:"frac_recall@10"`
	MRR             float64  `json:"mrr@10"`
	NDCG10          float64  `json:"ndcg@10"`
	SessAllAt5      float64  `json:"session_recall_all@5"`
	AllTop10Results float64  `json:"recall_all_top10_results"`
	AllBudget1k     float64  `json:"recall_all@1k_tokens"`
	FracBudget1k    float64  `json:"frac_recall@1k_tokens"`
	AllBudget2k     float64  `json:"recall_all@2k_tokens"`
	FracBudget2k    float64  `json:"frac_recall@2k_tokens"`
	TopTokens       float64  `json:"tokens_top10_mean"`
	DateN           int      `json:"date_items,omitempty"`
	DateHit         *float64 `json:"date_hit_rate,omitempty"`
}

// aggregate averages scores; an empty group yields N = 0 and zeros.
func aggregate(scores []qScores) metricSet {
	var m metricSet
	m.N = len(scores)
	if m.N == 0 {
		return m
	}
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	dateHits := 0
	for _, s := range scores {
		m.AnyAt5 += b(s.AnyAt5)
		m.AnyAt10 += b(s.AnyAt10)
		m.AllAt5 += b(s.AllAt5)
		m.AllAt10 += b(s.AllAt10)
		m.FracAt5 += s.FracAt5
		m.FracAt10 += s.FracAt10
		m.MRR += s.RR
		m.NDCG10 += s.NDCG10
		m.SessAllAt5 += b(s.SessAllAt5)
		m.AllTop10Results += b(s.AllTop10Results)
		m.AllBudget1k += b(s.AllBudget1k)
		m.FracBudget1k += s.FracBudget1k
		m.AllBudget2k += b(s.AllBudget2k)
		m.FracBudget2k += s.FracBudget2k
		m.TopTokens += float64(s.TopTokens)
		if s.DateEligible {
			m.DateN++
			if s.DateHit {
				dateHits++
			}
		}
	}
	n := float64(m.N)
	for _, p := range []*float64{&m.AnyAt5, &m.AnyAt10, &m.AllAt5, &m.AllAt10, &m.FracAt5, &m.FracAt10, &m.MRR,
		&m.NDCG10, &m.SessAllAt5, &m.AllTop10Results, &m.AllBudget1k, &m.FracBudget1k, &m.AllBudget2k,
		&m.FracBudget2k, &m.TopTokens} {
		*p = round4(*p / n)
	}
	if m.DateN > 0 {
		r := round4(float64(dateHits) / float64(m.DateN))
		m.DateHit = &r
	}
	return m
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// signTest compares two systems paired per question on a yes/no outcome:
// wins (a yes, b no), losses, and the exact two-sided binomial p-value of
// that split under "no difference". benchmarks.md asks for paired tests
// because ~2 points is noise at n ≈ 1,500.
type signTest struct {
	Wins   int     `json:"wins"`
	Losses int     `json:"losses"`
	Ties   int     `json:"ties"`
	P      float64 `json:"p_two_sided"`
}

func pairedSignTest(a, b []bool) signTest {
	var t signTest
	for i := range a {
		switch {
		case a[i] && !b[i]:
			t.Wins++
		case !a[i] && b[i]:
			t.Losses++
		default:
			t.Ties++
		}
	}
	t.P = binomTwoSided(t.Wins, t.Wins+t.Losses)
	return t
}

// binomTwoSided is P(X ≤ min(k, n-k)) * 2 for X ~ Bin(n, 1/2), capped at 1.
func binomTwoSided(k, n int) float64 {
	if n == 0 {
		return 1
	}
	lo := min(k, n-k)
	lgN, _ := math.Lgamma(float64(n + 1))
	sum := 0.0
	for i := 0; i <= lo; i++ {
		a, _ := math.Lgamma(float64(i + 1))
		c, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lgN - a - c - float64(n)*math.Ln2)
	}
	return math.Min(1, round4(2*sum))
}

// percentiles returns the nearest-rank p-th percentiles of ds (in any unit).
func percentiles(ds []float64, ps ...float64) []float64 {
	out := make([]float64, len(ps))
	if len(ds) == 0 {
		return out
	}
	s := append([]float64(nil), ds...)
	sort.Float64s(s)
	for i, p := range ps {
		rank := int(math.Ceil(p / 100 * float64(len(s))))
		rank = max(1, min(rank, len(s)))
		out[i] = s[rank-1]
	}
	return out
}

// normalizeEvidence turns LoCoMo evidence strings into turn ids that exist
// in the conversation. It splits multi-id strings ("D8:6; D9:17",
// "D9:1 D4:4"), repairs "D:11:26" and zero-padded turns ("D30:05"), and
// drops what still does not resolve (a bare "D", ids of missing turns),
// returning those apart so they can be counted.
func normalizeEvidence(raw []string, known func(string) bool) (ids, dropped []string) {
	for _, s := range raw {
		for _, piece := range strings.FieldsFunc(s, func(r rune) bool {
			return r == ';' || r == ',' || r == ' ' || r == '\t' || r == '\n'
		}) {
			id, ok := canonicalTurnID(piece)
			if !ok || !known(id) {
				dropped = append(dropped, piece)
				continue
			}
			ids = append(ids, id)
		}
	}
	return dedupe(ids), dropped
}

// canonicalTurnID parses "D<session>:<turn>" leniently (an extra colon
// after D, leading zeros) and prints it canonically.
func canonicalTurnID(s string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "D")
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(rest, ":")
	a, b, ok := strings.Cut(rest, ":")
	if !ok {
		return "", false
	}
	sn, err1 := strconv.Atoi(a)
	tn, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || sn < 0 || tn < 0 {
		return "", false
	}
	return "D" + strconv.Itoa(sn) + ":" + strconv.Itoa(tn), true
}
