package retrieval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/graphmem/graphmem/graph"
)

// signals is the second stage: the graph around the entities the query
// names (entity cards, facts joining them, typed hops, turns mentioning
// the rare ones), the sources of entity cards, and the replies to the
// questions found so far.
func (r *search) signals(ctx context.Context) error {
	r.seeds = seedEntities(r.text, r.cfg.MaxSeeds)
	// People the query names are its anchors, not its topic: "What is
	// John's degree in?" is about "degree". Other entities it names
	// ("pottery workshop") are the topic and stay in it.
	for _, seed := range r.seeds {
		if seed.Type == "Person" {
			r.people = append(r.people, seed.Name)
		}
	}
	r.topic = r.q.withoutNames(r.people)
	r.entityCards()
	if len(r.seeds) > 0 {
		if err := r.expandGraph(ctx); err != nil {
			return err
		}
	}
	citeEntityCards(r.set, r.cfg.EntityCardSources)
	if r.want(KindRaw) {
		r.conversationReplies()
		if err := r.acknowledgedStatements(ctx); err != nil {
			return err
		}
	}
	return nil
}

// seedEntities picks the entities graph search starts from: those whose
// normalized name the query contains (the most specific first, longer
// names before the shorter ones they contain), and the user's entity when
// the query is about the user; at most maxSeeds.
func seedEntities(c graph.Candidates, maxSeeds int) []graph.EntityHit {
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

// entityCards adds a card for each seed other than the user, but only when
// the query is about the entity itself ("Emma?") or entities were asked
// for; otherwise a card would take a slot without saying anything the
// facts do not.
func (r *search) entityCards() {
	explicit := slices.Contains(r.in.Tiers, KindEntity)
	if !r.want(KindEntity) || (!explicit && len(r.topic) > 0) {
		return
	}
	for _, seed := range r.seeds {
		if !seed.IsUser {
			r.set.add(&candidate{SearchResult: SearchResult{ID: seed.ID, Kind: KindEntity, Text: seed.Name + " (" + seed.Type + ")",
				Status: StatusCurrent, Parts: ScoreParts{Graph: r.cfg.EntityCardGraph}}})
		}
	}
}

// specificity says how much naming an entity narrows a search: 1 for an
// entity mentioned once, falling slowly (at the pace of scale) for ones
// mentioned everywhere (the two people of a conversation).
func specificity(mentions int64, scale float64) float64 {
	return 1 / (1 + math.Log1p(float64(max(mentions-1, 0))/scale))
}

// expandGraph walks up to Hops hops of current facts from the seeds. A
// fact's graph score is its relevance to the query (the predicate it was
// asked about, the query words its sentence shares, the seeds it joins)
// decayed per hop; the next hop continues only from the best-scoring
// entities reached.
func (r *search) expandGraph(ctx context.Context) error {
	cfg := r.cfg
	frontier := make([]string, 0, len(r.seeds))
	names := map[string]string{}
	spec := map[string]float64{} // seed id → specificity
	isSeed := map[string]bool{}
	for _, sd := range r.seeds {
		isSeed[sd.ID] = true
		frontier = append(frontier, sd.ID)
		names[sd.ID] = sd.Name
		if !sd.IsUser {
			spec[sd.ID] = specificity(sd.MentionCount, cfg.MentionScale)
		}
	}
	rest := map[string]bool{}
	for st := range r.topic {
		if !r.q.HintStems[st] {
			rest[st] = true
		}
	}
	// Typed hops follow the fact types the question asks about; facts of
	// other types that matter carry the query's words and come from the
	// fact full-text index already.
	var types []string
	for p, w := range r.q.Predicates {
		if w >= cfg.TypedHopMinHint {
			types = append(types, p)
		}
	}
	sort.Strings(types)
	score := func(f graph.Fact, decay float64) float64 {
		// A hinted type counts fully only when the fact also covers the rest
		// of the topic: "John is reading a book" is a READ fact but says
		// nothing of "favorite series".
		text := f.Fact + " " + f.Object + " " + f.Qualifier + " " + f.RawPredicate
		rel := r.q.Predicates[f.Predicate] * (cfg.HintFloor + cfg.HintCoverage*r.tc.coverage(rest, text))
		words := 0.0
		if len(r.topic) > 0 {
			words = r.tc.coverage(r.topic, text)
		}
		// A fact joining two entities the query names ("Caroline went to the
		// pride parade") is about the question whatever its words; the rarer
		// the entities, the more it says.
		joins := 0.0
		if isSeed[f.SubjectID] && isSeed[f.ObjectID] {
			joins = max(spec[f.SubjectID], spec[f.ObjectID])
		}
		return min(decay*(cfg.RelevanceWeight*rel+cfg.WordsWeight*words+cfg.JoinsWeight*joins), 1)
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
		r.set.add(c)
		return got
	}
	// One round trip: facts joining the seeds, the first typed hop, and
	// the turns that mention the rare seeds.
	var rare []string
	for _, sd := range r.seeds {
		if spec[sd.ID] >= cfg.RareSpecificity {
			rare = append(rare, sd.ID)
		}
	}
	exp, err := r.s.graph.Expand(ctx, r.scope, frontier, types, cfg.ExpandPerEntity, rare, cfg.MentionLimit)
	if err != nil {
		return err
	}
	for _, m := range exp.Mentions {
		if !r.want(KindRaw) {
			break
		}
		c := r.s.statements.rawCandidate(m.Event)
		best := 0.0
		for _, id := range m.Entities {
			best = max(best, spec[id])
			c.Path = append(c.Path, "mentions "+names[id])
		}
		c.Parts.Graph = cfg.MentionGraph * best
		r.set.add(c)
	}
	if !r.want(KindFact) {
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
			if hops, err = r.s.graph.Neighbors(ctx, r.scope, frontier, types, cfg.NeighborsPerEntity); err != nil {
				return err
			}
		}
		next := map[string]float64{}
		for _, h := range hops {
			got := consider(h, hop, decay)
			if got >= cfg.FrontierMinScore && !visited[h.ToID] {
				next[h.ToID] = max(next[h.ToID], got)
				names[h.ToID] = h.ToName
			}
		}
		frontier = topKeys(next, cfg.FrontierWidth)
		decay *= cfg.HopDecay
	}
	return nil
}

// citeEntityCards gives each entity card the sources (at most limit) of
// the best facts about it found by this search, so every result rests on
// events.
func citeEntityCards(set candidateSet, limit int) {
	var facts []*candidate
	for _, c := range set {
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
	for _, c := range set {
		if c.Kind != KindEntity {
			continue
		}
		seen := map[string]bool{}
		for _, f := range facts {
			if f.ends[0] != c.ID && f.ends[1] != c.ID {
				continue
			}
			for _, id := range f.SourceEventIDs {
				if !seen[id] && len(c.SourceEventIDs) < limit {
					seen[id] = true
					c.SourceEventIDs = append(c.SourceEventIDs, id)
				}
			}
		}
	}
}

// conversationReplies adds the reply to each of the best raw hits that
// asks a question: the answer rarely repeats the question's words. It is a
// hop along the conversation's own order (turns that mention a rare entity
// the query names come with the graph expansion).
func (r *search) conversationReplies() {
	var raws []*candidate
	for _, c := range r.set {
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
	for _, q := range raws[:min(len(raws), r.cfg.ReplyCandidates)] {
		reply, ok := r.replies[turnKey(q.SessionID, q.ID)]
		if !ok || reply.Name == q.speaker {
			continue
		}
		c := r.s.statements.rawCandidate(reply)
		c.Parts.Graph = r.cfg.ReplyGraph * q.Parts.FullText
		c.Path = []string{"answers " + q.ID}
		r.set.add(c)
	}
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
