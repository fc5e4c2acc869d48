package graph

import (
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

// Entity resolution, in order, within one (tenant, user):
//  1. the same normalized name and type;
//  2. the same normalized name (or an input alias equal to a stored name)
//     across compatible types: a generic Concept is upgraded to the
//     specific type, a Concept mention joins the typed entity, and a few
//     pairs (Organization/Place, Product/Artwork, Food/Product) match;
//  3. full-text candidates from entity_text (filtered by the scope token)
//     accepted only by a conservative check: a stored alias equal to the
//     name, the same set of name tokens (company suffixes aside), or a
//     first name extending to a full name of a Person when exactly one
//     candidate has that first name and their family ties to the user do
//     not contradict;
//  4. with an embedder, vector candidates from entity_embedding above a
//     high score, of a compatible type.
// Anything else creates an entity: a missed merge is cheaper than a wrong
// one. The uniqueness constraint on (tenant, user_id, type, norm_name) and
// MERGE make concurrent writers of one new entity converge on one node.

// vectorMergeScore is the minimum entity_embedding score (cosine mapped to
// [0,1] by Neo4j, so about 0.94 cosine) for a vector merge.
const vectorMergeScore = 0.97

// EntityRef names an entity.
type EntityRef struct {
	ID   string
	Name string
	Type string
}

// EntityQuery selects what Entity returns around the entity.
type EntityQuery struct {
	IncludeHistory bool // superseded facts too
	Limit          int  // per list (facts out, facts in, mentions); default 100
}

// EntityView is an entity with its neighbourhood.
type EntityView struct {
	ID           string
	UserID       string
	Name         string
	Type         string
	Aliases      []string
	MergedNames  []string
	IsUser       bool
	MentionCount int64
	CreatedAt    time.Time
	UpdatedAt    time.Time
	Out          []Fact   // facts whose subject it is
	In           []Fact   // facts whose object it is
	RawEventIDs  []string // raw events that mention it
	EventIDs     []string // event-tier nodes that mention it
}

// resolvedEntity is where an input entity landed.
type resolvedEntity struct {
	id     string
	typ    ontology.EntityType
	name   string
	norm   string
	isUser bool
	kin    []string // family ties to the user, "TYPE|qualifier"
}

// aliasRow is an alias to add: the surface form and its key.
type aliasRow struct{ name, key string }

// entityGroup is the input entities of one write sharing a type and key.
type entityGroup struct {
	typ     ontology.EntityType
	norm    string
	name    string
	members []*entityIn
	aliases []aliasRow
	emb     []float64
	kin     []string
}

// resolveEntities resolves or creates every input entity and returns them
// by input key.
func (s *Store) resolveEntities(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, res *KnowledgeResult) (map[string]*resolvedEntity, error) {
	out := make(map[string]*resolvedEntity, len(kw.entities))
	kin := inputKin(kw)

	// The user first: its lock orders concurrent writes of one user.
	var userInputs []*entityIn
	for _, e := range kw.entities {
		if e.isUser {
			userInputs = append(userInputs, e)
		}
	}
	if len(userInputs) > 0 {
		u, err := s.ensureUserEntity(ctx, tx, kw, userInputs, res)
		if err != nil {
			return nil, err
		}
		for _, e := range userInputs {
			out[e.key] = u
		}
	}

	groups := groupEntities(kw, kin)
	cands, err := s.lookupByNorm(ctx, tx, kw, groups)
	if err != nil {
		return nil, err
	}
	var resolved []*resolvedEntity
	if s.needsPerEntityResolution(groups) {
		for _, g := range groups {
			r, err := s.resolveGroup(ctx, tx, kw, g, cands, resolved, res)
			if err != nil {
				return nil, err
			}
			r.kin = g.kin
			resolved = append(resolved, r)
		}
	} else if resolved, err = s.resolveBatched(ctx, tx, kw, groups, cands, res); err != nil {
		return nil, err
	}
	for i, g := range groups {
		for _, m := range g.members {
			out[m.key] = resolved[i]
		}
	}
	for k, r := range out {
		res.EntityIDs[k] = r.id
	}
	res.EntitiesCreated = knUnique(res.EntitiesCreated)
	res.EntitiesMerged = knUnique(res.EntitiesMerged)
	return out, nil
}

// inputKin lists, per input key, its family ties to the user in this write.
func inputKin(kw *knowledgeWrite) map[string][]string {
	out := map[string][]string{}
	for _, f := range kw.facts {
		if !f.pred.Kin {
			continue
		}
		tie := f.pred.Name + "|" + f.qualifier
		switch {
		case kw.byKey[f.subj].isUser && !kw.byKey[f.obj].isUser:
			out[f.obj] = append(out[f.obj], tie)
		case kw.byKey[f.obj].isUser && !kw.byKey[f.subj].isUser:
			out[f.subj] = append(out[f.subj], tie)
		}
	}
	return out
}

// groupEntities merges input entities with the same type and key (two
// mentions of one thing in one window), in a stable order so concurrent
// writers lock entities in the same order.
func groupEntities(kw *knowledgeWrite, kin map[string][]string) []*entityGroup {
	byKey := map[string]*entityGroup{}
	var out []*entityGroup
	for _, e := range kw.entities {
		if e.isUser {
			continue
		}
		k := string(e.typ) + "\x00" + e.norm
		g := byKey[k]
		if g == nil {
			g = &entityGroup{typ: e.typ, norm: e.norm, name: e.name}
			byKey[k] = g
			out = append(out, g)
		}
		g.members = append(g.members, e)
		if g.emb == nil {
			g.emb = e.embedding
		}
		g.kin = knUnion(g.kin, kin[e.key])
		for _, a := range append([]string{e.name}, e.aliases...) {
			g.aliases = appendAlias(g.aliases, a)
		}
	}
	slices.SortFunc(out, func(a, b *entityGroup) int {
		return strings.Compare(string(a.typ)+"\x00"+a.norm, string(b.typ)+"\x00"+b.norm)
	})
	return out
}

func appendAlias(list []aliasRow, name string) []aliasRow {
	key := normalizeEntityName(name)
	if key == "" {
		return list
	}
	for _, a := range list {
		if a.key == key {
			return list
		}
	}
	return append(list, aliasRow{name: name, key: key})
}

// lookupByNorm fetches the stored entities whose key equals any input name
// or alias key, in one query.
func (s *Store) lookupByNorm(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, groups []*entityGroup) (map[string][]knowledge.Candidate, error) {
	var norms []string
	for _, g := range groups {
		for _, a := range g.aliases {
			norms = append(norms, a.key)
		}
	}
	out := map[string][]knowledge.Candidate{}
	if len(norms) == 0 {
		return out, nil
	}
	// Their family ties to the user too: batched resolution hands them to
	// a later group's fuzzy match when this write's aliases make them a
	// full-text candidate of it (entities_batch.go).
	kin, err := s.candidateKin("e", "n")
	if err != nil {
		return nil, err
	}
	recs, err := runTx(ctx, tx, planOnce+`
		UNWIND $norms AS n
		MATCH (e:Entity {tenant: $tenant, user_id: $user, norm_name: n})
		`+kin+`
		RETURN n, `+candidateColumns("e"),
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "norms": knUnique(norms)})
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		n, _ := get[string](rec, "n")
		out[n] = append(out[n], decodeCandidate(rec))
	}
	return out, nil
}

// candidateKin collects an entity's family ties to the user as kin
// ("TYPE|qualifier"), keeping the named variables; the types come from the
// vocabulary.
func (s *Store) candidateKin(node string, keep ...string) (string, error) {
	types, err := s.relTypes(ontology.KinTypes()...)
	if err != nil {
		return "", err
	}
	with := strings.Join(append(keep, node), ", ")
	return `OPTIONAL MATCH (` + node + `)-[k:` + types + `]-(u:User {tenant: $tenant, user_id: $user})
		WITH ` + with + `, collect(DISTINCT type(k) + '|' + coalesce(k.qualifier, '')) AS kin`, nil
}

// candidateColumns are the columns decodeCandidate reads, of node.
func candidateColumns(node string) string {
	return node + `.id AS id, ` + node + `.name AS name, ` + node + `.norm_name AS norm, ` + node + `.type AS type,
		       coalesce(` + node + `.is_user, false) AS is_user, coalesce(` + node + `.alias_keys, []) AS alias_keys,
		       coalesce(` + node + `.mention_count, 0) AS mentions, kin`
}

func decodeCandidate(rec *neo4j.Record) knowledge.Candidate {
	c := knowledge.Candidate{}
	c.ID, _ = get[string](rec, "id")
	c.Name, _ = get[string](rec, "name")
	c.Norm, _ = get[string](rec, "norm")
	t, _ := get[string](rec, "type")
	c.Type = ontology.EntityType(t)
	c.IsUser, _ = get[bool](rec, "is_user")
	c.Mentions, _ = get[int64](rec, "mentions")
	keys, _ := get[[]any](rec, "alias_keys")
	c.AliasKeys = strs(map[string]any{"k": keys}, "k")
	kin, _ := get[[]any](rec, "kin")
	c.Kin = strs(map[string]any{"k": kin}, "k")
	return c
}

// resolveGroup finds or creates the entity of one input group.
func (s *Store) resolveGroup(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, g *entityGroup,
	byNorm map[string][]knowledge.Candidate, earlier []*resolvedEntity, res *KnowledgeResult) (*resolvedEntity, error) {
	// 1. Same key, same type.
	for _, c := range byNorm[g.norm] {
		if c.Type == g.typ {
			return s.upsertMatched(ctx, tx, kw, g, c, "", false, res)
		}
	}
	// 2. Same key across compatible types, then an input alias equal to a
	// stored key. A Concept is upgraded to the specific type.
	if c, ok := knowledge.PickCompatible(byNorm[g.norm], g.typ); ok {
		upgrade := ""
		if c.Type == ontology.Concept && g.typ != ontology.Concept {
			upgrade = g.typ.Label()
		}
		return s.upsertMatched(ctx, tx, kw, g, c, upgrade, upgrade != "", res)
	}
	for _, a := range g.aliases[1:] {
		if c, ok := knowledge.PickCompatible(byNorm[a.key], g.typ); ok && !c.IsUser {
			return s.upsertMatched(ctx, tx, kw, g, c, "", true, res)
		}
	}
	// 3. Full-text candidates with a conservative similarity check; the
	// entities this write resolved already are candidates too.
	cands, err := s.fulltextCandidates(ctx, tx, kw, g)
	if err != nil {
		return nil, err
	}
	for _, r := range earlier {
		if !r.isUser && !slices.ContainsFunc(cands, func(c knowledge.Candidate) bool { return c.ID == r.id }) {
			cands = append(cands, knowledge.Candidate{ID: r.id, Name: r.name, Norm: r.norm, Type: r.typ, Kin: r.kin})
		}
	}
	if c, ok := knowledge.FuzzyMatch(knowledge.Mention{Type: g.typ, Norm: g.norm, Kin: g.kin}, cands); ok {
		return s.upsertMatched(ctx, tx, kw, g, c, "", true, res)
	}
	// 4. Vector candidates.
	if c, ok, err := s.vectorCandidate(ctx, tx, kw, g); err != nil {
		return nil, err
	} else if ok {
		return s.upsertMatched(ctx, tx, kw, g, c, "", true, res)
	}
	return s.createEntity(ctx, tx, kw, g, res)
}

// fulltextCandidates queries entity_text for the group's name terms,
// restricted to the user's scope token inside Lucene and again in Cypher
// (the batch's query for one group).
func (s *Store) fulltextCandidates(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, g *entityGroup) ([]knowledge.Candidate, error) {
	byGroup, err := s.fulltextCandidatesBatch(ctx, tx, kw, []*entityGroup{g}, []int{0})
	return byGroup[0], err
}

// vectorCandidate returns the best entity_embedding hit above the merge
// score, when the store has an embedder and the input an embedding.
func (s *Store) vectorCandidate(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, g *entityGroup) (knowledge.Candidate, bool, error) {
	if s.cfg.EmbeddingDimensions <= 0 || len(g.emb) != s.cfg.EmbeddingDimensions {
		return knowledge.Candidate{}, false, nil
	}
	recs, err := runTx(ctx, tx, planOnce+`
		CALL db.index.vector.queryNodes('entity_embedding', 50, $emb) YIELD node, score
		WITH node, score WHERE node.tenant = $tenant AND node.user_id = $user AND score >= $min
		RETURN node.id AS id, node.name AS name, node.norm_name AS norm, node.type AS type,
		       coalesce(node.is_user, false) AS is_user, coalesce(node.alias_keys, []) AS alias_keys,
		       coalesce(node.mention_count, 0) AS mentions, score
		ORDER BY score DESC LIMIT 5`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "emb": g.emb, "min": vectorMergeScore})
	if err != nil {
		return knowledge.Candidate{}, false, err
	}
	for _, rec := range recs {
		c := decodeCandidate(rec)
		if !c.IsUser && knowledge.TypesCompatible(c.Type, g.typ) {
			return c, true, nil
		}
	}
	return knowledge.Candidate{}, false, nil
}

// entityUpdate is the part every upsert shares: lock, aliases, merges.
const entityUpdate = `
		SET e.updated_at = $now
		WITH e, created, [a IN $aliases WHERE a.key <> e.norm_name AND NOT a.key IN coalesce(e.alias_keys, [])] AS add
		SET e.aliases = coalesce(e.aliases, []) + [a IN add | a.name],
		    e.alias_keys = coalesce(e.alias_keys, []) + [a IN add | a.key],
		    e.merged_names = coalesce(e.merged_names, []) + [m IN $merged WHERE NOT m IN coalesce(e.merged_names, [])]
		SET e.aliases_text = reduce(t = '', a IN e.aliases | t + CASE WHEN t = '' THEN '' ELSE ' ' END + a)
		RETURN e.id AS id, created, e.type AS type, e.name AS name, e.norm_name AS norm, coalesce(e.is_user, false) AS is_user`

func aliasParams(list []aliasRow) []map[string]any {
	out := make([]map[string]any, len(list))
	for i, a := range list {
		out[i] = map[string]any{"name": a.name, "key": a.key}
	}
	return out
}

// createEntity MERGEs a new entity on its unique key, so a concurrent
// writer of the same entity makes this one match it instead.
func (s *Store) createEntity(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, g *entityGroup, res *KnowledgeResult) (*resolvedEntity, error) {
	label := g.typ.Label()
	if !ontology.ValidLabel(label) {
		return nil, fmt.Errorf("%w: entity type %q", ErrInvalid, g.typ)
	}
	id := knID("ent_")
	// The label is a parameter ($($type), checked above): one statement
	// text for every type, planned once by Neo4j instead of once per type.
	recs, err := runTx(ctx, tx, planOnce+`
		MERGE (e:Entity {tenant: $tenant, user_id: $user, type: $type, norm_name: $norm})
		ON CREATE SET e:$($type), e.id = $id, e.scope = $scope, e.name = $name, e.is_user = false,
		  e.mention_count = 1, e.created_at = $now, e.aliases = [], e.alias_keys = [], e.merged_names = []
		WITH e, e.id = $id AS created`+entityUpdate,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "type": label, "norm": g.norm, "id": id,
			"scope": kw.scope, "name": g.name, "now": kw.now, "aliases": aliasParams(g.aliases), "merged": []string{}})
	if err != nil {
		return nil, err
	}
	r, err := entityResult(recs, res)
	if err != nil {
		return nil, err
	}
	return r, s.setEntityEmbedding(ctx, tx, kw, r.id, g.emb)
}

// upsertMatched updates a stored entity that the group resolved to: adds
// aliases, records a merge, upgrades a Concept to a specific type.
func (s *Store) upsertMatched(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, g *entityGroup,
	c knowledge.Candidate, upgrade string, merged bool, res *KnowledgeResult) (*resolvedEntity, error) {
	set := ""
	if upgrade != "" {
		if !ontology.ValidLabel(upgrade) {
			return nil, fmt.Errorf("%w: entity type %q", ErrInvalid, upgrade)
		}
		set = "REMOVE e:Concept SET e:$($upgrade), e.type = $upgrade, e.upgraded_at = $now"
	}
	var mergedNames []string
	if merged {
		for _, m := range g.members {
			if m.norm != c.Norm {
				mergedNames = append(mergedNames, m.name)
			}
		}
	}
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (e:Entity {tenant: $tenant, id: $id}) WHERE e.user_id = $user
		`+set+`
		WITH e, false AS created`+entityUpdate,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "id": c.ID, "upgrade": upgrade, "now": kw.now,
			"aliases": aliasParams(g.aliases), "merged": knUnique(mergedNames)})
	if err != nil {
		return nil, err
	}
	r, err := entityResult(recs, res)
	if err != nil {
		return nil, err
	}
	if merged {
		res.EntitiesMerged = append(res.EntitiesMerged, r.id)
	}
	return r, s.setEntityEmbedding(ctx, tx, kw, r.id, g.emb)
}

func entityResult(recs []*neo4j.Record, res *KnowledgeResult) (*resolvedEntity, error) {
	if len(recs) != 1 {
		return nil, fmt.Errorf("upsert entity: %w", errNoRecords)
	}
	rec := recs[0]
	r := &resolvedEntity{}
	r.id, _ = get[string](rec, "id")
	t, _ := get[string](rec, "type")
	r.typ = ontology.EntityType(t)
	r.name, _ = get[string](rec, "name")
	r.norm, _ = get[string](rec, "norm")
	r.isUser, _ = get[bool](rec, "is_user")
	if created, _ := get[bool](rec, "created"); created {
		res.EntitiesCreated = append(res.EntitiesCreated, r.id)
	}
	return r, nil
}

// setEntityEmbedding stores a name embedding once, when the store has an
// embedder of that size.
func (s *Store) setEntityEmbedding(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, id string, emb []float64) error {
	if s.cfg.EmbeddingDimensions <= 0 || len(emb) != s.cfg.EmbeddingDimensions {
		return nil
	}
	_, err := runTx(ctx, tx, planOnce+`
		MATCH (e:Entity {tenant: $tenant, id: $id}) WHERE e.user_id = $user AND e.embedding IS NULL
		CALL db.create.setNodeVectorProperty(e, 'embedding', $emb)`,
		map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "id": id, "emb": emb})
	return err
}

// ensureUserEntity finds the user's entity by is_user (never by name) or
// creates it, named after the display name when known, else the user id.
// An existing non-user Person with exactly that name is promoted: in the
// user's own graph it is the user.
func (s *Store) ensureUserEntity(ctx context.Context, tx neo4j.ManagedTransaction, kw *knowledgeWrite, inputs []*entityIn, res *KnowledgeResult) (*resolvedEntity, error) {
	display := strings.Join(strings.Fields(kw.UserName), " ")
	var aliases []aliasRow
	for _, e := range inputs {
		for _, a := range append([]string{e.name}, e.aliases...) {
			if a == "" || ontology.IsUserWord(normalizeEntityName(a)) {
				continue
			}
			if display == "" {
				display = a
			}
			aliases = appendAlias(aliases, a)
		}
	}
	name := display
	if name == "" {
		name = kw.UserID
	}
	norm := normalizeEntityName(name)
	if norm == "" {
		name, norm = kw.UserID, normalizeEntityName(kw.UserID)
	}
	if norm == "" {
		norm = "user " + knHashID("", kw.UserID)
	}
	params := map[string]any{"tenant": kw.Tenant, "user": kw.UserID, "scope": kw.scope, "now": kw.now,
		"name": name, "norm": norm, "id": knID("ent_"), "aliases": aliasParams(aliases), "merged": []string{}}

	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (u:User {tenant: $tenant, user_id: $user}) WHERE u.is_user = true
		RETURN u.id AS id, u.name AS name ORDER BY u.created_at LIMIT 1`, params)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		recs, err = runTx(ctx, tx, planOnce+`
			MERGE (e:Entity {tenant: $tenant, user_id: $user, type: 'Person', norm_name: $norm})
			ON CREATE SET e.id = $id, e.scope = $scope, e.name = $name, e.mention_count = 1, e.created_at = $now,
			  e.aliases = [], e.alias_keys = [], e.merged_names = []
			SET e:Person:User, e.is_user = true
			WITH e, e.id = $id AS created`+entityUpdate, params)
		if err != nil {
			return nil, err
		}
		return entityResult(recs, res)
	}
	params["id"], _ = get[string](recs[0], "id")
	current, _ := get[string](recs[0], "name")
	rename := ""
	if current == kw.UserID && display != "" && normalizeEntityName(display) != normalizeEntityName(current) {
		// The placeholder name gives way to the display name unless another
		// person already holds that name; the user id stays as an alias.
		rename = `
		WITH e
		OPTIONAL MATCH (x:Entity {tenant: $tenant, user_id: $user, type: 'Person', norm_name: $norm})
		WITH e, x
		FOREACH (_ IN CASE WHEN x IS NULL THEN [1] ELSE [] END |
		  SET e.name = $name, e.norm_name = $norm,
		      e.aliases = coalesce(e.aliases, []) + $user, e.alias_keys = coalesce(e.alias_keys, []) + $userkey)
		WITH e`
		params["userkey"] = normalizeEntityName(kw.UserID)
	}
	recs, err = runTx(ctx, tx, planOnce+`
		MATCH (e:Entity {tenant: $tenant, id: $id})
		SET e.updated_at = $now`+rename+`
		WITH e, false AS created`+entityUpdate, params)
	if err != nil {
		return nil, err
	}
	return entityResult(recs, res)
}

// UserEntityID returns the id of the entity that stands for the user, or
// ErrNotFound when no knowledge about the user was written yet.
func (s *Store) UserEntityID(ctx context.Context, tenant, userID string) (string, error) {
	res, err := s.read(ctx, "entity.user", `
		MATCH (u:User {tenant: $tenant, user_id: $user}) WHERE u.is_user = true
		RETURN u.id AS id ORDER BY u.created_at LIMIT 1`,
		map[string]any{"tenant": tenant, "user": userID})
	if err != nil {
		return "", err
	}
	if len(res.Records) == 0 {
		return "", fmt.Errorf("user entity of %q: %w", userID, ErrNotFound)
	}
	id, err := get[string](res.Records[0], "id")
	if err != nil {
		return "", fmt.Errorf("user entity: %w", err)
	}
	return id, nil
}

// Entity returns an entity with its facts (current only unless
// IncludeHistory), aliases, mention count and the raw and event-tier nodes
// that mention it. An unknown id (or another tenant's) is ErrNotFound.
func (s *Store) Entity(ctx context.Context, tenant, entityID string, q EntityQuery) (EntityView, error) {
	limit := clampLimit(q.Limit, 100, 1000)
	res, err := s.read(ctx, "entity.get", `
		MATCH (e:Entity {tenant: $tenant, id: $id})
		CALL (e) {
		  OPTIONAL MATCH (r:Raw {tenant: $tenant})-[:MENTIONS]->(e)
		  WITH r ORDER BY r.occurred_at DESC LIMIT $limit
		  RETURN collect(r.id) AS raws
		}
		CALL (e) {
		  OPTIONAL MATCH (ev:Event {tenant: $tenant})-[:MENTIONS]->(e)
		  WITH ev ORDER BY ev.created_at DESC LIMIT $limit
		  RETURN collect(ev.id) AS events
		}
		RETURN e, raws, events`,
		map[string]any{"tenant": tenant, "id": entityID, "limit": int64(limit)})
	if err != nil {
		return EntityView{}, err
	}
	if len(res.Records) == 0 {
		return EntityView{}, errs.NotFound("entity %q", entityID)
	}
	rec := res.Records[0]
	raw, _ := rec.Get("e")
	node, ok := raw.(dbtype.Node)
	if !ok {
		return EntityView{}, fmt.Errorf("entity %q: %w", entityID, errNoRecords)
	}
	p := node.Props
	v := EntityView{
		ID: str(p, "id"), UserID: str(p, "user_id"), Name: str(p, "name"), Type: str(p, "type"),
		Aliases: strs(p, "aliases"), MergedNames: strs(p, "merged_names"), IsUser: p["is_user"] == true,
		MentionCount: i64(p, "mention_count"), CreatedAt: tm(p, "created_at"), UpdatedAt: tm(p, "updated_at"),
	}
	raws, _ := get[[]any](rec, "raws")
	v.RawEventIDs = strs(map[string]any{"k": raws}, "k")
	events, _ := get[[]any](rec, "events")
	v.EventIDs = strs(map[string]any{"k": events}, "k")

	types, err := s.allFactTypes()
	if err != nil {
		return EntityView{}, err
	}
	status := ""
	if !q.IncludeHistory {
		status = " AND r.status = 'current'"
	}
	params := map[string]any{"tenant": tenant, "user": v.UserID, "id": entityID, "limit": int64(limit)}
	for _, dir := range []struct {
		pattern string
		into    *[]Fact
	}{
		{`(s:Entity {tenant: $tenant, id: $id})-[r:` + types + `]->(o:Entity)`, &v.Out},
		{`(s:Entity)-[r:` + types + `]->(o:Entity {tenant: $tenant, id: $id})`, &v.In},
	} {
		facts, err := s.readFacts(ctx, "entity.facts", `
			MATCH `+dir.pattern+`
			WHERE r.tenant = $tenant AND r.user_id = $user`+status+`
			`+factReturn+`
			ORDER BY r.status = 'current' DESC, r.valid_from DESC, r.recorded_at DESC LIMIT $limit`, params)
		if err != nil {
			return EntityView{}, err
		}
		*dir.into = facts
	}
	return v, nil
}

// clampLimit applies a default and a maximum to a caller's limit.
func clampLimit(limit, def, maxLimit int) int {
	if limit <= 0 {
		return def
	}
	return min(limit, maxLimit)
}
