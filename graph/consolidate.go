package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/errs"
)

// Consolidation (docs/lifecycle.md): entity resolution at write time is
// conservative (a missed merge is cheaper than a wrong one), so duplicates
// such as "Bob" and "Bob Smith" accumulate. Package memory scores
// candidate pairs from what ConsolidationEntities returns; this file keeps
// the record of each merge and applies and reverses them.
//
//	(:Merge {tenant, user_id, id, kind, status, keep_id, drop_id, score, reasons, ...})
//
// A merge moves every relationship of the absorbed entity (facts both
// ways, MENTIONS, a conflict's ABOUT) to the survivor: the copy keeps the
// type and properties and gains moved_by = the merge id. The absorbed node
// stays, under the single label :MergedEntity (out of every entity read and
// index), with merged_into and merged_by. Facts of the survivor that became
// redundant (same slot, value and polarity) are set to status 'merged' with
// merged_into (the fact kept) and merged_by. Split undoes exactly that:
// labels back, moved relationships back (without moved_by), redundant
// facts current again, the survivor's alias and count properties as they
// were. The :Merge node stays as the record (status 'split').

// Merge kinds and statuses.
const (
	MergeEntities = "entities" // two entities of one type became one
	MergeFacts    = "facts"    // redundant facts of one slot and value

	MergePending  = "pending"  // waits for review
	MergeApplied  = "applied"  // done (automatically or approved)
	MergeRejected = "rejected" // a reviewer said no; never proposed again
	MergeSplit    = "split"    // applied, then reversed; never proposed again
)

// MergeStatuses lists the statuses a merge can have.
var MergeStatuses = []string{MergePending, MergeApplied, MergeRejected, MergeSplit}

// maxConsolidationEntities bounds what one consolidation run reads of a
// user; a larger memory is consolidated in the order of mention counts.
const maxConsolidationEntities = 5000

// keepSnapshotProps are the survivor's properties a merge changes; their
// values before it are kept on the :Merge node so a split restores them.
var keepSnapshotProps = []string{"aliases", "alias_keys", "aliases_text", "merged_names", "mention_count"}

// ConsolidationEntity is an entity of a user as consolidation scores it.
type ConsolidationEntity struct {
	ID        string
	Name      string
	Norm      string
	Type      string
	AliasKeys []string
	IsUser    bool
	Mentions  int64
	Embedding []float64 // the name's vector, when entity vectors are on
	Facts     []FactSig // current facts, both directions
}

// FactSig is one current fact seen from one of its entities.
type FactSig struct {
	ID          string
	Predicate   string
	Qualifier   string
	Polarity    string
	Out         bool   // the entity is the subject
	Other       string // the other entity's id
	OtherIsUser bool
}

// ConsolidationEntities returns the user's entities with their current
// facts, most mentioned first, at most maxConsolidationEntities.
func (s *Store) ConsolidationEntities(ctx context.Context, tenant, userID string) ([]ConsolidationEntity, error) {
	res, err := s.read(ctx, "consolidate.entities", `
		MATCH (e:Entity {tenant: $tenant, user_id: $user})
		WITH e ORDER BY coalesce(e.mention_count, 0) DESC, e.id LIMIT $max
		CALL (e) {
		  OPTIONAL MATCH (e)-[f]-(o:Entity)
		  WHERE f.tenant = $tenant AND f.status = 'current' AND o.user_id = $user AND o <> e
		  RETURN collect(CASE WHEN f IS NULL THEN null ELSE {id: f.id, pred: type(f), q: coalesce(f.qualifier, ''),
		         pol: coalesce(f.polarity, ''), out: startNode(f) = e, other: o.id, other_user: coalesce(o.is_user, false)} END) AS facts
		}
		RETURN e.id AS id, e.name AS name, e.norm_name AS norm, e.type AS type, coalesce(e.alias_keys, []) AS alias_keys,
		       coalesce(e.is_user, false) AS is_user, coalesce(e.mention_count, 0) AS mentions, e.embedding AS emb, facts`,
		map[string]any{"tenant": tenant, "user": userID, "max": maxConsolidationEntities})
	if err != nil {
		return nil, fmt.Errorf("consolidation entities: %w", err)
	}
	out := make([]ConsolidationEntity, 0, len(res.Records))
	for _, rec := range res.Records {
		var e ConsolidationEntity
		e.ID, _ = get[string](rec, "id")
		e.Name, _ = get[string](rec, "name")
		e.Norm, _ = get[string](rec, "norm")
		e.Type, _ = get[string](rec, "type")
		keys, _ := get[[]any](rec, "alias_keys")
		e.AliasKeys = strs(map[string]any{"k": keys}, "k")
		e.IsUser, _ = get[bool](rec, "is_user")
		e.Mentions, _ = get[int64](rec, "mentions")
		if raw, _ := get[[]any](rec, "emb"); len(raw) > 0 {
			e.Embedding = make([]float64, 0, len(raw))
			for _, v := range raw {
				f, _ := v.(float64)
				e.Embedding = append(e.Embedding, f)
			}
		}
		facts, _ := get[[]any](rec, "facts")
		for _, f := range facts {
			m, _ := f.(map[string]any)
			sig := FactSig{}
			sig.ID, _ = m["id"].(string)
			sig.Predicate, _ = m["pred"].(string)
			sig.Qualifier, _ = m["q"].(string)
			sig.Polarity, _ = m["pol"].(string)
			sig.Out, _ = m["out"].(bool)
			sig.Other, _ = m["other"].(string)
			sig.OtherIsUser, _ = m["other_user"].(bool)
			e.Facts = append(e.Facts, sig)
		}
		out = append(out, e)
	}
	return out, nil
}

// Merge is the record of one merge, proposed, applied or reversed.
type Merge struct {
	ID        string
	UserID    string
	Kind      string
	Status    string
	Type      string // the entities' type
	KeepID    string // the survivor (entities) or the fact kept (facts)
	KeepName  string
	DropID    string // the absorbed entity (entities)
	DropName  string
	Score     float64
	Reasons   []string
	FactIDs   []string // redundant facts set to 'merged'
	Moved     int64    // relationships moved to the survivor
	Left      int64    // relationships between the two, left on the absorbed node
	CreatedAt time.Time
	CreatedBy string
	DecidedAt time.Time // applied, rejected or split
	DecidedBy string
	SplitAt   time.Time
	SplitBy   string
}

// MergeProposal is a scored pair to record, and to apply when Apply.
type MergeProposal struct {
	Tenant  string
	UserID  string
	KeepID  string
	DropID  string
	Score   float64
	Reasons []string
	Apply   bool   // apply now; otherwise the merge waits for review
	Actor   string // who asked (the API key's tenant, "consolidation" for the job)
}

// MergeFilter selects merges for ListMerges.
type MergeFilter struct {
	Status string
	UserID string
	Limit  int
}

const mergeReturn = `RETURN m.id AS id, m.user_id AS user_id, m.kind AS kind, m.status AS status, m.type AS type,
		       m.keep_id AS keep_id, m.keep_name AS keep_name, m.drop_id AS drop_id, m.drop_name AS drop_name,
		       m.score AS score, coalesce(m.reasons, []) AS reasons, coalesce(m.fact_ids, []) AS fact_ids,
		       coalesce(m.moved, 0) AS moved, coalesce(m.left, 0) AS left_n, m.created_at AS created_at,
		       m.created_by AS created_by, m.decided_at AS decided_at, m.decided_by AS decided_by,
		       m.split_at AS split_at, m.split_by AS split_by`

func decodeMerge(rec *neo4j.Record) Merge {
	var m Merge
	m.ID, _ = get[string](rec, "id")
	m.UserID, _ = get[string](rec, "user_id")
	m.Kind, _ = get[string](rec, "kind")
	m.Status, _ = get[string](rec, "status")
	m.Type, _ = get[string](rec, "type")
	m.KeepID, _ = get[string](rec, "keep_id")
	m.KeepName, _ = get[string](rec, "keep_name")
	m.DropID, _ = get[string](rec, "drop_id")
	m.DropName, _ = get[string](rec, "drop_name")
	m.Score, _ = get[float64](rec, "score")
	r, _ := get[[]any](rec, "reasons")
	m.Reasons = strs(map[string]any{"k": r}, "k")
	f, _ := get[[]any](rec, "fact_ids")
	m.FactIDs = strs(map[string]any{"k": f}, "k")
	m.Moved, _ = get[int64](rec, "moved")
	m.Left, _ = get[int64](rec, "left_n")
	m.CreatedAt, _ = get[time.Time](rec, "created_at")
	m.CreatedBy, _ = get[string](rec, "created_by")
	m.DecidedAt, _ = get[time.Time](rec, "decided_at")
	m.DecidedBy, _ = get[string](rec, "decided_by")
	m.SplitAt, _ = get[time.Time](rec, "split_at")
	m.SplitBy, _ = get[string](rec, "split_by")
	return m
}

// GetMerge returns one merge of the tenant.
func (s *Store) GetMerge(ctx context.Context, tenant, id string) (Merge, error) {
	res, err := s.read(ctx, "merge.get", `MATCH (m:Merge {tenant: $tenant, id: $id}) `+mergeReturn,
		map[string]any{"tenant": tenant, "id": id})
	if err != nil {
		return Merge{}, fmt.Errorf("get merge: %w", err)
	}
	if len(res.Records) == 0 {
		return Merge{}, errs.NotFound("merge %q", id)
	}
	return decodeMerge(res.Records[0]), nil
}

// ListMerges returns the tenant's merges, newest first.
func (s *Store) ListMerges(ctx context.Context, tenant string, f MergeFilter) ([]Merge, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	res, err := s.read(ctx, "merge.list", `
		MATCH (m:Merge {tenant: $tenant})
		WHERE ($status IS NULL OR m.status = $status) AND ($user IS NULL OR m.user_id = $user)
		WITH m ORDER BY m.created_at DESC, m.id LIMIT $limit `+mergeReturn,
		map[string]any{"tenant": tenant, "status": nilIfEmpty(f.Status), "user": nilIfEmpty(f.UserID), "limit": f.Limit})
	if err != nil {
		return nil, fmt.Errorf("list merges: %w", err)
	}
	out := make([]Merge, 0, len(res.Records))
	for _, rec := range res.Records {
		out = append(out, decodeMerge(rec))
	}
	return out, nil
}

// DecidedPairs returns the entity pairs of a user that already have a
// merge record (pending, rejected or split), keyed "a|b" with a < b: a
// consolidation run proposes none of them again.
func (s *Store) DecidedPairs(ctx context.Context, tenant, userID string) (map[string]string, error) {
	res, err := s.read(ctx, "merge.pairs", `
		MATCH (m:Merge {tenant: $tenant, user_id: $user, kind: $kind}) WHERE m.status <> $applied
		RETURN m.keep_id AS a, m.drop_id AS b, m.status AS status`,
		map[string]any{"tenant": tenant, "user": userID, "kind": MergeEntities, "applied": MergeApplied})
	if err != nil {
		return nil, fmt.Errorf("merge pairs: %w", err)
	}
	out := map[string]string{}
	for _, rec := range res.Records {
		a, _ := get[string](rec, "a")
		b, _ := get[string](rec, "b")
		st, _ := get[string](rec, "status")
		out[PairKey(a, b)] = st
	}
	return out, nil
}

// PairKey is the order-free key of two entity ids.
func PairKey(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + "|" + b
}

// ProposeMerge records a merge of two entities of one user and type and
// applies it when p.Apply. The user's own entity is never part of one.
func (s *Store) ProposeMerge(ctx context.Context, p MergeProposal) (Merge, error) {
	if p.Tenant == "" || p.UserID == "" || p.KeepID == "" || p.DropID == "" || p.KeepID == p.DropID {
		return Merge{}, fmt.Errorf("propose merge: %w: tenant, user and two distinct entity ids are required", ErrInvalid)
	}
	id := knID("mrg_")
	return writeTx(ctx, s, "merge.propose", func(tx neo4j.ManagedTransaction) (Merge, error) {
		recs, err := runTx(ctx, tx, `
			MATCH (k:Entity {tenant: $tenant, id: $keep}), (d:Entity {tenant: $tenant, id: $drop})
			WHERE k.user_id = $user AND d.user_id = $user
			RETURN k.type = d.type AS same_type, coalesce(k.is_user, false) OR coalesce(d.is_user, false) AS has_user,
			       k.type AS type, k.name AS keep_name, d.name AS drop_name`,
			map[string]any{"tenant": p.Tenant, "user": p.UserID, "keep": p.KeepID, "drop": p.DropID})
		if err != nil {
			return Merge{}, err
		}
		if len(recs) == 0 {
			return Merge{}, errs.NotFound("entities %q and %q of user %q", p.KeepID, p.DropID, p.UserID)
		}
		if same, _ := get[bool](recs[0], "same_type"); !same {
			return Merge{}, errs.Conflict("entities %q and %q have different types", p.KeepID, p.DropID)
		}
		if hasUser, _ := get[bool](recs[0], "has_user"); hasUser {
			return Merge{}, errs.Conflict("the user's own entity is never merged")
		}
		typ, _ := get[string](recs[0], "type")
		kn, _ := get[string](recs[0], "keep_name")
		dn, _ := get[string](recs[0], "drop_name")
		if _, err := runTx(ctx, tx, `
			CREATE (m:Merge {tenant: $tenant, user_id: $user, id: $id, kind: $kind, status: $pending, type: $type,
			                 keep_id: $keep, keep_name: $kn, drop_id: $drop, drop_name: $dn, score: $score,
			                 reasons: $reasons, created_at: $now, created_by: $by})`,
			map[string]any{"tenant": p.Tenant, "user": p.UserID, "id": id, "kind": MergeEntities, "pending": MergePending,
				"type": typ, "keep": p.KeepID, "kn": kn, "drop": p.DropID, "dn": dn, "score": p.Score,
				"reasons": p.Reasons, "now": time.Now().UTC(), "by": p.Actor}); err != nil {
			return Merge{}, err
		}
		if p.Apply {
			if err := applyMerge(ctx, tx, p.Tenant, id, p.Actor); err != nil {
				return Merge{}, err
			}
		}
		return readMergeTx(ctx, tx, p.Tenant, id)
	})
}

func readMergeTx(ctx context.Context, tx neo4j.ManagedTransaction, tenant, id string) (Merge, error) {
	recs, err := runTx(ctx, tx, `MATCH (m:Merge {tenant: $tenant, id: $id}) `+mergeReturn, map[string]any{"tenant": tenant, "id": id})
	if err != nil {
		return Merge{}, err
	}
	if len(recs) == 0 {
		return Merge{}, errs.NotFound("merge %q", id)
	}
	return decodeMerge(recs[0]), nil
}

// lockMerge reads a merge's status under a write lock.
func lockMerge(ctx context.Context, tx neo4j.ManagedTransaction, tenant, id string) (string, error) {
	recs, err := runTx(ctx, tx, `
		MATCH (m:Merge {tenant: $tenant, id: $id}) SET m.status = m.status RETURN m.status AS status`,
		map[string]any{"tenant": tenant, "id": id})
	if err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", errs.NotFound("merge %q", id)
	}
	st, _ := get[string](recs[0], "status")
	return st, nil
}

// DecideMerge approves (applies) or rejects a pending merge.
func (s *Store) DecideMerge(ctx context.Context, tenant, id string, approve bool, actor string) (Merge, error) {
	return writeTx(ctx, s, "merge.decide", func(tx neo4j.ManagedTransaction) (Merge, error) {
		st, err := lockMerge(ctx, tx, tenant, id)
		if err != nil {
			return Merge{}, err
		}
		if st != MergePending {
			return Merge{}, errs.Conflict("merge %q is %s, not pending", id, st)
		}
		if approve {
			if err := applyMerge(ctx, tx, tenant, id, actor); err != nil {
				return Merge{}, err
			}
		} else if _, err := runTx(ctx, tx, `
			MATCH (m:Merge {tenant: $tenant, id: $id})
			SET m.status = $rejected, m.decided_at = $now, m.decided_by = $by`,
			map[string]any{"tenant": tenant, "id": id, "rejected": MergeRejected, "now": time.Now().UTC(), "by": actor}); err != nil {
			return Merge{}, err
		}
		return readMergeTx(ctx, tx, tenant, id)
	})
}

// applyMerge carries out a recorded entity merge inside tx.
func applyMerge(ctx context.Context, tx neo4j.ManagedTransaction, tenant, id, actor string) error {
	p := map[string]any{"tenant": tenant, "id": id}
	recs, err := runTx(ctx, tx, `
		MATCH (m:Merge {tenant: $tenant, id: $id})
		MATCH (k:Entity {tenant: $tenant, id: m.keep_id}) WHERE k.user_id = m.user_id
		MATCH (d:Entity {tenant: $tenant, id: m.drop_id}) WHERE d.user_id = m.user_id AND d.type = k.type
		  AND NOT coalesce(k.is_user, false) AND NOT coalesce(d.is_user, false)
		RETURN properties(k) AS keep`, p)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return errs.Conflict("merge %q: both entities must still exist, with one type, neither the user", id)
	}
	keep, _ := get[map[string]any](recs[0], "keep")
	before := map[string]any{}
	for _, k := range keepSnapshotProps {
		if v, ok := keep[k]; ok {
			before[k] = v
		}
	}
	snap, err := json.Marshal(before)
	if err != nil {
		return fmt.Errorf("merge %q: snapshot: %w", id, err)
	}
	p["snap"] = string(snap)
	// Relationships go one by one: the copy is created after the original
	// is deleted, since a fact's id is unique per type.
	moved, err := runTx(ctx, tx, `
		MATCH (m:Merge {tenant: $tenant, id: $id})
		MATCH (k:Entity {tenant: $tenant, id: m.keep_id}), (d:Entity {tenant: $tenant, id: m.drop_id})
		CALL (k, d) {
		  MATCH (d)-[r]->(x) WHERE x <> k AND x <> d
		  WITH k, x, r, type(r) AS t, properties(r) AS props
		  DELETE r
		  WITH k, x, t, props
		  CREATE (k)-[n:$(t)]->(x) SET n = props, n.moved_by = $id
		  RETURN count(n) AS outs
		}
		CALL (k, d) {
		  MATCH (x)-[r]->(d) WHERE x <> k AND x <> d
		  WITH k, x, r, type(r) AS t, properties(r) AS props
		  DELETE r
		  WITH k, x, t, props
		  CREATE (x)-[n:$(t)]->(k) SET n = props, n.moved_by = $id
		  RETURN count(n) AS ins
		}
		RETURN outs + ins AS moved, COUNT { (k)--(d) } AS left_n`, p)
	if err != nil {
		return err
	}
	p["moved"], _ = get[int64](moved[0], "moved")
	p["left"], _ = get[int64](moved[0], "left_n")
	p["now"], p["by"], p["applied"] = time.Now().UTC(), actor, MergeApplied
	if _, err := runTx(ctx, tx, `
		MATCH (m:Merge {tenant: $tenant, id: $id})
		MATCH (k:Entity {tenant: $tenant, id: m.keep_id}), (d:Entity {tenant: $tenant, id: m.drop_id})
		WITH m, k, d, labels(d) AS labels,
		     [a IN coalesce(d.aliases, []) + [d.name] WHERE NOT a IN coalesce(k.aliases, [])] AS new_aliases,
		     [a IN coalesce(d.alias_keys, []) + [d.norm_name] WHERE NOT a IN coalesce(k.alias_keys, [])] AS new_keys
		SET k.aliases = coalesce(k.aliases, []) + new_aliases,
		    k.alias_keys = coalesce(k.alias_keys, []) + new_keys,
		    k.merged_names = coalesce(k.merged_names, []) + [n IN [d.name] WHERE NOT n IN coalesce(k.merged_names, [])],
		    k.mention_count = coalesce(k.mention_count, 0) + coalesce(d.mention_count, 0)
		SET k.aliases_text = reduce(t = '', a IN k.aliases | t + CASE WHEN t = '' THEN '' ELSE ' ' END + a)
		REMOVE d:$(labels)
		SET d:MergedEntity, d.merged_into = k.id, d.merged_by = m.id
		SET m.status = $applied, m.decided_at = $now, m.decided_by = $by, m.keep_before = $snap,
		    m.drop_labels = labels, m.moved = $moved, m.left = $left`, p); err != nil {
		return err
	}
	_, err = markRedundant(ctx, tx, tenant, id, "k.id = m.keep_id")
	return err
}

// markRedundant sets to 'merged' the current facts touching the entities
// where selects (over k and m) that repeat another current fact of the
// same subject, type, qualifier, object and polarity; the one recorded
// first stays. The ids go on the merge (fact_ids).
func markRedundant(ctx context.Context, tx neo4j.ManagedTransaction, tenant, id, where string) (int, error) {
	recs, err := runTx(ctx, tx, `
		MATCH (m:Merge {tenant: $tenant, id: $id})
		MATCH (k:Entity {tenant: $tenant}) WHERE k.user_id = m.user_id AND `+where+`
		MATCH (k)-[f]-(:Entity) WHERE f.tenant = $tenant AND f.status = 'current'
		WITH DISTINCT m, f
		WITH m, f, startNode(f) AS a, endNode(f) AS b, type(f) AS t, coalesce(f.qualifier, '') AS q, coalesce(f.polarity, '') AS pol
		ORDER BY f.recorded_at, f.id
		WITH m, a, b, t, q, pol, collect(f) AS fs WHERE size(fs) > 1
		UNWIND tail(fs) AS dup
		SET dup.status = 'merged', dup.merged_into = head(fs).id, dup.merged_by = m.id
		WITH m, collect(dup.id) AS ids
		SET m.fact_ids = coalesce(m.fact_ids, []) + ids
		RETURN size(ids) AS n`, map[string]any{"tenant": tenant, "id": id})
	if err != nil {
		return 0, err
	}
	if len(recs) == 0 {
		return 0, nil
	}
	n, _ := get[int64](recs[0], "n")
	return int(n), nil
}

// MergeRedundantFacts records and applies a facts merge for the user's
// redundant current facts (same subject, type, qualifier, object and
// polarity), when there are any. ok is false when none were found.
func (s *Store) MergeRedundantFacts(ctx context.Context, tenant, userID, actor string) (Merge, bool, error) {
	id := knID("mrg_")
	type result struct {
		m  Merge
		ok bool
	}
	r, err := writeTx(ctx, s, "merge.facts", func(tx neo4j.ManagedTransaction) (result, error) {
		if _, err := runTx(ctx, tx, `
			CREATE (:Merge {tenant: $tenant, user_id: $user, id: $id, kind: $kind, status: $applied, score: 1.0,
			                reasons: ['same slot and value'], created_at: $now, created_by: $by, decided_at: $now, decided_by: $by})`,
			map[string]any{"tenant": tenant, "user": userID, "id": id, "kind": MergeFacts, "applied": MergeApplied,
				"now": time.Now().UTC(), "by": actor}); err != nil {
			return result{}, err
		}
		n, err := markRedundant(ctx, tx, tenant, id, "true")
		if err != nil {
			return result{}, err
		}
		if n == 0 {
			_, err := runTx(ctx, tx, `MATCH (m:Merge {tenant: $tenant, id: $id}) DELETE m`, map[string]any{"tenant": tenant, "id": id})
			return result{}, err
		}
		m, err := readMergeTx(ctx, tx, tenant, id)
		return result{m: m, ok: true}, err
	})
	return r.m, r.ok, err
}

// CountRedundantFacts counts the user's current facts that repeat another
// (what MergeRedundantFacts would set to 'merged').
func (s *Store) CountRedundantFacts(ctx context.Context, tenant, userID string) (int, error) {
	res, err := s.read(ctx, "merge.facts_count", `
		MATCH (k:Entity {tenant: $tenant, user_id: $user})-[f]->(o:Entity)
		WHERE f.tenant = $tenant AND f.status = 'current'
		WITH k, o, type(f) AS t, coalesce(f.qualifier, '') AS q, coalesce(f.polarity, '') AS pol, count(f) AS n
		WHERE n > 1
		RETURN coalesce(sum(n - 1), 0) AS n`, map[string]any{"tenant": tenant, "user": userID})
	if err != nil {
		return 0, fmt.Errorf("count redundant facts: %w", err)
	}
	n, _ := get[int64](res.Records[0], "n")
	return int(n), nil
}

// SplitMerge reverses an applied merge: both entities with their own
// facts, mentions and properties again, redundant facts current again.
// Facts written to the survivor after the merge stay with it.
func (s *Store) SplitMerge(ctx context.Context, tenant, id, actor string) (Merge, error) {
	return writeTx(ctx, s, "merge.split", func(tx neo4j.ManagedTransaction) (Merge, error) {
		st, err := lockMerge(ctx, tx, tenant, id)
		if err != nil {
			return Merge{}, err
		}
		if st != MergeApplied {
			return Merge{}, errs.Conflict("merge %q is %s; only an applied merge can be split", id, st)
		}
		p := map[string]any{"tenant": tenant, "id": id, "now": time.Now().UTC(), "by": actor, "split": MergeSplit}
		recs, err := runTx(ctx, tx, `
			MATCH (m:Merge {tenant: $tenant, id: $id})
			RETURN m.kind AS kind, m.keep_before AS snap`, p)
		if err != nil {
			return Merge{}, err
		}
		kind, _ := get[string](recs[0], "kind")
		if kind == MergeEntities {
			snap, _ := get[string](recs[0], "snap")
			before, err := decodeSnapshot(snap)
			if err != nil {
				return Merge{}, fmt.Errorf("split merge %q: snapshot: %w", id, err)
			}
			for _, k := range keepSnapshotProps {
				if _, ok := before[k]; !ok {
					before[k] = nil
				}
			}
			p["before"] = before
			recs, err := runTx(ctx, tx, `
				MATCH (m:Merge {tenant: $tenant, id: $id})
				MATCH (k:Entity {tenant: $tenant, id: m.keep_id})
				MATCH (d:MergedEntity {tenant: $tenant, id: m.drop_id}) WHERE d.merged_by = m.id
				REMOVE d:MergedEntity, d.merged_into, d.merged_by
				SET d:$(m.drop_labels)
				SET k.aliases = $before.aliases, k.alias_keys = $before.alias_keys, k.aliases_text = $before.aliases_text,
				    k.merged_names = $before.merged_names, k.mention_count = $before.mention_count
				WITH k, d
				CALL (k, d) {
				  MATCH (k)-[r]->(x) WHERE r.moved_by = $id
				  WITH d, x, r, type(r) AS t, properties(r) AS props
				  DELETE r
				  WITH d, x, t, props
				  CREATE (d)-[n:$(t)]->(x) SET n = props REMOVE n.moved_by
				  RETURN count(n) AS outs
				}
				CALL (k, d) {
				  MATCH (x)-[r]->(k) WHERE r.moved_by = $id
				  WITH d, x, r, type(r) AS t, properties(r) AS props
				  DELETE r
				  WITH d, x, t, props
				  CREATE (x)-[n:$(t)]->(d) SET n = props REMOVE n.moved_by
				  RETURN count(n) AS ins
				}
				RETURN outs + ins AS back`, p)
			if err != nil {
				return Merge{}, err
			}
			if len(recs) == 0 {
				return Merge{}, errs.Conflict("merge %q: an entity it joined no longer exists", id)
			}
		}
		if _, err := runTx(ctx, tx, `
			MATCH (m:Merge {tenant: $tenant, id: $id})
			UNWIND coalesce(m.fact_ids, []) AS fid
			MATCH (:Entity {tenant: $tenant, user_id: m.user_id})-[f]->() WHERE f.tenant = $tenant AND f.id = fid AND f.merged_by = m.id
			SET f.status = 'current'
			REMOVE f.merged_into, f.merged_by`, p); err != nil {
			return Merge{}, err
		}
		if _, err := runTx(ctx, tx, `
			MATCH (m:Merge {tenant: $tenant, id: $id})
			SET m.status = $split, m.split_at = $now, m.split_by = $by`, p); err != nil {
			return Merge{}, err
		}
		return readMergeTx(ctx, tx, tenant, id)
	})
}

// decodeSnapshot reads keep_before back with the types Neo4j stored:
// whole numbers as integers (a count must not come back as a float).
func decodeSnapshot(snap string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(snap))
	dec.UseNumber()
	raw := map[string]any{}
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	for k, v := range raw {
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				raw[k] = i
			} else if f, err := n.Float64(); err == nil {
				raw[k] = f
			}
		}
	}
	return raw, nil
}
