package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// JobConsolidate merges one user's duplicate entities and redundant facts
// in the background (docs/lifecycle.md, "Consolidation").
const JobConsolidate = "consolidate"

// Score thresholds of a candidate merge. At or above ApplyScore it is
// applied; at or above ReviewScore it waits in the review queue; below, it
// is not worth a reviewer's time. A name containment alone ("Bob" in "Bob
// Smith") reaches review but never applies: it needs a shared fact too.
const (
	ApplyScore  = 0.8
	ReviewScore = 0.45
)

// Parts of a score (see scorePair).
const (
	scoreSameTokens  = 0.75 // "Smith, Bob" and "Bob Smith"; an alias of one is the other's name
	scoreContained   = 0.5  // every token of one name is in the other
	scoreAmbiguous   = 0.3  // contained, but so is it in another entity of the type
	scoreVectorName  = 0.4  // names unrelated by tokens but close by the entity vectors
	scoreSharedFact  = 0.3  // each current fact both hold (same type, qualifier, other end, direction)
	maxSharedFacts   = 0.45 //
	scoreNeighbour   = 0.1  // each other entity both are linked to by different facts
	maxNeighbours    = 0.2  //
	scoreVectorBoost = 0.15 // the name vectors agree (cosine >= vectorNear)
	scoreExclusive   = 0.3  // penalty: an exclusive slot both fill with different values
	vectorNear       = 0.9
	vectorOnlyMax    = 500 // vector-only comparisons are O(n²): only for types with fewer entities
)

// ConsolidateStore is what consolidation needs of the graph.
type ConsolidateStore interface {
	ConsolidationEntities(ctx context.Context, tenant, userID string) ([]graph.ConsolidationEntity, error)
	DecidedPairs(ctx context.Context, tenant, userID string) (map[string]string, error)
	ProposeMerge(ctx context.Context, p graph.MergeProposal) (graph.Merge, error)
	MergeRedundantFacts(ctx context.Context, tenant, userID, actor string) (graph.Merge, bool, error)
	CountRedundantFacts(ctx context.Context, tenant, userID string) (int, error)
	GetMerge(ctx context.Context, tenant, id string) (graph.Merge, error)
	ListMerges(ctx context.Context, tenant string, f graph.MergeFilter) ([]graph.Merge, error)
	DecideMerge(ctx context.Context, tenant, id string, approve bool, actor string) (graph.Merge, error)
	SplitMerge(ctx context.Context, tenant, id, actor string) (graph.Merge, error)
	RunningJobs(ctx context.Context, tenant, userID, sessionID, except string) (int, error)
}

// consolidateMaxAttempts is generous: the job waits (retries) while an
// extraction of the same user runs, which is not a failure.
const consolidateMaxAttempts = 30

// MergeCandidate is a scored pair of entities of one user and type.
type MergeCandidate struct {
	KeepID, KeepName string // the survivor: the fuller name, then the more mentioned
	DropID, DropName string
	Type             string
	Score            float64
	Reasons          []string
	Decision         string // "apply" | "review"
}

// Merge is a merge record as the API shows it.
type Merge = graph.Merge

// ConsolidationReport is what a consolidation did (or, dry, would do).
type ConsolidationReport struct {
	DryRun          bool
	Entities        int // entities read
	Candidates      []MergeCandidate
	Applied         []string // merge ids
	Queued          []string // merge ids
	Skipped         int      // candidates touching an entity already merged in this run
	RedundantFacts  int
	FactsMergeID    string
	PreviouslyTaken int // pairs left alone because a merge record already decided them
}

// FindMergeCandidates scores every plausible pair of entities of one type
// and returns those at or above ReviewScore, best first. decided holds
// pairs (graph.PairKey) that a record already settled. The user's own
// entity is never a candidate, nor are two entities with contradicting
// family ties to the user ("my brother Bob" and "my son Bob").
func FindMergeCandidates(ents []graph.ConsolidationEntity, decided map[string]string) []MergeCandidate {
	byType := map[string][]*graph.ConsolidationEntity{}
	for i := range ents {
		e := &ents[i]
		if e.IsUser {
			continue
		}
		byType[e.Type] = append(byType[e.Type], e)
	}
	var out []MergeCandidate
	for _, group := range byType {
		toks := make([][]string, len(group))
		byToken := map[string][]int{}
		for i, e := range group {
			toks[i] = nameTokens(e.Norm)
			for _, t := range toks[i] {
				byToken[t] = append(byToken[t], i)
			}
		}
		seen := map[[2]int]bool{}
		consider := func(i, j int) {
			if i == j {
				return
			}
			if i > j {
				i, j = j, i
			}
			if seen[[2]int{i, j}] {
				return
			}
			seen[[2]int{i, j}] = true
			if _, ok := decided[graph.PairKey(group[i].ID, group[j].ID)]; ok {
				return
			}
			if c, ok := scorePair(group, toks, byToken, i, j); ok {
				out = append(out, c)
			}
		}
		for _, idx := range byToken {
			for a := range idx {
				for b := a + 1; b < len(idx); b++ {
					consider(idx[a], idx[b])
				}
			}
		}
		if len(group) <= vectorOnlyMax {
			for i := range group {
				for j := i + 1; j < len(group); j++ {
					if len(group[i].Embedding) > 0 && cosine(group[i].Embedding, group[j].Embedding) >= vectorNear {
						consider(i, j)
					}
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b MergeCandidate) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.KeepID+a.DropID, b.KeepID+b.DropID)
	})
	return out
}

// honorifics are dropped from name tokens: "Dr. Bob Smith" is "bob smith".
var honorifics = map[string]bool{"mr": true, "mrs": true, "ms": true, "miss": true, "dr": true, "prof": true, "sir": true}

func nameTokens(norm string) []string {
	var out []string
	for _, t := range strings.Fields(norm) {
		if !honorifics[t] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

func cosine(a, b []float64) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	fa, fb := make([]float32, len(a)), make([]float32, len(b))
	for i := range a {
		fa[i], fb[i] = float32(a[i]), float32(b[i])
	}
	return knowledge.Cosine(fa, fb)
}

// subset says every token of a is in b.
func subset(a, b []string) bool {
	if len(a) == 0 {
		return false
	}
	for _, t := range a {
		if !slices.Contains(b, t) {
			return false
		}
	}
	return true
}

// scorePair scores group[i] and group[j] (see the score constants).
func scorePair(group []*graph.ConsolidationEntity, toks [][]string, byToken map[string][]int, i, j int) (MergeCandidate, bool) {
	a, b := group[i], group[j]
	ta, tb := toks[i], toks[j]
	var score float64
	var reasons []string
	var ambiguous, byVector bool
	vec := 0.0
	if len(a.Embedding) > 0 {
		vec = cosine(a.Embedding, b.Embedding)
	}
	switch {
	case slices.Equal(ta, tb) && len(ta) > 0, slices.Contains(a.AliasKeys, b.Norm), slices.Contains(b.AliasKeys, a.Norm):
		score, reasons = scoreSameTokens, append(reasons, "same name tokens or alias")
	case subset(ta, tb) || subset(tb, ta):
		short := ta
		if len(tb) < len(ta) {
			short = tb
		}
		if containedElsewhere(group, toks, byToken, short, i, j) {
			ambiguous = true
			score, reasons = scoreAmbiguous, append(reasons, "name contained, but in more than one entity")
		} else {
			score, reasons = scoreContained, append(reasons, "name contained in the other")
		}
	case vec >= vectorNear:
		byVector = true
		score, reasons = scoreVectorName, append(reasons, fmt.Sprintf("name vectors close (%.2f)", vec))
	default:
		return MergeCandidate{}, false
	}
	if kinClash(a, b) {
		return MergeCandidate{}, false
	}
	shared, neighbours := overlap(a, b)
	if shared > 0 {
		score += min(maxSharedFacts, float64(shared)*scoreSharedFact)
		reasons = append(reasons, fmt.Sprintf("%d shared fact(s)", shared))
	}
	if neighbours > 0 {
		score += min(maxNeighbours, float64(neighbours)*scoreNeighbour)
		reasons = append(reasons, fmt.Sprintf("%d shared neighbour(s)", neighbours))
	}
	if vec >= vectorNear && !byVector {
		score += scoreVectorBoost
		reasons = append(reasons, fmt.Sprintf("name vectors close (%.2f)", vec))
	}
	if exclusiveClash(a, b) {
		score -= scoreExclusive
		reasons = append(reasons, "an exclusive slot holds different values")
	}
	if ambiguous {
		score = min(score, ApplyScore-0.01) // ambiguous: a person decides
	}
	score = min(1, score)
	if score < ReviewScore {
		return MergeCandidate{}, false
	}
	keep, drop := a, b
	if len(tb) > len(ta) || (len(tb) == len(ta) && (b.Mentions > a.Mentions || (b.Mentions == a.Mentions && b.ID < a.ID))) {
		keep, drop = b, a
	}
	c := MergeCandidate{KeepID: keep.ID, KeepName: keep.Name, DropID: drop.ID, DropName: drop.Name, Type: a.Type,
		Score: float64(int(score*100+0.5)) / 100, Reasons: reasons, Decision: "review"}
	if c.Score >= ApplyScore {
		c.Decision = "apply"
	}
	return c, true
}

// containedElsewhere says the short name's tokens are in a third entity of
// the type too ("Bob" with "Bob Smith" and "Bob Jones").
func containedElsewhere(group []*graph.ConsolidationEntity, toks [][]string, byToken map[string][]int, short []string, i, j int) bool {
	for _, k := range byToken[short[0]] {
		if k != i && k != j && subset(short, toks[k]) && !slices.Equal(short, toks[k]) {
			return true
		}
	}
	return false
}

// overlap counts the current facts both entities hold (same type,
// qualifier, other end and direction) and the other entities both are
// linked to by different facts.
func overlap(a, b *graph.ConsolidationEntity) (shared, neighbours int) {
	sig := func(f graph.FactSig) string {
		return fmt.Sprintf("%s|%s|%s|%t|%s", f.Predicate, f.Qualifier, f.Other, f.Out, f.Polarity)
	}
	as, an := map[string]bool{}, map[string]bool{}
	for _, f := range a.Facts {
		as[sig(f)] = true
		if !f.OtherIsUser {
			an[f.Other] = true
		}
	}
	sharedOther := map[string]bool{}
	for _, f := range b.Facts {
		if as[sig(f)] {
			shared++
			sharedOther[f.Other] = true
		}
	}
	bn := map[string]bool{}
	for _, f := range b.Facts {
		if !f.OtherIsUser && an[f.Other] && !sharedOther[f.Other] && !bn[f.Other] {
			bn[f.Other] = true
			neighbours++
		}
	}
	return shared, neighbours
}

// kinClash says both have a family tie to the user and the ties differ:
// never the same person.
func kinClash(a, b *graph.ConsolidationEntity) bool {
	ka, kb := kinTies(a), kinTies(b)
	if len(ka) == 0 || len(kb) == 0 {
		return false
	}
	for _, t := range ka {
		if slices.Contains(kb, t) {
			return false
		}
	}
	return true
}

func kinTies(e *graph.ConsolidationEntity) []string {
	var out []string
	for _, f := range e.Facts {
		if p, ok := ontology.Lookup(f.Predicate); ok && p.Kin && f.OtherIsUser {
			out = append(out, fmt.Sprintf("%s|%t", f.Predicate, f.Out))
		}
	}
	return out
}

// exclusiveClash says an exclusive slot (one current value) of the same
// direction holds different values in the two.
func exclusiveClash(a, b *graph.ConsolidationEntity) bool {
	slot := func(f graph.FactSig) string { return fmt.Sprintf("%s|%s|%t", f.Predicate, f.Qualifier, f.Out) }
	av := map[string]string{}
	for _, f := range a.Facts {
		if p, ok := ontology.Lookup(f.Predicate); ok && p.Exclusive() && f.Out {
			av[slot(f)] = f.Other
		}
	}
	for _, f := range b.Facts {
		if v, ok := av[slot(f)]; ok && v != f.Other {
			return true
		}
	}
	return false
}

// consolidatePayload is the job's payload.
type consolidatePayload struct {
	UserID string `json:"user_id"`
	Actor  string `json:"actor,omitempty"`
}

// Consolidate runs a dry consolidation of one user (what would be merged,
// nothing written) when dry, and otherwise schedules the job that does it.
func (l *Lifecycle) Consolidate(ctx context.Context, tenant, userID string, dry bool, who Who) (ConsolidationReport, Job, error) {
	if dry {
		r, err := l.consolidate(ctx, tenant, userID, true, "")
		return r, Job{}, err
	}
	actor := actorOf(who)
	j, err := l.enqueueJob(ctx, tenant, graph.JobSpec{Kind: JobConsolidate, Key: userID, UserID: userID,
		Payload: consolidatePayload{UserID: userID, Actor: actor}, MaxAttempts: consolidateMaxAttempts}, "consolidation")
	return ConsolidationReport{}, j, err
}

// consolidate scores the user's entities and, unless dry, applies the
// confident merges, queues the weak ones and merges redundant facts.
func (l *Lifecycle) consolidate(ctx context.Context, tenant, userID string, dry bool, actor string) (ConsolidationReport, error) {
	ents, err := l.store.ConsolidationEntities(ctx, tenant, userID)
	if err != nil {
		return ConsolidationReport{}, err
	}
	decided, err := l.store.DecidedPairs(ctx, tenant, userID)
	if err != nil {
		return ConsolidationReport{}, err
	}
	r := ConsolidationReport{DryRun: dry, Entities: len(ents), PreviouslyTaken: len(decided)}
	r.Candidates = FindMergeCandidates(ents, decided)
	if dry {
		// The redundant facts as they are now; entity merges would add some.
		r.RedundantFacts, err = l.store.CountRedundantFacts(ctx, tenant, userID)
		return r, err
	}
	gone := map[string]bool{}
	for _, c := range r.Candidates {
		if gone[c.KeepID] || gone[c.DropID] {
			r.Skipped++ // the next run scores it against the survivor
			continue
		}
		m, err := l.store.ProposeMerge(ctx, graph.MergeProposal{Tenant: tenant, UserID: userID, KeepID: c.KeepID,
			DropID: c.DropID, Score: c.Score, Reasons: c.Reasons, Apply: c.Decision == "apply", Actor: actor})
		if err != nil {
			return r, fmt.Errorf("merge %s into %s: %w", c.DropID, c.KeepID, err)
		}
		if m.Status == graph.MergeApplied {
			gone[c.DropID] = true
			r.Applied = append(r.Applied, m.ID)
			r.RedundantFacts += len(m.FactIDs)
		} else {
			r.Queued = append(r.Queued, m.ID)
		}
	}
	fm, ok, err := l.store.MergeRedundantFacts(ctx, tenant, userID, actor)
	if err != nil {
		return r, err
	}
	if ok {
		r.FactsMergeID = fm.ID
		r.RedundantFacts += len(fm.FactIDs)
	}
	return r, nil
}

func (l *Lifecycle) handleConsolidate(ctx context.Context, job jobs.Job) (map[string]any, error) {
	var p consolidatePayload
	if err := job.Decode(&p); err != nil || p.UserID == "" {
		return nil, jobs.Permanent(fmt.Errorf("consolidation job %q: payload names no user", job.ID))
	}
	// A running extraction could write a fact to an entity while it is
	// merged away: wait for it (the retry comes after the worker's backoff).
	n, err := l.store.RunningJobs(ctx, job.Tenant, p.UserID, "", job.ID)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, fmt.Errorf("consolidation waits for %d running job(s) of the user", n)
	}
	r, err := l.consolidate(ctx, job.Tenant, p.UserID, false, p.Actor)
	if err != nil {
		return nil, err
	}
	l.log.Info("consolidation done", "tenant", job.Tenant, "job", job.ID, "applied", len(r.Applied), "queued", len(r.Queued))
	return map[string]any{"done": true, "entities": r.Entities, "candidates": len(r.Candidates),
		"applied": orEmpty(r.Applied), "queued": orEmpty(r.Queued), "skipped": r.Skipped,
		"redundant_facts": r.RedundantFacts, "facts_merge_id": r.FactsMergeID}, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Merges lists the tenant's merge records (status and user optional).
func (l *Lifecycle) Merges(ctx context.Context, tenant, status, userID string, limit int) ([]Merge, error) {
	return l.store.ListMerges(ctx, tenant, graph.MergeFilter{Status: status, UserID: userID, Limit: limit})
}

// GetMerge returns one merge record.
func (l *Lifecycle) GetMerge(ctx context.Context, tenant, id string) (Merge, error) {
	return l.store.GetMerge(ctx, tenant, id)
}

// DecideMerge approves (and applies) or rejects a pending merge.
func (l *Lifecycle) DecideMerge(ctx context.Context, tenant, id string, approve bool, who Who) (Merge, error) {
	return l.store.DecideMerge(ctx, tenant, id, approve, actorOf(who))
}

// SplitMerge reverses an applied merge.
func (l *Lifecycle) SplitMerge(ctx context.Context, tenant, id string, who Who) (Merge, error) {
	return l.store.SplitMerge(ctx, tenant, id, actorOf(who))
}

func actorOf(w Who) string {
	if w.Actor != "" {
		return w.Actor
	}
	return w.Tenant
}
