package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/knowledge"
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
	// EditIDs are the direct edits that touched this version (graph/edits.go).
	EditIDs []string
	// Pinned and Importance are the marks of graph/marks.go ("" when never
	// marked, which means normal).
	Pinned     bool
	Importance string
}

// FactQuery selects facts of one user.
//
// By default only current facts are returned. AsOf switches to valid time:
// the facts that held at that instant, i.e. valid_from <= as_of (or no
// valid_from) and valid_to > as_of (or no valid_to), whatever their status
// now, so a fact superseded later is part of the answer for a time before
// it was superseded. IncludeHistory returns superseded facts too (combined
// with AsOf it changes nothing, since AsOf already ignores status).
//
// KnownAt switches to record time: what graphmem believed at that instant,
// the facts recorded by then and not yet expired (superseded, retracted)
// by then, whatever their status now. With AsOf as well, of those the
// ones valid at AsOf.
type FactQuery struct {
	AsOf           *time.Time
	KnownAt        *time.Time
	IncludeHistory bool
	Subject        string // entity id; empty means every subject of the user
	Predicate      string // relationship type; must be in the vocabulary
	Limit          int    // default 100, at most 1000
}

// PreferenceQuery selects the user's preferences, with FactQuery's
// semantics for AsOf and IncludeHistory.
type PreferenceQuery struct {
	AsOf           *time.Time
	KnownAt        *time.Time
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
		AND r.tenant = $tenant AND r.user_id = $user`+timeFilter(q.AsOf, q.KnownAt, q.IncludeHistory, params)+`
		`+factReturn+`
		ORDER BY r.status = 'current' DESC, r.valid_from DESC, r.recorded_at DESC, r.id LIMIT $limit`, params)
}

// timeFilter renders the status / valid-time condition of a fact query.
func timeFilter(asOf, knownAt *time.Time, history bool, params map[string]any) string {
	f := ""
	if knownAt != nil {
		params["knownat"] = knownAt.UTC()
		f = `
		AND r.recorded_at <= $knownat AND (r.expired_at IS NULL OR r.expired_at > $knownat)`
	}
	if asOf != nil && knownAt != nil {
		// A fact closed after known_at got its valid_to then: as
		// believed at known_at it had none.
		params["asof"] = asOf.UTC()
		return f + `
		AND (r.valid_from IS NULL OR r.valid_from <= $asof)
		AND (r.valid_to IS NULL OR r.valid_to > $asof OR r.expired_at > $knownat)`
	}
	if asOf != nil {
		params["asof"] = asOf.UTC()
		return f + `
		AND (r.valid_from IS NULL OR r.valid_from <= $asof) AND (r.valid_to IS NULL OR r.valid_to > $asof)`
	}
	if knownAt != nil {
		return f
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
		WHERE r.tenant = $tenant AND r.user_id = $user`+timeFilter(q.AsOf, q.KnownAt, q.IncludeHistory, params)+`
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
		SupersededBy: str(p, "superseded_by"), ExtractedBy: str(p, "extracted_by"), EditIDs: strs(p, "edit_ids"),
		Pinned: pinned(p), Importance: str(p, "importance"),
	}
}

func pinned(p map[string]any) bool {
	b, _ := p["pinned"].(bool)
	return b
}

// writeFacts plans every input fact against the facts its subject already
// has (knowledge.Plan), then writes creations, updates and conflicts in a
// few batched statements. It returns the entity ids the write brought new
// evidence on.
func (s *Store) writeFacts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity, res *KnowledgeResult) (map[string]bool, error) {
	evidence := map[string]bool{}
	if len(kw.facts) == 0 {
		return evidence, nil
	}
	facts, err := s.loadFacts(ctx, tx, kw, ents)
	if err != nil {
		return nil, err
	}
	open, err := loadOpenConflicts(ctx, tx, kw, ents)
	if err != nil {
		return nil, err
	}
	state := &knowledge.State{Facts: facts, Open: open}
	incoming := make([]*knowledge.Fact, len(kw.facts))
	for i, f := range kw.facts {
		incoming[i] = s.newFact(kw, f, ents[f.subj], ents[f.obj], ents)
	}
	corrected, err := s.planCorrection(ctx, tx, kw, state, incoming) // direct edits only (edits.go)
	if err != nil {
		return nil, err
	}
	plan := knowledge.Plan(state, incoming, kw.now, knowledge.Policy{})
	if err := finishCorrection(corrected, plan, res); err != nil {
		return nil, err
	}
	for i, a := range plan.Actions {
		if a.Outcome == knowledge.Skipped {
			res.FactIDs = append(res.FactIDs, "")
			continue
		}
		res.FactIDs = append(res.FactIDs, a.Fact.ID)
		switch a.Outcome {
		case knowledge.Unchanged:
			res.FactsUnchanged = append(res.FactsUnchanged, a.Fact.ID)
			continue
		case knowledge.Reinforced:
			res.FactsReinforced = append(res.FactsReinforced, a.Fact.ID)
		case knowledge.Created:
			res.FactsCreated = append(res.FactsCreated, a.Fact.ID)
			for _, c := range a.Conflicts {
				if c.Status == knowledge.Open {
					res.ConflictsOpened = append(res.ConflictsOpened, conflictID(kw.Tenant, c))
				} else {
					res.ConflictsResolved = append(res.ConflictsResolved, conflictID(kw.Tenant, c))
				}
			}
		}
		res.FactsSuperseded = append(res.FactsSuperseded, a.Closed...)
		f := kw.facts[i]
		evidence[ents[f.subj].id], evidence[ents[f.obj].id] = true, true
	}
	if err := s.flushFacts(ctx, tx, kw, state.Writes()); err != nil {
		return nil, err
	}
	if err := writeConflicts(ctx, tx, kw, plan.Conflicts); err != nil {
		return nil, err
	}
	settled, err := settleOpenConflicts(ctx, tx, kw, plan.Settled)
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
func (s *Store) loadFacts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity) (map[string][]*knowledge.Fact, error) {
	var subjects, objects, names, endSources []string
	for _, f := range kw.facts {
		subjects = append(subjects, ents[f.subj].id)
		objects = append(objects, ents[f.obj].id)
		names = append(names, s.candidateTypes(f.pred)...)
		if f.validTo != nil {
			endSources = append(endSources, f.sources...)
		}
	}
	types, err := s.relTypeList(names...)
	if err != nil {
		return nil, err
	}
	// The types are a parameter ($any), not spliced into the text: every
	// window asks for its own combination of types, and each new text cost
	// Neo4j a fresh plan (~100-400 ms of its CPU, most of the extraction
	// pipeline's database time in a LoCoMo ingest).
	recs, err := runTx(ctx, tx, planOnce+`
		UNWIND $subjects AS sid
		MATCH (s:Entity {tenant: $tenant, id: sid})-[r:$any($types)]->(o:Entity)
		WHERE s.user_id = $user AND r.tenant = $tenant AND r.user_id = $user
		  AND (r.status = 'current' OR o.id IN $objects
		       // what an ending of this window already closed, when it named
		       // the object otherwise ("the Skoda"): a replay must find it
		       OR ($session IN r.session_ids AND any(e IN r.source_event_ids WHERE e IN $endSources)))
		  // A fact retention expired (graph/retention.go) is out of the
		  // knowledge state: said again, it comes back as a new version.
		  AND r.status <> 'expired'
		RETURN sid, type(r) AS type, o.id AS oid, o.name AS oname, r {.*} AS p`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "subjects": knUnique(subjects), "objects": knUnique(objects), "types": types,
			"session": kw.SessionID, "endSources": knUnique(endSources)})
	if err != nil {
		return nil, err
	}
	state := map[string][]*knowledge.Fact{}
	for _, rec := range recs {
		sid, _ := get[string](rec, "sid")
		typ, _ := get[string](rec, "type")
		oid, _ := get[string](rec, "oid")
		p, _ := get[map[string]any](rec, "p")
		pred, ok := s.factType(typ)
		if !ok {
			continue
		}
		m := decodePlanFact(p, sid, oid, pred)
		m.ObjectName, _ = get[string](rec, "oname") // kinds compared by head noun (knowledge.KindOf)
		state[sid] = append(state[sid], m)
	}
	return state, nil
}

// newFact is the policy's view of an input fact: new, current, observed
// when the window happened.
func (s *Store) newFact(kw *knowledgeWrite, f *factIn, subj, obj *resolvedEntity, ents map[string]*resolvedEntity) *knowledge.Fact {
	n := &knowledge.Fact{ID: knID("fact_"), Subject: subj.id, Object: obj.id, ObjectName: obj.name, Predicate: f.pred, RawPredicate: f.raw,
		Qualifier: f.qualifier, Polarity: f.polarity, Status: knowledge.Current, Sentence: f.sentence,
		Confidence: f.confidence, Strength: f.strength, ValidFrom: f.validFrom, ValidTo: f.validTo,
		ObservedAt: kw.observed, RecordedAt: kw.now, LastSeen: kw.observed, Mentions: 1, Sources: f.sources,
		Sessions: knUnique([]string{kw.SessionID}), Events: knUnique([]string{kw.EventID}),
		ExtractedBy: kw.Extractor, New: true, Correction: f.correction}
	if f.corrects != "" && ents[f.corrects] != nil {
		n.Corrects = ents[f.corrects].id
	}
	if n.Sentence == "" {
		n.Sentence = renderSentence(subj.name, obj.name, f)
	}
	return n
}

// decodePlanFact reads a stored fact's properties for the policy.
func decodePlanFact(p map[string]any, sid, oid string, pred ontology.Predicate) *knowledge.Fact {
	m := &knowledge.Fact{ID: str(p, "id"), Subject: sid, Object: oid, Predicate: pred, RawPredicate: str(p, "predicate"),
		Qualifier: str(p, "qualifier"), Polarity: ontology.Polarity(str(p, "polarity")),
		Status: knowledge.Status(str(p, "status")), Sentence: str(p, "fact"), Confidence: f64(p, "confidence"),
		Strength: f64(p, "strength"), ValidFrom: tm(p, "valid_from"), ObservedAt: tm(p, "observed_at"),
		RecordedAt: tm(p, "recorded_at"), LastSeen: tm(p, "last_seen_at"), Mentions: i64(p, "mention_count"),
		Sources: strs(p, "source_event_ids"), Sessions: strs(p, "session_ids"), Events: strs(p, "event_ids"),
		SupersededBy: str(p, "superseded_by"), ExtractedBy: str(p, "extracted_by")}
	if m.Polarity == "" {
		m.Polarity = ontology.Positive
	}
	if t := tm(p, "valid_to"); !t.IsZero() {
		m.ValidTo = &t
	}
	if t := tm(p, "expired_at"); !t.IsZero() {
		m.ExpiredAt = &t
	}
	return m
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

func timeOrNil(t *time.Time) any {
	if t == nil || t.IsZero() {
		return nil
	}
	return t.UTC()
}

// mutable is what a write may change on a stored fact.
func mutable(m *knowledge.Fact) map[string]any {
	return map[string]any{
		"status": string(m.Status), "valid_to": timeOrNil(m.ValidTo), "expired_at": timeOrNil(m.ExpiredAt),
		"superseded_by": nilIfEmpty(m.SupersededBy), "source_event_ids": m.Sources, "session_ids": m.Sessions,
		"event_ids": m.Events, "mention_count": m.Mentions, "confidence": m.Confidence, "strength": m.Strength,
		"last_seen_at": m.LastSeen,
	}
}

// flushFacts writes the planned state in at most two statements: changed
// stored facts updated, then new facts created. The relationship type of
// each row is a parameter ($(row.type)), checked against the vocabulary
// first, so the statement text is the same for every window and Neo4j
// plans it once.
func (s *Store) flushFacts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, writes []*knowledge.Fact) error {
	var creates, updates []map[string]any
	for _, m := range writes {
		for _, src := range m.Sources {
			kw.touched[src] = true
		}
		if _, ok := s.factType(m.Predicate.Name); !ok {
			return fmt.Errorf("%w: fact type %q", ErrInvalid, m.Predicate.Name)
		}
		if !m.New {
			updates = append(updates, map[string]any{"type": m.Predicate.Name, "sid": m.Subject, "id": m.ID, "set": mutable(m)})
			continue
		}
		props := mutable(m)
		for k, v := range map[string]any{
			"tenant": kw.Tenant, "user_id": kw.UserID, "scope": kw.scope, "id": m.ID, "fact": m.Sentence,
			"predicate": nilIfEmpty(m.RawPredicate), "qualifier": nilIfEmpty(m.Qualifier), "polarity": string(m.Polarity),
			"preference": m.Predicate.Preference, "valid_from": m.ValidFrom, "observed_at": m.ObservedAt,
			"recorded_at": m.RecordedAt, "extracted_by": nilIfEmpty(m.ExtractedBy),
		} {
			props[k] = v
		}
		creates = append(creates, map[string]any{"type": m.Predicate.Name, "sid": m.Subject, "oid": m.Object, "props": props})
	}
	// Rows keep the old per-type order (types sorted, then plan order), so
	// relationships are created in the same sequence as before.
	byType := func(a, b map[string]any) int { return strings.Compare(a["type"].(string), b["type"].(string)) }
	slices.SortStableFunc(updates, byType)
	slices.SortStableFunc(creates, byType)
	params := map[string]any{"tenant": kw.Tenant, "user": kw.UserID}
	if len(updates) > 0 {
		params["rows"] = updates
		if _, err := runTx(ctx, tx, planOnce+`
			UNWIND $rows AS row
			MATCH (s:Entity {tenant: $tenant, id: row.sid})-[r:$(row.type)]->()
			WHERE r.tenant = $tenant AND r.id = row.id
			SET r += row.set`, params); err != nil {
			return err
		}
	}
	if len(creates) > 0 {
		params["rows"] = creates
		recs, err := runTx(ctx, tx, planOnce+`
			UNWIND $rows AS row
			MATCH (s:Entity {tenant: $tenant, id: row.sid}) WHERE s.user_id = $user
			MATCH (o:Entity {tenant: $tenant, id: row.oid}) WHERE o.user_id = $user
			CREATE (s)-[r:$(row.type)]->(o)
			SET r = row.props
			RETURN count(r) AS n`, params)
		if err != nil {
			return err
		}
		if n, _ := get[int64](recs[0], "n"); int(n) != len(creates) {
			return fmt.Errorf("create facts: %d of %d endpoints found", n, len(creates))
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
func factSentenceOrID(m *knowledge.Fact) string {
	if strings.TrimSpace(m.Sentence) != "" {
		return m.Sentence
	}
	return m.ID
}
