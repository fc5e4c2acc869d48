package graph

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Access counts (docs/lifecycle.md, "Decay"): how often search and
// context returned a memory, kept on the memory as access_count and
// last_accessed_at. Package memory counts in memory and flushes here in
// batches, so a search costs no write; ranking may then decay a memory by
// the time since it was last used, slower the more it was used.

// Memory kinds whose accesses are counted (the search result kinds).
const (
	AccessRaw     = "raw"
	AccessEvent   = "event"
	AccessInsight = "insight"
	AccessFact    = "fact"
)

// AccessRef names one memory a search returned. SessionID is needed for
// raw events, whose ids are unique per session.
type AccessRef struct {
	Kind      string
	ID        string
	SessionID string
}

// AccessCount is how many times one memory was returned since the last
// flush, and when last.
type AccessCount struct {
	AccessRef
	N    int64
	Last time.Time
}

// AccessStat is what ranking needs to decay a memory.
type AccessStat struct {
	Count        int64
	LastAccessed time.Time // zero: never counted
	Pinned       bool
	Importance   string
}

// accessMatch returns, per kind, the MATCH of row's memory as n, scoped to
// the tenant. Facts are found through their type's (tenant, id) index, one
// branch per fact type of the vocabulary.
func (s *Store) accessMatch(kind string) (string, error) {
	switch kind {
	case AccessRaw:
		return `MATCH (n:Raw {tenant: $tenant, session_id: row.session_id, id: row.id})`, nil
	case AccessEvent:
		return `MATCH (n:Event {tenant: $tenant, id: row.id})`, nil
	case AccessInsight:
		return `MATCH (n:Insight {tenant: $tenant, id: row.id})`, nil
	case AccessFact:
		parts := make([]string, len(s.factTypes))
		for i, p := range s.factTypes {
			parts[i] = `MATCH ()-[n:` + p.Name + `]->() WHERE n.tenant = $tenant AND n.id = row.id RETURN n`
		}
		return "CALL (row) {\n" + strings.Join(parts, "\nUNION ALL\n") + "\n}", nil
	}
	return "", fmt.Errorf("access: %w: kind %q", ErrInvalid, kind)
}

// groupAccess splits rows by kind, in a fixed order.
func groupAccess[T any](rows []T, ref func(T) AccessRef) map[string][]T {
	out := map[string][]T{}
	for _, r := range rows {
		k := ref(r).Kind
		out[k] = append(out[k], r)
	}
	return out
}

// RecordAccess adds counts to the memories of a tenant (one statement per
// kind); memories gone since are skipped.
func (s *Store) RecordAccess(ctx context.Context, tenant string, counts []AccessCount) error {
	for kind, rows := range groupAccess(counts, func(c AccessCount) AccessRef { return c.AccessRef }) {
		match, err := s.accessMatch(kind)
		if err != nil {
			return err
		}
		params := make([]map[string]any, len(rows))
		for i, r := range rows {
			params[i] = map[string]any{"id": r.ID, "session_id": r.SessionID, "n": r.N, "last": r.Last.UTC()}
		}
		if _, err := s.write(ctx, "access.record", `
			UNWIND $rows AS row
			`+match+`
			SET n.access_count = coalesce(n.access_count, 0) + row.n,
			    n.last_accessed_at = CASE WHEN n.last_accessed_at IS NULL OR n.last_accessed_at < row.last
			                              THEN row.last ELSE n.last_accessed_at END`,
			map[string]any{"tenant": tenant, "rows": params}); err != nil {
			return fmt.Errorf("record access: %w", err)
		}
	}
	return nil
}

// AccessStats reads the access counts and marks of some memories of a
// tenant, keyed by AccessKey.
func (s *Store) AccessStats(ctx context.Context, tenant string, refs []AccessRef) (map[string]AccessStat, error) {
	out := make(map[string]AccessStat, len(refs))
	for kind, rows := range groupAccess(refs, func(r AccessRef) AccessRef { return r }) {
		match, err := s.accessMatch(kind)
		if err != nil {
			return nil, err
		}
		params := make([]map[string]any, len(rows))
		for i, r := range rows {
			params[i] = map[string]any{"id": r.ID, "session_id": r.SessionID}
		}
		res, err := s.read(ctx, "access.stats", `
			UNWIND $rows AS row
			`+match+`
			RETURN row.id AS id, row.session_id AS session, coalesce(n.access_count, 0) AS count, n.last_accessed_at AS last,
			       coalesce(n.pinned, false) AS pinned, coalesce(n.importance, 'normal') AS importance`,
			map[string]any{"tenant": tenant, "rows": params})
		if err != nil {
			return nil, fmt.Errorf("access stats: %w", err)
		}
		for _, rec := range res.Records {
			var st AccessStat
			id, _ := get[string](rec, "id")
			sess, _ := get[string](rec, "session")
			st.Count, _ = get[int64](rec, "count")
			st.LastAccessed, _ = get[time.Time](rec, "last")
			st.Pinned, _ = get[bool](rec, "pinned")
			st.Importance, _ = get[string](rec, "importance")
			out[AccessKey(AccessRef{Kind: kind, ID: id, SessionID: sess})] = st
		}
	}
	return out, nil
}

// AccessKey is a memory's key in AccessStats' answer.
func AccessKey(r AccessRef) string {
	if r.Kind == AccessRaw {
		return r.Kind + "|" + r.SessionID + "|" + r.ID
	}
	return r.Kind + "|" + r.ID
}

// usageProps are the access-count properties: usage, not memory, so an
// export leaves them out (an export of an unchanged memory stays the same
// however often it is searched, and an import starts its counts afresh).
var usageProps = []string{"access_count", "last_accessed_at"}

// withoutUsage returns props without the usage properties.
func withoutUsage(props map[string]any) map[string]any {
	for _, k := range usageProps {
		delete(props, k)
	}
	return props
}
