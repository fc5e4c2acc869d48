package retrieval

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
)

// candidate is a result being scored.
type candidate struct {
	SearchResult
	speaker   string         // raw turns: who said it
	role      string         // raw turns: user, assistant, ...
	ends      [2]string      // facts: subject and object entity ids
	predicate string         // facts: the fact type
	object    string         // facts: the object's name
	stale     bool           // raw turns: every fact read from it was superseded; summaries: every such turn they summarize is stale
	staleBy   string         // raw turns: the turn key of the turn the current fact that superseded it was read from
	form      knowledge.Form // raw turns: statement, question or chatter
	// raw turns: the fact types read from it that are all superseded,
	// when others are current (staleFor)
	stalePreds, currentPreds []string
	// raw turns: hedged throughout, or about someone else throughout
	hypothetical, other bool
	// raw turns: takes back the speaker's previous statement; reports a change
	correction, change, ending bool
	// raw turns and summaries: the user says it holds only for a while ("staying
	// in Oslo for two weeks"), for a question that does not ask about the moment
	temporary bool
	// raw turns: declines a change without naming what it keeps ("I'll stay where I am")
	declined bool
	// raw turns: asks what would follow from a change it only supposes
	// ("if I swapped to an EV, what would I save?")
	asksIf bool
	seq    int64     // raw turns: the turn's position in its session
	vec    []float32 // raw turns: the stored vector, when the currency stage read it
	// terse: a raw turn of one content word, not read by meaning (setVec).
	terse bool
	// cos is the cosine to the query's vector, once the meaning stage has
	// read the memory's vector (meaning.go).
	cos float64
	// factCos is the cosine to the query of the nearest fact read from a
	// raw turn, and factVec that fact's vector, when the vector search
	// found the turn by it.
	factCos float64
	factVec []float32
	// vecRead: the stored vector was asked for (vec stays nil when the
	// memory is not embedded yet).
	vecRead bool
	// factor scales the final score (demotions), lift the relevance (the
	// current value of a slot inheriting its best match); 0 means 1.
	factor, lift float64
	reasons      []string // why the score was changed, for explain
}

// candidateSet holds one search's candidates by candidateKey. A memory
// found by several signals is one candidate with the best of each.
type candidateSet map[string]*candidate

// add merges c into the set and returns the candidate that holds it.
func (set candidateSet) add(c *candidate) *candidate {
	key := candidateKey(c)
	if old, ok := set[key]; ok {
		old.Parts.FullText = max(old.Parts.FullText, c.Parts.FullText)
		old.Parts.Graph = max(old.Parts.Graph, c.Parts.Graph)
		old.Parts.Vector = max(old.Parts.Vector, c.Parts.Vector)
		if len(old.Path) == 0 {
			old.Path = c.Path
		}
		return old
	}
	set[key] = c
	return c
}

// candidates is the first stage: the full-text hits of every index the
// request asks for, each normalized by its index's best hit, with the
// window prior; then the vector index's nearest neighbours.
//
// The query is embedded while the full-text round trip is in flight: the
// two take about as long as each other, and neither needs the other.
func (r *search) candidates(ctx context.Context) error {
	if r.s.embedder == nil {
		return r.textCandidates(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type embedded struct {
		vecs [][]float32
		err  error
	}
	done := make(chan embedded, 1)
	go func() {
		vecs, err := r.s.embedQuery(ctx, r.scope.Tenant, r.in.Query)
		done <- embedded{vecs, err}
	}()
	if err := r.textCandidates(ctx); err != nil {
		cancel()
		<-done
		return err
	}
	e := <-done
	if e.err != nil {
		return fmt.Errorf("embed query: %w", e.err)
	}
	if len(e.vecs) != 1 {
		return fmt.Errorf("embed query: %w: the embedder returned %d vectors for one text", errs.ErrUnavailable, len(e.vecs))
	}
	return r.vectorCandidates(ctx, e.vecs[0])
}

// pool is how many raw candidates the search reads.
func (r *search) pool() int { return max(r.limit*r.cfg.PoolPerResult, r.cfg.Pool) }

// vectorPool is how many nearest neighbours the search reads.
func (r *search) vectorPool() int { return max(r.limit*r.cfg.PoolPerResult, r.cfg.VectorPool) }

// textCandidates queries the full-text indexes in one round trip. Raw
// turns are always fetched (summaries cite them) and so are entities
// (they seed the graph).
func (r *search) textCandidates(ctx context.Context) error {
	cfg := r.cfg
	lim := graph.TextLimits{Raw: r.pool()}
	if r.want(KindFact) {
		lim.Facts = max(r.limit*cfg.FactPoolPerResult, cfg.FactPool)
	}
	if r.want(KindEvent) {
		lim.Events = cfg.EventPool
	}
	if r.want(KindInsight) {
		lim.Insights = cfg.InsightPool
	}
	hits, err := r.s.text.SearchText(ctx, r.scope, r.q.Words, nameGrams(r.in.Query), r.q.AboutUser, lim)
	if err != nil {
		return err
	}
	r.text = hits

	// Raw ids are the client's and unique only within their session, so
	// turns are keyed by session and id throughout.
	r.rawText = map[string]float64{}
	r.replies = map[string]graph.RawEvent{}
	if top := topScore(len(hits.Raw), func(i int) float64 { return hits.Raw[i].Score }); top > 0 {
		for _, h := range hits.Raw {
			n := h.Score / top
			r.rawText[turnKey(h.Event.SessionID, h.Event.ID)] = n
			if h.Next != nil {
				r.replies[turnKey(h.Event.SessionID, h.Event.ID)] = *h.Next
			}
			if r.want(KindRaw) && h.Event.Kind != graph.RawCondensationRequest {
				c := r.s.statements.rawCandidate(h.Event)
				c.Parts.FullText = n
				r.set.add(c)
			}
		}
	}
	if top := topScore(len(hits.Facts), func(i int) float64 { return hits.Facts[i].Score }); top > 0 {
		for _, h := range hits.Facts {
			c := factCandidate(h.Fact)
			c.Parts.FullText = h.Score / top
			c.Parts.Graph = cfg.PredicateHintGraph * r.q.Predicates[h.Fact.Predicate] // a fact of the asked-about kind
			r.set.add(c)
		}
	}
	windowScore := map[string]float64{} // turn key → normalized score of the summary covering it
	if top := topScore(len(hits.Events), func(i int) float64 { return hits.Events[i].Score }); top > 0 {
		for _, h := range hits.Events {
			if emptySummary(h.Node.Summary) {
				continue
			}
			c := eventCandidate(h.Node, r.rawText)
			c.Parts.FullText = h.Score / top
			r.set.add(c)
			for _, id := range h.Node.CoveredIDs {
				k := turnKey(h.Node.SessionID, id)
				windowScore[k] = max(windowScore[k], h.Score/top)
			}
		}
	}
	r.windowPrior(windowScore)
	if top := topScore(len(hits.Insights), func(i int) float64 { return hits.Insights[i].Score }); top > 0 {
		for _, h := range hits.Insights {
			c := insightCandidate(h.Insight)
			c.Parts.FullText = h.Score / top
			r.set.add(c)
		}
	}
	return nil
}

// windowPrior raises each turn by the score of the summary covering it: a
// turn whose window's summary matches the query sits in the part of the
// conversation the query is about, and matching whole sessions finds the
// right one more reliably than matching single turns does. It is applied
// here, as the summaries arrive, because the replies (a signal) follow the
// questions' boosted scores.
func (r *search) windowPrior(windowScore map[string]float64) {
	for k, w := range windowScore {
		if c := r.set[KindRaw+":"+k]; c != nil {
			c.Parts.FullText *= 1 + r.cfg.WindowBoost*w
		}
	}
}

// vectorCandidates adds the nearest neighbours of the query's vector.
func (r *search) vectorCandidates(ctx context.Context, qvec []float32) error {
	r.qvec = qvec
	var kinds []string
	for _, k := range []string{KindRaw, KindEvent, KindInsight} {
		if r.want(k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return nil // the currency stage still reads the query's vector
	}
	// Memories the full-text stage already holds only need their score, and
	// hits at or below the vector floor would carry no signal: neither is
	// read from the graph. A question about the user also matches turns by
	// the facts read from them (graph.VectorQuery.FactMinScore): the user's words
	// and the question's are far apart ("Our son Arjun arrived" for "Does
	// the user have children?"), the fact's plain sentence is not. A
	// question naming people and things shares its words with its evidence
	// already, and there the facts' short sentences, each naming the
	// person, crowd the pool: on LoCoMo they lowered recall_all@10 from
	// 0.695 to 0.677.
	var factMin float64
	if r.q.AboutUser {
		factMin = (1 + r.cfg.FactVectorFloor) / 2
	}
	hits, err := r.s.vectors.VectorSearch(ctx, r.scope, graph.VectorQuery{
		Vec: qvec, Limit: r.vectorPool(), Kinds: kinds, MinScore: (1 + r.cfg.VectorFloor) / 2, FactMinScore: factMin,
		Held: func(ref graph.VectorRef) bool { return r.set[vectorKey(ref)] != nil },
	})
	if err != nil {
		return err
	}
	for _, h := range hits {
		signal := vectorSignal(h.Score, r.cfg)
		if signal <= 0 {
			continue
		}
		if h.Held {
			if c := r.set[vectorKey(h.Ref)]; c != nil {
				c.Parts.Vector = max(c.Parts.Vector, signal)
				c.foundByFact(h)
			}
			continue
		}
		var c *candidate
		switch {
		case h.Kind == KindRaw && r.want(KindRaw):
			c = r.s.statements.rawCandidate(h.Raw)
		case h.Kind == KindEvent && r.want(KindEvent) && !emptySummary(h.Node.Summary):
			c = eventCandidate(h.Node, r.rawText)
		case h.Kind == KindInsight && r.want(KindInsight):
			c = insightCandidate(h.Insight)
		default:
			continue
		}
		c.Parts.Vector = signal
		r.set.add(c).foundByFact(h)
	}
	return nil
}

// foundByFact notes that the vector search matched a raw turn through a
// fact read from it, nearer the query than the turn's own words.
func (c *candidate) foundByFact(h graph.VectorHit) {
	if h.FactVec == nil {
		return
	}
	c.factCos, c.factVec = 2*h.Score-1, h.FactVec
	c.reasons = append(c.reasons, fmt.Sprintf("near the query by a fact read from it (cosine %.2f)", c.factCos))
}

// vectorKey is the candidateKey of the memory a vector hit names.
func vectorKey(ref graph.VectorRef) string {
	if ref.Kind == KindRaw {
		return KindRaw + ":" + turnKey(ref.SessionID, ref.ID)
	}
	return ref.Kind + ":" + ref.ID
}

// vectorSignal maps a vector index score, (1 + cosine) / 2 for a cosine
// index, to the vector signal (see Config.VectorFloor).
func vectorSignal(score float64, cfg Config) float64 {
	cos := 2*score - 1
	return min(max((cos-cfg.VectorFloor)/cfg.VectorSpan, 0), 1)
}

func rawCandidate(r graph.RawEvent) *candidate {
	return rawCandidateOf(r, knowledge.ReadStatement(r.Content))
}

// statementMemo remembers the reading of turns' text (knowledge.
// ReadStatement, a tenth of a search's CPU when every candidate turn was
// read again on every search). A turn's content never changes, so the
// reading of a text is kept until the memo is full, then all are dropped:
// a bound without the bookkeeping of an LRU.
type statementMemo struct {
	mu   sync.Mutex
	m    map[string]knowledge.Statement
	size int
}

// statementMemoSize bounds the memo: ~20,000 turns' readings, a few MB.
const statementMemoSize = 20000

func newStatementMemo(size int) *statementMemo {
	return &statementMemo{m: make(map[string]knowledge.Statement), size: size}
}

func (m *statementMemo) read(text string) knowledge.Statement {
	m.mu.Lock()
	st, ok := m.m[text]
	m.mu.Unlock()
	if ok {
		return st
	}
	st = knowledge.ReadStatement(text)
	m.mu.Lock()
	if len(m.m) >= m.size {
		clear(m.m)
	}
	m.m[text] = st
	m.mu.Unlock()
	return st
}

// rawCandidate is the package's rawCandidate with the reading memoized.
func (m *statementMemo) rawCandidate(r graph.RawEvent) *candidate {
	return rawCandidateOf(r, m.read(r.Content))
}

func rawCandidateOf(r graph.RawEvent, st knowledge.Statement) *candidate {
	text := r.Content
	if r.Name != "" {
		text = r.Name + ": " + r.Content
	}
	if c, ok := r.Metadata["caption"].(string); ok && c != "" {
		text += " [image: " + c + "]"
	}
	c := &candidate{SearchResult: SearchResult{ID: r.ID, Kind: KindRaw, Text: text, Status: StatusCurrent,
		OccurredAt: r.OccurredAt, SourceEventIDs: []string{r.ID}, SessionID: r.SessionID}, speaker: r.Name, role: r.Role, stale: r.Stale,
		form: st.Form, hypothetical: st.Hypothetical, other: st.Other, correction: st.Correction, change: st.Change, ending: st.Ending, asksIf: st.AsksIf, seq: r.Seq}
	if r.StaleBy != "" && r.StaleBySession != "" {
		c.staleBy = turnKey(r.StaleBySession, r.StaleBy)
	}
	c.stalePreds, c.currentPreds = r.StalePredicates, r.CurrentPredicates
	return c
}

func factCandidate(f graph.Fact) *candidate {
	return &candidate{SearchResult: SearchResult{ID: f.ID, Kind: KindFact, Text: f.Fact, Status: f.Status, Polarity: f.Polarity,
		ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, OccurredAt: f.ObservedAt, SourceEventIDs: f.SourceEventIDs, sessions: f.SessionIDs},
		ends: [2]string{f.SubjectID, f.ObjectID}, predicate: f.Predicate, object: f.Object}
}

// emptySummary reports whether a summary says nothing: every section
// "(none)" and the state only the window's description ("Window: 2 events
// from ... between User, Assistant"). The offline condenser writes one for a
// window it read no statement from; as a result it carries no evidence, yet
// its few words made it a near neighbour of short questions.
func emptySummary(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "<think>" || line == "</think>" {
			continue
		}
		if strings.HasSuffix(line, ":") && strings.ToUpper(line) == line {
			continue // a section heading
		}
		line = strings.TrimSpace(strings.TrimLeft(line, "-*• "))
		if line == "(none)" || strings.HasPrefix(line, "Window:") {
			continue
		}
		return false
	}
	return true
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
	return &candidate{SearchResult: SearchResult{ID: n.ID, Kind: KindEvent, Text: n.Summary, Status: StatusCurrent,
		OccurredAt: when, SourceEventIDs: sources, SessionID: n.SessionID}, stale: n.Stale}
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
