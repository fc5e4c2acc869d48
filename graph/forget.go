package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
)

// Forgetting (erasure). Everything a user's memory holds carries the
// tenant and the user id: sessions, raw events, event-tier summaries,
// insights, entities (one set per user), the facts between them, conflicts,
// edits and jobs. ForgetUser deletes all of it in batches, label by label,
// and then sweeps every other label the database knows (db.labels()), so a
// node kind added later with a user_id goes too. Nodes without a user id
// that hang off a deleted raw event, summary or insight (a :Passage linked
// by HAS_PASSAGE, say) are deleted with it when nothing of another user
// links to them. ForgetSession deletes one session and what rests only on
// its events. Both leave an :Erasure audit node: who, when, counts, and a
// hash of the subject, never its content.

// ForgetBatch bounds the nodes one delete transaction removes, so a large
// user never needs one huge transaction.
const ForgetBatch = 2000

// ForgetCounts are what an erasure deleted (or, for provenance, changed),
// by kind: node labels, "facts", "relationships", "facts_trimmed", ...
type ForgetCounts map[string]int64

// Erasure is the audit record of one erasure. It holds no personal
// content: the subject is a hash of tenant and id.
type Erasure struct {
	ID          string
	Scope       string // "user" or "session"
	SubjectHash string
	Who         string
	Actor       string
	JobID       string
	At          time.Time
	Counts      ForgetCounts
}

// ForgetRequest says what to forget and who asked. JobID names the job
// doing it: that job is neither waited for nor deleted.
type ForgetRequest struct {
	Tenant    string
	UserID    string // ForgetUser
	SessionID string // ForgetSession
	JobID     string
	Who       string // the tenant (API key) that asked
	Actor     string // an optional name the caller gave
	// Progress, when set, is called after each batch with the counts so far.
	Progress func(ForgetCounts)
}

// SubjectHash is the pseudonymous id an erasure's audit record keeps.
func SubjectHash(tenant, kind, id string) string {
	sum := sha256.Sum256([]byte(tenant + "\x00" + kind + "\x00" + id))
	return hex.EncodeToString(sum[:16])
}

// coreLabels are deleted first, in this order, each by an indexed
// (tenant, user_id) match; the sweep of db.labels() follows. Entities go
// after the tiers that point at them, and sessions last.
var coreLabels = []string{"Raw", "Event", "Insight", "Conflict", "Edit", "Entity", "Session"}

// safeLabel is what a label read from the database (or an import file)
// must look like before it is interpolated into a statement: a plain
// identifier, so no quoting is ever needed. ontology.ValidLabel is the
// narrower rule for entity types.
var safeLabel = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)

// keptLabels are never swept: the audit records of erasures, and jobs
// (deleted separately, keeping the erasure's own job).
var keptLabels = []string{"Erasure", "Job"}

// RunningJobs counts the running jobs of a user (or of one session when
// sessionID is set) other than except: an erasure waits for them, since a
// running extraction would write facts back after the delete.
func (s *Store) RunningJobs(ctx context.Context, tenant, userID, sessionID, except string) (int, error) {
	res, err := s.read(ctx, "forget.running", `
		OPTIONAL MATCH (sess:Session {tenant: $tenant, id: $session})
		WITH CASE WHEN $user IS NULL THEN sess.user_id ELSE $user END AS user
		MATCH (j:Job) USING INDEX j:Job(status, run_after)
		WHERE j.status = 'running' AND j.run_after IS NOT NULL AND j.tenant = $tenant AND j.id <> $except
		  AND (($session IS NOT NULL AND j.session_id = $session) OR ($session IS NULL AND j.user_id = user)
		       OR ($session IS NULL AND j.session_id IS NOT NULL AND EXISTS {
		             MATCH (:Session {tenant: $tenant, id: j.session_id, user_id: user}) }))
		RETURN count(j) AS n`,
		map[string]any{"tenant": tenant, "user": nilIfEmpty(userID), "session": nilIfEmpty(sessionID), "except": except})
	if err != nil {
		return 0, err
	}
	n, _ := get[int64](res.Records[0], "n")
	return int(n), nil
}

// ForgetUser deletes everything of one user of a tenant and records an
// :Erasure. It is idempotent: a user with nothing stored yields zero
// counts (and still an audit record). A retried call continues where the
// last one stopped.
func (s *Store) ForgetUser(ctx context.Context, r ForgetRequest) (Erasure, error) {
	if r.Tenant == "" || r.UserID == "" {
		return Erasure{}, fmt.Errorf("forget user: %w: tenant and user id are required", ErrInvalid)
	}
	counts := ForgetCounts{}
	p := map[string]any{"tenant": r.Tenant, "user": r.UserID, "except": r.JobID}
	// Jobs of the user's sessions first, while the sessions still say
	// whose they are.
	if err := s.deleteBatches(ctx, "forget.jobs", `
		MATCH (j:Job) WHERE j.tenant = $tenant AND j.id <> $except AND (j.user_id = $user OR (j.session_id IS NOT NULL AND
		  EXISTS { MATCH (:Session {tenant: $tenant, id: j.session_id, user_id: $user}) }))
		WITH j LIMIT $batch DETACH DELETE j`, p, "Job", counts, r.Progress); err != nil {
		return Erasure{}, err
	}
	if err := s.deleteDependents(ctx, `MATCH (n:Memory {tenant: $tenant}) WHERE n.user_id = $user`, p, counts, r.Progress); err != nil {
		return Erasure{}, err
	}
	s.vcache.drop(userKey{r.Tenant, r.UserID})     // their vectors leave this replica's memory too
	s.rcache.dropUser(userKey{r.Tenant, r.UserID}) // and so do their turns' texts
	// Facts are relationships between the user's entities; counted on
	// their own before the entities take them along.
	types, err := s.allFactTypes()
	if err != nil {
		return Erasure{}, err
	}
	if err := s.deleteBatches(ctx, "forget.facts", `
		MATCH (:Entity {tenant: $tenant, user_id: $user})-[f:`+types+`]->()
		WHERE f.tenant = $tenant
		WITH f LIMIT $batch DELETE f`, p, "facts", counts, r.Progress); err != nil {
		return Erasure{}, err
	}
	labels, err := s.sweepLabels(ctx)
	if err != nil {
		return Erasure{}, err
	}
	for _, l := range labels {
		if err := s.deleteBatches(ctx, "forget.label", `
			MATCH (n:`+l+`) WHERE n.tenant = $tenant AND n.user_id = $user
			WITH n LIMIT $batch DETACH DELETE n`, p, l, counts, r.Progress); err != nil {
			return Erasure{}, err
		}
	}
	return s.recordErasure(ctx, r, "user", SubjectHash(r.Tenant, "user", r.UserID), counts)
}

// sweepLabels lists the labels to sweep: the core ones in order, then every
// other label of the database that is a valid identifier (labels are
// interpolated, so anything else is skipped, never quoted).
func (s *Store) sweepLabels(ctx context.Context) ([]string, error) {
	res, err := s.read(ctx, "forget.labels", `CALL db.labels() YIELD label RETURN label ORDER BY label`, nil)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(coreLabels)
	for _, rec := range res.Records {
		l, _ := get[string](rec, "label")
		if safeLabel.MatchString(l) && !slices.Contains(out, l) && !slices.Contains(keptLabels, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// deleteDependents deletes the nodes without a user id of their own that
// hang off the matched nodes by an outgoing relationship (derived data such
// as passages), when nothing of another user or tenant links to them. match
// binds n and takes the params p.
func (s *Store) deleteDependents(ctx context.Context, match string, p map[string]any, counts ForgetCounts, progress func(ForgetCounts)) error {
	return s.deleteBatches(ctx, "forget.dependents", match+`
		MATCH (n)-->(d) WHERE d.user_id IS NULL AND (d.tenant IS NULL OR d.tenant = $tenant)
		  AND NOT d:Memory AND NOT d:Entity AND NOT d:Session AND NOT d:Job AND NOT d:Erasure
		  AND NOT EXISTS { MATCH (d)--(x) WHERE x.tenant <> $tenant OR (x.user_id IS NOT NULL AND x.user_id <> n.user_id) }
		WITH DISTINCT d LIMIT $batch DETACH DELETE d`, p, "dependents", counts, progress)
}

// deleteBatches runs a LIMIT $batch delete until it deletes nothing,
// adding nodes deleted (or relationships, when nothing else) to counts[key]
// and every deleted relationship to counts["relationships"].
func (s *Store) deleteBatches(ctx context.Context, op, cypher string, p map[string]any, key string, counts ForgetCounts, progress func(ForgetCounts)) error {
	params := make(map[string]any, len(p)+1)
	for k, v := range p {
		params[k] = v
	}
	params["batch"] = int64(ForgetBatch)
	for {
		res, err := s.write(ctx, op, cypher, params)
		if err != nil {
			return fmt.Errorf("%s %s: %w", op, key, err)
		}
		c := res.Summary.Counters()
		nodes, rels := int64(c.NodesDeleted()), int64(c.RelationshipsDeleted())
		if nodes == 0 && rels == 0 {
			return nil
		}
		if nodes > 0 {
			counts[key] += nodes
			counts["relationships"] += rels
		} else {
			counts[key] += rels
		}
		if progress != nil {
			progress(counts)
		}
	}
}

// recordErasure writes the audit node. Its id is the job's when a job does
// the erasure, so a retried job finds the record instead of adding another.
func (s *Store) recordErasure(ctx context.Context, r ForgetRequest, scope, subject string, counts ForgetCounts) (Erasure, error) {
	b, err := json.Marshal(counts)
	if err != nil {
		return Erasure{}, fmt.Errorf("erasure counts: %w", err)
	}
	id := "erasure_" + r.JobID
	if r.JobID == "" {
		id = knID("erasure_")
	}
	redacted, err := json.Marshal(map[string]any{"scope": scope, "subject_hash": subject, "redacted": true})
	if err != nil {
		return Erasure{}, fmt.Errorf("erasure payload: %w", err)
	}
	// The job's payload named the subject; once erased, it keeps only the
	// hash, in the same transaction as the audit record.
	res, err := s.write(ctx, "forget.audit", `
		MERGE (e:Erasure {tenant: $tenant, id: $id})
		ON CREATE SET e.scope = $scope, e.subject_hash = $subject, e.who = $who, e.actor = $actor,
		  e.job_id = $job, e.at = $now, e.counts = $counts
		WITH e
		OPTIONAL MATCH (j:Job {tenant: $tenant, id: $job})
		FOREACH (x IN CASE WHEN j IS NULL THEN [] ELSE [j] END | SET x.payload = $redacted)
		RETURN e`,
		map[string]any{"tenant": r.Tenant, "id": id, "scope": scope, "subject": subject, "who": r.Who,
			"actor": nilIfEmpty(r.Actor), "job": nilIfEmpty(r.JobID), "now": time.Now().UTC(), "counts": string(b),
			"redacted": string(redacted)})
	if err != nil {
		return Erasure{}, err
	}
	return decodeErasure(res.Records[0])
}

// ErasureByJob returns the audit record a job wrote, or ErrNotFound.
func (s *Store) ErasureByJob(ctx context.Context, tenant, jobID string) (Erasure, error) {
	res, err := s.read(ctx, "forget.audit.get", `MATCH (e:Erasure {tenant: $tenant, id: $id}) RETURN e`,
		map[string]any{"tenant": tenant, "id": "erasure_" + jobID})
	if err != nil {
		return Erasure{}, err
	}
	if len(res.Records) == 0 {
		return Erasure{}, errs.NotFound("erasure of job %q", jobID)
	}
	return decodeErasure(res.Records[0])
}

// Erasures lists the tenant's erasure records, newest first.
func (s *Store) Erasures(ctx context.Context, tenant string, limit int) ([]Erasure, error) {
	res, err := s.read(ctx, "forget.audit.list", `
		MATCH (e:Erasure {tenant: $tenant}) RETURN e ORDER BY e.at DESC, e.id LIMIT $limit`,
		map[string]any{"tenant": tenant, "limit": int64(clampLimit(limit, 100, 1000))})
	if err != nil {
		return nil, err
	}
	out := make([]Erasure, 0, len(res.Records))
	for _, rec := range res.Records {
		e, err := decodeErasure(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func decodeErasure(rec *neo4j.Record) (Erasure, error) {
	node, err := get[dbtype.Node](rec, "e")
	if err != nil {
		return Erasure{}, fmt.Errorf("decode erasure: %w", err)
	}
	p := node.Props
	e := Erasure{ID: str(p, "id"), Scope: str(p, "scope"), SubjectHash: str(p, "subject_hash"), Who: str(p, "who"),
		Actor: str(p, "actor"), JobID: str(p, "job_id"), At: tm(p, "at"), Counts: ForgetCounts{}}
	if c := str(p, "counts"); c != "" {
		if err := json.Unmarshal([]byte(c), &e.Counts); err != nil {
			return e, fmt.Errorf("decode erasure %q counts: %w", e.ID, err)
		}
	}
	return e, nil
}

// ForgetSession deletes one session: its raw events, its summaries and
// condensation records, its jobs, the nodes hanging off its events, the
// facts and insights that rest only on its events (with the conflicts about
// those facts), and the user's entities nothing refers to any more. Facts
// and insights with other sources keep them and lose this session's
// provenance. An unknown session yields zero counts and an audit record.
func (s *Store) ForgetSession(ctx context.Context, r ForgetRequest) (Erasure, error) {
	if r.Tenant == "" || r.SessionID == "" {
		return Erasure{}, fmt.Errorf("forget session: %w: tenant and session id are required", ErrInvalid)
	}
	counts := ForgetCounts{}
	subject := SubjectHash(r.Tenant, "session", r.SessionID)
	res, err := s.read(ctx, "forget.session.get", `
		MATCH (s:Session {tenant: $tenant, id: $session})
		OPTIONAL MATCH (r:Raw {tenant: $tenant, session_id: $session})
		WITH s, collect(r.id) AS raws
		OPTIONAL MATCH (e:Event {tenant: $tenant, session_id: $session})
		RETURN s.user_id AS user, raws, collect(e.id) AS events`,
		map[string]any{"tenant": r.Tenant, "session": r.SessionID})
	if err != nil {
		return Erasure{}, err
	}
	p := map[string]any{"tenant": r.Tenant, "session": r.SessionID, "except": r.JobID}
	if len(res.Records) == 0 {
		// Gone already (or never there): only jobs may remain.
		if err := s.deleteBatches(ctx, "forget.jobs", `
			MATCH (j:Job) WHERE j.tenant = $tenant AND j.session_id = $session AND j.id <> $except
			WITH j LIMIT $batch DETACH DELETE j`, p, "Job", counts, r.Progress); err != nil {
			return Erasure{}, err
		}
		return s.recordErasure(ctx, r, "session", subject, counts)
	}
	rec := res.Records[0]
	user, _ := get[string](rec, "user")
	p["user"] = user
	p["raws"], _ = get[[]any](rec, "raws")
	p["events"], _ = get[[]any](rec, "events")
	if p["raws"] == nil {
		p["raws"] = []any{}
	}
	if p["events"] == nil {
		p["events"] = []any{}
	}

	if err := s.forgetSessionKnowledge(ctx, p, counts); err != nil {
		return Erasure{}, err
	}
	if err := s.deleteBatches(ctx, "forget.jobs", `
		MATCH (j:Job) WHERE j.tenant = $tenant AND j.session_id = $session AND j.id <> $except
		WITH j LIMIT $batch DETACH DELETE j`, p, "Job", counts, r.Progress); err != nil {
		return Erasure{}, err
	}
	if err := s.deleteDependents(ctx, `MATCH (n:Memory {tenant: $tenant, session_id: $session})`, p, counts, r.Progress); err != nil {
		return Erasure{}, err
	}
	for _, step := range []struct{ key, cypher string }{
		{"Raw", `MATCH (n:Raw {tenant: $tenant, session_id: $session}) WITH n LIMIT $batch DETACH DELETE n`},
		{"Event", `MATCH (n:Event {tenant: $tenant, session_id: $session}) WITH n LIMIT $batch DETACH DELETE n`},
		{"Session", `MATCH (n:Session {tenant: $tenant, id: $session}) WITH n LIMIT $batch DETACH DELETE n`},
	} {
		if err := s.deleteBatches(ctx, "forget.session", step.cypher, p, step.key, counts, r.Progress); err != nil {
			return Erasure{}, err
		}
	}
	if err := s.deleteOrphanEntities(ctx, p, counts); err != nil {
		return Erasure{}, err
	}
	return s.recordErasure(ctx, r, "session", subject, counts)
}

// forgetSessionKnowledge deletes the facts and insights that rest only on
// the session and trims the session out of the provenance of the others.
// A source event id is dropped only when no other session of the user has
// a raw event of that id (raw ids are unique per session, not per user).
func (s *Store) forgetSessionKnowledge(ctx context.Context, p map[string]any, counts ForgetCounts) error {
	types, err := s.allFactTypes()
	if err != nil {
		return err
	}
	_, err = writeTx(ctx, s, "forget.session.knowledge", func(tx neo4j.ManagedTransaction) (struct{}, error) {
		// Facts read only from this session: their conflicts, then them.
		recs, err := runTx(ctx, tx, `
			MATCH (:Entity {tenant: $tenant, user_id: $user})-[f:`+types+`]->()
			WHERE f.tenant = $tenant AND $session IN f.session_ids
			  AND all(x IN f.session_ids WHERE x = $session)
			WITH collect(f) AS facts, collect(f.id) AS ids
			CALL (ids) {
			  MATCH (c:Conflict {tenant: $tenant, user_id: $user})
			  WHERE c.old_fact_id IN ids OR c.new_fact_id IN ids
			  DETACH DELETE c
			  RETURN count(c) AS conflicts
			}
			FOREACH (f IN facts | DELETE f)
			RETURN size(ids) AS facts, conflicts, ids`, p)
		if err != nil {
			return struct{}{}, err
		}
		nf, _ := get[int64](recs[0], "facts")
		nc, _ := get[int64](recs[0], "conflicts")
		deleted, _ := get[[]any](recs[0], "ids")
		counts["facts"] += nf
		counts["Conflict"] += nc
		if deleted == nil {
			deleted = []any{}
		}
		p["deleted_facts"] = deleted
		// Facts with other sources lose this session's provenance.
		recs, err = runTx(ctx, tx, `
			MATCH (:Entity {tenant: $tenant, user_id: $user})-[f:`+types+`]->()
			WHERE f.tenant = $tenant AND $session IN f.session_ids
			SET f.session_ids = [x IN f.session_ids WHERE x <> $session],
			    f.event_ids = [x IN coalesce(f.event_ids, []) WHERE NOT x IN $events],
			    f.source_event_ids = [x IN coalesce(f.source_event_ids, []) WHERE NOT x IN $raws OR EXISTS {
			      MATCH (o:Raw {tenant: $tenant, user_id: $user, id: x}) WHERE o.session_id <> $session }]
			RETURN count(f) AS n`, p)
		if err != nil {
			return struct{}{}, err
		}
		n, _ := get[int64](recs[0], "n")
		counts["facts_trimmed"] += n
		// Insights derived only from this session's events (or only from
		// facts just deleted) go; the others lose its events.
		recs, err = runTx(ctx, tx, `
			MATCH (i:Insight {tenant: $tenant, user_id: $user})
			WHERE EXISTS { MATCH (i)-[:DERIVED_FROM]->(:Raw {tenant: $tenant, session_id: $session}) }
			   OR any(x IN coalesce(i.fact_ids, []) WHERE x IN $deleted_facts)
			WITH i,
			  EXISTS { MATCH (i)-[:DERIVED_FROM]->(o:Raw {tenant: $tenant}) WHERE o.session_id <> $session } AS other_raw,
			  [x IN coalesce(i.fact_ids, []) WHERE NOT x IN $deleted_facts] AS facts_left
			WITH i, other_raw OR size(facts_left) > 0 AS keep, facts_left
			CALL (i, keep, facts_left) {
			  WITH i, keep, facts_left WHERE keep
			  SET i.fact_ids = facts_left,
			      i.source_event_ids = [x IN coalesce(i.source_event_ids, []) WHERE NOT x IN $raws OR EXISTS {
			        MATCH (o:Raw {tenant: $tenant, user_id: $user, id: x}) WHERE o.session_id <> $session }]
			  RETURN count(*) AS trimmed
			}
			WITH collect(CASE WHEN keep THEN null ELSE i END) AS gone, sum(trimmed) AS trimmed
			FOREACH (g IN gone | DETACH DELETE g)
			RETURN size(gone) AS deleted, trimmed`, p)
		if err != nil {
			return struct{}{}, err
		}
		nd, _ := get[int64](recs[0], "deleted")
		nt, _ := get[int64](recs[0], "trimmed")
		counts["Insight"] += nd
		counts["insights_trimmed"] += nt
		return struct{}{}, nil
	})
	return err
}

// deleteOrphanEntities deletes the user's entities that nothing refers to
// any more: no fact, no mention, no insight, conflict or edit about them.
// The user's own entity stays while the user has anything left.
func (s *Store) deleteOrphanEntities(ctx context.Context, p map[string]any, counts ForgetCounts) error {
	return s.deleteBatches(ctx, "forget.orphans", `
		MATCH (e:Entity {tenant: $tenant, user_id: $user})
		WHERE NOT (e.is_user = true AND EXISTS { MATCH (:Session {tenant: $tenant, user_id: $user}) })
		  AND NOT EXISTS { MATCH (e)--(x) }
		WITH e LIMIT $batch DETACH DELETE e`, p, "Entity", counts, nil)
}

// SetJobProgress stores a running job's progress as its result so far
// (GET /v1/jobs/{id} shows it); CompleteJob replaces it with the final one.
// A job no longer running is left alone.
func (s *Store) SetJobProgress(ctx context.Context, tenant, jobID string, progress map[string]any) error {
	b, err := json.Marshal(progress)
	if err != nil {
		return fmt.Errorf("job progress: %w", err)
	}
	_, err = s.write(ctx, "job.progress", `
		MATCH (j:Job {tenant: $tenant, id: $id}) WHERE j.status = 'running'
		SET j.result = $result`, map[string]any{"tenant": tenant, "id": jobID, "result": string(b)})
	return err
}
