package graph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// Direct edits of facts: a user, an agent or an operator adds, corrects or
// withdraws one fact without an extraction pass. An added fact and a
// correction's new version go through the write path of extracted facts
// (WriteKnowledge: entity resolution, then knowledge.Plan), so they may
// reinforce, supersede or conflict exactly as extracted facts do. Each edit
// leaves a record readable in Neo4j Browser, never deleted, even by a purge:
//
//	(:Edit {tenant, user_id, id, kind, actor, reason, created_at, fact_id, new_fact_id, fact, outcome})-[:ABOUT]->(subject:Entity)
//
// and every fact version it touched lists it in edit_ids. The edit is also
// the provenance of the statement it adds: its id stands in the new fact's
// event_ids where an extracted fact names its event-tier node, so an edit
// never counts as a replay of an earlier statement.

// Extractor names, kept as extracted_by, of facts that edits wrote.
const editExtractor = "edit"

// editConfidence is the confidence of an edited fact when the edit gives
// none: someone said it directly, which is the strongest evidence the
// service gets.
const editConfidence = 1.0

// Limits of an edit's free text.
const (
	maxActorLen  = 128
	maxReasonLen = 2000
)

// FactEdit says who made a direct edit and why. The edit belongs to its
// tenant (the API key's); Actor names someone within it.
type FactEdit struct {
	Actor  string
	Reason string
}

// EditRecord is a stored :Edit.
type EditRecord struct {
	ID     string
	UserID string
	Kind   knowledge.EditKind
	Actor  string
	Reason string
	At     time.Time
	// FactID is the fact the edit is about: the one an add created or
	// reinforced, the version a correction replaced, the fact withdrawn.
	FactID string
	// NewFactID is the version a correction created ("" otherwise).
	NewFactID string
	// Fact is the statement as it read; empty once the fact was purged.
	Fact string
	// Outcome: created or reinforced (add), corrected, retracted, purged.
	Outcome string
}

// NewFact is a statement to add. A subject or object that is the user
// (IsUser, or a user word such as "user" or "me") is the user's entity;
// other names are resolved against the user's entities as extraction
// resolves them.
type NewFact struct {
	Tenant        string
	UserID        string
	Subject       string
	SubjectType   ontology.EntityType
	SubjectIsUser bool
	Object        string
	ObjectType    ontology.EntityType
	ObjectIsUser  bool
	Predicate     string // a relationship type of the store's vocabulary
	RawPredicate  string // the verb phrase of a RELATED_TO fact
	Qualifier     string
	Polarity      ontology.Polarity
	Sentence      string // rendered from the names when empty
	Confidence    float64
	Strength      float64
	ValidFrom     *time.Time
	ValidTo       *time.Time
	Edit          FactEdit
}

// FactChange is a correction: the fields to change; nil keeps the current
// version's value.
type FactChange struct {
	Predicate  *string
	Object     *string
	ObjectType *ontology.EntityType
	Qualifier  *string
	Polarity   *ontology.Polarity
	Sentence   *string
	Confidence *float64
	Strength   *float64
	ValidFrom  *time.Time
	Edit       FactEdit
}

// FactDetail is one fact of any status with what identifies its ends and
// the edits that touched it.
type FactDetail struct {
	Fact
	UserID        string
	SubjectType   string
	SubjectIsUser bool
	ObjectType    string
	ObjectIsUser  bool
	Edits         []EditRecord
}

// FactEditResult says what an edit did.
type FactEditResult struct {
	Edit EditRecord
	// Fact is the fact as the edit left it: the added (or reinforced)
	// fact, a correction's new version, the retracted fact; for a purge,
	// the fact as it was before it was deleted.
	Fact FactDetail
	// Superseded are the facts the edit closed (a correction's old version
	// among them); Reopened those a retraction made current again.
	Superseded        []string
	Reopened          []string
	ConflictsOpened   []string
	ConflictsResolved []string
}

// editWrite marks a knowledge write as a direct edit; see recordEdit and
// planCorrection for what it adds to the write path.
type editWrite struct {
	id       string
	kind     knowledge.EditKind
	edit     FactEdit
	replaces string // a correction: the id of the version it replaces
}

// FactByID returns a fact of any status with its edits. An unknown id, or
// one of another tenant, is ErrNotFound.
func (s *Store) FactByID(ctx context.Context, tenant, factID string) (FactDetail, error) {
	res, err := s.read(ctx, "facts.by_id", s.factByIDQuery(), map[string]any{"tenant": tenant, "id": factID})
	if err != nil {
		return FactDetail{}, fmt.Errorf("fact by id: %w", err)
	}
	if len(res.Records) == 0 {
		return FactDetail{}, errs.NotFound("fact %q", factID)
	}
	d := decodeFactDetail(res.Records[0])
	if ids := d.EditIDs; len(ids) > 0 {
		edits, err := s.read(ctx, "facts.edits", `
			MATCH (e:Edit {tenant: $tenant}) WHERE e.id IN $ids AND e.user_id = $user
			RETURN e ORDER BY e.created_at, e.id`, map[string]any{"tenant": tenant, "user": d.UserID, "ids": ids})
		if err != nil {
			return FactDetail{}, fmt.Errorf("fact edits: %w", err)
		}
		for _, rec := range edits.Records {
			d.Edits = append(d.Edits, decodeEdit(rec))
		}
	}
	return d, nil
}

// factByIDQuery finds a fact by id whatever its type: one index seek per
// fact type (each type's (tenant, id) uniqueness constraint is an index),
// since a relationship id alone names no type.
func (s *Store) factByIDQuery() string {
	parts := make([]string, len(s.factTypes))
	for i, p := range s.factTypes {
		parts[i] = `MATCH (s:Entity)-[r:` + p.Name + `]->(o:Entity) WHERE r.tenant = $tenant AND r.id = $id
		RETURN r {.*} AS p, type(r) AS type, s {.id, .name, .type, .is_user} AS s, o {.id, .name, .type, .is_user} AS o`
	}
	return strings.Join(parts, "\nUNION ALL\n")
}

func decodeFactDetail(rec *neo4j.Record) FactDetail {
	p, _ := get[map[string]any](rec, "p")
	sub, _ := get[map[string]any](rec, "s")
	obj, _ := get[map[string]any](rec, "o")
	f := decodeFact(p)
	f.Predicate, _ = get[string](rec, "type")
	f.SubjectID, f.Subject = str(sub, "id"), str(sub, "name")
	f.ObjectID, f.Object = str(obj, "id"), str(obj, "name")
	return FactDetail{Fact: f, UserID: str(p, "user_id"), SubjectType: str(sub, "type"),
		SubjectIsUser: sub["is_user"] == true, ObjectType: str(obj, "type"), ObjectIsUser: obj["is_user"] == true}
}

func decodeEdit(rec *neo4j.Record) EditRecord {
	raw, _ := rec.Get("e")
	node, _ := raw.(dbtype.Node)
	p := node.Props
	return EditRecord{ID: str(p, "id"), UserID: str(p, "user_id"), Kind: knowledge.EditKind(str(p, "kind")),
		Actor: str(p, "actor"), Reason: str(p, "reason"), At: tm(p, "created_at"), FactID: str(p, "fact_id"),
		NewFactID: str(p, "new_fact_id"), Fact: str(p, "fact"), Outcome: str(p, "outcome")}
}

// AddFact adds one statement to the user's knowledge through the write
// path of extracted facts: its names are resolved against the user's
// entities and knowledge.Plan judges it, so it may create a fact,
// reinforce the same current one, supersede a contradicted one or open a
// conflict. Bad input is an errs.Invalid naming the field.
func (s *Store) AddFact(ctx context.Context, in NewFact) (FactEditResult, error) {
	w, err := s.factWrite(in, &editWrite{id: knID("edit_"), kind: knowledge.EditAdd, edit: in.Edit})
	if err != nil {
		return FactEditResult{}, err
	}
	return s.writeEdit(ctx, in.Tenant, w)
}

// CorrectFact replaces a current fact by a corrected version: the fields
// the change sets, the current version's for the others. The new version
// is planned like an added fact, and the old one is closed by it
// (knowledge.Correct) in the same transaction. Only a current fact can be
// corrected: history stays as it was (ErrConflict otherwise).
func (s *Store) CorrectFact(ctx context.Context, tenant, factID string, ch FactChange) (FactEditResult, error) {
	old, err := s.FactByID(ctx, tenant, factID)
	if err != nil {
		return FactEditResult{}, err
	}
	if old.Status != string(knowledge.Current) {
		return FactEditResult{}, errs.Conflict("fact %q is %s; only a current fact can be corrected (correct its current version, or add a fact)", factID, old.Status)
	}
	in := NewFact{Tenant: tenant, UserID: old.UserID, Subject: old.Subject, SubjectType: ontology.EntityType(old.SubjectType),
		SubjectIsUser: old.SubjectIsUser, Object: old.Object, ObjectType: ontology.EntityType(old.ObjectType),
		ObjectIsUser: old.ObjectIsUser, Predicate: old.Predicate, RawPredicate: old.RawPredicate, Qualifier: old.Qualifier,
		Polarity: ontology.Polarity(old.Polarity), Sentence: old.Fact.Fact, Confidence: editConfidence, Strength: old.Strength,
		Edit: ch.Edit}
	vf := old.ValidFrom
	in.ValidFrom = &vf
	restated := false // the statement itself changes, so its old sentence no longer fits
	if ch.Predicate != nil && *ch.Predicate != old.Predicate {
		in.Predicate, in.RawPredicate, restated = *ch.Predicate, "", true
	}
	if ch.Object != nil && *ch.Object != old.Object {
		in.Object, in.ObjectType, in.ObjectIsUser, restated = *ch.Object, "", false, true
	}
	if ch.ObjectType != nil {
		in.ObjectType = *ch.ObjectType
	}
	if ch.Qualifier != nil && *ch.Qualifier != old.Qualifier {
		in.Qualifier, restated = *ch.Qualifier, true
	}
	if ch.Polarity != nil && string(*ch.Polarity) != old.Polarity {
		in.Polarity, restated = *ch.Polarity, true
	}
	if restated {
		in.Sentence = ""
	}
	if ch.Sentence != nil {
		in.Sentence = *ch.Sentence
	}
	if ch.Confidence != nil {
		in.Confidence = *ch.Confidence
	}
	if ch.Strength != nil {
		in.Strength = *ch.Strength
	}
	if ch.ValidFrom != nil {
		in.ValidFrom = ch.ValidFrom
	}
	// A type with an opposite carries its sentiment as its polarity
	// (DISLIKES is negative); given as is, validateFact would flip it.
	if p, ok := s.factType(in.Predicate); ok && p.Opposite != "" && ch.Polarity == nil {
		in.Polarity = ontology.Positive
	}
	w, err := s.factWrite(in, &editWrite{id: knID("edit_"), kind: knowledge.EditCorrect, edit: ch.Edit, replaces: factID})
	if err != nil {
		return FactEditResult{}, err
	}
	res, err := s.writeEdit(ctx, tenant, w)
	if err != nil || (!old.Pinned && old.Importance == "") || res.Fact.ID == factID {
		return res, err
	}
	// A correction restates a pinned or important fact; the new version
	// keeps its marks (graph/marks.go).
	imp := cmp.Or(old.Importance, "normal")
	m, err := s.MarkMemory(ctx, tenant, MarkFact, res.Fact.ID, Marks{Pinned: &old.Pinned, Importance: &imp, Actor: ch.Edit.Actor})
	if err != nil {
		return res, fmt.Errorf("carry the marks to the corrected fact: %w", err)
	}
	res.Fact.Pinned, res.Fact.Importance = m.Pinned, m.Importance
	return res, nil
}

// factWrite validates a statement and builds its one-fact knowledge write.
func (s *Store) factWrite(in NewFact, e *editWrite) (KnowledgeWrite, error) {
	if err := validateEditText(in.Edit); err != nil {
		return KnowledgeWrite{}, err
	}
	pred, ok := s.factType(in.Predicate)
	if !ok {
		return KnowledgeWrite{}, errs.Invalid("predicate", "oneof", "%q is not a fact type of this deployment; use an UPPER_SNAKE type such as LIVES_IN, WORKS_AT, LIKES or DISLIKES", in.Predicate)
	}
	subj, err := editEntity("subject", "s", in.Subject, in.SubjectType, in.SubjectIsUser)
	if err != nil {
		return KnowledgeWrite{}, err
	}
	obj, err := editEntity("object", "o", in.Object, in.ObjectType, in.ObjectIsUser)
	if err != nil {
		return KnowledgeWrite{}, err
	}
	if subj.IsUser && obj.IsUser || !subj.IsUser && !obj.IsUser && normalizeEntityName(subj.Name) == normalizeEntityName(obj.Name) {
		return KnowledgeWrite{}, errs.Invalid("object", "distinct", "names the subject itself; a fact joins two different entities")
	}
	switch in.Polarity {
	case "", ontology.Positive, ontology.Negative:
	default:
		return KnowledgeWrite{}, errs.Invalid("polarity", "oneof", "must be positive or negative")
	}
	if in.ValidFrom != nil && in.ValidTo != nil && in.ValidTo.Before(*in.ValidFrom) {
		return KnowledgeWrite{}, errs.Invalid("valid_to", "gtefield", "must not be before valid_from")
	}
	conf := in.Confidence
	if conf == 0 {
		conf = editConfidence
	}
	raw := ""
	if pred.Name == ontology.Fallback {
		raw = in.RawPredicate
	}
	return KnowledgeWrite{Tenant: in.Tenant, UserID: in.UserID, EventID: e.id, Extractor: editExtractor,
		Entities: []EntityInput{subj, obj},
		Facts: []FactInput{{Subject: "s", Object: "o", Predicate: pred.Name, RawPredicate: raw, Qualifier: in.Qualifier,
			Sentence: in.Sentence, Polarity: in.Polarity, Confidence: conf, Strength: in.Strength,
			ValidFrom: in.ValidFrom, ValidTo: in.ValidTo}},
		edit: e}, nil
}

// editEntity is one end of an edited fact as an extraction input.
func editEntity(field, key, name string, typ ontology.EntityType, isUser bool) (EntityInput, error) {
	name = strings.Join(strings.Fields(name), " ")
	if isUser || ontology.IsUserWord(normalizeEntityName(name)) {
		return EntityInput{Key: key, IsUser: true}, nil
	}
	if normalizeEntityName(name) == "" || len(name) > maxNameLen {
		return EntityInput{}, errs.Invalid(field, "name", "must name an entity in at most %d bytes with at least one letter or digit, or be \"user\" for the user", maxNameLen)
	}
	if typ != "" {
		t, ok := ontology.ParseEntityType(string(typ))
		if !ok {
			return EntityInput{}, errs.Invalid(field+"_type", "oneof", "%q is not an entity type", typ)
		}
		typ = t
	}
	return EntityInput{Key: key, Name: name, Type: typ}, nil
}

func validateEditText(e FactEdit) error {
	if len(e.Actor) > maxActorLen {
		return errs.Invalid("actor", "max", "must have at most %d characters", maxActorLen)
	}
	if len(e.Reason) > maxReasonLen {
		return errs.Invalid("reason", "max", "must have at most %d characters", maxReasonLen)
	}
	return nil
}

// writeEdit runs an edit's knowledge write and reads back what it left.
func (s *Store) writeEdit(ctx context.Context, tenant string, w KnowledgeWrite) (FactEditResult, error) {
	res, err := s.WriteKnowledge(ctx, w)
	if err != nil {
		return FactEditResult{}, err
	}
	if len(res.FactIDs) != 1 || res.FactIDs[0] == "" {
		return FactEditResult{}, errs.Invalid("object", "distinct", "resolves to the subject itself; a fact joins two different entities")
	}
	d, err := s.FactByID(ctx, tenant, res.FactIDs[0])
	if err != nil {
		return FactEditResult{}, err
	}
	out := FactEditResult{Fact: d, Superseded: nonNilStrings(res.FactsSuperseded),
		ConflictsOpened: nonNilStrings(res.ConflictsOpened), ConflictsResolved: nonNilStrings(res.ConflictsResolved),
		Reopened: []string{}}
	for _, e := range d.Edits {
		if e.ID == w.edit.id {
			out.Edit = e
		}
	}
	return out, nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// planCorrection is the correction hook of writeFacts, run before Plan:
// it loads the version the edit replaces and the facts it had superseded
// into the subject's state (their types need not be ones the new version
// can conflict with), checks that the version is still current, and
// closes it by the new version (knowledge.PlanCorrect). It returns the old
// version (nil when the write corrects nothing).
func (s *Store) planCorrection(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, state *knowledge.State, incoming []*knowledge.Fact) (*knowledge.Fact, error) {
	if kw.edit == nil || kw.edit.replaces == "" || len(incoming) != 1 {
		return nil, nil
	}
	next := incoming[0]
	types, err := s.allFactTypes()
	if err != nil {
		return nil, err
	}
	recs, err := runTx(ctx, tx, `
		MATCH (s:Entity {tenant: $tenant, id: $sid})-[r:`+types+`]->(o:Entity)
		WHERE r.tenant = $tenant AND r.user_id = $user AND (r.id = $id OR r.superseded_by = $id)
		RETURN type(r) AS type, o.id AS oid, r {.*} AS p`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "sid": next.Subject, "id": kw.edit.replaces})
	if err != nil {
		return nil, err
	}
	var old *knowledge.Fact
	for _, rec := range recs {
		typ, _ := get[string](rec, "type")
		oid, _ := get[string](rec, "oid")
		p, _ := get[map[string]any](rec, "p")
		pred, ok := s.factType(typ)
		if !ok {
			continue
		}
		m := decodePlanFact(p, next.Subject, oid, pred)
		if i := slices.IndexFunc(state.Facts[next.Subject], func(f *knowledge.Fact) bool { return f.ID == m.ID }); i >= 0 {
			m = state.Facts[next.Subject][i] // already loaded: keep the one the plan will see
		} else {
			state.Facts[next.Subject] = append(state.Facts[next.Subject], m)
		}
		if m.ID == kw.edit.replaces {
			old = m
		}
	}
	if old == nil {
		return nil, errs.Conflict("fact %q changed meanwhile; read it again", kw.edit.replaces)
	}
	if !old.IsCurrent() {
		return nil, errs.Conflict("fact %q was closed meanwhile (%s); read it again", old.ID, old.Status)
	}
	knowledge.PlanCorrect(state, old, next, kw.now)
	return old, nil
}

// finishCorrection points the old version at the fact the correction
// ended in: the new version, or the current fact it turned out to repeat.
func finishCorrection(old *knowledge.Fact, plan knowledge.Decision, res *KnowledgeResult) error {
	if old == nil {
		return nil
	}
	a := plan.Actions[0]
	if a.Fact == nil {
		return errs.Invalid("object", "distinct", "resolves to the subject itself; a fact joins two different entities")
	}
	old.SupersededBy = a.Fact.ID
	res.FactsSuperseded = append(res.FactsSuperseded, old.ID)
	return nil
}

// recordEdit writes the :Edit of an edit's knowledge write and lists it on
// the fact versions it touched; a write that is no edit records nothing.
func (s *Store) recordEdit(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, res *KnowledgeResult) error {
	if kw.edit == nil || len(res.FactIDs) != 1 || res.FactIDs[0] == "" {
		return nil
	}
	e := kw.edit
	factID, newID, outcome := res.FactIDs[0], "", "created"
	switch {
	case e.replaces != "":
		factID, newID, outcome = e.replaces, res.FactIDs[0], "corrected"
	case slices.Contains(res.FactsReinforced, factID) || slices.Contains(res.FactsUnchanged, factID):
		outcome = "reinforced"
	}
	return s.writeEditNode(ctx, tx, kw.Tenant, kw.UserID, res.EntityIDs["s"], EditRecord{ID: e.id, Kind: e.kind,
		Actor: e.edit.Actor, Reason: e.edit.Reason, At: kw.now, FactID: factID, NewFactID: newID, Outcome: outcome},
		knUnique([]string{factID, newID}))
}

// writeEditNode creates an :Edit about the subject, its text the edited
// fact's sentence, and appends its id to the edit_ids of the given facts
// of the subject.
func (s *Store) writeEditNode(ctx context.Context, tx neo4j.ManagedTransaction, tenant, userID, subjectID string, e EditRecord, factIDs []string) error {
	types, err := s.allFactTypes()
	if err != nil {
		return err
	}
	props := map[string]any{"tenant": tenant, "user_id": userID, "id": e.ID, "kind": string(e.Kind),
		"actor": nilIfEmpty(e.Actor), "reason": nilIfEmpty(e.Reason), "created_at": e.At, "fact_id": e.FactID,
		"new_fact_id": nilIfEmpty(e.NewFactID), "fact": nilIfEmpty(e.Fact), "outcome": e.Outcome}
	recs, err := runTx(ctx, tx, `
		MATCH (s:Entity {tenant: $tenant, id: $sid}) WHERE s.user_id = $user
		CREATE (e:Edit)-[:ABOUT {tenant: $tenant}]->(s)
		SET e = $props
		WITH s, e
		OPTIONAL MATCH (s)-[r:`+types+`]->(:Entity)
		WHERE r.tenant = $tenant AND r.id IN $facts
		SET r.edit_ids = coalesce(r.edit_ids, []) + e.id,
		    e.fact = coalesce(e.fact, CASE WHEN r.id = e.fact_id THEN r.fact END)
		RETURN count(DISTINCT e) AS n`,
		map[string]any{"tenant": tenant, "user": userID, "sid": subjectID, "props": props, "facts": factIDs})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("edit %s: subject %q not found", e.ID, subjectID)
	}
	if n, _ := get[int64](recs[0], "n"); n != 1 {
		return fmt.Errorf("edit %s: subject %q not found", e.ID, subjectID)
	}
	return nil
}

// RetractFact withdraws a fact (knowledge.PlanRetract): it leaves current
// reads, search and contexts at once, the facts it had superseded come
// back unless something later contradicts them, and the open conflicts it
// was part of are decided for the other fact. It stays in history with
// status retracted, unless purge asks to delete it: then only the :Edit
// remains, and the purged statement's text is removed from the edits and
// conflicts that quoted it. Retracting a retracted fact again is
// ErrConflict (purging it is not).
func (s *Store) RetractFact(ctx context.Context, tenant, factID string, purge bool, edit FactEdit) (FactEditResult, error) {
	if err := validateEditText(edit); err != nil {
		return FactEditResult{}, err
	}
	types, err := s.allFactTypes()
	if err != nil {
		return FactEditResult{}, err
	}
	find := s.factByIDQuery()
	return writeTx(ctx, s, "facts.retract", func(tx neo4j.ManagedTransaction) (FactEditResult, error) {
		now := time.Now().UTC()
		recs, err := runTx(ctx, tx, find, map[string]any{"tenant": tenant, "id": factID})
		if err != nil {
			return FactEditResult{}, err
		}
		if len(recs) == 0 {
			return FactEditResult{}, errs.NotFound("fact %q", factID)
		}
		row := decodeFactDetail(recs[0])
		if row.Status == string(knowledge.Retracted) && !purge {
			return FactEditResult{}, errs.Conflict("fact %q is already retracted (purge=true deletes it)", factID)
		}
		params := map[string]any{"tenant": tenant, "user": row.UserID, "sid": row.SubjectID, "id": factID, "now": now}
		recs, err = runTx(ctx, tx, `
			MATCH (s:Entity {tenant: $tenant, id: $sid})-[r:`+types+`]->(o:Entity)
			WHERE r.tenant = $tenant AND r.user_id = $user
			  AND (r.id = $id OR r.status = 'current' OR r.superseded_by = $id)
			RETURN type(r) AS type, o.id AS oid, r {.*} AS p`, params)
		if err != nil {
			return FactEditResult{}, err
		}
		var facts []*knowledge.Fact
		var f *knowledge.Fact
		for _, rec := range recs {
			typ, _ := get[string](rec, "type")
			oid, _ := get[string](rec, "oid")
			p, _ := get[map[string]any](rec, "p")
			pred, ok := s.factType(typ)
			if !ok {
				continue
			}
			m := decodePlanFact(p, row.SubjectID, oid, pred)
			if m.ID == factID {
				f = m
			}
			facts = append(facts, m)
		}
		if f == nil {
			return FactEditResult{}, errs.NotFound("fact %q", factID)
		}
		open, err := runTx(ctx, tx, `
			MATCH (c:Conflict {tenant: $tenant, user_id: $user, status: 'open'})
			WHERE $id IN [c.old_fact_id, c.new_fact_id]
			RETURN c.id AS id, c.old_fact_id AS old, c.new_fact_id AS new`, params)
		if err != nil {
			return FactEditResult{}, err
		}
		state := &knowledge.State{Facts: map[string][]*knowledge.Fact{row.SubjectID: facts}}
		for _, rec := range open {
			c := &knowledge.OpenConflict{Subject: row.SubjectID}
			c.ID, _ = get[string](rec, "id")
			c.OldID, _ = get[string](rec, "old")
			c.NewID, _ = get[string](rec, "new")
			state.Open = append(state.Open, c)
		}
		w := knowledge.PlanRetract(state, f, now)

		out := FactEditResult{Fact: row, Superseded: []string{}, Reopened: []string{}, ConflictsOpened: []string{},
			ConflictsResolved: []string{}}
		kind, outcome := knowledge.EditRetract, "retracted"
		if purge {
			kind, outcome = knowledge.EditPurge, "purged"
		}
		editRec := EditRecord{ID: knID("edit_"), UserID: row.UserID, Kind: kind, Actor: edit.Actor, Reason: edit.Reason,
			At: now, FactID: factID, Fact: f.Sentence, Outcome: outcome}
		if purge {
			editRec.Fact = ""
		}
		var sets []map[string]any
		for _, m := range append([]*knowledge.Fact{f}, w.Reopened...) {
			sets = append(sets, map[string]any{"id": m.ID, "set": lifecycle(m)})
		}
		for _, m := range w.Reopened {
			out.Reopened = append(out.Reopened, m.ID)
		}
		params["rows"] = sets
		if _, err := runTx(ctx, tx, `
			UNWIND $rows AS row
			MATCH (s:Entity {tenant: $tenant, id: $sid})-[r:`+types+`]->(:Entity)
			WHERE r.tenant = $tenant AND r.id = row.id
			SET r += row.set`, params); err != nil {
			return FactEditResult{}, err
		}
		if len(w.Settled) > 0 {
			var rows []map[string]any
			for _, c := range w.Settled {
				rows = append(rows, map[string]any{"id": c.ID, "winner": string(c.Winner), "note": c.Note})
				out.ConflictsResolved = append(out.ConflictsResolved, c.ID)
			}
			params["conflicts"] = rows
			if _, err := runTx(ctx, tx, `
				UNWIND $conflicts AS row
				MATCH (c:Conflict {tenant: $tenant, id: row.id}) WHERE c.user_id = $user AND c.status = 'open'
				SET c.status = 'resolved', c.resolution = 'manual', c.winner = row.winner, c.resolved_at = $now,
				    c.note = row.note`, params); err != nil {
				return FactEditResult{}, err
			}
		}
		if err := s.writeEditNode(ctx, tx, tenant, row.UserID, row.SubjectID, editRec, []string{factID}); err != nil {
			return FactEditResult{}, err
		}
		if purge {
			// The statement's text leaves every record that quoted it;
			// the ids stay, so the history says that something was purged.
			if _, err := runTx(ctx, tx, `
				MATCH (s:Entity {tenant: $tenant, id: $sid})-[r:`+types+`]->(:Entity)
				WHERE r.tenant = $tenant AND r.id = $id
				DELETE r
				WITH count(*) AS gone
				OPTIONAL MATCH (c:Conflict {tenant: $tenant, user_id: $user}) WHERE $id IN [c.old_fact_id, c.new_fact_id]
				SET c.old_fact = CASE WHEN c.old_fact_id = $id THEN '(purged)' ELSE c.old_fact END,
				    c.new_fact = CASE WHEN c.new_fact_id = $id THEN '(purged)' ELSE c.new_fact END
				WITH count(*) AS conflicts
				OPTIONAL MATCH (e:Edit {tenant: $tenant, user_id: $user}) WHERE e.fact_id = $id OR e.new_fact_id = $id
				SET e.fact = null`, params); err != nil {
				return FactEditResult{}, err
			}
		}
		if err := refreshStale(ctx, tx, tenant, row.UserID, f.Sources); err != nil {
			return FactEditResult{}, err
		}
		// The fact as the edit left it (as it was, for a purge).
		if !purge {
			out.Fact.Status, out.Fact.ValidTo, out.Fact.ExpiredAt = string(f.Status), *f.ValidTo, *f.ExpiredAt
			out.Fact.SupersededBy = ""
		}
		out.Fact.Edits = nil
		out.Edit = editRec
		return out, nil
	})
}

// searchFactFilter is timeFilter for the reads that rank memories
// (search's fact index, graph expansion): with history they show what the
// graph once believed, never what someone withdrew. (Current reads exclude
// retracted facts by status, and as_of reads by their empty validity.)
func searchFactFilter(asOf, knownAt *time.Time, history bool, params map[string]any) string {
	f := timeFilter(asOf, knownAt, history, params)
	if asOf == nil && knownAt == nil && history {
		f += `
		AND r.status <> 'retracted'`
	}
	return f
}
