package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/graphmem/graphmem/bench/dataset"
)

// Knowledge-update scenarios, checked exactly as the dataset README
// defines them, through the public API only.

// The scenarios' format and loader live in bench/dataset, shared with the
// end-to-end tests and the offline engine's tests.
type (
	kuScenario = dataset.Scenario
	kuCheck    = dataset.Check
)

func loadKU(path string) ([]kuScenario, error) { return dataset.LoadScenarios(path) }

func containsAnyFold(text string, needles []string) bool {
	return dataset.ContainsAnyFold(text, needles)
}

// marked reports whether a result is marked as no longer current.
func marked(r searchResult) bool { return r.Status == "superseded" || r.Status == "invalid" }

// searchTopOutcome is the verdict of a search_top check plus the
// knowledge-update rates of the brief.
type searchTopOutcome struct {
	Pass bool
	// Rank is the 1-based rank of the first expected result (0: none).
	Rank int
	// CurrentFirst: the first result contains an expected string.
	CurrentFirst bool
	// SupersededTop5: a top-5 result is a fact the user's history lists
	// as superseded, yet the search did not mark it (the brief's measure).
	SupersededTop5 bool
	// RejectedTop5: a top-5 result contains a rejected string and is not
	// marked superseded, whatever its kind. Stricter than the brief: it
	// also counts raw turns and summaries that quote the old value, and
	// current facts about someone else ("Emma lives in Rome"); it is the
	// measure the BM25 baseline can be held to as well.
	RejectedTop5 bool
	Reason       string
}

// staleSet is what the user's fact history says is superseded: fact ids
// and their sentences (lower-cased), for results that carry either.
type staleSet struct{ ids, texts map[string]bool }

func newStaleSet(facts []fact) staleSet {
	s := staleSet{ids: map[string]bool{}, texts: map[string]bool{}}
	for _, f := range facts {
		if f.Status == "superseded" {
			s.ids[f.ID] = true
			s.texts[strings.ToLower(strings.TrimSpace(f.Fact))] = true
		}
	}
	return s
}

func (s staleSet) has(r searchResult) bool {
	return r.Kind == "fact" && (s.ids[r.ID] || s.texts[strings.ToLower(strings.TrimSpace(r.Text))])
}

// evalSearchTop: pass iff the first result containing an expect string is
// within k and no current result ranked before it contains a reject string.
func evalSearchTop(results []searchResult, ch kuCheck, stale staleSet) searchTopOutcome {
	var o searchTopOutcome
	for i, r := range results {
		if containsAnyFold(r.Text, ch.Expect) {
			o.Rank = i + 1
			break
		}
	}
	for i, r := range results {
		if i >= 5 {
			break
		}
		if !marked(r) && containsAnyFold(r.Text, ch.Reject) {
			o.RejectedTop5 = true
		}
		if !marked(r) && stale.has(r) {
			o.SupersededTop5 = true
		}
	}
	o.CurrentFirst = o.Rank == 1
	switch {
	case o.Rank == 0:
		o.Reason = "no result contains an expected string"
	case o.Rank > ch.K:
		o.Reason = fmt.Sprintf("first expected result at rank %d > k=%d", o.Rank, ch.K)
	default:
		for _, r := range results[:o.Rank-1] {
			if !marked(r) && containsAnyFold(r.Text, ch.Reject) {
				o.Reason = "a current result containing a rejected string ranks above the expected one"
				return o
			}
		}
		o.Pass = true
	}
	return o
}

// evalHistory: pass iff a result in the top k contains an expect string.
func evalHistory(results []searchResult, ch kuCheck) (bool, string) {
	for i, r := range results {
		if i >= ch.K {
			break
		}
		if containsAnyFold(r.Text, ch.Expect) {
			return true, ""
		}
	}
	return false, fmt.Sprintf("no result in the top %d contains an expected string", ch.K)
}

// evalPreference: pass iff a current preference whose object contains the
// check's object has its polarity and none on that object has the other.
func evalPreference(prefs []preference, ch kuCheck) (bool, string) {
	want, other := false, false
	for _, p := range prefs {
		if p.Status != "" && p.Status != "current" {
			continue
		}
		if !strings.Contains(strings.ToLower(p.Object), strings.ToLower(ch.Object)) {
			continue
		}
		if p.Polarity == ch.Polarity {
			want = true
		} else {
			other = true
		}
	}
	switch {
	case !want:
		return false, fmt.Sprintf("no current %s preference on %q", ch.Polarity, ch.Object)
	case other:
		return false, fmt.Sprintf("a current preference on %q has the other polarity too", ch.Object)
	}
	return true, ""
}

type kuReport struct {
	Scenarios     int                   `json:"scenarios"`
	Checks        int                   `json:"checks"`
	IngestSeconds float64               `json:"ingest_seconds"`
	ByType        map[string]*passCount `json:"pass_by_type"`
	// ByKind counts the checks of update scenarios and of no-change
	// controls apart (scenarios without a kind count as updates): a rule
	// that gains updates by breaking controls shows here.
	ByKind map[string]*passCount `json:"pass_by_kind"`
	All    passCount             `json:"pass_all"`
	// CurrentFirst: over the search_top checks that reject an old or
	// competing value (the update checks; those without rejects ask for
	// several coexisting things, e.g. two allergies with k = 3), the first
	// result contains an expected string: the brief's "current fact ranks
	// first", ≥ 0.98.
	CurrentFirst passCount `json:"current_ranks_first"`
	// SupersededTop5: over search_top checks, a top-5 result is a fact
	// the user's history (GET .../facts?include_history=true) lists as
	// superseded but the search left unmarked (the brief's "superseded fact
	// appears unmarked in top 5", ≤ 0.02).
	SupersededTop5 passCount `json:"superseded_fact_unmarked_in_top5"`
	// RejectedTop5: the stricter, text-only measure (see searchTopOutcome),
	// over the same checks as CurrentFirst.
	RejectedTop5 passCount   `json:"rejected_text_unmarked_in_top5"`
	Failures     []kuFailure `json:"failures"`
	// Outcomes lists every check with its verdict (and, for search_top,
	// the rank of the first expected result).
	Outcomes []kuOutcome `json:"outcomes"`
	// Leaks are passing search_top checks with a rejected string unmarked
	// in the top 5, listed so the rates can be read.
	Leaks  []kuFailure `json:"leaks,omitempty"`
	NotRun int         `json:"checks_not_run,omitempty"`
	// EmptyResults counts search checks answered with no result at all
	// (every scenario's user has memories, so the target is 0).
	EmptyResults int `json:"empty_results"`
	// VectorSeen counts search checks where a top-10 result had a vector
	// signal (0 when the server's vectors are off).
	VectorSeen int `json:"searches_with_vector_signal"`
	// Baseline runs the search_top and history checks against BM25 over
	// the scenario's raw events (nothing is ever marked superseded there).
	Baseline kuBaseline `json:"baseline_bm25_raw_events"`
}

type kuBaseline struct {
	ByType       map[string]*passCount `json:"pass_by_type"`
	CurrentFirst passCount             `json:"current_ranks_first"`
	RejectedTop5 passCount             `json:"rejected_text_unmarked_in_top5"`
}

// bm25Results ranks a scenario's raw events for query with BM25, as
// unmarked results, so the same check functions can score them.
func bm25Results(s kuScenario, query string) []searchResult {
	var docs []string
	for _, sess := range s.Sessions {
		for _, e := range sess.Events {
			docs = append(docs, e.Content)
		}
	}
	var out []searchResult
	for i, d := range newBM25(docs).rank(query) {
		if i >= topK {
			break
		}
		out = append(out, searchResult{Kind: "raw", Text: docs[d], Status: "current"})
	}
	return out
}

// runBaseline scores the search checks of every scenario on BM25.
func (b *kuBaseline) run(scen []kuScenario) {
	b.ByType = map[string]*passCount{}
	for _, s := range scen {
		for _, ch := range s.Checks {
			if ch.Type != "search_top" && ch.Type != "history" {
				continue
			}
			if b.ByType[ch.Type] == nil {
				b.ByType[ch.Type] = &passCount{}
			}
			res := bm25Results(s, ch.Query)
			if ch.Type == "history" {
				ok, _ := evalHistory(res, ch)
				b.ByType[ch.Type].add(ok)
				continue
			}
			o := evalSearchTop(res, ch, staleSet{})
			b.ByType[ch.Type].add(o.Pass)
			if len(ch.Reject) > 0 {
				b.CurrentFirst.add(o.CurrentFirst)
				b.RejectedTop5.add(o.RejectedTop5)
			}
		}
	}
}

type kuOutcome struct {
	Scenario string `json:"scenario"`
	Type     string `json:"type"`
	Query    string `json:"query,omitempty"`
	Object   string `json:"object,omitempty"`
	Pass     bool   `json:"pass"`
	Rank     int    `json:"rank,omitempty"`
}

type passCount struct {
	N      int     `json:"n"`
	Passed int     `json:"passed"`
	Rate   float64 `json:"rate"`
}

func (p *passCount) add(ok bool) {
	p.N++
	if ok {
		p.Passed++
	}
	p.Rate = round4(float64(p.Passed) / float64(p.N))
}

type kuFailure struct {
	Scenario string        `json:"scenario"`
	Check    kuCheck       `json:"check"`
	Reason   string        `json:"reason"`
	Top      []briefResult `json:"top,omitempty"`
	Prefs    []preference  `json:"preferences,omitempty"`
}

type briefResult struct {
	Rank   int    `json:"rank"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Text   string `json:"text"`
}

func brief(results []searchResult, n int) []briefResult {
	var out []briefResult
	for i, r := range results {
		if i >= n {
			break
		}
		out = append(out, briefResult{Rank: i + 1, Kind: r.Kind, Status: r.Status, Text: truncate(r.Text, 240)})
	}
	return out
}

// ingestKU appends each scenario's sessions (one session id each, events at
// the session time) and closes them in order; scenarios run concurrently.
func ingestKU(ctx context.Context, c *client, scen []kuScenario, p *progress) (float64, error) {
	start := time.Now()
	ts := &timedSessions{}
	sem := make(chan struct{}, 4)
	errs := make(chan error, len(scen))
	var wg sync.WaitGroup
	for _, s := range scen {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			for i, sess := range s.Sessions {
				var evs []eventIn
				for j, e := range sess.Events {
					evs = append(evs, eventIn{ID: fmt.Sprintf("s%d-e%d", i+1, j+1), Kind: "message", Role: e.Role,
						Content: e.Content, OccurredAt: sess.At.UTC().Format(time.RFC3339)})
				}
				if err := ts.appendThenClose(ctx, c, s.UserID, fmt.Sprintf("%s-s%d", s.ID, i+1), evs); err != nil {
					errs <- fmt.Errorf("%s: %w", s.ID, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	if err := c.drain(ctx, 200*time.Millisecond); err != nil {
		return 0, err
	}
	secs := round4(time.Since(start).Seconds())
	p.Printf("knowledge-update: %d scenarios ingested and extracted in %.1fs", len(scen), secs)
	return secs, nil
}

// kuSet is one named set of scenarios, reported apart: the visible set,
// and the dev and held-out halves of the project's own set.
type kuSet struct {
	Name string
	Scen []kuScenario
}

// Names of the knowledge-update sets.
const (
	kuVisible = "visible"
	kuDev     = dataset.Dev
	kuHeldOut = dataset.HeldOut
	// The assistant-chat sets (bench/data/ku-chats-*.jsonl), split by file:
	// the first was read while the engine changed, the second was not.
	kuChatsDev     = "chats-dev"
	kuChatsHeldOut = "chats-held-out"
	// The blind assistant-chat sets written after a rule they test
	// (bench/data/ku-chats-g.jsonl on), split within each file by
	// dataset.Half: only the dev half's failures are read.
	kuBlindDev     = "blind-dev"
	kuBlindHeldOut = "blind-held-out"
)

// kuSetNames are the knowledge-update sets in report order.
var kuSetNames = []string{kuVisible, kuDev, kuHeldOut, kuChatsDev, kuChatsHeldOut, kuBlindDev, kuBlindHeldOut}

// blindSets splits the blind chat scenarios by dataset.Half; only the
// sets of which wanted, when wanted is not empty.
func blindSets(scen []kuScenario, wanted []string) []kuSet {
	sets := []kuSet{{Name: kuBlindDev}, {Name: kuBlindHeldOut}}
	for _, s := range scen {
		i := 0
		if dataset.Half(s.ID) == dataset.HeldOut {
			i = 1
		}
		sets[i].Scen = append(sets[i].Scen, s)
	}
	var out []kuSet
	for _, set := range sets {
		if len(set.Scen) > 0 && (len(wanted) == 0 || slices.Contains(wanted, set.Name)) {
			out = append(out, set)
		}
	}
	return out
}

// chatSets names the assistant-chat sets by file: dev first, then
// held-out; only those of which wanted, when wanted is not empty.
func chatSets(devSet, heldOut []kuScenario, wanted []string) []kuSet {
	var out []kuSet
	for _, set := range []kuSet{{Name: kuChatsDev, Scen: devSet}, {Name: kuChatsHeldOut, Scen: heldOut}} {
		if len(set.Scen) > 0 && (len(wanted) == 0 || slices.Contains(wanted, set.Name)) {
			out = append(out, set)
		}
	}
	return out
}

// kuSets names the visible scenarios and splits the project's own by
// dataset.Half, dropping empty sets; only lists the sets of which wanted,
// when wanted is not empty.
func kuSets(visible, own []kuScenario, wanted []string) []kuSet {
	sets := []kuSet{{Name: kuVisible, Scen: visible}, {Name: kuDev}, {Name: kuHeldOut}}
	for _, s := range own {
		if dataset.Half(s.ID) == dataset.Dev {
			sets[1].Scen = append(sets[1].Scen, s)
		} else {
			sets[2].Scen = append(sets[2].Scen, s)
		}
	}
	var out []kuSet
	for _, set := range sets {
		if len(set.Scen) > 0 && (len(wanted) == 0 || slices.Contains(wanted, set.Name)) {
			out = append(out, set)
		}
	}
	return out
}

// runKUSets ingests the scenarios of every set at once (one ingest, one
// drain), then checks each set apart.
func runKUSets(ctx context.Context, c *client, sets []kuSet, searchOK bool, p *progress) (map[string]*kuReport, float64, error) {
	var all []kuScenario
	for _, set := range sets {
		all = append(all, set.Scen...)
	}
	secs, err := ingestKU(ctx, c, all, p)
	if err != nil {
		return nil, secs, err
	}
	out := map[string]*kuReport{}
	for _, set := range sets {
		rep, err := checkKU(ctx, c, set.Scen, searchOK)
		rep.IngestSeconds = secs
		out[set.Name] = rep
		if err != nil {
			return out, secs, fmt.Errorf("%s: %w", set.Name, err)
		}
		p.Printf("knowledge-update %s: %d/%d checks pass, %d empty result lists", set.Name, rep.All.Passed, rep.All.N, rep.EmptyResults)
	}
	return out, secs, nil
}

// runKU ingests and checks every scenario as one set.
func runKU(ctx context.Context, c *client, scen []kuScenario, searchOK bool, p *progress) (*kuReport, error) {
	reps, _, err := runKUSets(ctx, c, []kuSet{{Name: kuVisible, Scen: scen}}, searchOK, p)
	if reps == nil {
		return &kuReport{Scenarios: len(scen)}, err
	}
	return reps[kuVisible], err
}

// checkKU runs the checks of scenarios already ingested.
func checkKU(ctx context.Context, c *client, scen []kuScenario, searchOK bool) (*kuReport, error) {
	rep := &kuReport{Scenarios: len(scen), ByType: map[string]*passCount{}, ByKind: map[string]*passCount{}}
	rep.Baseline.run(scen)
	for _, s := range scen {
		var stale staleSet
		if searchOK {
			facts, err := c.factHistory(ctx, s.UserID)
			if err != nil {
				return rep, fmt.Errorf("%s: fact history: %w", s.ID, err)
			}
			stale = newStaleSet(facts)
		}
		for _, ch := range s.Checks {
			rep.Checks++
			if rep.ByType[ch.Type] == nil {
				rep.ByType[ch.Type] = &passCount{}
			}
			fail := kuFailure{Scenario: s.ID, Check: ch}
			var ok bool
			rank := 0
			switch ch.Type {
			case "search_top", "history":
				if !searchOK {
					rep.NotRun++
					continue
				}
				res, err := c.search(ctx, searchRequest{UserID: s.UserID, Query: ch.Query, Limit: topK, IncludeHistory: ch.Type == "history"})
				if err != nil {
					fail.Reason = err.Error()
					break
				}
				fail.Top = brief(res.Results, 5)
				if len(res.Results) == 0 {
					rep.EmptyResults++
				}
				if vectorSeen(res.Results) {
					rep.VectorSeen++
				}
				if ch.Type == "history" {
					ok, fail.Reason = evalHistory(res.Results, ch)
					break
				}
				o := evalSearchTop(res.Results, ch, stale)
				ok, fail.Reason, rank = o.Pass, o.Reason, o.Rank
				rep.SupersededTop5.add(o.SupersededTop5)
				if len(ch.Reject) > 0 {
					rep.CurrentFirst.add(o.CurrentFirst)
					rep.RejectedTop5.add(o.RejectedTop5)
				}
				if o.Pass && (o.RejectedTop5 || o.SupersededTop5) {
					reason := "a rejected string is unmarked in the top 5"
					if o.SupersededTop5 {
						reason = "a superseded fact is unmarked in the top 5"
					}
					rep.Leaks = append(rep.Leaks, kuFailure{Scenario: s.ID, Check: ch, Reason: reason, Top: fail.Top})
				}
			case "preference":
				prefs, err := c.preferences(ctx, s.UserID)
				if err != nil {
					fail.Reason = err.Error()
					break
				}
				ok, fail.Reason = evalPreference(prefs, ch)
				fail.Prefs = prefs
			default:
				fail.Reason = "unknown check type"
			}
			rep.ByType[ch.Type].add(ok)
			if rep.ByKind[kindGroup(s.Kind)] == nil {
				rep.ByKind[kindGroup(s.Kind)] = &passCount{}
			}
			rep.ByKind[kindGroup(s.Kind)].add(ok)
			rep.All.add(ok)
			rep.Outcomes = append(rep.Outcomes, kuOutcome{Scenario: s.ID, Type: ch.Type, Query: ch.Query, Object: ch.Object, Pass: ok, Rank: rank})
			if !ok {
				rep.Failures = append(rep.Failures, fail)
			}
		}
	}
	return rep, nil
}

// kindGroup is "controls" for a no-change control ("control-adds",
// "control_other_person") and "updates" for every other kind.
func kindGroup(kind string) string {
	if strings.HasPrefix(kind, "control") {
		return "controls"
	}
	return "updates"
}

// loadChats reads the assistant-chat sets of -ku-chats: "dev,held-out",
// each a file or files joined by "+" ("a.jsonl+c.jsonl,b.jsonl+d.jsonl").
func loadChats(spec string) (dev, held []kuScenario, err error) {
	parts := splitList(spec)
	if len(parts) != 2 {
		return nil, nil, fmt.Errorf("-ku-chats wants the dev files, then the held-out files; got %q", spec)
	}
	sets := make([][]kuScenario, 2)
	for i, part := range parts {
		for _, f := range strings.Split(part, "+") {
			scen, err := loadKU(strings.TrimSpace(f))
			if err != nil {
				return nil, nil, fmt.Errorf("ku-chats load: %w", err)
			}
			sets[i] = append(sets[i], scen...)
		}
	}
	return sets[0], sets[1], nil
}
