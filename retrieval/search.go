package memory

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// Result kinds.
const (
	KindRaw     = "raw"
	KindEvent   = "event"
	KindInsight = "insight"
	KindFact    = "fact"
	KindEntity  = "entity"
)

// SearchInput is one retrieval request.
type SearchInput struct {
	UserID         string
	AgentID        string // raw turns and summaries of this agent's sessions only
	SessionID      string // raw turns and summaries of this session only
	Query          string
	Limit          int
	Tiers          []string // kinds to return; empty means all
	AsOf           *time.Time
	IncludeHistory bool
	Explain        bool
}

// ScoreParts are the signals a result's score combines.
type ScoreParts struct {
	FullText float64 // BM25, normalized by the best hit of the same index
	Vector   float64 // cosine similarity, when an embedder is configured
	Graph    float64 // reached from an entity the query names, decayed per hop
	Recency  float64 // 1 now, halving every half-life before as_of
	Tier     float64 // the weight of the result's kind
}

// SearchResult is one ranked memory.
type SearchResult struct {
	ID             string
	Kind           string
	Text           string
	Score          float64
	Parts          ScoreParts
	Status         string // current | superseded
	Polarity       string // facts: positive | negative
	ValidFrom      time.Time
	ValidTo        time.Time
	OccurredAt     time.Time
	SourceEventIDs []string
	SessionID      string
	// Path is how graph traversal reached the result, one step per hop.
	Path        []string
	Explanation string
	// sessions are where a fact's or an insight's sources were said.
	sessions []string
}

// SearchOutput is the ranked list with what the query was read as.
type SearchOutput struct {
	Results  []SearchResult
	Terms    []string
	Entities []string
	Hints    []string
}

// SearchConfig tunes ranking. Defaults are documented in docs/retrieval.md
// and were chosen on the LoCoMo development conversations and the
// knowledge-update scenarios, then checked to hold on held-out wording.
type SearchConfig struct {
	// Fusion is "weighted" (a weighted sum of normalized signals) or "rrf"
	// (reciprocal rank fusion over the per-signal rankings, k=60).
	Fusion        string
	WeightText    float64
	WeightVector  float64
	WeightGraph   float64
	WeightRecency float64
	// HalfLife of the recency decay.
	HalfLife time.Duration
	// Hops bounds graph traversal (1-3); HopDecay multiplies each hop.
	Hops     int
	HopDecay float64
	// TierWeights scale each kind's score.
	TierWeights map[string]float64
	// StalePenalty scales raw events whose every fact was superseded, when
	// history is not asked for.
	StalePenalty float64
	// NegativeFactWeight scales current negative facts ("no longer ...").
	NegativeFactWeight float64
	// SpeakerBoost scales turns spoken by a person the query names.
	SpeakerBoost float64
	// QuestionWeight scales a question asked by someone other than the
	// person the query is about.
	QuestionWeight float64
	// WindowBoost raises a turn by the score of the summary covering it.
	WindowBoost float64
	// Pool is how many full-text candidates each of the raw and fact
	// indexes contributes (at least 3 × limit).
	Pool int
}

// DefaultSearchConfig returns the ranking defaults.
func DefaultSearchConfig() SearchConfig {
	return SearchConfig{
		Fusion: "weighted", WeightText: 1, WeightVector: 0.8, WeightGraph: 0.7, WeightRecency: 0.05,
		HalfLife: 180 * 24 * time.Hour, Hops: 2, HopDecay: 0.5,
		TierWeights:  map[string]float64{KindFact: 1.05, KindRaw: 1, KindInsight: 0.8, KindEvent: 0.55, KindEntity: 0.5},
		StalePenalty: 0.5, NegativeFactWeight: 0.75, SpeakerBoost: 1.3, Pool: 30, WindowBoost: 0.5, QuestionWeight: 0.75,
	}
}

// searchStore is what retrieval needs from the graph.
type searchStore interface {
	SearchText(ctx context.Context, sc graph.SearchScope, terms, grams []string, aboutUser bool, lim graph.TextLimits) (graph.Candidates, error)
	Expand(ctx context.Context, sc graph.SearchScope, seeds, types []string, perEntity int, rare []string, mentionLimit int) (graph.Expansion, error)
	Neighbors(ctx context.Context, sc graph.SearchScope, entityIDs []string, types []string, perEntity int) ([]graph.Hop, error)
}

var allKinds = []string{KindRaw, KindEvent, KindInsight, KindFact, KindEntity}

// candidate is a result being scored.
type candidate struct {
	SearchResult
	speaker string    // raw turns: who said it
	role    string    // raw turns: user, assistant, ...
	ends    [2]string // facts: subject and object entity ids
	stale   bool      // raw turns: every fact read from it was superseded
}

// Search ranks a user's memories for a query by combining full text over
// every tier, graph traversal from the entities the query names, and
// recency. Current facts only unless IncludeHistory; raw events whose facts
// were all superseded are marked and ranked lower. Results resting on the
// same events are de-duplicated, best first.
func (s *Service) Search(ctx context.Context, tenant string, in SearchInput) (SearchOutput, error) {
	if err := validateSearch(in); err != nil {
		return SearchOutput{}, err
	}
	cfg := s.cfg.Search
	limit := in.Limit
	if limit <= 0 {
		limit = 10
	}
	kinds := in.Tiers
	if len(kinds) == 0 {
		kinds = allKinds
	}
	want := func(k string) bool { return slices.Contains(kinds, k) }
	sc := graph.SearchScope{Tenant: tenant, UserID: in.UserID, SessionID: in.SessionID, AgentID: in.AgentID,
		AsOf: in.AsOf, IncludeHistory: in.IncludeHistory}
	q := analyzeQuery(in.Query, s.hints)
	tc := termCache{}
	out := SearchOutput{Terms: q.Words}
	for p := range q.Predicates {
		out.Hints = append(out.Hints, p)
	}
	sort.Strings(out.Hints)

	// Full text: generous candidate pools, always fetched for raw events
	// (event summaries point at them) and entities (graph seeds).
	pool := max(limit*3, cfg.Pool)
	lim := graph.TextLimits{Raw: pool}
	// Facts, summaries and insights rarely reach the top in numbers, and
	// summaries are long: smaller pools keep each search cheap.
	if want(KindFact) {
		lim.Facts = max(limit*2, cfg.Pool*5/6)
	}
	if want(KindEvent) {
		lim.Events = 5
	}
	if want(KindInsight) {
		lim.Insights = 5
	}
	cands, err := s.store.SearchText(ctx, sc, q.Words, nameGrams(in.Query), q.AboutUser, lim)
	if err != nil {
		return SearchOutput{}, err
	}

	byID := map[string]*candidate{}
	add := func(c *candidate) *candidate {
		key := candidateKey(c)
		if old, ok := byID[key]; ok {
			old.Parts.FullText = max(old.Parts.FullText, c.Parts.FullText)
			old.Parts.Graph = max(old.Parts.Graph, c.Parts.Graph)
			old.Parts.Vector = max(old.Parts.Vector, c.Parts.Vector)
			if len(old.Path) == 0 {
				old.Path = c.Path
			}
			return old
		}
		byID[key] = c
		return c
	}
	// Raw ids are the client's and unique only within their session, so
	// turns are keyed by session and id throughout.
	rawText := map[string]float64{}        // turn key → normalized text score, for event provenance
	replies := map[string]graph.RawEvent{} // question turn key → the turn after it
	if top := topScore(len(cands.Raw), func(i int) float64 { return cands.Raw[i].Score }); top > 0 {
		for _, h := range cands.Raw {
			n := h.Score / top
			rawText[turnKey(h.Event.SessionID, h.Event.ID)] = n
			if h.Next != nil {
				replies[turnKey(h.Event.SessionID, h.Event.ID)] = *h.Next
			}
			if want(KindRaw) && h.Event.Kind != "condensation_request" {
				c := rawCandidate(h.Event)
				c.Parts.FullText = n
				add(c)
			}
		}
	}
	if top := topScore(len(cands.Facts), func(i int) float64 { return cands.Facts[i].Score }); top > 0 {
		for _, h := range cands.Facts {
			c := factCandidate(h.Fact)
			c.Parts.FullText = h.Score / top
			c.Parts.Graph = 0.3 * q.Predicates[h.Fact.Predicate] // a fact of the asked-about kind
			add(c)
		}
	}
	windowScore := map[string]float64{} // turn key → normalized score of the summary covering it
	if top := topScore(len(cands.Events), func(i int) float64 { return cands.Events[i].Score }); top > 0 {
		for _, h := range cands.Events {
			c := eventCandidate(h.Node, rawText)
			c.Parts.FullText = h.Score / top
			add(c)
			for _, id := range h.Node.CoveredIDs {
				k := turnKey(h.Node.SessionID, id)
				windowScore[k] = max(windowScore[k], h.Score/top)
			}
		}
	}
	// A turn whose window's summary matches the query sits in the part of
	// the conversation the query is about: matching whole sessions finds
	// the right one more reliably than matching single turns does.
	for k, w := range windowScore {
		if c := byID[KindRaw+":"+k]; c != nil {
			c.Parts.FullText *= 1 + cfg.WindowBoost*w
		}
	}
	if top := topScore(len(cands.Insights), func(i int) float64 { return cands.Insights[i].Score }); top > 0 {
		for _, h := range cands.Insights {
			c := insightCandidate(h.Insight)
			c.Parts.FullText = h.Score / top
			add(c)
		}
	}

	// Vectors: the query's nearest tiered nodes, when an embedder is set.
	if s.embedder != nil {
		if err := s.vectorCandidates(ctx, sc, in.Query, pool, want, rawText, add); err != nil {
			return SearchOutput{}, err
		}
	}

	// Graph: seed entities the query names (and the user, when the query
	// is about them), then walk current facts hop by hop.
	seeds := seedEntities(cands)
	// People the query names are its anchors, not its topic: "What is
	// John's degree in?" is about "degree". Other entities it names
	// ("pottery workshop") are the topic and stay in it.
	var people []string
	for _, seed := range seeds {
		out.Entities = append(out.Entities, seed.Name)
		if seed.Type == "Person" {
			people = append(people, seed.Name)
		}
	}
	topic := q.withoutNames(people)
	// An entity card is a result only when the query is about the entity
	// itself ("Emma?") or entities were asked for; otherwise it would take
	// a slot without saying anything the facts do not.
	if explicit := slices.Contains(in.Tiers, KindEntity); want(KindEntity) && (explicit || len(topic) == 0) {
		for _, seed := range seeds {
			if !seed.IsUser {
				add(&candidate{SearchResult: SearchResult{ID: seed.ID, Kind: KindEntity, Text: seed.Name + " (" + seed.Type + ")",
					Status: "current", Parts: ScoreParts{Graph: 1}}})
			}
		}
	}
	if len(seeds) > 0 {
		if err := s.expandGraph(ctx, sc, q, tc, topic, seeds, cfg, want, add); err != nil {
			return SearchOutput{}, err
		}
	}

	citeEntityCards(byID)

	if want(KindRaw) {
		conversationContext(byID, replies, add)
	}

	// Full text rewards a memory by what it says about the topic, not by
	// the names it shares with the query (BM25 normalized per index makes
	// the best name-only fact look like a perfect match otherwise).
	if len(topic) > 0 {
		for _, c := range byID {
			if c.Parts.FullText > 0 {
				c.Parts.FullText *= 0.2 + 0.8*tc.coverage(topic, c.Text)
			}
		}
	}
	// A turn spoken by a person the query asks about answers it more often
	// than one addressed to them; a question someone else asks them echoes
	// the query's words but is not the evidence (its reply is added above).
	for _, c := range byID {
		if c.Kind != KindRaw {
			continue
		}
		// About the user: the assistant's remarks ("Sushi is great.") are
		// not evidence of what the user thinks.
		if q.AboutUser && c.speaker == "" {
			if c.role == "assistant" {
				c.Parts.FullText *= cfg.QuestionWeight
			}
			continue
		}
		if c.speaker == "" || len(people) == 0 {
			continue
		}
		if slices.ContainsFunc(people, func(p string) bool { return strings.EqualFold(p, c.speaker) }) {
			c.Parts.FullText *= cfg.SpeakerBoost
			c.Parts.Graph *= cfg.SpeakerBoost
		} else if strings.Contains(c.Text, "?") {
			c.Parts.FullText *= cfg.QuestionWeight
		}
	}
	out.Results = dedupeByEvents(s.rank(in, cfg, byID), limit)
	if in.Explain {
		for i := range out.Results {
			out.Results[i].Explanation = explain(out.Results[i], q)
		}
	}
	return out, nil
}

// citeEntityCards gives each entity card the sources of the best facts
// about it found by this search, so every result rests on events.
func citeEntityCards(byID map[string]*candidate) {
	var facts []*candidate
	for _, c := range byID {
		if c.Kind == KindFact {
			facts = append(facts, c)
		}
	}
	sort.Slice(facts, func(i, j int) bool {
		if ri, rj := facts[i].Parts.FullText+facts[i].Parts.Graph, facts[j].Parts.FullText+facts[j].Parts.Graph; ri != rj {
			return ri > rj
		}
		return facts[i].ID < facts[j].ID
	})
	for _, c := range byID {
		if c.Kind != KindEntity {
			continue
		}
		seen := map[string]bool{}
		for _, f := range facts {
			if f.ends[0] != c.ID && f.ends[1] != c.ID {
				continue
			}
			for _, id := range f.SourceEventIDs {
				if !seen[id] && len(c.SourceEventIDs) < 3 {
					seen[id] = true
					c.SourceEventIDs = append(c.SourceEventIDs, id)
				}
			}
		}
	}
}

// conversationContext adds the reply to each of the best raw hits that
// asks a question: the answer rarely repeats the question's words. It is a
// hop along the conversation's own order (turns that mention a rare entity
// the query names come with the graph expansion).
func conversationContext(byID map[string]*candidate, replies map[string]graph.RawEvent, add func(*candidate) *candidate) {
	var raws []*candidate
	for _, c := range byID {
		if c.Kind == KindRaw && c.Parts.FullText > 0 {
			raws = append(raws, c)
		}
	}
	sort.Slice(raws, func(i, j int) bool {
		if raws[i].Parts.FullText != raws[j].Parts.FullText {
			return raws[i].Parts.FullText > raws[j].Parts.FullText
		}
		return raws[i].ID < raws[j].ID
	})
	for _, q := range raws[:min(len(raws), 15)] {
		r, ok := replies[turnKey(q.SessionID, q.ID)]
		if !ok || r.Name == q.speaker {
			continue
		}
		c := rawCandidate(r)
		c.Parts.Graph = 0.8 * q.Parts.FullText
		c.Path = []string{"answers " + q.ID}
		add(c)
	}
}

// specificity says how much naming an entity narrows a search: 1 for an
// entity mentioned once, falling slowly for ones mentioned everywhere (the
// two people of a conversation).
func specificity(mentions int64) float64 {
	return 1 / (1 + math.Log1p(float64(max(mentions-1, 0))/4))
}

// vectorCandidates adds the vector index's nearest neighbours of the query.
func (s *Service) vectorCandidates(ctx context.Context, sc graph.SearchScope, query string, pool int, want func(string) bool,
	rawText map[string]float64, add func(*candidate) *candidate) error {
	vecs, err := s.embedder.Embed(ctx, []string{query})
	if err != nil {
		return fmt.Errorf("embed query: %w", engineError(err))
	}
	if len(vecs) != 1 {
		return fmt.Errorf("embed query: %w: the embedder returned %d vectors for one text", errs.ErrUnavailable, len(vecs))
	}
	hits, err := s.store.VectorSearch(ctx, sc, vecs[0], pool)
	if err != nil {
		return err
	}
	for _, h := range hits {
		var c *candidate
		switch {
		case h.Kind == KindRaw && want(KindRaw):
			c = rawCandidate(h.Raw)
		case h.Kind == KindEvent && want(KindEvent):
			c = eventCandidate(h.Node, rawText)
		case h.Kind == KindInsight && want(KindInsight):
			c = insightCandidate(h.Insight)
		default:
			continue
		}
		c.Parts.Vector = h.Score
		add(c)
	}
	return nil
}

// maxSeeds bounds how many entities graph search starts from.
const maxSeeds = 4

// seedEntities picks the entities graph search starts from: those whose
// normalized name the query contains (the most specific first, longer
// names before the shorter ones they contain), and the user's entity when
// the query is about the user.
func seedEntities(c graph.Candidates) []graph.EntityHit {
	hits := slices.Clone(c.Entities)
	sort.SliceStable(hits, func(i, j int) bool {
		if len(hits[i].NormName) != len(hits[j].NormName) {
			return len(hits[i].NormName) > len(hits[j].NormName)
		}
		return hits[i].MentionCount < hits[j].MentionCount
	})
	var seeds []graph.EntityHit
	seen := map[string]bool{}
	if c.User != nil {
		seeds = append(seeds, *c.User)
		seen[c.User.ID] = true
	}
	for _, h := range hits {
		if !seen[h.ID] && len(seeds) < maxSeeds {
			seeds = append(seeds, h)
			seen[h.ID] = true
		}
	}
	return seeds
}

// expandGraph walks up to cfg.Hops hops of current facts from the seeds.
// A fact's graph score is its relevance to the query (the predicate it was
// asked about, the query words its sentence shares) decayed per hop; the
// next hop continues only from the best-scoring entities reached.
func (s *Service) expandGraph(ctx context.Context, sc graph.SearchScope, q queryAnalysis, tc termCache, topic map[string]bool, seeds []graph.EntityHit,
	cfg SearchConfig, want func(string) bool, add func(*candidate) *candidate) error {
	frontier := make([]string, 0, len(seeds))
	names := map[string]string{}
	spec := map[string]float64{} // seed id → specificity
	isSeed := map[string]bool{}
	for _, sd := range seeds {
		isSeed[sd.ID] = true
		frontier = append(frontier, sd.ID)
		names[sd.ID] = sd.Name
		if !sd.IsUser {
			spec[sd.ID] = specificity(sd.MentionCount)
		}
	}
	rest := map[string]bool{}
	for st := range topic {
		if !q.HintStems[st] {
			rest[st] = true
		}
	}
	// Typed hops follow the fact types the question asks about; facts of
	// other types that matter carry the query's words and come from the
	// fact full-text index already.
	var types []string
	for p, w := range q.Predicates {
		if w >= 0.4 {
			types = append(types, p)
		}
	}
	sort.Strings(types)
	score := func(f graph.Fact, decay float64) float64 {
		// A hinted type counts fully only when the fact also covers the rest
		// of the topic: "John is reading a book" is a READ fact but says
		// nothing of "favorite series".
		text := f.Fact + " " + f.Object + " " + f.Qualifier + " " + f.RawPredicate
		rel := q.Predicates[f.Predicate] * (0.3 + 0.7*tc.coverage(rest, text))
		words := 0.0
		if len(topic) > 0 {
			words = tc.coverage(topic, text)
		}
		// A fact joining two entities the query names ("Caroline went to the
		// pride parade") is about the question whatever its words; the rarer
		// the entities, the more it says.
		joins := 0.0
		if isSeed[f.SubjectID] && isSeed[f.ObjectID] {
			joins = max(spec[f.SubjectID], spec[f.ObjectID])
		}
		return min(decay*(0.6*rel+0.6*words+0.8*joins), 1)
	}
	consider := func(h graph.Hop, hop int, decay float64) float64 {
		got := score(h.Fact, decay)
		if got <= 0 {
			return 0
		}
		f := h.Fact
		c := factCandidate(f)
		c.Parts.Graph = got
		c.Path = []string{fmt.Sprintf("%s -[%s]-> %s", f.Subject, f.Predicate, f.Object)}
		if from := names[h.From]; from != "" && hop > 1 {
			c.Path = append([]string{"via " + from}, c.Path...)
		}
		add(c)
		return got
	}
	// One round trip: facts joining the seeds, the first typed hop, and
	// the turns that mention the rare seeds.
	var rare []string
	for _, sd := range seeds {
		if spec[sd.ID] >= 0.5 {
			rare = append(rare, sd.ID)
		}
	}
	exp, err := s.store.Expand(ctx, sc, frontier, types, 100, rare, 20)
	if err != nil {
		return err
	}
	for _, m := range exp.Mentions {
		if !want(KindRaw) {
			break
		}
		c := rawCandidate(m.Event)
		best := 0.0
		for _, id := range m.Entities {
			best = max(best, spec[id])
			c.Path = append(c.Path, "mentions "+names[id])
		}
		c.Parts.Graph = 0.5 * best
		add(c)
	}
	if !want(KindFact) {
		return nil
	}
	for _, h := range exp.Between {
		consider(h, 1, 1)
	}
	if len(types) == 0 {
		return nil
	}
	visited := map[string]bool{}
	decay := 1.0
	for hop := 1; hop <= cfg.Hops && len(frontier) > 0; hop++ {
		for _, id := range frontier {
			visited[id] = true
		}
		// The first hop came with the expansion; further hops only follow
		// the few entities the query made relevant, so depth costs little.
		hops := exp.Hops
		if hop > 1 {
			if hops, err = s.store.Neighbors(ctx, sc, frontier, types, 30); err != nil {
				return err
			}
		}
		next := map[string]float64{}
		for _, h := range hops {
			got := consider(h, hop, decay)
			if got >= 0.2 && !visited[h.ToID] {
				next[h.ToID] = max(next[h.ToID], got)
				names[h.ToID] = h.ToName
			}
		}
		frontier = topKeys(next, 4)
		decay *= cfg.HopDecay
	}
	return nil
}

// rank computes final scores: the fused relevance, the tier weight,
// recency, and the status of each result.
func (s *Service) rank(in SearchInput, cfg SearchConfig, byID map[string]*candidate) []SearchResult {
	asOf := s.now()
	if in.AsOf != nil {
		asOf = *in.AsOf
	}
	list := make([]*candidate, 0, len(byID))
	for _, c := range byID {
		list = append(list, c)
	}
	rrf := cfg.Fusion == "rrf"
	var ranks map[*candidate]float64
	if rrf {
		ranks = rrfScores(list)
	}
	out := make([]SearchResult, 0, len(list))
	for _, c := range list {
		c.Parts.Tier = cfg.TierWeights[c.Kind]
		if c.Parts.Tier == 0 {
			c.Parts.Tier = 1
		}
		when := c.OccurredAt
		if c.Kind == KindFact && !c.ValidFrom.IsZero() {
			when = c.ValidFrom
		}
		if !when.IsZero() {
			age := max(asOf.Sub(when), 0)
			c.Parts.Recency = math.Pow(0.5, float64(age)/float64(cfg.HalfLife))
		}
		rel := relevance(c, cfg)
		if rrf {
			rel = ranks[c]
		}
		c.Score = c.Parts.Tier*rel + cfg.WeightRecency*c.Parts.Recency
		if c.Kind == KindFact && c.Polarity == "negative" {
			// A denial answers "does the user still...", not "what does the
			// user...": it ranks below the statements it sits beside.
			c.Score *= cfg.NegativeFactWeight
		}
		if c.Kind == KindRaw && c.stale {
			c.Status = "superseded"
			if !in.IncludeHistory {
				c.Score *= cfg.StalePenalty
			}
		}
		if c.Kind == KindFact && c.Status == "superseded" && in.AsOf == nil {
			if !in.IncludeHistory {
				continue // only reached through a path; current-by-default
			}
			// History is asked for beside what holds now, not instead of
			// it: a closed fact ranks just below its successor.
			c.Score *= supersededHistoryWeight
		}
		out = append(out, c.SearchResult)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// supersededHistoryWeight is a superseded fact's score factor when history
// is asked for: enough to put the current value first when both match the
// query alike, too little to hide history behind weaker matches.
const supersededHistoryWeight = 0.9

// relevance is a candidate's weighted signals, before tier and recency.
func relevance(c *candidate, cfg SearchConfig) float64 {
	return cfg.WeightText*c.Parts.FullText + cfg.WeightVector*c.Parts.Vector + cfg.WeightGraph*c.Parts.Graph
}

// rrfScores ranks candidates per signal and sums 1/(60+rank).
func rrfScores(list []*candidate) map[*candidate]float64 {
	out := make(map[*candidate]float64, len(list))
	signals := []func(*candidate) float64{
		func(c *candidate) float64 { return c.Parts.FullText },
		func(c *candidate) float64 { return c.Parts.Vector },
		func(c *candidate) float64 { return c.Parts.Graph },
	}
	for _, sig := range signals {
		sorted := slices.Clone(list)
		sort.SliceStable(sorted, func(i, j int) bool { return sig(sorted[i]) > sig(sorted[j]) })
		for rank, c := range sorted {
			if sig(c) > 0 {
				out[c] += 1 / float64(60+rank+1)
			}
		}
	}
	return out
}

// maxMergedFacts bounds how many facts read from the same turns share one
// result.
const maxMergedFacts = 3

// dedupeByEvents keeps results in order and drops a raw turn or a summary
// whose source events are all covered by results already kept: a fact and
// the turn it was read from are one memory, not two. Facts read from the
// same turns ("sold the Corolla", "bought a Tesla") are different memories
// but one piece of evidence: they merge into one result whose text joins
// their sentences.
func dedupeByEvents(results []SearchResult, limit int) []SearchResult {
	covered := map[string]bool{}
	factAt := map[string]int{} // source set → index of the fact result in out
	merged := map[int]int{}
	out := make([]SearchResult, 0, limit)
	for _, r := range results {
		if r.Kind == KindFact && len(r.SourceEventIDs) > 0 {
			key := strings.Join(slices.Sorted(slices.Values(r.SourceEventIDs)), "\x00")
			if i, ok := factAt[key]; ok {
				if merged[i] < maxMergedFacts-1 && !strings.Contains(out[i].Text, r.Text) {
					out[i].Text += "; " + r.Text
					for _, step := range r.Path {
						if !slices.Contains(out[i].Path, step) {
							out[i].Path = append(out[i].Path, step)
						}
					}
					merged[i]++
				}
				continue
			}
			if len(out) < limit {
				factAt[key] = len(out)
			}
		}
		if len(out) == limit {
			break
		}
		keys := sourceKeys(r)
		if len(keys) > 0 && r.Kind != KindFact && !slices.ContainsFunc(keys, func(k string) bool { return !covered[k] }) {
			continue
		}
		for _, k := range keys {
			covered[k] = true
		}
		for _, id := range r.SourceEventIDs {
			covered[id] = true // for results that know only bare ids
		}
		out = append(out, r)
	}
	return out
}

// turnKey names a raw turn: its id is unique within its session only.
func turnKey(sessionID, id string) string { return sessionID + "\x00" + id }

// candidateKey identifies a candidate across the signals that find it.
func candidateKey(c *candidate) string {
	if c.Kind == KindRaw {
		return KindRaw + ":" + turnKey(c.SessionID, c.ID)
	}
	return c.Kind + ":" + c.ID
}

// sourceKeys are the turns a result rests on, as turn keys. A result from
// one session names its turns exactly; a fact read from several sessions
// could rest on any of them by a shared id, and claims them all (dropping,
// at worst, a turn that repeats what it says). An insight does not record
// its sessions: its keys are the bare ids.
func sourceKeys(r SearchResult) []string {
	sessions := r.sessions
	if r.SessionID != "" {
		sessions = []string{r.SessionID}
	}
	if len(sessions) == 0 {
		return r.SourceEventIDs
	}
	keys := make([]string, 0, len(r.SourceEventIDs)*max(len(sessions), 1))
	for _, id := range r.SourceEventIDs {
		for _, s := range sessions {
			keys = append(keys, turnKey(s, id))
		}
	}
	return keys
}

func rawCandidate(r graph.RawEvent) *candidate {
	text := r.Content
	if r.Name != "" {
		text = r.Name + ": " + r.Content
	}
	if c, ok := r.Metadata["caption"].(string); ok && c != "" {
		text += " [image: " + c + "]"
	}
	return &candidate{SearchResult: SearchResult{ID: r.ID, Kind: KindRaw, Text: text, Status: "current",
		OccurredAt: r.OccurredAt, SourceEventIDs: []string{r.ID}, SessionID: r.SessionID}, speaker: r.Name, role: r.Role, stale: r.Stale}
}

func factCandidate(f graph.Fact) *candidate {
	return &candidate{SearchResult: SearchResult{ID: f.ID, Kind: KindFact, Text: f.Fact, Status: f.Status, Polarity: f.Polarity,
		ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, OccurredAt: f.ObservedAt, SourceEventIDs: f.SourceEventIDs, sessions: f.SessionIDs},
		ends: [2]string{f.SubjectID, f.ObjectID}}
}

// eventCandidate is a summary; its sources are the covered events that
// themselves match the query (best first), or the whole window when none
// does, so a summary does not stand for dozens of unrelated turns.
func eventCandidate(n graph.EventNode, rawText map[string]float64) *candidate {
	var matching []string
	score := func(id string) float64 { return rawText[turnKey(n.SessionID, id)] }
	for _, id := range n.CoveredIDs {
		if score(id) > 0 {
			matching = append(matching, id)
		}
	}
	sort.SliceStable(matching, func(i, j int) bool { return score(matching[i]) > score(matching[j]) })
	sources := matching
	if len(sources) == 0 {
		sources = n.CoveredIDs
	}
	when := n.OccurredTo
	if when.IsZero() {
		when = n.CreatedAt
	}
	return &candidate{SearchResult: SearchResult{ID: n.ID, Kind: KindEvent, Text: n.Summary, Status: "current",
		OccurredAt: when, SourceEventIDs: sources, SessionID: n.SessionID}}
}

func insightCandidate(in graph.Insight) *candidate {
	return &candidate{SearchResult: SearchResult{ID: in.ID, Kind: KindInsight, Text: in.Text, Status: in.Status,
		OccurredAt: in.CreatedAt, SourceEventIDs: in.SourceEventIDs}}
}

func topScore(n int, score func(int) float64) float64 {
	top := 0.0
	for i := range n {
		top = max(top, score(i))
	}
	return top
}

// topKeys returns the k keys with the highest values.
func topKeys(m map[string]float64, k int) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > k {
		keys = keys[:k]
	}
	return keys
}

// explain says in words why a result ranks where it does.
func explain(r SearchResult, q queryAnalysis) string {
	var parts []string
	if r.Parts.FullText > 0 {
		parts = append(parts, fmt.Sprintf("full-text %.2f (query words: %s)", r.Parts.FullText, strings.Join(q.Words, " ")))
	}
	if r.Parts.Vector > 0 {
		parts = append(parts, fmt.Sprintf("vector %.2f", r.Parts.Vector))
	}
	if r.Parts.Graph > 0 {
		g := fmt.Sprintf("graph %.2f", r.Parts.Graph)
		if len(r.Path) > 0 {
			g += " via " + strings.Join(r.Path, ", ")
		}
		parts = append(parts, g)
	}
	parts = append(parts, fmt.Sprintf("recency %.2f", r.Parts.Recency), fmt.Sprintf("%s weight %.2f", r.Kind, r.Parts.Tier))
	if r.Status == "superseded" {
		parts = append(parts, "superseded: shown as history")
	}
	return strings.Join(parts, "; ")
}

func validateSearch(in SearchInput) error {
	var fields []errs.FieldError
	if strings.TrimSpace(in.Query) == "" {
		fields = append(fields, errs.FieldError{Field: "query", Rule: "required", Message: "is required"})
	}
	for i, k := range in.Tiers {
		if !slices.Contains(allKinds, k) {
			fields = append(fields, errs.FieldError{Field: fmt.Sprintf("tiers[%d]", i), Rule: "oneof",
				Message: "must be one of: raw, event, insight, fact, entity"})
		}
	}
	if len(fields) > 0 {
		return &errs.ValidationError{Fields: fields}
	}
	return nil
}
