package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/ontology"
)

// Fact is a stored fact as the read methods return it. Zero times are unset.
type Fact struct {
	ID           string
	SubjectID    string
	Subject      string // subject name
	Predicate    string // relationship type
	RawPredicate string // the verb phrase when Predicate is RELATED_TO
	ObjectID     string
	Object       string // object name
	Qualifier    string
	Fact         string // the readable sentence
	Polarity     string // positive | negative
	Confidence   float64
	Strength     float64
	Preference   bool
	Status       string // current | superseded
	// ValidFrom/ValidTo are event time (when it held in the world);
	// ObservedAt is when it was said; RecordedAt/ExpiredAt are record time
	// (when the graph learned it and when it was closed).
	ValidFrom      time.Time
	ValidTo        time.Time
	ObservedAt     time.Time
	RecordedAt     time.Time
	ExpiredAt      time.Time
	LastSeenAt     time.Time
	MentionCount   int64
	SourceEventIDs []string
	SessionIDs     []string
	EventIDs       []string
	SupersededBy   string
	ExtractedBy    string
}

// FactQuery selects facts of one user.
//
// By default only current facts are returned. AsOf switches to valid time:
// the facts that held at that instant, i.e. valid_from <= as_of (or no
// valid_from) and valid_to > as_of (or no valid_to), whatever their status
// now, so a fact superseded later is part of the answer for a time before
// it was superseded. IncludeHistory returns superseded facts too (combined
// with AsOf it changes nothing, since AsOf already ignores status).
type FactQuery struct {
	AsOf           *time.Time
	IncludeHistory bool
	Subject        string // entity id; empty means every subject of the user
	Predicate      string // relationship type; must be in the vocabulary
	Limit          int    // default 100, at most 1000
}

// PreferenceQuery selects the user's preferences, with FactQuery's
// semantics for AsOf and IncludeHistory.
type PreferenceQuery struct {
	AsOf           *time.Time
	IncludeHistory bool
	Limit          int // default 100, at most 1000
}

// Preference is a preference fact whose subject is the user.
type Preference struct {
	FactID         string
	Predicate      string // LIKES, DISLIKES, PREFERS, HAS_FAVORITE, ...
	Qualifier      string
	ObjectID       string
	Object         string
	Polarity       string // positive | negative (DISLIKES is negative)
	Strength       float64
	Confidence     float64
	Status         string
	ValidFrom      time.Time
	ValidTo        time.Time
	RecordedAt     time.Time
	ExpiredAt      time.Time
	SourceEventIDs []string
	Fact           string
	SupersededBy   string
}

// factReturn is the projection readFacts decodes.
const factReturn = `RETURN r {.*} AS p, type(r) AS type, s.id AS sid, s.name AS sname, o.id AS oid, o.name AS oname`

// Facts returns the user's facts; see FactQuery for the time semantics.
func (s *Store) Facts(ctx context.Context, tenant, userID string, q FactQuery) ([]Fact, error) {
	types, err := s.allFactTypes()
	if err != nil {
		return nil, err
	}
	if q.Predicate != "" {
		if types, err = s.relTypes(q.Predicate); err != nil {
			return nil, fmt.Errorf("facts: %w", err)
		}
	}
	params := map[string]any{"tenant": tenant, "user": userID, "subject": q.Subject,
		"limit": int64(clampLimit(q.Limit, 100, 1000))}
	match := `MATCH (s:Entity {tenant: $tenant, user_id: $user})-[r:` + types + `]->(o:Entity)
		WHERE s.norm_name IS NOT NULL`
	if q.Subject != "" {
		match = `MATCH (s:Entity {tenant: $tenant, id: $subject})-[r:` + types + `]->(o:Entity)
		WHERE s.user_id = $user`
	}
	return s.readFacts(ctx, "facts.list", match+`
		AND r.tenant = $tenant AND r.user_id = $user`+timeFilter(q.AsOf, q.IncludeHistory, params)+`
		`+factReturn+`
		ORDER BY r.status = 'current' DESC, r.valid_from DESC, r.recorded_at DESC, r.id LIMIT $limit`, params)
}

// timeFilter renders the status / valid-time condition of a fact query.
func timeFilter(asOf *time.Time, history bool, params map[string]any) string {
	if asOf != nil {
		params["asof"] = asOf.UTC()
		return `
		AND (r.valid_from IS NULL OR r.valid_from <= $asof) AND (r.valid_to IS NULL OR r.valid_to > $asof)`
	}
	if history {
		return ""
	}
	return `
		AND r.status = 'current'`
}

// Preferences returns the preference facts whose subject is the user's
// entity: current ones by default, all with IncludeHistory, those valid
// at AsOf otherwise. A user with no knowledge yet has none.
func (s *Store) Preferences(ctx context.Context, tenant, userID string, q PreferenceQuery) ([]Preference, error) {
	var names []string
	for _, p := range s.factTypes {
		if p.Preference {
			names = append(names, p.Name)
		}
	}
	types, err := s.relTypes(names...)
	if err != nil {
		return nil, fmt.Errorf("preferences: %w", err)
	}
	params := map[string]any{"tenant": tenant, "user": userID, "limit": int64(clampLimit(q.Limit, 100, 1000))}
	facts, err := s.readFacts(ctx, "facts.preferences", `
		MATCH (s:User {tenant: $tenant, user_id: $user}) WHERE s.is_user = true
		MATCH (s)-[r:`+types+`]->(o:Entity)
		WHERE r.tenant = $tenant AND r.user_id = $user`+timeFilter(q.AsOf, q.IncludeHistory, params)+`
		`+factReturn+`
		ORDER BY r.status = 'current' DESC, r.valid_from DESC, r.recorded_at DESC, r.id LIMIT $limit`, params)
	if err != nil {
		return nil, err
	}
	out := make([]Preference, len(facts))
	for i, f := range facts {
		out[i] = Preference{FactID: f.ID, Predicate: f.Predicate, Qualifier: f.Qualifier, ObjectID: f.ObjectID,
			Object: f.Object, Polarity: f.Polarity, Strength: f.Strength, Confidence: f.Confidence, Status: f.Status,
			ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, RecordedAt: f.RecordedAt, ExpiredAt: f.ExpiredAt,
			SourceEventIDs: f.SourceEventIDs, Fact: f.Fact, SupersededBy: f.SupersededBy}
	}
	return out, nil
}

// readFacts runs a read whose rows are factReturn projections.
func (s *Store) readFacts(ctx context.Context, op, cypher string, params map[string]any) ([]Fact, error) {
	res, err := s.read(ctx, op, cypher, params)
	if err != nil {
		return nil, err
	}
	out := make([]Fact, 0, len(res.Records))
	for _, rec := range res.Records {
		p, _ := get[map[string]any](rec, "p")
		f := decodeFact(p)
		f.Predicate, _ = get[string](rec, "type")
		f.SubjectID, _ = get[string](rec, "sid")
		f.Subject, _ = get[string](rec, "sname")
		f.ObjectID, _ = get[string](rec, "oid")
		f.Object, _ = get[string](rec, "oname")
		out = append(out, f)
	}
	return out, nil
}

func decodeFact(p map[string]any) Fact {
	pref, _ := p["preference"].(bool)
	return Fact{
		ID: str(p, "id"), RawPredicate: str(p, "predicate"), Qualifier: str(p, "qualifier"), Fact: str(p, "fact"),
		Polarity: str(p, "polarity"), Confidence: f64(p, "confidence"), Strength: f64(p, "strength"), Preference: pref,
		Status: str(p, "status"), ValidFrom: tm(p, "valid_from"), ValidTo: tm(p, "valid_to"),
		ObservedAt: tm(p, "observed_at"), RecordedAt: tm(p, "recorded_at"), ExpiredAt: tm(p, "expired_at"),
		LastSeenAt: tm(p, "last_seen_at"), MentionCount: i64(p, "mention_count"),
		SourceEventIDs: strs(p, "source_event_ids"), SessionIDs: strs(p, "session_ids"), EventIDs: strs(p, "event_ids"),
		SupersededBy: str(p, "superseded_by"), ExtractedBy: str(p, "extracted_by"),
	}
}

// memFact is a fact of the subjects a write touches, held in memory while
// the write is planned: stored ones (loaded) and new ones (to create).
type memFact struct {
	id, sid, oid string
	pred         ontology.Predicate
	raw          string
	qualifier    string
	polarity     ontology.Polarity
	status       string
	sentence     string
	confidence   float64
	strength     float64
	validFrom    time.Time
	validTo      *time.Time
	observedAt   time.Time
	recordedAt   time.Time
	expiredAt    *time.Time
	lastSeen     time.Time
	mentions     int64
	sources      []string
	sessions     []string
	events       []string
	supersededBy string
	extractedBy  string
	isNew        bool
	dirty        bool // a stored fact this write changed
}

func (m *memFact) current() bool { return m.status == FactCurrent }

func (m *memFact) sameKey(n *memFact) bool {
	return m.sid == n.sid && m.pred.Name == n.pred.Name && m.oid == n.oid &&
		m.qualifier == n.qualifier && m.polarity == n.polarity
}

// conflictRec is a conflict the write detected.
type conflictRec struct {
	kind, status, winner string
	old, new             *memFact
}

// writeFacts plans every input fact against the facts its subject already
// has, then writes creations, updates and conflicts in a few batched
// statements. It returns the entity ids the write brought new evidence on.
func (s *Store) writeFacts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity, res *KnowledgeResult) (map[string]bool, error) {
	evidence := map[string]bool{}
	if len(kw.facts) == 0 {
		return evidence, nil
	}
	state, err := s.loadFacts(ctx, tx, kw, ents)
	if err != nil {
		return nil, err
	}
	open, err := loadOpenConflicts(ctx, tx, kw, ents)
	if err != nil {
		return nil, err
	}
	var conflicts []conflictRec
	for _, f := range kw.facts {
		subj, obj := ents[f.subj], ents[f.obj]
		if subj.id == obj.id {
			res.FactIDs = append(res.FactIDs, "")
			continue
		}
		n := s.newMemFact(kw, f, subj, obj)
		m, outcome := planFact(kw, state[subj.id], n)
		switch outcome {
		case "unchanged":
			res.FactIDs = append(res.FactIDs, m.id)
			res.FactsUnchanged = append(res.FactsUnchanged, m.id)
			continue
		case "reinforced":
			res.FactIDs = append(res.FactIDs, m.id)
			res.FactsReinforced = append(res.FactsReinforced, m.id)
			if n.confidence >= DefaultConflictThreshold {
				res.FactsSuperseded = append(res.FactsSuperseded, confirmOpenConflicts(kw, open, state[subj.id], m)...)
			}
		case "ended":
			res.FactIDs = append(res.FactIDs, m.id)
			res.FactsSuperseded = append(res.FactsSuperseded, m.id)
		default: // created
			state[subj.id] = append(state[subj.id], n)
			res.FactIDs = append(res.FactIDs, n.id)
			res.FactsCreated = append(res.FactsCreated, n.id)
			found := s.detectConflicts(kw, state[subj.id], n)
			conflicts = append(conflicts, found...)
			for _, c := range found {
				switch {
				case c.kind == "stale":
					res.FactsSuperseded = append(res.FactsSuperseded, n.id)
					res.ConflictsResolved = append(res.ConflictsResolved, conflictID(kw.Tenant, c))
				case c.status == "open":
					res.ConflictsOpened = append(res.ConflictsOpened, conflictID(kw.Tenant, c))
				default:
					res.FactsSuperseded = append(res.FactsSuperseded, c.old.id)
					res.ConflictsResolved = append(res.ConflictsResolved, conflictID(kw.Tenant, c))
				}
			}
		}
		evidence[subj.id], evidence[obj.id] = true, true
	}
	if err := s.flushFacts(ctx, tx, kw, state); err != nil {
		return nil, err
	}
	if err := writeConflicts(ctx, tx, kw, conflicts); err != nil {
		return nil, err
	}
	settled, err := settleOpenConflicts(ctx, tx, kw, open, state)
	if err != nil {
		return nil, err
	}
	res.ConflictsResolved = knUnique(append(res.ConflictsResolved, settled...))
	res.FactsReinforced = knUnique(res.FactsReinforced)
	res.FactsUnchanged = knUnique(res.FactsUnchanged)
	res.FactsSuperseded = knUnique(res.FactsSuperseded)
	return evidence, nil
}

// candidateTypes are the relationship types a new fact of type p can
// conflict with or duplicate.
func (s *Store) candidateTypes(p ontology.Predicate) []string {
	out := []string{p.Name}
	if p.Opposite != "" {
		out = append(out, p.Opposite)
	}
	if p.Preference {
		for _, q := range s.factTypes {
			if q.Preference {
				out = append(out, q.Name)
			}
		}
	}
	return out
}

// loadFacts reads, for every subject of the write, its current facts of
// the types the write's facts can conflict with, plus its superseded facts
// to the write's objects (to recognize a replay). Conflict candidates never
// come from anything but the same subject.
func (s *Store) loadFacts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity) (map[string][]*memFact, error) {
	var subjects, objects, names []string
	for _, f := range kw.facts {
		subjects = append(subjects, ents[f.subj].id)
		objects = append(objects, ents[f.obj].id)
		names = append(names, s.candidateTypes(f.pred)...)
	}
	types, err := s.relTypes(names...)
	if err != nil {
		return nil, err
	}
	recs, err := runTx(ctx, tx, `
		UNWIND $subjects AS sid
		MATCH (s:Entity {tenant: $tenant, id: sid})-[r:`+types+`]->(o:Entity)
		WHERE s.user_id = $user AND r.tenant = $tenant AND r.user_id = $user
		  AND (r.status = 'current' OR o.id IN $objects)
		RETURN sid, type(r) AS type, o.id AS oid, r {.*} AS p`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "subjects": knUnique(subjects), "objects": knUnique(objects)})
	if err != nil {
		return nil, err
	}
	state := map[string][]*memFact{}
	for _, rec := range recs {
		sid, _ := get[string](rec, "sid")
		typ, _ := get[string](rec, "type")
		oid, _ := get[string](rec, "oid")
		p, _ := get[map[string]any](rec, "p")
		pred, ok := s.factType(typ)
		if !ok {
			continue
		}
		m := &memFact{id: str(p, "id"), sid: sid, oid: oid, pred: pred, raw: str(p, "predicate"),
			qualifier: str(p, "qualifier"), polarity: ontology.Polarity(str(p, "polarity")), status: str(p, "status"),
			sentence: str(p, "fact"), confidence: f64(p, "confidence"), strength: f64(p, "strength"),
			validFrom: tm(p, "valid_from"), observedAt: tm(p, "observed_at"), recordedAt: tm(p, "recorded_at"),
			lastSeen: tm(p, "last_seen_at"), mentions: i64(p, "mention_count"), sources: strs(p, "source_event_ids"),
			sessions: strs(p, "session_ids"), events: strs(p, "event_ids"), supersededBy: str(p, "superseded_by"),
			extractedBy: str(p, "extracted_by")}
		if m.polarity == "" {
			m.polarity = ontology.Positive
		}
		if t := tm(p, "valid_to"); !t.IsZero() {
			m.validTo = &t
		}
		if t := tm(p, "expired_at"); !t.IsZero() {
			m.expiredAt = &t
		}
		state[sid] = append(state[sid], m)
	}
	return state, nil
}

func (s *Store) newMemFact(kw *knowledgeWrite, f *factIn, subj, obj *resolvedEntity) *memFact {
	n := &memFact{id: knID("fact_"), sid: subj.id, oid: obj.id, pred: f.pred, raw: f.raw, qualifier: f.qualifier,
		polarity: f.polarity, status: FactCurrent, sentence: f.sentence, confidence: f.confidence, strength: f.strength,
		validFrom: f.validFrom, validTo: f.validTo, observedAt: kw.observed, recordedAt: kw.now, lastSeen: kw.observed,
		mentions: 1, sources: f.sources, sessions: knUnique([]string{kw.SessionID}), events: knUnique([]string{kw.EventID}),
		extractedBy: kw.Extractor, isNew: true}
	if n.sentence == "" {
		n.sentence = renderSentence(subj.name, obj.name, f)
	}
	return n
}

// renderSentence writes a fact sentence when the extractor gave none.
func renderSentence(subj, obj string, f *factIn) string {
	phrase := f.pred.Phrase
	if f.raw != "" {
		phrase = f.raw
	}
	out := subj + " " + phrase + " " + obj
	if f.qualifier != "" {
		out += " (" + f.qualifier + ")"
	}
	if f.polarity == ontology.Negative && f.pred.Opposite == "" {
		out = "Not true any more: " + out
	}
	return out
}

// planFact decides what an input fact does to its subject's facts:
//   - "unchanged": a fact with the same subject, type, object, qualifier
//     and polarity already carries all of this write's provenance (a
//     replay); nothing changes;
//   - "reinforced": such a fact is current: provenance is appended, the
//     mention count and confidence go up a little;
//   - "ended": such a fact is current and the input says it ended (a
//     valid_to no later than the observation): the stored fact is closed;
//   - "created": a new fact.
func planFact(kw *knowledgeWrite, facts []*memFact, n *memFact) (*memFact, string) {
	var same []*memFact
	for _, m := range facts {
		if m.sameKey(n) {
			same = append(same, m)
		}
	}
	slices.SortStableFunc(same, func(a, b *memFact) int {
		if a.current() != b.current() {
			if a.current() {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, m := range same {
		if knContainsAll(m.sources, n.sources) && knContainsAll(m.sessions, n.sessions) && knContainsAll(m.events, n.events) {
			return m, "unchanged"
		}
	}
	ended := n.validTo != nil && !n.validTo.After(kw.observed)
	for _, m := range same {
		if !m.current() {
			continue
		}
		m.sources = knUnion(m.sources, n.sources)
		m.sessions = knUnion(m.sessions, n.sessions)
		m.events = knUnion(m.events, n.events)
		m.mentions++
		m.confidence = max(m.confidence, n.confidence)
		m.confidence += (1 - m.confidence) * 0.2
		if n.strength > 0 {
			m.strength = n.strength
		}
		if n.observedAt.After(m.lastSeen) {
			m.lastSeen = n.observedAt
		}
		if ended {
			vt := maxTime(m.validFrom, *n.validTo)
			m.validTo, m.status, m.expiredAt = &vt, FactSuperseded, &kw.now
		}
		m.dirty = !m.isNew
		if ended {
			return m, "ended"
		}
		return m, "reinforced"
	}
	if ended {
		// A fact that already ended when it was said is history from the
		// start: stored superseded, it closes nothing.
		n.status = FactSuperseded
	}
	return n, "created"
}

// detectConflicts finds the subject's current facts the new fact n
// contradicts and applies the rules:
//  1. exclusive: a positive fact of an exclusive type closes the subject's
//     current positive facts of that type and qualifier with another object;
//  2. polarity: the same object with the opposite polarity or the opposite
//     predicate (LIKES/DISLIKES; a DISLIKES also against the other
//     positive preferences on that object, and back);
//  3. negation: a negative fact closes the positive one on the same object;
//  4. stale: when n started before a contradicted fact (and is not simply
//     later news about an earlier start), or was said before it and gives
//     no start (a window extracted late), n is stored superseded by it and
//     nothing is closed;
//  5. weak: when n's confidence is below the threshold nothing is closed
//     and each conflict stays open for review.
func (s *Store) detectConflicts(kw *knowledgeWrite, facts []*memFact, n *memFact) []conflictRec {
	if !n.current() {
		return nil
	}
	type hit struct {
		m    *memFact
		kind string
	}
	var hits []hit
	for _, m := range facts {
		if m == n || !m.current() {
			continue
		}
		if kind := conflictKind(m, n); kind != "" {
			hits = append(hits, hit{m, kind})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	var winner *memFact
	for _, h := range hits {
		if isStale(n, h.m) && (winner == nil || h.m.validFrom.Before(winner.validFrom)) {
			winner = h.m
		}
	}
	if winner != nil {
		closeFact(n, winner, kw.now)
		return []conflictRec{{kind: "stale", status: "resolved", winner: "old", old: winner, new: n}}
	}
	out := make([]conflictRec, 0, len(hits))
	for _, h := range hits {
		if n.confidence < DefaultConflictThreshold {
			out = append(out, conflictRec{kind: h.kind, status: "open", old: h.m, new: n})
			continue
		}
		closeFact(h.m, n, kw.now)
		out = append(out, conflictRec{kind: h.kind, status: "resolved", winner: "new", old: h.m, new: n})
	}
	return out
}

// conflictKind says how the new fact n contradicts the current fact m, or
// "" when they coexist.
func conflictKind(m, n *memFact) string {
	qualOK := n.qualifier == "" || n.qualifier == m.qualifier
	if m.oid == n.oid {
		switch {
		case m.pred.Name == n.pred.Name:
			if qualOK && m.polarity != n.polarity {
				if n.polarity == ontology.Negative {
					return "negation"
				}
				return "polarity"
			}
		case m.pred.Name == n.pred.Opposite && qualOK:
			return "polarity"
		case m.pred.Preference && n.pred.Preference && qualOK &&
			((negativeSentiment[n.pred.Name] && m.polarity == ontology.Positive) ||
				(negativeSentiment[m.pred.Name] && n.polarity == ontology.Positive)):
			return "polarity"
		}
		return ""
	}
	if n.pred.Exclusive && n.polarity == ontology.Positive && m.pred.Name == n.pred.Name &&
		m.polarity == ontology.Positive && m.qualifier == n.qualifier {
		return "exclusive"
	}
	return ""
}

// isStale: n was said before m with no start of its own, or n started
// before m, unless m's start is only when it was said and n was said later
// (then n is later news about an earlier start).
func isStale(n, m *memFact) bool {
	// Arriving late (a window extracted after a later one): a statement
	// dated only by when it was said yields to anything said after it.
	if !n.observedAt.IsZero() && n.validFrom.Equal(n.observedAt) && m.observedAt.After(n.observedAt) {
		return true
	}
	if !n.validFrom.Before(m.validFrom) {
		return false
	}
	if !m.observedAt.IsZero() && m.validFrom.Equal(m.observedAt) && n.observedAt.After(m.observedAt) {
		return false
	}
	return true
}

// closeFact supersedes loser by winner: it held until the later of the two
// starts (a fact never ends before it began), and is expired now.
func closeFact(loser, winner *memFact, now time.Time) {
	vt := maxTime(loser.validFrom, winner.validFrom)
	loser.validTo, loser.expiredAt = &vt, &now
	loser.status, loser.supersededBy = FactSuperseded, winner.id
	loser.dirty = !loser.isNew
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func timeOrNil(t *time.Time) any {
	if t == nil || t.IsZero() {
		return nil
	}
	return t.UTC()
}

// mutable is what a write may change on a stored fact.
func (m *memFact) mutable() map[string]any {
	return map[string]any{
		"status": m.status, "valid_to": timeOrNil(m.validTo), "expired_at": timeOrNil(m.expiredAt),
		"superseded_by": nilIfEmpty(m.supersededBy), "source_event_ids": m.sources, "session_ids": m.sessions,
		"event_ids": m.events, "mention_count": m.mentions, "confidence": m.confidence, "strength": m.strength,
		"last_seen_at": m.lastSeen,
	}
}

// flushFacts writes the planned state: new facts created per type, changed
// stored facts updated per type. Types come from the vocabulary only.
func (s *Store) flushFacts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, state map[string][]*memFact) error {
	creates := map[string][]map[string]any{}
	updates := map[string][]map[string]any{}
	for _, facts := range state {
		for _, m := range facts {
			if m.isNew || m.dirty {
				for _, src := range m.sources {
					kw.touched[src] = true
				}
			}
			switch {
			case m.isNew:
				props := m.mutable()
				for k, v := range map[string]any{
					"tenant": kw.Tenant, "user_id": kw.UserID, "scope": kw.scope, "id": m.id, "fact": m.sentence,
					"predicate": nilIfEmpty(m.raw), "qualifier": nilIfEmpty(m.qualifier), "polarity": string(m.polarity),
					"preference": m.pred.Preference, "valid_from": m.validFrom, "observed_at": m.observedAt,
					"recorded_at": m.recordedAt, "extracted_by": nilIfEmpty(m.extractedBy),
				} {
					props[k] = v
				}
				creates[m.pred.Name] = append(creates[m.pred.Name], map[string]any{"sid": m.sid, "oid": m.oid, "props": props})
			case m.dirty:
				updates[m.pred.Name] = append(updates[m.pred.Name], map[string]any{"sid": m.sid, "id": m.id, "set": m.mutable()})
			}
		}
	}
	params := map[string]any{"tenant": kw.Tenant, "user": kw.UserID}
	for _, typ := range sortedKeys(updates) {
		if _, ok := s.factType(typ); !ok {
			return fmt.Errorf("%w: fact type %q", ErrInvalid, typ)
		}
		params["rows"] = updates[typ]
		if _, err := runTx(ctx, tx, `
			UNWIND $rows AS row
			MATCH (s:Entity {tenant: $tenant, id: row.sid})-[r:`+typ+`]->()
			WHERE r.tenant = $tenant AND r.id = row.id
			SET r += row.set`, params); err != nil {
			return err
		}
	}
	for _, typ := range sortedKeys(creates) {
		if _, ok := s.factType(typ); !ok {
			return fmt.Errorf("%w: fact type %q", ErrInvalid, typ)
		}
		params["rows"] = creates[typ]
		recs, err := runTx(ctx, tx, `
			UNWIND $rows AS row
			MATCH (s:Entity {tenant: $tenant, id: row.sid}) WHERE s.user_id = $user
			MATCH (o:Entity {tenant: $tenant, id: row.oid}) WHERE o.user_id = $user
			CREATE (s)-[r:`+typ+`]->(o)
			SET r = row.props
			RETURN count(r) AS n`, params)
		if err != nil {
			return err
		}
		if n, _ := get[int64](recs[0], "n"); int(n) != len(creates[typ]) {
			return fmt.Errorf("create %s facts: %d of %d endpoints found", typ, n, len(creates[typ]))
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// factSentenceOrID is how a conflict names a fact.
func factSentenceOrID(m *memFact) string {
	if strings.TrimSpace(m.sentence) != "" {
		return m.sentence
	}
	return m.id
}
