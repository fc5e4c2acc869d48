package graph

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
)

// Conflict statuses, resolutions, kinds and winners.
const (
	ConflictOpen     = "open"
	ConflictResolved = "resolved"

	ResolutionAuto   = "auto"
	ResolutionManual = "manual"

	ConflictExclusive = "exclusive" // a second object for an exclusive predicate
	ConflictPolarity  = "polarity"  // the opposite polarity or predicate on the same object
	ConflictNegation  = "negation"  // a denial of a current fact
	ConflictStale     = "stale"     // the new fact is older than the current one

	WinnerNew = "new"
	WinnerOld = "old"
)

// Conflict is a recorded contradiction between an older and a newer fact
// about one subject. Winner says which fact is current after resolution
// ("" while open).
type Conflict struct {
	ID          string
	UserID      string
	Status      string // open | resolved
	Resolution  string // auto | manual | "" while open
	Kind        string // exclusive | polarity | negation | stale
	Winner      string // new | old | ""
	Predicate   string // the new fact's relationship type
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
func conflictID(tenant string, c conflictRec) string {
	return knHashID("conflict_", tenant, c.old.id, c.new.id)
}

// writeConflicts records the write's conflicts, each linked to its subject.
func writeConflicts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, conflicts []conflictRec) error {
	if len(conflicts) == 0 {
		return nil
	}
	rows := make([]map[string]any, len(conflicts))
	for i, c := range conflicts {
		props := map[string]any{
			"tenant": kw.Tenant, "user_id": kw.UserID, "id": conflictID(kw.Tenant, c), "status": c.status,
			"kind": c.kind, "winner": nilIfEmpty(c.winner), "predicate": c.new.pred.Name, "old_predicate": c.old.pred.Name,
			"old_fact_id": c.old.id, "new_fact_id": c.new.id, "old_fact": factSentenceOrID(c.old),
			"new_fact": factSentenceOrID(c.new), "detected_at": kw.now, "session_id": nilIfEmpty(kw.SessionID),
		}
		if c.status == ConflictResolved {
			props["resolution"], props["resolved_at"] = ResolutionAuto, kw.now
		}
		rows[i] = map[string]any{"sid": c.new.sid, "id": props["id"], "props": props}
	}
	_, err := runTx(ctx, tx, `
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
	switch status {
	case "", ConflictOpen, ConflictResolved:
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
	c := Conflict{ID: str(p, "id"), UserID: str(p, "user_id"), Status: str(p, "status"), Resolution: str(p, "resolution"),
		Kind: str(p, "kind"), Winner: str(p, "winner"), Predicate: str(p, "predicate"), OldFactType: str(p, "old_predicate"),
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
	if r.Winner != WinnerNew && r.Winner != WinnerOld {
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
			OPTIONAL MATCH (s)-[r:`+types+`]->(:Entity)
			WHERE r.tenant = $tenant AND r.id IN [c.old_fact_id, c.new_fact_id]
			RETURN c, s.id AS sid, s.name AS sname, collect(r {.*}) AS facts`, params)
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
		byID := map[string]map[string]any{}
		rawFacts, _ := get[[]any](recs[0], "facts")
		for _, f := range rawFacts {
			if p, ok := f.(map[string]any); ok {
				byID[str(p, "id")] = p
			}
		}
		oldF, newF := byID[c.OldFactID], byID[c.NewFactID]
		if oldF == nil || newF == nil {
			return Conflict{}, errs.NotFound("conflict %q (its facts are missing)", conflictID)
		}
		winner, loser := newF, oldF
		if r.Winner == WinnerOld {
			winner, loser = oldF, newF
		}
		var sets []map[string]any
		if c.Status == ConflictResolved && c.Winner != "" && c.Winner != r.Winner &&
			str(winner, "status") == FactSuperseded && str(winner, "superseded_by") == str(loser, "id") {
			sets = append(sets, map[string]any{"id": str(winner, "id"), "set": map[string]any{
				"status": FactCurrent, "valid_to": nil, "expired_at": nil, "superseded_by": nil, "reopened_at": now}})
		}
		if str(loser, "status") == FactCurrent && (c.Status == ConflictOpen || c.Winner != r.Winner) {
			sets = append(sets, map[string]any{"id": str(loser, "id"), "set": map[string]any{
				"status": FactSuperseded, "valid_to": maxTime(tm(loser, "valid_from"), tm(winner, "valid_from")),
				"expired_at": now, "superseded_by": str(winner, "id")}})
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
			sources := append(strs(oldF, "source_event_ids"), strs(newF, "source_event_ids")...)
			if err := refreshStale(ctx, tx, tenant, c.UserID, sources); err != nil {
				return Conflict{}, err
			}
		}
		params["winner"], params["note"] = r.Winner, nilIfEmpty(r.Note)
		if c.Status == ConflictResolved && c.Winner == r.Winner {
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

// openConflict is an open conflict of a subject the write touches.
type openConflict struct {
	id, sid, oldID, newID string
	winner                string // set when this write settles it
	note                  string
}

// loadOpenConflicts reads the open conflicts about the write's subjects.
func loadOpenConflicts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, ents map[string]*resolvedEntity) ([]*openConflict, error) {
	var subjects []string
	for _, f := range kw.facts {
		subjects = append(subjects, ents[f.subj].id)
	}
	if len(subjects) == 0 {
		return nil, nil
	}
	recs, err := runTx(ctx, tx, `
		MATCH (c:Conflict {tenant: $tenant, user_id: $user, status: 'open'})-[:ABOUT]->(s:Entity)
		WHERE s.id IN $subjects
		RETURN c.id AS id, s.id AS sid, c.old_fact_id AS old, c.new_fact_id AS new`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "subjects": knUnique(subjects)})
	if err != nil {
		return nil, err
	}
	out := make([]*openConflict, 0, len(recs))
	for _, rec := range recs {
		c := &openConflict{}
		c.id, _ = get[string](rec, "id")
		c.sid, _ = get[string](rec, "sid")
		c.oldID, _ = get[string](rec, "old")
		c.newID, _ = get[string](rec, "new")
		out = append(out, c)
	}
	return out, nil
}

// confirmOpenConflicts settles the open conflicts of a fact that strong
// evidence just reinforced: it wins, and the other fact, if still
// current, is closed by it.
func confirmOpenConflicts(kw *knowledgeWrite, open []*openConflict, facts []*memFact, m *memFact) []string {
	var closed []string
	for _, c := range open {
		if c.winner != "" || c.sid != m.sid || (c.oldID != m.id && c.newID != m.id) {
			continue
		}
		otherID, winner := c.newID, WinnerOld
		if c.newID == m.id {
			otherID, winner = c.oldID, WinnerNew
		}
		for _, o := range facts {
			if o.id == otherID && o.current() {
				closeFact(o, m, kw.now)
				closed = append(closed, o.id)
			}
		}
		c.winner, c.note = winner, "confirmed by later evidence"
	}
	return closed
}

// settleOpenConflicts resolves (auto) the open conflicts this write
// decided: those a reinforcement confirmed, and those whose two facts are
// both superseded now (a third fact replaced both, nothing is left to
// review). It returns their ids.
func settleOpenConflicts(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, open []*openConflict, state map[string][]*memFact) ([]string, error) {
	var rows []map[string]any
	var ids []string
	for _, c := range open {
		if c.winner == "" {
			var oldF, newF *memFact
			for _, m := range state[c.sid] {
				switch m.id {
				case c.oldID:
					oldF = m
				case c.newID:
					newF = m
				}
			}
			if oldF == nil || newF == nil || oldF.current() || newF.current() {
				continue
			}
			c.note = "both facts superseded by later evidence"
		}
		ids = append(ids, c.id)
		rows = append(rows, map[string]any{"id": c.id, "set": map[string]any{"status": ConflictResolved,
			"resolution": ResolutionAuto, "winner": nilIfEmpty(c.winner), "resolved_at": kw.now, "note": c.note}})
	}
	if len(rows) == 0 {
		return nil, nil
	}
	_, err := runTx(ctx, tx, `
		UNWIND $rows AS row
		MATCH (c:Conflict {tenant: $tenant, id: row.id}) WHERE c.user_id = $user AND c.status = 'open'
		SET c += row.set`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "rows": rows})
	return ids, err
}
