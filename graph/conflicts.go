package graph

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/knowledge"
)

// Conflict statuses, resolutions, kinds and winners: the policy's types
// (package knowledge), named here for the readers of this package's API.
const (
	ConflictOpen     = knowledge.Open
	ConflictResolved = knowledge.Resolved

	ResolutionAuto   = knowledge.Auto
	ResolutionManual = knowledge.Manual

	ConflictExclusive  = knowledge.Exclusive    // a second object for a one-value predicate
	ConflictPolarity   = knowledge.PolarityFlip // the opposite polarity or predicate on the same object
	ConflictNegation   = knowledge.Negation     // a denial of a current fact
	ConflictStale      = knowledge.Stale        // the new fact is older than the current one
	ConflictCorrection = knowledge.Correction   // the new fact corrects a slip, which never held

	WinnerNew = knowledge.WinnerNew
	WinnerOld = knowledge.WinnerOld
)

// Conflict is a recorded contradiction between an older and a newer fact
// about one subject. Winner says which fact is current after resolution
// ("" while open).
type Conflict struct {
	ID          string
	UserID      string
	Status      knowledge.ConflictStatus // open | resolved
	Resolution  knowledge.Resolution     // auto | manual | "" while open
	Kind        knowledge.ConflictKind   // exclusive | polarity | negation | stale
	Winner      knowledge.Winner         // new | old | ""
	Predicate   string                   // the new fact's relationship type
	OldFactID   string
	NewFactID   string
	OldFact     string
	NewFact     string
	SubjectID   string
	Subject     string
	DetectedAt  time.Time
	ResolvedAt  time.Time
	Note        string
	OldFactType string
}

// ConflictResolution is a reviewer's decision.
type ConflictResolution struct {
	Winner string // "new" or "old"
	Note   string
}

// conflictID is stable for a pair of facts, so a retried transaction
// MERGEs the conflict it recorded instead of adding another.
func conflictID(tenant string, c knowledge.Conflict) string {
	return knHashID("conflict_", tenant, c.Old.ID, c.New.ID)
}

// writeConflicts records the write's conflicts, each linked to its subject.
func writeConflicts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, conflicts []knowledge.Conflict) error {
	if len(conflicts) == 0 {
		return nil
	}
	rows := make([]map[string]any, len(conflicts))
	for i, c := range conflicts {
		props := map[string]any{
			"tenant": kw.Tenant, "user_id": kw.UserID, "id": conflictID(kw.Tenant, c), "status": string(c.Status),
			"kind": string(c.Kind), "winner": nilIfEmpty(string(c.Winner)), "predicate": c.New.Predicate.Name,
			"old_predicate": c.Old.Predicate.Name, "old_fact_id": c.Old.ID, "new_fact_id": c.New.ID,
			"old_fact": factSentenceOrID(c.Old), "new_fact": factSentenceOrID(c.New), "detected_at": kw.now,
			"session_id": nilIfEmpty(kw.SessionID),
		}
		if c.Status == knowledge.Resolved {
			props["resolution"], props["resolved_at"] = string(knowledge.Auto), kw.now
		}
		rows[i] = map[string]any{"sid": c.New.Subject, "id": props["id"], "props": props}
	}
	_, err := runTx(ctx, tx, planOnce+`
		UNWIND $rows AS row
		MATCH (s:Entity {tenant: $tenant, id: row.sid}) WHERE s.user_id = $user
		MERGE (c:Conflict {tenant: $tenant, id: row.id})
		ON CREATE SET c += row.props
		MERGE (c)-[:ABOUT {tenant: $tenant}]->(s)`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "rows": rows})
	return err
}

// Conflicts lists the user's conflicts, newest first; status "" means all.
func (s *Store) Conflicts(ctx context.Context, tenant, userID, status string, limit int) ([]Conflict, error) {
	switch knowledge.ConflictStatus(status) {
	case "", knowledge.Open, knowledge.Resolved:
	default:
		return nil, fmt.Errorf("conflicts: %w: status %q (want open, resolved or empty)", ErrInvalid, status)
	}
	res, err := s.read(ctx, "conflicts.list", `
		MATCH (c:Conflict {tenant: $tenant, user_id: $user})
		WHERE c.status IS NOT NULL AND ($status = '' OR c.status = $status)
		OPTIONAL MATCH (c)-[:ABOUT]->(s:Entity {tenant: $tenant})
		RETURN c, s.id AS sid, s.name AS sname
		ORDER BY c.detected_at DESC, c.id LIMIT $limit`,
		map[string]any{"tenant": tenant, "user": userID, "status": status, "limit": int64(clampLimit(limit, 100, 1000))})
	if err != nil {
		return nil, err
	}
	out := make([]Conflict, 0, len(res.Records))
	for _, rec := range res.Records {
		c, err := decodeConflict(rec)
		if err != nil {
			return nil, fmt.Errorf("conflicts: %w", err)
		}
		out = append(out, c)
	}
	return out, nil
}

func decodeConflict(rec *neo4j.Record) (Conflict, error) {
	raw, _ := rec.Get("c")
	node, ok := raw.(dbtype.Node)
	if !ok {
		return Conflict{}, errNoRecords
	}
	p := node.Props
	c := Conflict{ID: str(p, "id"), UserID: str(p, "user_id"), Status: knowledge.ConflictStatus(str(p, "status")),
		Resolution: knowledge.Resolution(str(p, "resolution")), Kind: knowledge.ConflictKind(str(p, "kind")),
		Winner: knowledge.Winner(str(p, "winner")), Predicate: str(p, "predicate"), OldFactType: str(p, "old_predicate"),
		OldFactID: str(p, "old_fact_id"), NewFactID: str(p, "new_fact_id"), OldFact: str(p, "old_fact"),
		NewFact: str(p, "new_fact"), DetectedAt: tm(p, "detected_at"), ResolvedAt: tm(p, "resolved_at"), Note: str(p, "note")}
	c.SubjectID, _ = get[string](rec, "sid")
	c.Subject, _ = get[string](rec, "sname")
	return c, nil
}

// ResolveConflict records a reviewer's decision on a conflict.
//
// For an open conflict the losing fact, if still current, is closed
// (superseded by the winner; it held until the later of the two facts'
// starts, so a rejected newer fact gets an empty interval: it never held).
// For a resolved conflict, choosing the same winner only updates the note;
// choosing the other winner undoes the resolution: the fact this conflict
// superseded is reopened (current again, valid_to, expired_at and
// superseded_by cleared, reopened_at set) provided it was superseded by
// the other fact of this conflict and not by a third one, and the former
// winner is closed if it is still current. Facts outside the pair are never
// touched. Either way the conflict becomes resolved/manual. An unknown id is
// ErrNotFound; a winner other than "new" or "old" is ErrInvalid.
func (s *Store) ResolveConflict(ctx context.Context, tenant, conflictID string, r ConflictResolution) (Conflict, error) {
	winner, ok := knowledge.ParseWinner(r.Winner)
	if !ok {
		return Conflict{}, fmt.Errorf("resolve conflict: %w: winner %q (want new or old)", ErrInvalid, r.Winner)
	}
	types, err := s.allFactTypes()
	if err != nil {
		return Conflict{}, err
	}
	return writeTx(ctx, s, "conflicts.resolve", func(tx neo4j.ManagedTransaction) (Conflict, error) {
		now := time.Now().UTC()
		params := map[string]any{"tenant": tenant, "id": conflictID, "now": now}
		// Lock the conflict first so two reviewers serialize.
		recs, err := runTx(ctx, tx, `
			MATCH (c:Conflict {tenant: $tenant, id: $id})
			SET c.updated_at = $now
			WITH c
			MATCH (c)-[:ABOUT]->(s:Entity {tenant: $tenant})
			OPTIONAL MATCH (s)-[r:`+types+`]->(o:Entity)
			WHERE r.tenant = $tenant AND r.id IN [c.old_fact_id, c.new_fact_id]
			RETURN c, s.id AS sid, s.name AS sname, collect(r {.*, type: type(r), oid: o.id}) AS facts`, params)
		if err != nil {
			return Conflict{}, err
		}
		if len(recs) == 0 {
			return Conflict{}, errs.NotFound("conflict %q", conflictID)
		}
		c, err := decodeConflict(recs[0])
		if err != nil {
			return Conflict{}, err
		}
		byID := map[string]*knowledge.Fact{}
		rawFacts, _ := get[[]any](recs[0], "facts")
		for _, f := range rawFacts {
			if p, ok := f.(map[string]any); ok {
				pred, _ := s.factType(str(p, "type"))
				byID[str(p, "id")] = decodePlanFact(p, c.SubjectID, str(p, "oid"), pred)
			}
		}
		oldF, newF := byID[c.OldFactID], byID[c.NewFactID]
		if oldF == nil || newF == nil {
			return Conflict{}, errs.NotFound("conflict %q (its facts are missing)", conflictID)
		}
		changes, err := knowledge.Decide(knowledge.ReviewedConflict{Status: c.Status, Winner: c.Winner}, oldF, newF, winner, now)
		if err != nil {
			return Conflict{}, fmt.Errorf("resolve conflict: %w: %w", ErrInvalid, err)
		}
		var sets []map[string]any
		for _, f := range []*knowledge.Fact{oldF, newF} {
			if f.Changed {
				sets = append(sets, map[string]any{"id": f.ID, "set": lifecycle(f)})
			}
		}
		if len(sets) > 0 {
			params["sid"], params["rows"] = c.SubjectID, sets
			if _, err := runTx(ctx, tx, `
				UNWIND $rows AS row
				MATCH (s:Entity {tenant: $tenant, id: $sid})-[r:`+types+`]->(:Entity)
				WHERE r.tenant = $tenant AND r.id = row.id
				SET r += row.set`, params); err != nil {
				return Conflict{}, err
			}
			sources := append(slices.Clone(oldF.Sources), newF.Sources...)
			if err := refreshStale(ctx, tx, tenant, c.UserID, sources); err != nil {
				return Conflict{}, err
			}
		}
		params["winner"], params["note"] = string(winner), nilIfEmpty(r.Note)
		if !changes {
			// Same decision again: keep the resolution, update the note.
			recs, err = runTx(ctx, tx, `
				MATCH (c:Conflict {tenant: $tenant, id: $id})
				SET c.note = coalesce($note, c.note)
				WITH c MATCH (c)-[:ABOUT]->(s:Entity {tenant: $tenant})
				RETURN c, s.id AS sid, s.name AS sname`, params)
		} else {
			recs, err = runTx(ctx, tx, `
				MATCH (c:Conflict {tenant: $tenant, id: $id})
				SET c.status = 'resolved', c.resolution = 'manual', c.winner = $winner, c.resolved_at = $now,
				    c.note = coalesce($note, c.note)
				WITH c MATCH (c)-[:ABOUT]->(s:Entity {tenant: $tenant})
				RETURN c, s.id AS sid, s.name AS sname`, params)
		}
		if err != nil {
			return Conflict{}, err
		}
		if len(recs) == 0 {
			return Conflict{}, errs.NotFound("conflict %q", conflictID)
		}
		return decodeConflict(recs[0])
	})
}

// lifecycle is what a reviewer's decision changes on a fact: its status
// and validity, and when it was reopened (only when it was: a null in a
// map SET removes the property).
func lifecycle(f *knowledge.Fact) map[string]any {
	set := map[string]any{"status": string(f.Status), "valid_to": timeOrNil(f.ValidTo),
		"expired_at": timeOrNil(f.ExpiredAt), "superseded_by": nilIfEmpty(f.SupersededBy)}
	if f.ReopenedAt != nil {
		set["reopened_at"] = f.ReopenedAt.UTC()
	}
	return set
}

// loadOpenConflicts reads the open conflicts about the write's subjects.
func loadOpenConflicts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity) ([]*knowledge.OpenConflict, error) {
	var subjects []string
	for _, f := range kw.facts {
		subjects = append(subjects, ents[f.subj].id)
	}
	if len(subjects) == 0 {
		return nil, nil
	}
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (c:Conflict {tenant: $tenant, user_id: $user, status: 'open'})-[:ABOUT]->(s:Entity)
		WHERE s.id IN $subjects
		RETURN c.id AS id, s.id AS sid, c.old_fact_id AS old, c.new_fact_id AS new`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "subjects": knUnique(subjects)})
	if err != nil {
		return nil, err
	}
	out := make([]*knowledge.OpenConflict, 0, len(recs))
	for _, rec := range recs {
		c := &knowledge.OpenConflict{}
		c.ID, _ = get[string](rec, "id")
		c.Subject, _ = get[string](rec, "sid")
		c.OldID, _ = get[string](rec, "old")
		c.NewID, _ = get[string](rec, "new")
		out = append(out, c)
	}
	return out, nil
}

// settleOpenConflicts records the open conflicts the plan settled as
// resolved (auto) and returns their ids.
func settleOpenConflicts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, settled []*knowledge.OpenConflict) ([]string, error) {
	if len(settled) == 0 {
		return nil, nil
	}
	rows := make([]map[string]any, len(settled))
	ids := make([]string, len(settled))
	for i, c := range settled {
		ids[i] = c.ID
		rows[i] = map[string]any{"id": c.ID, "set": map[string]any{"status": string(knowledge.Resolved),
			"resolution": string(knowledge.Auto), "winner": nilIfEmpty(string(c.Winner)), "resolved_at": kw.now, "note": c.Note}}
	}
	_, err := runTx(ctx, tx, planOnce+`
		UNWIND $rows AS row
		MATCH (c:Conflict {tenant: $tenant, id: row.id}) WHERE c.user_id = $user AND c.status = 'open'
		SET c += row.set`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "rows": rows})
	return ids, err
}
