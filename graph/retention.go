package graph

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Retention (docs/lifecycle.md): per-tenant policies say how long raw text
// is kept once condensed and when facts and insights expire; a sweep
// applies them in small committed batches, so it can stop anywhere and
// resume (each batch's condition excludes what is done). Pinned and
// critical memories are exempt, and so is the raw text they rest on.

// RetentionPolicy is one tenant's policy; a zero field keeps forever.
type RetentionPolicy struct {
	// RawTextDays drops a raw event's text this many days after a
	// condensation or session summary covered it; the node, its ids,
	// provenance and the summaries stay (text_dropped_at says when).
	RawTextDays int `json:"raw_text_days"`
	// FactDays expires a current fact not seen again for this many days:
	// out of current reads and search, kept in history (status expired).
	FactDays int `json:"fact_days"`
	// InsightDays expires a current insight this many days old.
	InsightDays int `json:"insight_days"`
}

// IsZero says the policy keeps everything.
func (p RetentionPolicy) IsZero() bool { return p == RetentionPolicy{} }

// RetentionPolicyOf returns the policy stored for tenant (ok false: none).
func (s *Store) RetentionPolicyOf(ctx context.Context, tenant string) (RetentionPolicy, bool, error) {
	res, err := s.read(ctx, "retention.get", `
		MATCH (p:RetentionPolicy {tenant: $tenant})
		RETURN p.raw_text_days AS raw, p.fact_days AS facts, p.insight_days AS insights`, map[string]any{"tenant": tenant})
	if err != nil {
		return RetentionPolicy{}, false, fmt.Errorf("retention policy: %w", err)
	}
	if len(res.Records) == 0 {
		return RetentionPolicy{}, false, nil
	}
	rec := res.Records[0]
	raw, _ := get[int64](rec, "raw")
	facts, _ := get[int64](rec, "facts")
	ins, _ := get[int64](rec, "insights")
	return RetentionPolicy{RawTextDays: int(raw), FactDays: int(facts), InsightDays: int(ins)}, true, nil
}

// SetRetentionPolicy stores tenant's policy (it overrides the config file's).
func (s *Store) SetRetentionPolicy(ctx context.Context, tenant string, p RetentionPolicy) error {
	_, err := s.write(ctx, "retention.set", `
		MERGE (x:RetentionPolicy {tenant: $tenant})
		SET x.raw_text_days = $raw, x.fact_days = $facts, x.insight_days = $insights, x.updated_at = $now`,
		map[string]any{"tenant": tenant, "raw": int64(p.RawTextDays), "facts": int64(p.FactDays),
			"insights": int64(p.InsightDays), "now": time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("set retention policy: %w", err)
	}
	return nil
}

// RetentionTenants lists the tenants with a stored policy.
func (s *Store) RetentionTenants(ctx context.Context) ([]string, error) {
	return s.tenantList(ctx, "retention.tenants", `MATCH (p:RetentionPolicy) RETURN DISTINCT p.tenant AS t ORDER BY t`)
}

// Tenants lists every tenant that has sessions (for a default policy).
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	return s.tenantList(ctx, "retention.all_tenants", `MATCH (p:Session) RETURN DISTINCT p.tenant AS t ORDER BY t`)
}

func (s *Store) tenantList(ctx context.Context, op, q string) ([]string, error) {
	res, err := s.read(ctx, op, q, nil)
	if err != nil {
		return nil, fmt.Errorf("list tenants: %w", err)
	}
	var out []string
	for _, rec := range res.Records {
		if t, _ := get[string](rec, "t"); t != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// Sweep steps, in the order a sweep runs them.
const (
	SweepRawText  = "raw_text"
	SweepFacts    = "facts"
	SweepInsights = "insights"
)

// SweepSteps lists the steps in order.
var SweepSteps = []string{SweepRawText, SweepFacts, SweepInsights}

// SweepBatch applies one step of p to at most batch items of tenant and
// returns how many it changed (0: the step is done). now is the sweep's
// clock, so a test can sweep "later".
func (s *Store) SweepBatch(ctx context.Context, tenant string, p RetentionPolicy, step string, now time.Time, batch int) (int, error) {
	days := func(n int) time.Time { return now.Add(-time.Duration(n) * 24 * time.Hour) }
	params := map[string]any{"tenant": tenant, "now": now.UTC(), "batch": int64(batch)}
	var q string
	switch step {
	case SweepRawText:
		if p.RawTextDays <= 0 {
			return 0, nil
		}
		exempt, err := s.exemptRaw(ctx, tenant)
		if err != nil {
			return 0, err
		}
		params["cutoff"], params["exempt"] = days(p.RawTextDays).UTC(), exempt
		// Raw events a condensation or a session summary covered before
		// the cutoff; not those a pinned or critical summary covers, nor
		// the sources of pinned or critical facts and insights.
		q = `
			MATCH (e:Event {tenant: $tenant})-[:SUMMARIZES]->(r:Raw {tenant: $tenant})
			WHERE e.created_at <= $cutoff AND r.text_dropped_at IS NULL
			WITH DISTINCT r
			WHERE NOT r.user_id + '|' + r.id IN $exempt
			  AND NOT EXISTS { MATCH (x:Event)-[:SUMMARIZES]->(r) WHERE x.pinned = true OR x.importance = 'critical' }
			WITH r LIMIT $batch
			SET r.content = '', r.text = '', r.metadata = null, r.embedding = null, r.embed_facts = null, r.fact_sentences = null,
			    r.text_dropped_at = $now
			RETURN count(r) AS n`
	case SweepFacts:
		types, err := s.allFactTypes()
		if err != nil {
			return 0, err
		}
		params["cutoff"], params["ttl"] = days(p.FactDays).UTC(), p.FactDays > 0
		q = `
			MATCH (:Entity {tenant: $tenant})-[f:` + types + `]->(:Entity)
			WHERE f.tenant = $tenant AND f.status = 'current'
			  AND (f.expires_at <= $now OR ($ttl AND coalesce(f.last_seen_at, f.recorded_at) <= $cutoff))
			  AND NOT coalesce(f.pinned, false) AND coalesce(f.importance, 'normal') <> 'critical'
			WITH f LIMIT $batch
			SET f.status = 'expired', f.expires_at = coalesce(f.expires_at, $now), f.expired_at = $now
			RETURN count(f) AS n`
	case SweepInsights:
		params["cutoff"], params["ttl"] = days(p.InsightDays).UTC(), p.InsightDays > 0
		q = `
			MATCH (i:Insight {tenant: $tenant})
			WHERE i.status = 'current' AND i.key IS NOT NULL
			  AND (i.expires_at <= $now OR ($ttl AND i.created_at <= $cutoff))
			  AND NOT coalesce(i.pinned, false) AND coalesce(i.importance, 'normal') <> 'critical'
			WITH i LIMIT $batch
			SET i.status = 'expired', i.expires_at = coalesce(i.expires_at, $now), i.expired_at = $now
			RETURN count(i) AS n`
	default:
		return 0, fmt.Errorf("sweep: %w: step %q", ErrInvalid, step)
	}
	n, err := writeTx(ctx, s, "retention."+step, func(tx neo4j.ManagedTransaction) (int64, error) {
		res, err := tx.Run(ctx, q, params)
		if err != nil {
			return 0, err
		}
		rec, err := res.Single(ctx)
		if err != nil {
			return 0, err
		}
		return get[int64](rec, "n")
	})
	if err != nil {
		return 0, fmt.Errorf("sweep %s: %w", step, err)
	}
	return int(n), nil
}

// exemptRaw returns "user|raw id" of the raw events pinned or critical
// facts and insights rest on: their text stays.
func (s *Store) exemptRaw(ctx context.Context, tenant string) ([]string, error) {
	types, err := s.allFactTypes()
	if err != nil {
		return nil, err
	}
	res, err := s.read(ctx, "retention.exempt", `
		CALL () {
		  MATCH (:Entity {tenant: $tenant})-[f:`+types+`]->(:Entity)
		  WHERE f.tenant = $tenant AND (f.pinned = true OR f.importance = 'critical')
		  UNWIND coalesce(f.source_event_ids, []) AS id
		  RETURN f.user_id + '|' + id AS k
		  UNION
		  MATCH (i:Insight {tenant: $tenant}) WHERE i.pinned = true OR i.importance = 'critical'
		  UNWIND coalesce(i.source_event_ids, []) AS id
		  RETURN i.user_id + '|' + id AS k
		}
		RETURN collect(k) AS keys`, map[string]any{"tenant": tenant})
	if err != nil {
		return nil, fmt.Errorf("retention exemptions: %w", err)
	}
	var out []string
	if len(res.Records) > 0 {
		keys, _ := get[[]any](res.Records[0], "keys")
		for _, k := range keys {
			if v, ok := k.(string); ok {
				out = append(out, v)
			}
		}
	}
	return out, nil
}
