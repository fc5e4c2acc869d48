package retrieval

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// Result kinds: the tier a memory comes from.
const (
	KindRaw     = "raw"
	KindEvent   = "event"
	KindInsight = "insight"
	KindFact    = "fact"
	KindEntity  = "entity"
)

var allKinds = []string{KindRaw, KindEvent, KindInsight, KindFact, KindEntity}

// Result statuses. A result is current, or superseded: a fact closed by a
// later one, or a raw turn whose every fact was. They are the fact
// statuses, which the other kinds borrow.
const (
	StatusCurrent    = string(graph.FactCurrent)
	StatusSuperseded = string(graph.FactSuperseded)
)

// defaultLimit is how many results a search returns when it names no limit.
const defaultLimit = 10

// SearchInput is one retrieval request.
type SearchInput struct {
	UserID         string
	AgentID        string // raw turns and summaries of this agent's sessions only
	SessionID      string // raw turns and summaries of this session only
	Query          string
	Limit          int
	Tiers          []string // kinds to return; empty means all
	AsOf           *time.Time
	KnownAt        *time.Time // record time: only what graphmem had recorded, and believed, then
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
	Status         string // StatusCurrent | StatusSuperseded
	Polarity       string // facts: positive | negative
	ValidFrom      time.Time
	ValidTo        time.Time
	OccurredAt     time.Time
	SourceEventIDs []string
	SessionID      string
	// Path is how graph traversal reached the result, one step per hop.
	Path        []string
	Explanation string
	// SupersededBy is the id of the newer statement that replaced this
	// one, for a turn the currency stage marked superseded.
	SupersededBy string
	// sessions are where a fact's or an insight's sources were said.
	sessions []string
	// reasons say why ranking changed the score (demotions, lifts).
	reasons []string
}

// SearchOutput is the ranked list with what the query was read as.
type SearchOutput struct {
	Results  []SearchResult
	Terms    []string
	Entities []string
	Hints    []string
	// Topic is the slot the currency stage read the question as asking
	// about ("home", "work"...), when it did.
	Topic string
}

// Search ranks a user's memories for a query by combining full text over
// every tier, vectors when an embedder is set, graph traversal from the
// entities the query names, and recency. Current facts only unless
// IncludeHistory; raw events whose facts were all superseded are marked
// and ranked lower. A question asking for a set gets the facts of the asked
// types as one result first (aggregate). Results resting on the same
// events are de-duplicated, best first.
//
// The stages run in this order because each reads what the one before
// wrote: the replies follow the questions' full-text scores after the
// window prior, and the priors adjust every candidate the signals found.
func (s *Service) Search(ctx context.Context, tenant string, in SearchInput) (SearchOutput, error) {
	if err := validateSearch(in); err != nil {
		return SearchOutput{}, err
	}
	r := s.newSearch(tenant, in)
	if err := r.candidates(ctx); err != nil {
		return SearchOutput{}, err
	}
	if err := r.signals(ctx); err != nil {
		return SearchOutput{}, err
	}
	if err := r.meaning(ctx); err != nil {
		return SearchOutput{}, err
	}
	r.priors()
	if err := r.currency(ctx); err != nil {
		return SearchOutput{}, err
	}
	r.citeMatchingTurns()
	out := SearchOutput{Terms: r.q.Words, Hints: r.hints(), Entities: r.seedNames(), Topic: r.slotTopic}
	fused := r.fuse()
	if err := r.decay(ctx, fused); err != nil {
		return SearchOutput{}, err
	}
	fused = r.aggregate(fused, r.cfg.AggregateTurns)
	out.Results = dedupeByEvents(fused, r.limit, r.cfg.MaxMergedFacts, r.in.IncludeHistory)
	s.record(tenant, out.Results)
	if in.Explain {
		for i := range out.Results {
			out.Results[i].Explanation = explain(out.Results[i], out.Results[i].reasons, r.q)
		}
	}
	return out, nil
}

// search is the state of one Search as its stages fill it in.
type search struct {
	s     *Service
	cfg   Config
	in    SearchInput
	limit int
	kinds []string
	scope graph.SearchScope
	q     queryAnalysis
	tc    termCache
	// set holds the candidates by candidateKey.
	set candidateSet

	// Filled by candidates.
	text    graph.Candidates          // the full-text hits, whose entities seed the graph
	rawText map[string]float64        // turn key → normalized text score, for summaries' provenance
	replies map[string]graph.RawEvent // question turn key → the turn after it

	qvec []float32 // the query's embedding, with an embedder

	// Filled by signals.
	seeds  []graph.EntityHit
	people []string        // the persons among the seeds: the query's anchors
	topic  map[string]bool // the query's stems without the people's names

	// history: a question about the user's past ("before", "used to"),
	// read once; the currency stage and fusion prefer older values for it.
	history bool

	// Filled by currency.
	slotTopic string
}

func (s *Service) newSearch(tenant string, in SearchInput) *search {
	limit := in.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	kinds := in.Tiers
	if len(kinds) == 0 {
		kinds = allKinds
	}
	q := analyzeQuery(in.Query, s.hints, s.cfg.WhHintWeight)
	cfg := s.cfg
	if q.AboutUser && cfg.AboutUserWeightVector > 0 {
		cfg.WeightVector = cfg.AboutUserWeightVector
	}
	return &search{
		s: s, cfg: cfg, in: in, limit: limit, kinds: kinds,
		scope: graph.SearchScope{Tenant: tenant, UserID: in.UserID, SessionID: in.SessionID, AgentID: in.AgentID,
			AsOf: in.AsOf, KnownAt: in.KnownAt, IncludeHistory: in.IncludeHistory},
		q:       q,
		history: q.AboutUser && historyQuestion(in.Query),
		tc:      termCache{},
		set:     candidateSet{},
	}
}

// want reports whether results of kind k were asked for.
func (r *search) want(k string) bool { return slices.Contains(r.kinds, k) }

// hints are the fact types the query asks about, sorted.
func (r *search) hints() []string {
	var out []string
	for p := range r.q.Predicates {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// seedNames are the names of the entities graph search started from.
func (r *search) seedNames() []string {
	var out []string
	for _, sd := range r.seeds {
		out = append(out, sd.Name)
	}
	return out
}

// explain says in words why a result ranks where it does.
func explain(r SearchResult, reasons []string, q queryAnalysis) string {
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
	parts = append(parts, reasons...)
	if r.Status == StatusSuperseded && len(reasons) == 0 {
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
