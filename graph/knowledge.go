package graph

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// The knowledge layer: entities, facts, conflicts and mentions written from
// one extraction window. The shapes it writes, readable in Neo4j Browser:
//
//	(:Entity:<Type> {tenant, user_id, scope, id, name, norm_name, type, aliases, aliases_text, ...})
//	(subject:Entity)-[:<PREDICATE> {tenant, user_id, scope, id, fact, status, valid_from, valid_to, ...}]->(object:Entity)
//	(:Conflict {tenant, user_id, id, status, kind, old_fact_id, new_fact_id, ...})-[:ABOUT]->(subject)
//	(:Raw)-[:MENTIONS]->(:Entity), (:Event)-[:MENTIONS]->(:Entity)
//
// Entities and facts belong to one (tenant, user): the same name for
// another user is another entity, and no query of this layer reads or
// changes another user's knowledge.

// Fact statuses, as the policy (package knowledge) defines them.
const (
	FactCurrent    = knowledge.Current
	FactSuperseded = knowledge.Superseded
)

// defaultFactConfidence is used when an extractor gives no confidence (0).
const defaultFactConfidence = 0.8

// Limits of one knowledge write; a window's extraction is far smaller.
const (
	maxWriteEntities = 1000
	maxWriteFacts    = 2000
	maxNameLen       = 300
	maxSentenceLen   = 4000
	maxEmbeddingDims = 8192
)

// EntityInput is an entity mentioned in one extraction window. Key is local
// to the write and is what facts and mentions refer to.
type EntityInput struct {
	Key     string
	Name    string
	Type    ontology.EntityType // empty means Concept; anything outside the allow-list is ErrInvalid
	Aliases []string
	// IsUser marks the entity that stands for the session's user; it is
	// resolved to the user's :Entity:Person:User node, whatever its name.
	IsUser bool
	// Embedding of the name, used for vector resolution when the store has
	// an embedder (Config.EmbeddingDimensions > 0) and the size matches.
	Embedding []float32
}

// FactInput is one statement of the window in the ontology's vocabulary.
type FactInput struct {
	Subject   string // EntityInput.Key
	Predicate string // a relationship type of the store's vocabulary (map aliases with ontology.Resolve first)
	// RawPredicate is the original verb phrase, kept when Predicate is
	// ontology.Fallback (RELATED_TO).
	RawPredicate string
	Object       string // EntityInput.Key
	// Qualifier narrows an exclusive predicate to a slot ("programming
	// language" for a favourite, "trip" for a budget).
	Qualifier string
	Sentence  string // the readable fact; rendered from the names when empty
	Polarity  ontology.Polarity
	// Confidence in [0,1]; 0 means not given (defaults to 0.8). Below the
	// conflict threshold a contradiction is left open for review.
	Confidence float64
	Strength   float64 // [0,1], for preferences
	// ValidFrom/ValidTo are event time. ValidFrom defaults to the write's
	// ObservedAt: when the speaker said it, it held.
	ValidFrom *time.Time
	ValidTo   *time.Time
	// SourceEventIDs are the raw event ids the fact was read from.
	SourceEventIDs []string
	// Correction: the fact corrects a slip, which is closed with an empty
	// validity (knowledge.Correct); Corrects is the EntityInput.Key of the
	// wrong value when it was named.
	Correction bool
	Corrects   string
}

// KnowledgeWrite is one window's extraction result.
type KnowledgeWrite struct {
	Tenant    string
	UserID    string
	UserName  string // the user's display name when known
	SessionID string
	EventID   string // the event-tier node the window was summarized into (optional)
	// ObservedAt is when the window's events happened; zero means now.
	ObservedAt time.Time
	Extractor  string // engine name, kept as extracted_by
	Entities   []EntityInput
	Facts      []FactInput
	// Mentions lists entity keys per raw event id. Facts imply mentions of
	// their subject and object by their source events.
	Mentions map[string][]string

	// edit makes the write a direct edit of a fact (edits.go).
	edit *editWrite
}

// KnowledgeResult says what a write did. A write replayed as is (a retried
// job) reports its facts as unchanged and creates nothing.
type KnowledgeResult struct {
	// EntityIDs maps each input key to the stored entity id.
	EntityIDs map[string]string
	// EntitiesCreated are new entities; EntitiesMerged are existing ones
	// matched by something else than their exact name and type (alias,
	// full-text or vector similarity, a Concept upgraded to a type).
	EntitiesCreated []string
	EntitiesMerged  []string
	// FactIDs holds, per input fact, the id of the stored fact it created,
	// reinforced or replayed ("" when skipped: subject and object resolved
	// to the same entity).
	FactIDs         []string
	FactsCreated    []string
	FactsReinforced []string
	FactsUnchanged  []string
	// FactsSuperseded are facts this write closed, including a new fact
	// stored already superseded because newer evidence was known.
	FactsSuperseded   []string
	ConflictsResolved []string
	ConflictsOpened   []string
	// MentionsCreated counts new MENTIONS links from raw and event nodes.
	MentionsCreated int
}

// knowledgeWrite is a validated write.
type knowledgeWrite struct {
	KnowledgeWrite
	scope    string
	now      time.Time
	observed time.Time
	entities []*entityIn
	byKey    map[string]*entityIn
	facts    []*factIn
	mentions map[string][]string // raw event id -> keys (deduplicated, including facts' sources)
	// touched collects the source turns of every fact this write created
	// or changed, whose stale flag must be recomputed.
	touched map[string]bool
}

type entityIn struct {
	key       string
	name      string
	norm      string
	typ       ontology.EntityType
	aliases   []string
	isUser    bool
	embedding []float64
}

type factIn struct {
	idx        int
	subj, obj  string // keys
	pred       ontology.Predicate
	raw        string
	qualifier  string
	sentence   string
	polarity   ontology.Polarity
	confidence float64
	strength   float64
	validFrom  time.Time
	validTo    *time.Time
	sources    []string
	correction bool
	corrects   string // key
}

// WriteKnowledge stores one window's entities, facts and mentions in one
// transaction: entities are resolved against the user's graph, facts are
// deduplicated, reinforced or added, contradictions close superseded facts
// (never deleting them) and are recorded as :Conflict nodes. The write is
// validated first; anything outside the vocabulary is ErrInvalid and
// nothing is written. It is idempotent: replaying the same write changes
// nothing and opens no second conflict.
func (s *Store) WriteKnowledge(ctx context.Context, w KnowledgeWrite) (KnowledgeResult, error) {
	kw, err := s.validateKnowledge(w)
	if err != nil {
		return KnowledgeResult{}, fmt.Errorf("write knowledge: %w", err)
	}
	return writeTx(ctx, s, "knowledge.write", func(tx neo4j.ManagedTransaction) (KnowledgeResult, error) {
		// The driver retries this function on transient errors: state it
		// accumulates starts afresh each time.
		kw.now = time.Now().UTC()
		kw.touched = map[string]bool{}
		res := KnowledgeResult{EntityIDs: map[string]string{}}
		ents, err := s.resolveEntities(ctx, tx, kw, &res)
		if err != nil {
			return KnowledgeResult{}, fmt.Errorf("resolve entities: %w", err)
		}
		evidence, err := s.writeFacts(ctx, tx, kw, ents, &res)
		if err != nil {
			return KnowledgeResult{}, fmt.Errorf("write facts: %w", err)
		}
		if err := s.recordEdit(ctx, tx, kw, &res); err != nil {
			return KnowledgeResult{}, fmt.Errorf("record edit: %w", err)
		}
		linked, err := s.writeMentions(ctx, tx, kw, ents, &res)
		if err != nil {
			return KnowledgeResult{}, fmt.Errorf("write mentions: %w", err)
		}
		for id := range linked {
			evidence[id] = true
		}
		if err := bumpMentionCounts(ctx, tx, kw, evidence, &res); err != nil {
			return KnowledgeResult{}, fmt.Errorf("count mentions: %w", err)
		}
		if err := refreshStale(ctx, tx, kw.Tenant, kw.UserID, sortedKeys(kw.touched)); err != nil {
			return KnowledgeResult{}, fmt.Errorf("refresh stale turns: %w", err)
		}
		return res, nil
	})
}

// validateKnowledge checks the whole write before anything is written and
// normalizes it.
func (s *Store) validateKnowledge(w KnowledgeWrite) (*knowledgeWrite, error) {
	switch {
	case strings.TrimSpace(w.Tenant) == "":
		return nil, fmt.Errorf("%w: tenant is required", ErrInvalid)
	case strings.TrimSpace(w.UserID) == "":
		return nil, fmt.Errorf("%w: user id is required", ErrInvalid)
	case len(w.Entities) > maxWriteEntities:
		return nil, fmt.Errorf("%w: %d entities in one write (max %d)", ErrInvalid, len(w.Entities), maxWriteEntities)
	case len(w.Facts) > maxWriteFacts:
		return nil, fmt.Errorf("%w: %d facts in one write (max %d)", ErrInvalid, len(w.Facts), maxWriteFacts)
	}
	kw := &knowledgeWrite{KnowledgeWrite: w, scope: scopeToken(w.Tenant, w.UserID),
		byKey: map[string]*entityIn{}, mentions: map[string][]string{}}
	kw.observed = w.ObservedAt.UTC()
	if w.ObservedAt.IsZero() {
		kw.observed = time.Now().UTC()
	}
	for i, e := range w.Entities {
		in, err := s.validateEntity(i, e)
		if err != nil {
			return nil, err
		}
		if kw.byKey[in.key] != nil {
			return nil, fmt.Errorf("%w: entity key %q used twice", ErrInvalid, in.key)
		}
		kw.byKey[in.key] = in
		kw.entities = append(kw.entities, in)
	}
	for i, f := range w.Facts {
		in, err := s.validateFact(kw, i, f)
		if err != nil {
			return nil, err
		}
		kw.facts = append(kw.facts, in)
		for _, src := range in.sources {
			kw.mentions[src] = append(kw.mentions[src], in.subj, in.obj)
		}
	}
	for ev, keys := range w.Mentions {
		if strings.TrimSpace(ev) == "" {
			return nil, fmt.Errorf("%w: mention with an empty event id", ErrInvalid)
		}
		for _, k := range keys {
			if kw.byKey[k] == nil {
				return nil, fmt.Errorf("%w: mention of event %q names unknown entity key %q", ErrInvalid, ev, k)
			}
		}
		kw.mentions[ev] = append(kw.mentions[ev], keys...)
	}
	for ev, keys := range kw.mentions {
		kw.mentions[ev] = knUnique(keys)
	}
	return kw, nil
}

func (s *Store) validateEntity(i int, e EntityInput) (*entityIn, error) {
	key := strings.TrimSpace(e.Key)
	if key == "" {
		return nil, fmt.Errorf("%w: entity %d has no key", ErrInvalid, i)
	}
	typ := ontology.Concept
	if e.Type != "" {
		t, ok := ontology.ParseEntityType(string(e.Type))
		if !ok {
			return nil, fmt.Errorf("%w: entity %q has unknown type %q", ErrInvalid, key, e.Type)
		}
		typ = t
	}
	if !ontology.ValidLabel(typ.Label()) {
		return nil, fmt.Errorf("%w: entity %q type %q is not an allowed label", ErrInvalid, key, e.Type)
	}
	if e.IsUser {
		typ = ontology.Person
	}
	name := strings.Join(strings.Fields(e.Name), " ")
	if len(name) > maxNameLen {
		return nil, fmt.Errorf("%w: entity %q name longer than %d bytes", ErrInvalid, key, maxNameLen)
	}
	norm := normalizeEntityName(name)
	if norm == "" && !e.IsUser {
		return nil, fmt.Errorf("%w: entity %q has no usable name (%q)", ErrInvalid, key, e.Name)
	}
	in := &entityIn{key: key, name: name, norm: norm, typ: typ, isUser: e.IsUser}
	for _, a := range e.Aliases {
		a = strings.Join(strings.Fields(a), " ")
		if a == "" || len(a) > maxNameLen || normalizeEntityName(a) == "" {
			continue
		}
		in.aliases = append(in.aliases, a)
	}
	if len(e.Embedding) > 0 {
		if len(e.Embedding) > maxEmbeddingDims {
			return nil, fmt.Errorf("%w: entity %q embedding has %d dimensions", ErrInvalid, key, len(e.Embedding))
		}
		in.embedding = make([]float64, len(e.Embedding))
		for j, v := range e.Embedding {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%w: entity %q embedding holds a non-finite value", ErrInvalid, key)
			}
			in.embedding[j] = float64(v)
		}
	}
	return in, nil
}

func (s *Store) validateFact(kw *knowledgeWrite, i int, f FactInput) (*factIn, error) {
	where := fmt.Sprintf("fact %d (%s %s %s)", i, f.Subject, f.Predicate, f.Object)
	if kw.byKey[f.Subject] == nil {
		return nil, fmt.Errorf("%w: %s: unknown subject key %q", ErrInvalid, where, f.Subject)
	}
	if kw.byKey[f.Object] == nil {
		return nil, fmt.Errorf("%w: %s: unknown object key %q", ErrInvalid, where, f.Object)
	}
	if f.Subject == f.Object {
		return nil, fmt.Errorf("%w: %s: subject and object are the same entity", ErrInvalid, where)
	}
	pred, ok := s.factType(f.Predicate)
	if !ok {
		return nil, fmt.Errorf("%w: %s: predicate %q is not in the fact vocabulary", ErrInvalid, where, f.Predicate)
	}
	pol := f.Polarity
	switch pol {
	case "":
		pol = ontology.Positive
	case ontology.Positive, ontology.Negative:
	default:
		return nil, fmt.Errorf("%w: %s: polarity %q (want positive or negative)", ErrInvalid, where, f.Polarity)
	}
	for name, v := range map[string]float64{"confidence": f.Confidence, "strength": f.Strength} {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return nil, fmt.Errorf("%w: %s: %s %v outside [0,1]", ErrInvalid, where, name, v)
		}
	}
	if len(f.Sentence) > maxSentenceLen {
		return nil, fmt.Errorf("%w: %s: sentence longer than %d bytes", ErrInvalid, where, maxSentenceLen)
	}
	in := &factIn{idx: i, subj: f.Subject, obj: f.Object, qualifier: normalizeQualifier(f.Qualifier),
		sentence: strings.TrimSpace(f.Sentence), confidence: f.Confidence, strength: f.Strength,
		validFrom: kw.observed, sources: knUnique(f.SourceEventIDs), correction: f.Correction}
	if f.Corrects != "" {
		if kw.byKey[f.Corrects] == nil {
			return nil, fmt.Errorf("%w: %s: unknown corrected key %q", ErrInvalid, where, f.Corrects)
		}
		in.corrects = f.Corrects
	}
	if in.confidence == 0 {
		in.confidence = defaultFactConfidence
	}
	if f.ValidFrom != nil && !f.ValidFrom.IsZero() {
		in.validFrom = f.ValidFrom.UTC()
	}
	if f.ValidTo != nil && !f.ValidTo.IsZero() {
		vt := f.ValidTo.UTC()
		if vt.Before(in.validFrom) {
			return nil, fmt.Errorf("%w: %s: valid_to %s is before valid_from %s", ErrInvalid, where,
				vt.Format(time.RFC3339), in.validFrom.Format(time.RFC3339))
		}
		in.validTo = &vt
	}
	// A denied fact whose predicate has an opposite is stored as the
	// opposite ("doesn't like sushi anymore" is DISLIKES sushi), so Browser
	// users read it from the relationship type. For such pairs the stored
	// polarity is the sentiment of the type.
	if pol == ontology.Negative && pred.Opposite != "" {
		opp, ok := s.factType(pred.Opposite)
		if !ok {
			return nil, fmt.Errorf("%w: %s: opposite %q of %s is not in the vocabulary", ErrInvalid, where, pred.Opposite, pred.Name)
		}
		pred = opp
		pol = ontology.Positive
	}
	if pred.Opposite != "" {
		pol = pred.Polarity()
	}
	in.pred, in.polarity = pred, pol
	if pred.Name == ontology.Fallback {
		in.raw = strings.TrimSpace(f.RawPredicate)
	}
	for _, src := range in.sources {
		if strings.TrimSpace(src) == "" {
			return nil, fmt.Errorf("%w: %s: empty source event id", ErrInvalid, where)
		}
	}
	return in, nil
}

// factType returns the store's predicate of that exact name. Only names
// that pass ValidRelType and belong to the configured vocabulary are ever
// placed in Cypher.
func (s *Store) factType(name string) (ontology.Predicate, bool) {
	if !ontology.ValidRelType(name) {
		return ontology.Predicate{}, false
	}
	for _, p := range s.factTypes {
		if p.Name == name {
			return p, true
		}
	}
	return ontology.Predicate{}, false
}

// relTypes renders a relationship-type alternation ("A|B") for a pattern,
// from names checked against the vocabulary. Cypher cannot take types as
// parameters; this is the only way they reach a statement.
func (s *Store) relTypes(names ...string) (string, error) {
	seen := map[string]bool{}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if seen[n] {
			continue
		}
		if _, ok := s.factType(n); !ok {
			return "", fmt.Errorf("%w: relationship type %q is not in the fact vocabulary", ErrInvalid, n)
		}
		seen[n] = true
		out = append(out, n)
	}
	if len(out) == 0 {
		return "", fmt.Errorf("%w: no relationship type", ErrInvalid)
	}
	slices.Sort(out)
	return strings.Join(out, "|"), nil
}

// relTypeList is relTypes as a sorted list, for a statement that takes
// the types as a parameter ($any($types)) instead of in its text.
func (s *Store) relTypeList(names ...string) ([]string, error) {
	alt, err := s.relTypes(names...)
	if err != nil {
		return nil, err
	}
	return strings.Split(alt, "|"), nil
}

// allFactTypes is the alternation of every fact type of the store.
func (s *Store) allFactTypes() (string, error) {
	names := make([]string, len(s.factTypes))
	for i, p := range s.factTypes {
		names[i] = p.Name
	}
	return s.relTypes(names...)
}

// normalizeEntityName is the key two mentions of one entity share.
func normalizeEntityName(name string) string { return nlp.NormalizeName(name) }

// normalizeQualifier makes "Programming Languages" and "programming
// language" the same slot.
func normalizeQualifier(q string) string { return nlp.NormalizeName(q) }

// knID returns a new random id with a prefix.
func knID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// knHashID derives a stable id from its parts, so a retried write MERGEs
// the node it created the first time.
func knHashID(prefix string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return prefix + hex.EncodeToString(sum[:12])
}

// knUnique drops empty and repeated strings, keeping the first order.
func knUnique(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, v := range in {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

// knUnion appends the values of add missing from base.
func knUnion(base, add []string) []string {
	return knUnique(append(slices.Clone(base), add...))
}

// writeMentions links the window's raw events and its event-tier node to
// the entities they mention; MERGE makes replays harmless. It returns the
// entity ids that got a new link.
func (s *Store) writeMentions(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity, res *KnowledgeResult) (map[string]bool, error) {
	linked := map[string]bool{}
	var rows []map[string]any
	for ev, keys := range kw.mentions {
		for _, k := range keys {
			rows = append(rows, map[string]any{"event": ev, "entity": ents[k].id})
		}
	}
	params := map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "session": kw.SessionID, "now": kw.now}
	if len(rows) > 0 {
		params["rows"] = rows
		match := `MATCH (r:Raw {tenant: $tenant, user_id: $user, id: row.event})`
		if kw.SessionID != "" {
			match = `MATCH (r:Raw {tenant: $tenant, session_id: $session, id: row.event}) WHERE r.user_id = $user`
		}
		recs, err := runTx(ctx, tx, planOnce+`
			UNWIND $rows AS row
			`+match+`
			MATCH (e:Entity {tenant: $tenant, id: row.entity}) WHERE e.user_id = $user
			MERGE (r)-[m:MENTIONS {tenant: $tenant}]->(e)
			ON CREATE SET m.created_at = $now
			WITH e, m WHERE m.created_at = $now
			RETURN e.id AS id`, params)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			id, _ := get[string](rec, "id")
			linked[id] = true
			res.MentionsCreated++
		}
	}
	if kw.EventID != "" && len(ents) > 0 {
		ids := make([]string, 0, len(ents))
		for _, e := range ents {
			ids = append(ids, e.id)
		}
		params["event"] = kw.EventID
		params["ids"] = knUnique(ids)
		recs, err := runTx(ctx, tx, planOnce+`
			MATCH (ev:Event {tenant: $tenant, id: $event}) WHERE coalesce(ev.user_id, $user) = $user
			UNWIND $ids AS id
			MATCH (e:Entity {tenant: $tenant, id: id}) WHERE e.user_id = $user
			MERGE (ev)-[m:MENTIONS {tenant: $tenant}]->(e)
			ON CREATE SET m.created_at = $now
			WITH e, m WHERE m.created_at = $now
			RETURN e.id AS id`, params)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			id, _ := get[string](rec, "id")
			linked[id] = true
			res.MentionsCreated++
		}
	}
	return linked, nil
}

// bumpMentionCounts counts one mention per write for every existing entity
// the write brought new evidence about (a new fact, a reinforcement, a new
// MENTIONS link). New entities start at 1; a replayed write changes nothing.
func bumpMentionCounts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, evidence map[string]bool, res *KnowledgeResult) error {
	created := map[string]bool{}
	for _, id := range res.EntitiesCreated {
		created[id] = true
	}
	var ids []string
	for id := range evidence {
		if !created[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := runTx(ctx, tx, planOnce+`
		UNWIND $ids AS id
		MATCH (e:Entity {tenant: $tenant, id: id}) WHERE e.user_id = $user
		SET e.mention_count = coalesce(e.mention_count, 0) + 1, e.last_mentioned_at = $observed`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "ids": ids, "observed": kw.observed})
	return err
}
