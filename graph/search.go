package graph

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// SearchScope bounds every retrieval query: one tenant, one user, and
// optionally one session or one agent's sessions (raw turns and summaries;
// facts, entities and insights are the user's whoever heard them); AsOf
// and IncludeHistory select facts as the Facts method does.
type SearchScope struct {
	Tenant    string
	UserID    string
	SessionID string
	AgentID   string
	AsOf      *time.Time
	// KnownAt limits every tier to what was recorded by then, and facts to
	// those not yet expired then (record time; see FactQuery).
	KnownAt        *time.Time
	IncludeHistory bool
}

// TextLimits says how many full-text candidates to fetch per index; 0
// skips an index.
type TextLimits struct {
	Raw, Facts, Events, Insights int
}

// RawHit is a raw event found by full text.
type RawHit struct {
	Event RawEvent
	Score float64
	// Next is the turn right after a hit that asks a question (the reply,
	// which rarely repeats the question's words); nil otherwise.
	Next *RawEvent
}

// FactHit is a fact found by full text.
type FactHit struct {
	Fact  Fact
	Score float64
}

// EventHit is an event-tier node found by full text.
type EventHit struct {
	Node  EventNode
	Score float64
}

// InsightHit is an insight found by full text.
type InsightHit struct {
	Insight Insight
	Score   float64
}

// EntityHit is an entity a query names.
type EntityHit struct {
	ID           string
	Name         string
	NormName     string
	Type         string
	IsUser       bool
	MentionCount int64
}

// Candidates are the full-text hits of one query, per index, best first,
// and the entities the query names.
type Candidates struct {
	Raw      []RawHit
	Facts    []FactHit
	Events   []EventHit
	Insights []InsightHit
	Entities []EntityHit
	User     *EntityHit // the user's entity, when asked for and known
}

// luceneQuery builds a Lucene query from plain terms: every term becomes a
// field-qualified clause and the scope token is required, so the index
// itself returns only this tenant's and user's documents. Terms are reduced
// to letters and digits: caller text never reaches Lucene's syntax.
func luceneQuery(scope string, fields []string, terms []string) string {
	var clauses []string
	for _, t := range terms {
		t = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, t)
		if t == "" {
			continue
		}
		for _, f := range fields {
			clauses = append(clauses, f+":"+t)
		}
	}
	if len(clauses) == 0 {
		return ""
	}
	return "+scope:" + scope + " +(" + strings.Join(clauses, " ") + ")"
}

// Search reads only the properties results show: never embeddings, nor an
// event node's stored condensation record and config, which are large.
const (
	eventSearchFields = `.id, .session_id, .user_id, .kind, .seq, .text, .covered_ids, .occurred_from, .occurred_to, .created_at, .stale`
	factSearchFields  = `.id, .fact, .predicate, .qualifier, .polarity, .confidence, .strength, .preference, .status, .valid_from, .valid_to, .observed_at, .recorded_at, .source_event_ids, .session_ids, .superseded_by`
	// An insight's every property but its embedding (which node {.*} shipped
	// with every insight hit, 384 numbers each).
	insightSearchFields = `.id, .key, .text, .confidence, .status, .created_at, .superseded_at, .superseded_by, .source_event_ids, .fact_ids, .generated_by`
)

// rawListKeys are the immutable properties of a raw turn, which search
// reads when it misses the raw cache (rawcache.go; the marks that change
// come with every light row), as a row of values in this order (rawList),
// so Neo4j does not ship every property's name with each turn.
var rawListKeys = []string{"id", "session_id", "user_id", "seq", "kind", "role", "name", "content", "metadata",
	"occurred_at", "recorded_at"}

// rawList is the Cypher list of a raw node's rawListKeys, the node bound
// as v (a fixed variable name of the statement, never caller input).
func rawList(v string) string {
	parts := make([]string, len(rawListKeys))
	for i, k := range rawListKeys {
		parts[i] = v + "." + k
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rawListMap turns a rawList row back into the property map decodeRaw
// reads (nil for a missing node), leaving out nulls as Neo4j does.
func rawListMap(v any) map[string]any {
	vals, ok := v.([]any)
	if !ok || len(vals) != len(rawListKeys) {
		return nil
	}
	m := make(map[string]any, len(vals))
	for i, x := range vals {
		if x != nil {
			m[rawListKeys[i]] = x
		}
	}
	return m
}

// memoryFilter is the scope condition on a tiered node bound as node: the
// user's; in the scope's session and of its agent when they are set
// (insights span sessions and agents, and always qualify); a superseded
// insight only with history. With as_of,
// only what was known by then: raw turns and summaries by when their
// events occurred, insights (derived in record time, and possibly from
// later turns) only when none of the turns they rest on came after it,
// whatever their status, as facts are selected by validity then.
const memoryFilter = `node.tenant = $tenant AND node.user_id = $user
		    AND ($session = '' OR node:Insight OR node.session_id = $session)
		    AND ($agent = '' OR node:Insight OR (node:Raw AND node.agent_id = $agent)
		         OR (node:Event AND EXISTS { MATCH (s:Session {tenant: $tenant, id: node.session_id}) WHERE s.agent_id = $agent }))
		    AND CASE
		      WHEN node:Insight AND NOT $at THEN $history OR node.status = 'current'
		      WHEN node:Insight THEN NOT EXISTS { MATCH (node)-[:DERIVED_FROM]->(src:Raw) WHERE src.occurred_at > $asof }
		      WHEN node:Event THEN NOT $at OR coalesce(node.occurred_to, node.created_at) <= $asof
		      ELSE NOT $at OR node.occurred_at <= $asof
		    END
		    AND (NOT $known OR coalesce(node.recorded_at, node.created_at) <= $knownat)`

// scopeParams are the parameters every search statement takes. Their
// types never vary (no session or agent is the empty string, no as_of is
// $at false with a time all the same), because Neo4j caches a plan per statement and
// parameter types: a null where the warm-up passed a string would plan the
// large search statements again, for seconds, in some user's request.
func scopeParams(sc SearchScope) map[string]any {
	asOf, knownAt := time.Now().UTC(), time.Now().UTC()
	if sc.AsOf != nil {
		asOf = sc.AsOf.UTC()
	}
	if sc.KnownAt != nil {
		knownAt = sc.KnownAt.UTC()
	}
	return map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "session": sc.SessionID,
		"agent": sc.AgentID, "at": sc.AsOf != nil, "asof": asOf, "history": sc.IncludeHistory,
		"known": sc.KnownAt != nil, "knownat": knownAt}
}

// SearchText runs the full-text indexes for terms in one round trip, and in
// the same trip resolves the entities the query names: grams are the
// query's normalized word n-grams, matched exactly against entity names
// through the (tenant, user_id, norm_name) index, as the extractor
// resolves names; aboutUser adds the user's own entity.
func (s *Store) SearchText(ctx context.Context, sc SearchScope, terms, grams []string, aboutUser bool, lim TextLimits) (Candidates, error) {
	scope := scopeToken(sc.Tenant, sc.UserID)
	// The raw, event and insight indexes share the field name "text".
	params := scopeParams(sc)
	for k, v := range map[string]any{
		"textq": luceneQuery(scope, []string{"text"}, terms), "factq": luceneQuery(scope, []string{"fact"}, terms),
		// The indexes' limits apply before the scope filter, so facts and
		// insights (whose indexes mix statuses) are over-fetched, filtered,
		// then cut to what was asked.
		"rawn": int64(lim.Raw), "factn": int64(lim.Facts * 2), "eventn": int64(lim.Events), "insightn": int64(lim.Insights * 2),
		"factkeep": int64(lim.Facts), "insightkeep": int64(lim.Insights),
		"grams": grams, "about_user": aboutUser,
	} {
		params[k] = v
	}
	if params["textq"] == "" {
		return Candidates{}, nil
	}
	factFilter := searchFactFilter(sc.AsOf, sc.KnownAt, sc.IncludeHistory, params)
	res, err := s.read(ctx, "search.text", `
		CALL () {
		  CALL db.index.fulltext.queryNodes('raw_text', $textq, {limit: $rawn}) YIELD node, score
		  WHERE $rawn > 0 AND `+memoryFilter+`
		  OPTIONAL MATCH (next:Raw {tenant: $tenant, session_id: node.session_id, seq: node.seq + 1})
		    WHERE node.content CONTAINS '?' AND next.user_id = $user AND next.kind <> 'condensation_request'
		      AND (NOT $at OR next.occurred_at <= $asof)
		  RETURN collect([score, `+rawLight("node")+`, CASE WHEN next IS NULL THEN null ELSE `+rawLight("next")+` END]) AS raws
		}
		CALL () {
		  CALL db.index.fulltext.queryRelationships('fact_text', $factq, {limit: $factn}) YIELD relationship AS r, score
		  WHERE $factn > 0 AND r.tenant = $tenant AND r.user_id = $user`+factFilter+`
		  WITH r, score LIMIT $factkeep
		  RETURN collect({p: r {`+factSearchFields+`}, type: type(r), sid: startNode(r).id, sname: startNode(r).name,
		                  oid: endNode(r).id, oname: endNode(r).name, score: score}) AS facts
		}
		CALL () {
		  CALL db.index.fulltext.queryNodes('event_text', $textq, {limit: $eventn}) YIELD node, score
		  WHERE $eventn > 0 AND `+memoryFilter+`
		  RETURN collect({p: node {`+eventSearchFields+`}, score: score}) AS events
		}
		CALL () {
		  CALL db.index.fulltext.queryNodes('insight_text', $textq, {limit: $insightn}) YIELD node, score
		  WHERE $insightn > 0 AND `+memoryFilter+`
		  WITH node, score LIMIT $insightkeep
		  RETURN collect({p: node {`+insightSearchFields+`}, score: score}) AS insights
		}
		CALL () {
		  UNWIND $grams AS g
		  MATCH (e:Entity {tenant: $tenant, user_id: $user, norm_name: g})
		  RETURN collect(DISTINCT {id: e.id, name: e.name, type: e.type, is_user: coalesce(e.is_user, false),
		                           mentions: coalesce(e.mention_count, 0), norm: e.norm_name}) AS entities
		}
		CALL () {
		  OPTIONAL MATCH (u:User {tenant: $tenant, user_id: $user}) WHERE $about_user AND u.is_user = true
		  RETURN u {.id, .name, .mention_count} AS user
		}
		RETURN raws, facts, events, insights, entities, user`, params)
	if err != nil {
		return Candidates{}, fmt.Errorf("search text: %w", err)
	}
	if len(res.Records) == 0 {
		return Candidates{}, nil
	}
	rec := res.Records[0]
	var out Candidates
	rawRows, _ := get[[]any](rec, "raws")
	// Each candidate is a light row and, when it asks, the reply's light
	// row; both are completed together.
	var lights []lightRaw
	var scores []float64
	var replyAt []int // index in lights of each candidate's reply, or -1
	for _, r := range rawRows {
		row, _ := r.([]any)
		if len(row) != 3 {
			continue
		}
		l, ok := decodeLight(sc.Tenant, sc.UserID, row[1])
		if !ok {
			continue
		}
		score, _ := row[0].(float64)
		scores = append(scores, score)
		lights = append(lights, l)
		replyAt = append(replyAt, -1)
		if next, ok := decodeLight(sc.Tenant, sc.UserID, row[2]); ok {
			replyAt[len(replyAt)-1] = len(lights)
			lights = append(lights, next)
		}
	}
	evs, found, err := s.completeRaws(ctx, sc, lights)
	if err != nil {
		return out, fmt.Errorf("search text: %w", err)
	}
	for i, at := 0, 0; i < len(scores); i++ {
		hit := RawHit{Event: evs[at], Score: scores[i]}
		ok := found[at]
		at++
		if replyAt[i] >= 0 {
			if found[at] {
				reply := evs[at]
				hit.Next = &reply
			}
			at++
		}
		if ok {
			out.Raw = append(out.Raw, hit)
		}
	}
	for _, row := range rows(rec, "facts") {
		f := decodeFact(mapOf(row, "p"))
		f.Predicate, f.SubjectID, f.Subject = str(row, "type"), str(row, "sid"), str(row, "sname")
		f.ObjectID, f.Object = str(row, "oid"), str(row, "oname")
		out.Facts = append(out.Facts, FactHit{Fact: f, Score: f64(row, "score")})
	}
	for _, row := range rows(rec, "events") {
		out.Events = append(out.Events, EventHit{Node: decodeEventNode(mapOf(row, "p")), Score: f64(row, "score")})
	}
	for _, row := range rows(rec, "insights") {
		out.Insights = append(out.Insights, InsightHit{Score: f64(row, "score"), Insight: decodeInsight(mapOf(row, "p"))})
	}
	for _, row := range rows(rec, "entities") {
		isUser, _ := row["is_user"].(bool)
		out.Entities = append(out.Entities, EntityHit{ID: str(row, "id"), Name: str(row, "name"), Type: str(row, "type"),
			IsUser: isUser, MentionCount: i64(row, "mentions"), NormName: str(row, "norm")})
	}
	if u, _ := get[map[string]any](rec, "user"); u != nil {
		out.User = &EntityHit{ID: str(u, "id"), Name: str(u, "name"), Type: "Person", IsUser: true, MentionCount: i64(u, "mention_count")}
	}
	return out, nil
}

// Hop is one fact reached from an entity during graph expansion.
type Hop struct {
	From string // the entity the hop started from
	Fact Fact
	// To is the entity at the other end (the object when the fact points
	// away from From, the subject otherwise).
	ToID   string
	ToName string
}

// Neighbors returns the facts of the given types (every fact type when
// types is empty) touching the given entities in either direction, at most
// perEntity per entity, most mentioned first; the scope's time selection
// applies.
func (s *Store) Neighbors(ctx context.Context, sc SearchScope, entityIDs []string, types []string, perEntity int) ([]Hop, error) {
	if len(entityIDs) == 0 {
		return nil, nil
	}
	union, typeParam, err := s.typeFilter(types)
	if err != nil {
		return nil, fmt.Errorf("search neighbors: %w", err)
	}
	params := map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "ids": entityIDs, "per": int64(perEntity), "types": typeParam}
	filter := searchFactFilter(sc.AsOf, sc.KnownAt, sc.IncludeHistory, params)
	res, err := s.read(ctx, "search.neighbors", `
		UNWIND $ids AS eid
		MATCH (e:Entity {tenant: $tenant, id: eid}) WHERE e.user_id = $user
		`+typedHops(union, filter)+`
		RETURN collect(`+hopMap+`) AS hops`, params)
	if err != nil {
		return nil, fmt.Errorf("search neighbors: %w", err)
	}
	if len(res.Records) == 0 {
		return nil, nil
	}
	return decodeHops(rows(res.Records[0], "hops")), nil
}

// hopMap is one hop (entity e, fact r, other end o) as search reads it.
const hopMap = `{from: e.id, p: r {` + factSearchFields + `}, type: type(r), sid: startNode(r).id, sname: startNode(r).name,
		         oid: endNode(r).id, oname: endNode(r).name, to: o.id, toname: o.name}`

// typedHops binds r and o: up to $per facts of the types asked for (all
// with $types empty) touching entity e, the most mentioned and most recent
// first. union is the pattern of every fact type (typeFilter), filter the
// time condition (timeFilter).
func typedHops(union, filter string) string {
	return `CALL (e) {
		  MATCH (e)-[r:` + union + `]-(o:Entity)
		  WHERE (size($types) = 0 OR type(r) IN $types) AND r.tenant = $tenant AND r.user_id = $user` + filter + `
		  RETURN r, o ORDER BY coalesce(r.mention_count, 1) DESC, r.recorded_at DESC LIMIT $per
		}`
}

// Expansion is what one graph step around the query's entities finds.
type Expansion struct {
	Between  []Hop        // facts joining two of the entities
	Hops     []Hop        // facts of the asked-about types touching them
	Mentions []RawMention // turns that mention the rare ones
}

// Expand reads, in one round trip, the facts joining two of the seeds
// (both ends bound, so Neo4j expands into each pair from its smaller
// side), up to perEntity facts of the given types around each seed (none
// when types is empty), and up to mentionLimit turns mentioning the rare
// seeds.
func (s *Store) Expand(ctx context.Context, sc SearchScope, seeds, types []string, perEntity int, rare []string, mentionLimit int) (Expansion, error) {
	if len(seeds) == 0 {
		return Expansion{}, nil
	}
	typed := len(types) > 0
	union, typeParam, err := s.typeFilter(types)
	if err != nil {
		return Expansion{}, fmt.Errorf("search expand: %w", err)
	}
	params := scopeParams(sc)
	for k, v := range map[string]any{"ids": seeds, "typed": typed, "types": typeParam, "per": int64(perEntity),
		"rare": rare, "mlimit": int64(mentionLimit)} {
		params[k] = v
	}
	filter := searchFactFilter(sc.AsOf, sc.KnownAt, sc.IncludeHistory, params)
	res, err := s.read(ctx, "search.expand", `
		CALL () {
		  MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids AND e.user_id = $user
		  MATCH (o:Entity {tenant: $tenant}) WHERE o.id IN $ids AND o.user_id = $user AND o.id > e.id
		  MATCH (e)-[r]-(o)
		  WHERE r.fact IS NOT NULL AND r.tenant = $tenant AND r.user_id = $user`+filter+`
		  RETURN collect(`+hopMap+`) AS between
		}
		CALL () {
		  UNWIND CASE WHEN $typed THEN $ids ELSE [] END AS eid
		  MATCH (e:Entity {tenant: $tenant, id: eid}) WHERE e.user_id = $user
		  `+typedHops(union, filter)+`
		  RETURN collect(`+hopMap+`) AS hops
		}
		CALL () {
		  MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $rare AND e.user_id = $user
		  MATCH (node:Raw {tenant: $tenant})-[:MENTIONS]->(e)
		  WHERE `+memoryFilter+`
		  WITH node AS r, collect(DISTINCT e.id) AS ents
		  ORDER BY size(ents) DESC, r.occurred_at DESC LIMIT $mlimit
		  RETURN collect({r: `+rawLight("r")+`, ents: ents}) AS mentions
		}
		RETURN between, hops, mentions`, params)
	if err != nil {
		return Expansion{}, fmt.Errorf("search expand: %w", err)
	}
	var out Expansion
	if len(res.Records) == 0 {
		return out, nil
	}
	rec := res.Records[0]
	out.Between = decodeHops(rows(rec, "between"))
	out.Hops = decodeHops(rows(rec, "hops"))
	var lights []lightRaw
	var ents [][]string
	for _, row := range rows(rec, "mentions") {
		l, ok := decodeLight(sc.Tenant, sc.UserID, row["r"])
		if !ok {
			continue
		}
		var ids []string
		for _, e := range row["ents"].([]any) {
			if id, ok := e.(string); ok {
				ids = append(ids, id)
			}
		}
		lights, ents = append(lights, l), append(ents, ids)
	}
	evs, found, err := s.completeRaws(ctx, sc, lights)
	if err != nil {
		return out, fmt.Errorf("search expand: %w", err)
	}
	for i, ev := range evs {
		if found[i] {
			out.Mentions = append(out.Mentions, RawMention{Event: ev, Entities: ents[i]})
		}
	}
	return out, nil
}

// typeFilter returns the relationship pattern of every fact type and the
// subset asked for as a parameter (nil for all). The pattern is the same
// for every query, so Neo4j plans it once and reuses the plan; it still
// walks only fact relationships (never a person's hundreds of MENTIONS),
// and the subset is filtered as a parameter. Interpolating each subset
// instead made every new combination a new statement to plan (~0.4 s).
func (s *Store) typeFilter(types []string) (string, []string, error) {
	union, err := s.allFactTypes()
	if err != nil || len(types) == 0 {
		return union, []string{}, err // empty, not nil: see scopeParams
	}
	if _, err := s.relTypes(types...); err != nil {
		return "", nil, err
	}
	return union, types, nil
}

func decodeHops(list []map[string]any) []Hop {
	out := make([]Hop, 0, len(list))
	for _, row := range list {
		f := decodeFact(mapOf(row, "p"))
		f.Predicate, f.SubjectID, f.Subject = str(row, "type"), str(row, "sid"), str(row, "sname")
		f.ObjectID, f.Object = str(row, "oid"), str(row, "oname")
		out = append(out, Hop{From: str(row, "from"), Fact: f, ToID: str(row, "to"), ToName: str(row, "toname")})
	}
	return out
}

// RawMention is a raw event that mentions some of the given entities.
type RawMention struct {
	Event    RawEvent
	Entities []string
}

// MaxFactSentences bounds the fact sentences a raw turn keeps for the
// embedding lane (fact_sentences): a turn rarely yields more.
const MaxFactSentences = 6

// refreshStale recomputes the stale flag of raw turns: a turn is stale
// when it was the source of facts and every one of them is now superseded
// ("I live in Paris" after a move). The turn that ended a fact with no
// successor ("Sold the car!", the fact's last evidence) is not stale by
// it: what it says, that the car is gone, is the current truth, and the
// ending it reported counts as a current fact of that turn. It also keeps which turn the current
// fact that replaced it was read from (stale_by, stale_by_session), so
// search can rank that turn where the stale one would have ranked, and,
// for a turn only some of whose facts were superseded ("My boyfriend Tom
// and I love port" after a break-up), the fact types that are all
// superseded and those still current (stale_predicates,
// current_predicates): such a turn is stale for a question about the one
// and current for a question about the other. Writes that create or close facts call
// it for the turns those facts rest on, so search reads a property instead
// of re-deriving it on every query. A fact read from a turn joins two
// entities that turn mentions, so both ends are bound first and Neo4j
// expands into the pair from its smaller side.
//
// It also keeps, on the turn, the sentences of the facts read from it
// (fact_sentences) and puts the turn back on the embedding queue when they
// change: the lane embeds each one beside the turn's own text, so the turn
// is found by the meaning of what was read from it. A question and its
// evidence are often worded far apart ("Does the user have children?" sits
// at cosine 0.11 to "Our son Arjun arrived on Sunday", and at 0.39 to the
// fact read from it, "The user has a son named Arjun"); the fact's sentence
// is written in the plain, third-person wording questions use.
func refreshStale(ctx context.Context, tx neo4j.ManagedTransaction, tenant, userID string, rawIDs []string) error {
	if len(rawIDs) == 0 {
		return nil
	}
	_, err := runTx(ctx, tx, `
		UNWIND $ids AS rid
		MATCH (r:Raw {tenant: $tenant, user_id: $user, id: rid})
		OPTIONAL MATCH (r)-[:MENTIONS]->(a:Entity), (r)-[:MENTIONS]->(b:Entity), (a)-[f]->(b)
		WHERE f.tenant = $tenant AND f.fact IS NOT NULL AND r.id IN f.source_event_ids AND r.session_id IN f.session_ids
		OPTIONAL MATCH (a)-[s]->() WHERE f.superseded_by IS NOT NULL AND s.tenant = $tenant AND s.id = f.superseded_by AND s.status = 'current'
		WITH r, f, s, CASE WHEN f.status = 'superseded' AND f.superseded_by IS NULL AND f.valid_to IS NOT NULL
		                        AND last(f.source_event_ids) = r.id AND last(f.session_ids) = r.session_id THEN 'current' ELSE f.status END AS st
		ORDER BY f.recorded_at, f.id
		WITH r, collect(DISTINCT st) AS statuses, collect(DISTINCT f.fact)[..$maxFacts] AS facts,
		     [x IN collect(s {.source_event_ids, .session_ids}) WHERE size(x.source_event_ids) > 0 AND size(x.session_ids) > 0] AS next,
		     collect(DISTINCT CASE WHEN st = 'current' THEN type(f) END) AS currentTypes,
		     collect(DISTINCT CASE WHEN st = 'superseded' THEN type(f) END) AS supersededTypes
		WITH r, facts, next, size(statuses) > 0 AND NOT 'current' IN statuses AS stale,
		     [t IN supersededTypes WHERE NOT t IN currentTypes] AS staleTypes, currentTypes
		WITH r, facts, next, stale, staleTypes, currentTypes, (stale OR size(staleTypes) > 0) AND size(next) > 0 AS named
		SET r.stale = stale,
		    r.stale_predicates = CASE WHEN NOT stale AND size(staleTypes) > 0 THEN staleTypes END,
		    r.current_predicates = CASE WHEN NOT stale AND size(staleTypes) > 0 THEN currentTypes END,
		    r.stale_by = CASE WHEN named THEN last(next).source_event_ids[0] END,
		    r.stale_by_session = CASE WHEN named THEN last(next).session_ids[0] END
		WITH r, facts WHERE facts <> coalesce(r.fact_sentences, []) AND r.text_dropped_at IS NULL
		SET r.fact_sentences = facts, r:Unembedded, r.embed_queued_at = coalesce(r.embed_queued_at, datetime())`,
		map[string]any{"tenant": tenant, "user": userID, "ids": rawIDs, "maxFacts": int64(MaxFactSentences)})
	if err != nil {
		return err
	}
	// A summary is stale when the turns it summarizes that were sources
	// of facts are all stale: "The user's weight is 92 kilos" in a
	// summary's context after a newer weight, which the summary's own
	// words still match best.
	_, err = runTx(ctx, tx, `
		UNWIND $ids AS rid
		MATCH (:Raw {tenant: $tenant, user_id: $user, id: rid})<-[:SUMMARIZES]-(e)
		WITH DISTINCT e
		OPTIONAL MATCH (e)-[:SUMMARIZES]->(x:Raw) WHERE x.stale IS NOT NULL
		WITH e, collect(x.stale) AS flags
		SET e.stale = size(flags) > 0 AND NOT false IN flags`,
		map[string]any{"tenant": tenant, "user": userID, "ids": rawIDs})
	return err
}

// rows reads a list of maps from a record field.
func rows(rec interface{ Get(string) (any, bool) }, key string) []map[string]any {
	raw, _ := rec.Get(key)
	list, _ := raw.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func mapOf(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

// WarmUp plans the search statements once, at startup, so the first users
// after a deploy do not each pay Neo4j's planning of a large statement
// (about 0.1-0.4 s apiece). The queries run on a scope with no data.
func (s *Store) WarmUp(ctx context.Context) error {
	asOf := time.Now().UTC()
	for _, sc := range []SearchScope{
		{Tenant: "\x00warmup", UserID: "\x00warmup"},
		{Tenant: "\x00warmup", UserID: "\x00warmup", IncludeHistory: true},
		{Tenant: "\x00warmup", UserID: "\x00warmup", AsOf: &asOf},
	} {
		if _, err := s.SearchText(ctx, sc, []string{"warmup"}, []string{"warmup"}, true, TextLimits{Raw: 1, Facts: 1, Events: 1, Insights: 1}); err != nil {
			return err
		}
		if _, err := s.Expand(ctx, sc, []string{"a", "b"}, []string{"LIKES"}, 1, []string{"a"}, 1); err != nil {
			return err
		}
		if _, err := s.Neighbors(ctx, sc, []string{"a"}, []string{"LIKES"}, 1); err != nil {
			return err
		}
	}
	return nil
}
