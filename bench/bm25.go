package main

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// The baseline every graphmem figure is shown next to: Okapi BM25 over the
// raw turns, scored like rank_bm25's BM25Okapi (the scorer benchmarks.md's
// reference numbers used): k1 1.5, b 0.75, idf log((N-n+0.5)/(n+0.5)) with
// negative idf floored at 0.25 × the mean idf, and every query token
// counted, repeats included.
const (
	bm25K1      = 1.5
	bm25B       = 0.75
	bm25Epsilon = 0.25
)

// stopwords is NLTK's English list (the usual "stopwords removed").
var stopwords = map[string]bool{
	"i": true, "me": true, "my": true, "myself": true, "we": true, "our": true, "ours": true, "ourselves": true,
	"you": true, "you're": true, "you've": true, "you'll": true, "you'd": true, "your": true, "yours": true,
	"yourself": true, "yourselves": true, "he": true, "him": true, "his": true, "himself": true, "she": true,
	"she's": true, "her": true, "hers": true, "herself": true, "it": true, "it's": true, "its": true, "itself": true,
	"they": true, "them": true, "their": true, "theirs": true, "themselves": true, "what": true, "which": true,
	"who": true, "whom": true, "this": true, "that": true, "that'll": true, "these": true, "those": true, "am": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "being": true, "have": true,
	"has": true, "had": true, "having": true, "do": true, "does": true, "did": true, "doing": true, "a": true,
	"an": true, "the": true, "and": true, "but": true, "if": true, "or": true, "because": true, "as": true,
	"until": true, "while": true, "of": true, "at": true, "by": true, "for": true, "with": true, "about": true,
	"against": true, "between": true, "into": true, "through": true, "during": true, "before": true, "after": true,
	"above": true, "below": true, "to": true, "from": true, "up": true, "down": true, "in": true, "out": true,
	"on": true, "off": true, "over": true, "under": true, "again": true, "further": true, "then": true, "once": true,
	"here": true, "there": true, "when": true, "where": true, "why": true, "how": true, "all": true, "any": true,
	"both": true, "each": true, "few": true, "more": true, "most": true, "other": true, "some": true, "such": true,
	"no": true, "nor": true, "not": true, "only": true, "own": true, "same": true, "so": true, "than": true,
	"too": true, "very": true, "s": true, "t": true, "can": true, "will": true, "just": true, "don": true,
	"don't": true, "should": true, "should've": true, "now": true, "d": true, "ll": true, "m": true, "o": true,
	"re": true, "ve": true, "y": true, "ain": true, "aren": true, "aren't": true, "couldn": true, "couldn't": true,
	"didn": true, "didn't": true, "doesn": true, "doesn't": true, "hadn": true, "hadn't": true, "hasn": true,
	"hasn't": true, "haven": true, "haven't": true, "isn": true, "isn't": true, "ma": true, "mightn": true,
	"mightn't": true, "mustn": true, "mustn't": true, "needn": true, "needn't": true, "shan": true, "shan't": true,
	"shouldn": true, "shouldn't": true, "wasn": true, "wasn't": true, "weren": true, "weren't": true, "won": true,
	"won't": true, "wouldn": true, "wouldn't": true,
}

// bm25Tokens lower-cases text and splits it into word tokens (runs of
// letters, digits and underscores, as regexp \w+), minus stopwords.
func bm25Tokens(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
	out := words[:0]
	for _, w := range words {
		if !stopwords[w] {
			out = append(out, w)
		}
	}
	return out
}

// bm25Index is an in-memory Okapi BM25 index over a fixed list of documents.
type bm25Index struct {
	tf     []map[string]int
	docLen []float64
	avgLen float64
	idf    map[string]float64
}

func newBM25(docs []string) *bm25Index {
	ix := &bm25Index{tf: make([]map[string]int, len(docs)), docLen: make([]float64, len(docs)), idf: map[string]float64{}}
	df := map[string]int{}
	total := 0.0
	for i, d := range docs {
		toks := bm25Tokens(d)
		m := make(map[string]int, len(toks))
		for _, t := range toks {
			m[t]++
		}
		for t := range m {
			df[t]++
		}
		ix.tf[i], ix.docLen[i] = m, float64(len(toks))
		total += float64(len(toks))
	}
	if len(docs) > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	n := float64(len(docs))
	sum := 0.0
	var negative []string
	for t, f := range df {
		v := math.Log(n-float64(f)+0.5) - math.Log(float64(f)+0.5)
		ix.idf[t] = v
		sum += v
		if v < 0 {
			negative = append(negative, t)
		}
	}
	if len(df) > 0 {
		floor := bm25Epsilon * sum / float64(len(df))
		for _, t := range negative {
			ix.idf[t] = floor
		}
	}
	return ix
}

// scores returns the BM25 score of every document for query.
func (ix *bm25Index) scores(query string) []float64 {
	out := make([]float64, len(ix.tf))
	for _, q := range bm25Tokens(query) {
		idf, ok := ix.idf[q]
		if !ok {
			continue
		}
		for i, m := range ix.tf {
			f := float64(m[q])
			if f == 0 {
				continue
			}
			out[i] += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*ix.docLen[i]/ix.avgLen))
		}
	}
	return out
}

// rank returns document indexes by descending score; ties keep document
// order, so the result is deterministic.
func (ix *bm25Index) rank(query string) []int {
	s := ix.scores(query)
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	return idx
}
