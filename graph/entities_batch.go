package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// Batched entity resolution: the same decisions as resolveGroup, taken in
// Go over candidates read up front, then written in two statements (new
// entities, then updated ones) instead of one or two per entity. A LoCoMo
// window names 10-20 entities, and each statement is a round trip and a
// pipeline step in Neo4j: the per-entity form was most of a window's
// statements.
//
// resolveGroup reads the graph as earlier groups of the same write left
// it: its full-text query sees their new entities and added aliases. The
// batch reads the full-text candidates before writing, so it replays
// those effects itself (entityState): an entity this write created or
// updated takes the name, type and alias keys it will have, and is a
// full-text candidate of a later group exactly when the index would
// return it (its name or aliases share a term with the group's names).
// TestKnowledgeGraphGolden holds the two paths to the same graph.
//
// Vector candidates (entity vectors, off by default) query the vector
// index between writes; a write that carries entity embeddings keeps the
// per-entity path (resolveGroup).

// entityState is an entity this write resolved to, as the graph will hold
// it after the write.
type entityState struct {
	id        string
	name      string
	norm      string
	typ       ontology.EntityType
	aliasKeys []string
	storedKin []string // its family ties to the user already stored
	created   bool     // created by this write (planned id until written)
	// Update rows: aliases and merged names to add, types to upgrade to.
	aliases  []aliasRow
	merged   []string
	upgrades []string
}

// entityDecision is where one input group resolved.
type entityDecision struct {
	g       *entityGroup
	state   *entityState
	merged  bool
	upgrade string // the label a Concept is upgraded to
}

// needsPerEntityResolution is true when a group carries an embedding the
// store can search with: vector candidates are read between writes.
func (s *Store) needsPerEntityResolution(groups []*entityGroup) bool {
	if s.cfg.EmbeddingDimensions <= 0 {
		return false
	}
	return slices.ContainsFunc(groups, func(g *entityGroup) bool { return len(g.emb) == s.cfg.EmbeddingDimensions })
}

// resolveBatched resolves every group with at most three statements: the
// full-text candidates of all groups no exact name matched, the new
// entities, the updated ones. It returns one entity per group, in order.
func (s *Store) resolveBatched(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, groups []*entityGroup,
	byNorm map[string][]knowledge.Candidate, res *KnowledgeResult) ([]*resolvedEntity, error) {
	states := map[string]*entityState{} // by id (planned id for new ones)
	touch := func(c knowledge.Candidate) *entityState {
		st := states[c.ID]
		if st == nil {
			st = &entityState{id: c.ID, name: c.Name, norm: c.Norm, typ: c.Type, aliasKeys: slices.Clone(c.AliasKeys), storedKin: c.Kin}
			states[c.ID] = st
		}
		return st
	}
	decisions := make([]entityDecision, len(groups))
	var fuzzy []int
	for i, g := range groups {
		c, upgrade, merged, ok := matchByNorm(g, byNorm)
		if !ok {
			fuzzy = append(fuzzy, i)
			continue
		}
		decisions[i] = entityDecision{g: g, state: touch(c), merged: merged, upgrade: upgrade}
	}
	ft, err := s.fulltextCandidatesBatch(ctx, tx, kw, groups, fuzzy)
	if err != nil {
		return nil, err
	}
	for i, g := range groups {
		d := &decisions[i]
		if d.state == nil {
			cands := s.laterCandidates(g, ft[i], decisions[:i], states)
			if c, ok := knowledge.FuzzyMatch(knowledge.Mention{Type: g.typ, Norm: g.norm, Kin: g.kin}, cands); ok {
				*d = entityDecision{g: g, state: touch(c), merged: true}
			} else {
				st := &entityState{id: knID("ent_"), name: g.name, norm: g.norm, typ: g.typ, created: true}
				states[st.id] = st
				*d = entityDecision{g: g, state: st}
			}
		}
		d.state.addAliases(g.aliases)
		if d.merged {
			for _, m := range g.members {
				if m.norm != d.state.norm {
					d.state.merged = knUnion(d.state.merged, []string{m.name})
				}
			}
		}
		if d.upgrade != "" {
			d.state.upgrades = append(d.state.upgrades, d.upgrade)
			d.state.typ = ontology.EntityType(d.upgrade)
		}
	}
	written, err := s.writeEntityStates(ctx, tx, kw, decisions, res)
	if err != nil {
		return nil, err
	}
	out := make([]*resolvedEntity, len(decisions))
	for i, d := range decisions {
		r := *written[d.state.id]
		r.kin = d.g.kin
		out[i] = &r
		if d.merged {
			res.EntitiesMerged = append(res.EntitiesMerged, r.id)
		}
	}
	return out, nil
}

// matchByNorm is steps 1 and 2 of resolveGroup: the same key and type, the
// same key across compatible types (a Concept upgraded), an input alias
// equal to a stored key.
func matchByNorm(g *entityGroup, byNorm map[string][]knowledge.Candidate) (c knowledge.Candidate, upgrade string, merged, ok bool) {
	for _, c := range byNorm[g.norm] {
		if c.Type == g.typ {
			return c, "", false, true
		}
	}
	if c, ok := knowledge.PickCompatible(byNorm[g.norm], g.typ); ok {
		if c.Type == ontology.Concept && g.typ != ontology.Concept {
			upgrade = g.typ.Label()
		}
		return c, upgrade, upgrade != "", true
	}
	for _, a := range g.aliases[1:] {
		if c, ok := knowledge.PickCompatible(byNorm[a.key], g.typ); ok && !c.IsUser {
			return c, "", true, true
		}
	}
	return knowledge.Candidate{}, "", false, false
}

// addAliases records the aliases an update adds (those that are neither
// the name nor already known), as entityUpdate does.
func (st *entityState) addAliases(list []aliasRow) {
	for _, a := range list {
		if a.key == st.norm || slices.Contains(st.aliasKeys, a.key) {
			continue
		}
		st.aliasKeys = append(st.aliasKeys, a.key)
		st.aliases = append(st.aliases, a)
	}
}

// laterCandidates are the full-text candidates of a group as
// resolveGroup's query would have read them after the earlier groups'
// writes: the stored hits, with this write's changes to them applied,
// then every entity the earlier groups resolved to that the index would
// now return (or, when it would not, the bare entity with the kin the
// earlier group gave it).
func (s *Store) laterCandidates(g *entityGroup, stored []knowledge.Candidate, earlier []entityDecision, states map[string]*entityState) []knowledge.Candidate {
	cands := make([]knowledge.Candidate, 0, len(stored)+len(earlier))
	for _, c := range stored {
		if st := states[c.ID]; st != nil {
			c.Name, c.Norm, c.Type, c.AliasKeys = st.name, st.norm, st.typ, slices.Clone(st.aliasKeys)
		}
		cands = append(cands, c)
	}
	terms := groupTerms(g)
	for _, d := range earlier {
		st := d.state
		if slices.ContainsFunc(cands, func(c knowledge.Candidate) bool { return c.ID == st.id }) {
			continue
		}
		c := knowledge.Candidate{ID: st.id, Name: st.name, Norm: st.norm, Type: st.typ, Kin: d.g.kin}
		if st.indexHit(terms) {
			c.AliasKeys, c.Kin = slices.Clone(st.aliasKeys), st.storedKin
		}
		cands = append(cands, c)
	}
	return cands
}

// groupTerms are the terms of a group's full-text query (luceneQuery's).
func groupTerms(g *entityGroup) []string {
	var terms []string
	for _, a := range g.aliases {
		for _, t := range knowledge.NameTerms(a.key) {
			if t = luceneTerm(t); t != "" {
				terms = append(terms, t)
			}
		}
	}
	return knUnique(terms)
}

// luceneTerm is a term as luceneQuery writes it: letters and digits, lower
// case.
func luceneTerm(t string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, t)
}

// indexHit says whether entity_text (standard analyzer: words split at
// anything but letters, digits and inner apostrophes, lower-cased) would
// return the entity for any of the terms, from the name and aliases it
// will have. A stored name is the display form; aliases are added in the
// display form too, and their keys stand in for them here.
func (st *entityState) indexHit(terms []string) bool {
	if len(terms) == 0 {
		return false
	}
	fields := append([]string{st.name}, st.aliasKeys...)
	for _, f := range fields {
		for _, w := range strings.FieldsFunc(strings.ToLower(f), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
		}) {
			if slices.Contains(terms, w) {
				return true
			}
		}
	}
	return false
}

// fulltextCandidatesBatch runs fulltextCandidates' query for the groups at
// the given indexes in one statement, and returns the candidates by group
// index.
func (s *Store) fulltextCandidatesBatch(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, groups []*entityGroup, idx []int) (map[int][]knowledge.Candidate, error) {
	out := map[int][]knowledge.Candidate{}
	var queries []map[string]any
	for _, i := range idx {
		var terms []string
		for _, a := range groups[i].aliases {
			terms = append(terms, knowledge.NameTerms(a.key)...)
		}
		terms = knUnique(terms)
		if len(terms) == 0 {
			continue
		}
		if q := luceneQuery(kw.scope, []string{"name", "aliases_text"}, terms); q != "" {
			queries = append(queries, map[string]any{"i": int64(i), "q": q})
		}
	}
	if len(queries) == 0 {
		return out, nil
	}
	kin, err := s.candidateKin("node")
	if err != nil {
		return nil, err
	}
	recs, err := runTx(ctx, tx, planOnce+`
		UNWIND $queries AS q
		CALL (q) {
		  CALL db.index.fulltext.queryNodes('entity_text', q.q, {limit: 50}) YIELD node
		  WITH node WHERE node.tenant = $tenant AND node.user_id = $user
		  `+kin+`
		  RETURN `+candidateColumns("node")+`
		}
		RETURN q.i AS i, id, name, norm, type, is_user, alias_keys, mentions, kin`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "queries": queries})
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		i, _ := get[int64](rec, "i")
		out[int(i)] = append(out[int(i)], decodeCandidate(rec))
	}
	return out, nil
}

// writeEntityStates writes the new entities in one statement (MERGE on the
// unique key, so a concurrent writer's entity is matched, not duplicated)
// and the updated ones in another, and returns every entity as written, by
// the id the decisions know it under.
func (s *Store) writeEntityStates(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, decisions []entityDecision, res *KnowledgeResult) (map[string]*resolvedEntity, error) {
	var creates, updates []map[string]any
	seen := map[string]bool{}
	for _, d := range decisions {
		st := d.state
		if seen[st.id] {
			continue
		}
		seen[st.id] = true
		if st.created {
			label := st.typ.Label()
			if !ontology.ValidLabel(label) {
				return nil, fmt.Errorf("%w: entity type %q", ErrInvalid, st.typ)
			}
			creates = append(creates, map[string]any{"id": st.id, "type": label, "norm": st.norm, "name": st.name,
				"aliases": aliasParams(st.aliases), "merged": nilSafe(st.merged)})
		}
	}
	params := map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "scope": kw.scope, "now": kw.now}
	out := map[string]*resolvedEntity{}
	if len(creates) > 0 {
		params["rows"] = creates
		recs, err := runTx(ctx, tx, planOnce+`
			UNWIND $rows AS row
			MERGE (e:Entity {tenant: $tenant, user_id: $user, type: row.type, norm_name: row.norm})
			ON CREATE SET e:$(row.type), e.id = row.id, e.scope = $scope, e.name = row.name, e.is_user = false,
			  e.mention_count = 1, e.created_at = $now, e.aliases = [], e.alias_keys = [], e.merged_names = []
			WITH row, e, e.id = row.id AS created`+entityUpdateRows, params)
		if err != nil {
			return nil, err
		}
		if err := collectEntityRows(recs, out, res); err != nil {
			return nil, err
		}
	}
	seen = map[string]bool{}
	for _, d := range decisions {
		st := d.state
		// A new entity's creation row carries its final state, the
		// aliases and merged names of later groups that joined it included.
		if seen[st.id] || st.created {
			continue
		}
		seen[st.id] = true
		for _, u := range st.upgrades {
			if !ontology.ValidLabel(u) {
				return nil, fmt.Errorf("%w: entity type %q", ErrInvalid, u)
			}
		}
		updates = append(updates, map[string]any{"id": st.id, "upgrades": nilSafe(st.upgrades),
			"aliases": aliasParams(st.aliases), "merged": nilSafe(st.merged)})
	}
	if len(updates) > 0 {
		params["rows"] = updates
		recs, err := runTx(ctx, tx, planOnce+`
			UNWIND $rows AS row
			MATCH (e:Entity {tenant: $tenant, id: row.id}) WHERE e.user_id = $user
			FOREACH (u IN row.upgrades | REMOVE e:Concept SET e:$(u), e.type = u, e.upgraded_at = $now)
			WITH row, e, false AS created`+entityUpdateRows, params)
		if err != nil {
			return nil, err
		}
		if len(recs) != len(updates) {
			return nil, fmt.Errorf("update entities: %d of %d found: %w", len(recs), len(updates), errNoRecords)
		}
		if err := collectEntityRows(recs, out, res); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// entityUpdateRows is entityUpdate for UNWIND rows (row.aliases,
// row.merged), returning the row's key.
const entityUpdateRows = `
		SET e.updated_at = $now
		WITH row, e, created, [a IN row.aliases WHERE a.key <> e.norm_name AND NOT a.key IN coalesce(e.alias_keys, [])] AS add
		SET e.aliases = coalesce(e.aliases, []) + [a IN add | a.name],
		    e.alias_keys = coalesce(e.alias_keys, []) + [a IN add | a.key],
		    e.merged_names = coalesce(e.merged_names, []) + [m IN row.merged WHERE NOT m IN coalesce(e.merged_names, [])]
		SET e.aliases_text = reduce(t = '', a IN e.aliases | t + CASE WHEN t = '' THEN '' ELSE ' ' END + a)
		RETURN row.id AS key, e.id AS id, created, e.type AS type, e.name AS name, e.norm_name AS norm,
		       coalesce(e.is_user, false) AS is_user`

func collectEntityRows(recs []*neo4j.Record, out map[string]*resolvedEntity, res *KnowledgeResult) error {
	for _, rec := range recs {
		key, _ := get[string](rec, "key")
		r, err := entityResult([]*neo4j.Record{rec}, res)
		if err != nil {
			return err
		}
		out[key] = r
	}
	return nil
}

// nilSafe sends an empty list instead of null, so Cypher list operations
// stay lists.
func nilSafe(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
