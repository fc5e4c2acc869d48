package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphmem/graphmem/bench/dataset"
)

// The paraphrase phase: can a user's own statement be found when the agent
// asks in other words? bench/data/paraphrase.jsonl (format in
// bench/data/README.md) gives each user a few statements and questions that
// share no content word with their evidence. Each user's turns are hidden
// among the turns of one LoCoMo conversation (at least 400), appended for
// the same user, so the question must find its evidence in a realistic
// haystack, not among five lines.

type paraRecord struct {
	ID        string            `json:"id"`
	UserID    string            `json:"user_id"`
	Sessions  []dataset.Session `json:"sessions"`
	Questions []paraQuestion    `json:"questions"`
}

type paraQuestion struct {
	Query    string   `json:"query"`
	Evidence []string `json:"evidence"`
	Kind     string   `json:"kind"`
}

func loadParaphrase(path string) ([]paraRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []paraRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r paraRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if r.UserID == "" || len(r.Sessions) == 0 {
			return nil, fmt.Errorf("%s:%d: a record needs user_id and sessions", path, line)
		}
		for _, q := range r.Questions {
			if q.Query == "" || len(q.Evidence) == 0 {
				return nil, fmt.Errorf("%s:%d: every question needs query and evidence", path, line)
			}
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// pickDistractor returns the conversation named id, or (id empty) the
// first one with at least minTurns turns.
func pickDistractor(convs []*conversation, id string, minTurns int) (*conversation, error) {
	for _, cv := range convs {
		if (id == "" || cv.UserID == id) && len(cv.Turns) >= minTurns {
			return cv, nil
		}
	}
	if id != "" {
		return nil, fmt.Errorf("LoCoMo conversation %q not found or under %d turns", id, minTurns)
	}
	return nil, fmt.Errorf("no LoCoMo conversation has %d turns or more", minTurns)
}

// timedSession is one session to append and close, at its time.
type timedSession struct {
	ID     string
	At     time.Time
	Events []eventIn
}

// distractorPad extends the span the distractor sessions are spread over
// beyond the user's own first and last session.
const distractorPad = 30 * 24 * time.Hour

// paraTimeline merges a user's sessions with the distractor conversation's,
// in time order. The distractor sessions keep their order and are spread
// evenly from distractorPad before the user's first session to distractorPad
// after the last, so the evidence is neither always the newest memory (which
// recency would favour) nor always the oldest. Distractor turns are sent as
// the LoCoMo phase sends them (speaker_a as user, speaker_b as assistant,
// names kept): to graphmem they are more of the same user's conversation.
func paraTimeline(r paraRecord, d *conversation) []timedSession {
	var out []timedSession
	first, last := r.Sessions[0].At, r.Sessions[0].At
	for i, s := range r.Sessions {
		first, last = minTime(first, s.At), maxTime(last, s.At)
		ts := timedSession{ID: fmt.Sprintf("%s-s%d", r.ID, i+1), At: s.At}
		for j, e := range s.Events {
			ts.Events = append(ts.Events, eventIn{ID: e.ID, Kind: "message", Role: e.Role, Name: e.Name, Content: e.Content,
				OccurredAt: s.At.Add(time.Duration(j) * time.Second).UTC().Format(time.RFC3339)})
		}
		out = append(out, ts)
	}
	from, to := first.Add(-distractorPad), last.Add(distractorPad)
	n := len(d.Sessions)
	for i, s := range d.Sessions {
		at := from
		if n > 1 {
			at = from.Add(time.Duration(float64(to.Sub(from)) * float64(i) / float64(n-1)))
		}
		at = at.Add(time.Minute) // never at the very instant of a user session
		evs := s.events()
		for j := range evs {
			evs[j].OccurredAt = at.Add(time.Duration(j) * time.Second).UTC().Format(time.RFC3339)
		}
		out = append(out, timedSession{ID: fmt.Sprintf("%s-d%d", r.ID, s.Num), At: at, Events: evs})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].At.Before(out[b].At) })
	return out
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// paraScores are hit rates of one ranker over a set of questions.
type paraScores struct {
	N      int     `json:"n"`
	Hits1  int     `json:"hits@1"`
	Hits3  int     `json:"hits@3"`
	Hits10 int     `json:"hits@10"`
	At1    float64 `json:"evidence@1"`
	At3    float64 `json:"evidence@3"`
	At10   float64 `json:"evidence@10"`
	MRR    float64 `json:"mrr@10"`
}

// paraAggregate turns 1-based ranks (0: not in the top 10) into rates.
func paraAggregate(ranks []int) paraScores {
	s := paraScores{N: len(ranks)}
	if s.N == 0 {
		return s
	}
	rr := 0.0
	for _, r := range ranks {
		if r < 1 || r > topK {
			continue
		}
		rr += 1 / float64(r)
		if r <= 1 {
			s.Hits1++
		}
		if r <= 3 {
			s.Hits3++
		}
		s.Hits10++
	}
	n := float64(s.N)
	s.At1, s.At3, s.At10 = round4(float64(s.Hits1)/n), round4(float64(s.Hits3)/n), round4(float64(s.Hits10)/n)
	s.MRR = round4(rr / n)
	return s
}

// evidenceRank is the 1-based position of the first item (a result's
// source ids, or one turn id) holding any evidence id; 0 when none does.
func evidenceRank(items [][]string, evidence []string) int {
	ev := setOf(evidence)
	for i, ids := range items {
		for _, id := range ids {
			if ev[id] {
				return i + 1
			}
		}
	}
	return 0
}

// resultItems lists each result's source ids (result level: a summary
// holding the evidence counts at its own rank).
func resultItems(results []searchResult) [][]string {
	out := make([][]string, len(results))
	for i, r := range results {
		out[i] = r.SourceEventIDs
	}
	return out
}

// turnItems expands results into their source ids, de-duplicated, one turn
// per item (turn level, as the LoCoMo metrics read results).
func turnItems(results []searchResult) [][]string {
	var ids []string
	for _, r := range results {
		ids = append(ids, r.SourceEventIDs...)
	}
	var out [][]string
	for _, id := range dedupe(ids) {
		out = append(out, []string{id})
	}
	return out
}

type paraReport struct {
	Users           int     `json:"users"`
	Questions       int     `json:"questions"`
	Distractor      string  `json:"distractor_conversation"`
	DistractorTurns int     `json:"distractor_turns_per_user"`
	Turns           int     `json:"turns_ingested"`
	IngestSeconds   float64 `json:"ingest_seconds"`
	// Graphmem scores results (a result holding the evidence counts at its
	// rank); GraphmemTurns expands results into turns first, as LoCoMo does.
	Graphmem      paraScores            `json:"graphmem"`
	GraphmemTurns paraScores            `json:"graphmem_turn_level"`
	ByKind        map[string]paraScores `json:"graphmem_by_kind"`
	// ByHalf splits the questions by dataset.Half of their record's id:
	// ranking is tuned on the dev half only.
	ByHalf map[string]paraScores `json:"graphmem_by_half"`
	// BM25 ranks the same user's turns (own and distractors).
	BM25 paraScores `json:"bm25_raw_turns"`
	// EmptyResults counts questions answered with no result at all, though
	// every user has memories.
	EmptyResults int `json:"empty_results"`
	// VectorSeen counts searches where a top-10 result had a vector signal.
	VectorSeen int        `json:"searches_with_vector_signal"`
	Errors     int        `json:"errors"`
	Misses     []paraMiss `json:"misses_top3,omitempty"`
	// Ranks is each question's result-level evidence rank (0: not in the
	// top 10), in file order, for paired comparisons between servers.
	Ranks     []int        `json:"ranks"`
	Embedding *embedStats  `json:"embedding,omitempty"`
	Ingest    latencyPairs `json:"ingest_ms"`
}

type latencyPairs struct {
	Append latencySummary `json:"append"`
	Close  latencySummary `json:"close_wait"`
}

type paraMiss struct {
	User     string        `json:"user"`
	Query    string        `json:"query"`
	Kind     string        `json:"kind"`
	Evidence []string      `json:"evidence"`
	Rank     int           `json:"rank"`
	Top      []briefResult `json:"top"`
}

// paraBM25Ranks ranks every question's user turns with BM25 (the user's
// own turns by content, the distractors as the LoCoMo baseline indexes
// them) and returns each question's evidence rank.
func paraBM25Ranks(recs []paraRecord, d *conversation) []int {
	var ranks []int
	for _, r := range recs {
		var docs, ids []string
		for _, s := range r.Sessions {
			for _, e := range s.Events {
				docs, ids = append(docs, e.Content), append(ids, e.ID)
			}
		}
		for _, t := range d.Turns {
			docs, ids = append(docs, t.indexText()), append(ids, t.ID)
		}
		ix := newBM25(docs)
		for _, q := range r.Questions {
			// Only turns sharing a word with the query are retrieved: a tie
			// at score 0 would otherwise rank the user's own turns (listed
			// first) above the distractors for free.
			scores := ix.scores(q.Query)
			var items [][]string
			for _, di := range ix.rank(q.Query) {
				if len(items) >= topK || scores[di] <= 0 {
					break
				}
				items = append(items, []string{ids[di]})
			}
			ranks = append(ranks, evidenceRank(items, q.Evidence))
		}
	}
	return ranks
}

// ingestParaphrase appends and closes every user's timeline (users
// concurrently, sessions in order) and waits for the job queue.
func ingestParaphrase(ctx context.Context, c *client, recs []paraRecord, d *conversation, p *progress) (float64, int, latencyPairs, error) {
	start := time.Now()
	ts := &timedSessions{}
	var turns, done atomic.Int64
	total := 0
	for _, r := range recs {
		for _, s := range paraTimeline(r, d) {
			total += len(s.Events)
		}
	}
	stop := p.every("paraphrase ingest", func() string { return fmt.Sprintf("%d/%d turns closed", done.Load(), total) })
	defer stop()
	sem := make(chan struct{}, 4)
	errs := make(chan error, len(recs))
	var wg sync.WaitGroup
	for _, r := range recs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			for _, s := range paraTimeline(r, d) {
				if err := ts.appendThenClose(ctx, c, r.UserID, s.ID, s.Events); err != nil {
					errs <- fmt.Errorf("%s: %w", r.ID, err)
					return
				}
				turns.Add(int64(len(s.Events)))
				done.Add(int64(len(s.Events)))
			}
		}()
	}
	wg.Wait()
	close(errs)
	lp := latencyPairs{Append: summarize(ts.appendMS), Close: summarize(ts.closeMS)}
	if err := <-errs; err != nil {
		return 0, int(turns.Load()), lp, err
	}
	if err := c.drain(ctx, 200*time.Millisecond); err != nil {
		return 0, int(turns.Load()), lp, err
	}
	return round4(time.Since(start).Seconds()), int(turns.Load()), lp, nil
}

// evalParaphrase asks every question and scores graphmem and BM25.
func evalParaphrase(ctx context.Context, c *client, recs []paraRecord, d *conversation) *paraReport {
	rep := &paraReport{Users: len(recs), Distractor: d.UserID, DistractorTurns: len(d.Turns), ByKind: map[string]paraScores{},
		ByHalf: map[string]paraScores{}}
	var ranks, turnRanks []int
	byKind, byHalf := map[string][]int{}, map[string][]int{}
	for _, r := range recs {
		for _, q := range r.Questions {
			rep.Questions++
			res, err := c.search(ctx, searchRequest{UserID: r.UserID, Query: q.Query, Limit: topK})
			if err != nil {
				rep.Errors++
			}
			if err == nil && len(res.Results) == 0 {
				rep.EmptyResults++
			}
			if vectorSeen(res.Results) {
				rep.VectorSeen++
			}
			rank := evidenceRank(resultItems(res.Results), q.Evidence)
			ranks = append(ranks, rank)
			turnRanks = append(turnRanks, evidenceRank(firstN(turnItems(res.Results), topK), q.Evidence))
			byKind[q.Kind] = append(byKind[q.Kind], rank)
			byHalf[dataset.Half(r.ID)] = append(byHalf[dataset.Half(r.ID)], rank)
			if rank == 0 || rank > 3 {
				rep.Misses = append(rep.Misses, paraMiss{User: r.UserID, Query: q.Query, Kind: q.Kind, Evidence: q.Evidence,
					Rank: rank, Top: brief(res.Results, 3)})
			}
		}
	}
	rep.Ranks = ranks
	rep.Graphmem = paraAggregate(ranks)
	rep.GraphmemTurns = paraAggregate(turnRanks)
	for k, rs := range byKind {
		rep.ByKind[k] = paraAggregate(rs)
	}
	for h, rs := range byHalf {
		rep.ByHalf[h] = paraAggregate(rs)
	}
	rep.BM25 = paraAggregate(paraBM25Ranks(recs, d))
	return rep
}

func firstN[T any](xs []T, n int) []T {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}
