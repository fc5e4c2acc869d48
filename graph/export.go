package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/ontology"
)

// Export and import of one user's memory as NDJSON (docs/export.md). The
// format is a property-level copy of the user's nodes and of the
// relationships between them, so it is lossless by construction: raw
// events, condensation records, facts with both timelines, conflicts and
// their resolutions, preferences, insights, edits, provenance and any
// property added later travel as they are. Tenant and scope tokens are
// not exported; import sets them for the target tenant.

// ExportFormat is the value of the header line's "format".
const ExportFormat = "graphmem.export"

// ExportVersion is the format version this build writes and reads.
const ExportVersion = 1

// exportLabels are the primary labels exported, in an order that lets an
// import create every endpoint before the relationships that need it.
var exportLabels = []string{"Session", "Raw", "Event", "Entity", "Insight", "Conflict", "Edit"}

// ExportLine is one line of an export. Kind is "header", "node" or "rel".
type ExportLine struct {
	Kind    string         `json:"kind"`
	Format  string         `json:"format,omitempty"`
	Version int            `json:"version,omitempty"`
	Tenant  string         `json:"tenant,omitempty"` // the source tenant, informative
	UserID  string         `json:"user_id,omitempty"`
	At      *time.Time     `json:"exported_at,omitempty"`
	Labels  []string       `json:"labels,omitempty"`
	Type    string         `json:"type,omitempty"`
	Start   *NodeRef       `json:"start,omitempty"`
	End     *NodeRef       `json:"end,omitempty"`
	Props   map[string]any `json:"props,omitempty"` // typed values, see EncodeValue
}

// NodeRef names a node within its tenant by primary label and key.
type NodeRef struct {
	Label     string `json:"label"`
	ID        string `json:"id"`
	SessionID string `json:"session_id,omitempty"` // raw events: ids are unique per session
}

// ExportUser calls emit with a header, every node of the user and every
// relationship between two of them, in the order they were created (which an
// import replays: full-text ties then break the same way).
func (s *Store) ExportUser(ctx context.Context, tenant, userID string, emit func(ExportLine) error) error {
	now := time.Now().UTC()
	if err := emit(ExportLine{Kind: "header", Format: ExportFormat, Version: ExportVersion, Tenant: tenant, UserID: userID, At: &now}); err != nil {
		return err
	}
	return s.exportUserBody(ctx, tenant, userID, emit)
}

// ExportTenant calls emit with a header without a user, then every user's
// nodes and relationships as ExportUser writes them, user after user (an
// import may replay it in batches: a user's relationships only need that
// user's nodes).
func (s *Store) ExportTenant(ctx context.Context, tenant string, emit func(ExportLine) error) error {
	now := time.Now().UTC()
	if err := emit(ExportLine{Kind: "header", Format: ExportFormat, Version: ExportVersion, Tenant: tenant, At: &now}); err != nil {
		return err
	}
	users, err := s.TenantUsers(ctx, tenant)
	if err != nil {
		return err
	}
	for _, u := range users {
		if err := s.exportUserBody(ctx, tenant, u, emit); err != nil {
			return err
		}
	}
	return nil
}

// TenantUsers lists the user ids that own sessions or entities in tenant.
func (s *Store) TenantUsers(ctx context.Context, tenant string) ([]string, error) {
	res, err := s.read(ctx, "export.users", `
		CALL () {
		  MATCH (n:Session {tenant: $tenant}) RETURN DISTINCT n.user_id AS u
		  UNION
		  MATCH (n:Entity {tenant: $tenant}) RETURN DISTINCT n.user_id AS u
		}
		WITH u WHERE u IS NOT NULL
		RETURN u ORDER BY u`, map[string]any{"tenant": tenant})
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	out := make([]string, 0, len(res.Records))
	for _, rec := range res.Records {
		if u, _ := get[string](rec, "u"); u != "" {
			out = append(out, u)
		}
	}
	return out, nil
}

// HasUser says whether tenant holds any session or entity of userID.
func (s *Store) HasUser(ctx context.Context, tenant, userID string) (bool, error) {
	res, err := s.read(ctx, "export.has_user", `
		RETURN EXISTS { MATCH (n:Session {tenant: $tenant, user_id: $user}) }
		    OR EXISTS { MATCH (n:Entity {tenant: $tenant, user_id: $user}) WHERE n.norm_name IS NOT NULL } AS found`,
		map[string]any{"tenant": tenant, "user": userID})
	if err != nil {
		return false, fmt.Errorf("find user: %w", err)
	}
	if len(res.Records) == 0 {
		return false, nil
	}
	found, _ := get[bool](res.Records[0], "found")
	return found, nil
}

// exportUserBody emits the user's nodes, then the relationships between them.
func (s *Store) exportUserBody(ctx context.Context, tenant, userID string, emit func(ExportLine) error) error {
	p := map[string]any{"tenant": tenant, "user": userID}
	for _, l := range exportLabels {
		res, err := s.read(ctx, "export.nodes", `
			MATCH (n:`+l+` {tenant: $tenant}) WHERE n.user_id = $user
			RETURN labels(n) AS labels, properties(n) AS props
			ORDER BY coalesce(n.recorded_at, n.created_at), n.seq, n.id, n.session_id`, p)
		if err != nil {
			return fmt.Errorf("export %s: %w", l, err)
		}
		for _, rec := range res.Records {
			labels, _ := get[[]any](rec, "labels")
			props, _ := get[map[string]any](rec, "props")
			line := ExportLine{Kind: "node", Props: encodeProps(withoutUsage(props))}
			for _, x := range labels {
				if str, ok := x.(string); ok && str != "Unembedded" {
					line.Labels = append(line.Labels, str)
				}
			}
			sort.Strings(line.Labels)
			if err := emit(line); err != nil {
				return err
			}
		}
	}
	for _, l := range exportLabels {
		res, err := s.read(ctx, "export.rels", `
			MATCH (a:`+l+` {tenant: $tenant})-[r]->(b) WHERE a.user_id = $user AND b.tenant = $tenant AND b.user_id = $user
			RETURN a {.id, .session_id} AS a, [x IN labels(b) WHERE x IN $primary][0] AS bl, b {.id, .session_id} AS b,
			       type(r) AS type, properties(r) AS props
			ORDER BY coalesce(r.recorded_at, r.created_at), type, a.id, a.session_id, b.id, b.session_id, r.id`, map[string]any{"tenant": tenant, "user": userID, "primary": exportLabels})
		if err != nil {
			return fmt.Errorf("export relationships of %s: %w", l, err)
		}
		for _, rec := range res.Records {
			a, _ := get[map[string]any](rec, "a")
			b, _ := get[map[string]any](rec, "b")
			bl, _ := get[string](rec, "bl")
			typ, _ := get[string](rec, "type")
			props, _ := get[map[string]any](rec, "props")
			if bl == "" {
				continue
			}
			line := ExportLine{Kind: "rel", Type: typ, Props: encodeProps(withoutUsage(props)),
				Start: &NodeRef{Label: l, ID: str(a, "id"), SessionID: refSession(l, a)},
				End:   &NodeRef{Label: bl, ID: str(b, "id"), SessionID: refSession(bl, b)}}
			if err := emit(line); err != nil {
				return err
			}
		}
	}
	return nil
}

func refSession(label string, p map[string]any) string {
	if label == "Raw" {
		return str(p, "session_id")
	}
	return ""
}

// ImportStats counts what an import created (nodes and relationships that
// already existed are left as they are).
type ImportStats struct {
	Lines         int
	NodesCreated  int
	RelsCreated   int
	NodesExisting int
	// EntitiesMerged counts entities of the file that the tenant already
	// held under another id (same user, type and name, or the user's own
	// entity): the import used the tenant's node instead.
	EntitiesMerged int
}

// Add adds o's counts to st.
func (st *ImportStats) Add(o ImportStats) {
	st.Lines += o.Lines
	st.NodesCreated += o.NodesCreated
	st.RelsCreated += o.RelsCreated
	st.NodesExisting += o.NodesExisting
	st.EntitiesMerged += o.EntitiesMerged
}

// EntityIDMap maps entity ids of an import file to the ids of the tenant's
// entities they were merged onto. An import of several batches passes the
// same map to each, so a relationship in a later batch finds the entity a
// former batch merged.
type EntityIDMap map[string]string

// ImportBatch writes a batch of export lines into tenant: nodes are merged
// on their key (created with their properties and labels, left alone when
// present), relationships merged between them (facts on their id). An
// entity the tenant already holds under another id (the uniqueness key is
// tenant, user, type and normalized name; a user has one :User entity) is
// not created: the import merges onto the tenant's entity, records the
// mapping in ids (nil: a map for this batch only) and attaches the file's
// relationships to it. A user's nodes must come before the relationships
// that need them, as ExportUser writes them. Importing the same lines twice
// changes nothing.
func (s *Store) ImportBatch(ctx context.Context, tenant string, lines []ExportLine, ids EntityIDMap) (ImportStats, error) {
	var st ImportStats
	if ids == nil {
		ids = EntityIDMap{}
	}
	type nodeGroup struct {
		label, extra string
		rows         []map[string]any
	}
	// Groups are runs of consecutive lines of one kind, in file order: the
	// import replays the source's order of creation (the export writes it),
	// so full-text indexes break score ties among the imported nodes and
	// facts as they did among the originals.
	var nodes []*nodeGroup
	type relGroup struct {
		typ, from, to string
		rows          []map[string]any
	}
	var rels []*relGroup
	for i, l := range lines {
		st.Lines++
		switch l.Kind {
		case "header":
			if l.Format != ExportFormat || l.Version != ExportVersion {
				return st, fmt.Errorf("import: %w: line %d: format %q version %d (this build reads %s version %d)",
					ErrInvalid, i+1, l.Format, l.Version, ExportFormat, ExportVersion)
			}
		case "node":
			props, err := decodeProps(l.Props)
			if err != nil {
				return st, fmt.Errorf("import: %w: line %d: %w", ErrInvalid, i+1, err)
			}
			primary := ""
			var extra []string
			for _, lb := range l.Labels {
				if !safeLabel.MatchString(lb) {
					return st, fmt.Errorf("import: %w: line %d: label %q", ErrInvalid, i+1, lb)
				}
				if primary == "" && slices.Contains(exportLabels, lb) {
					primary = lb
				} else {
					extra = append(extra, lb)
				}
			}
			user, _ := props["user_id"].(string)
			id, _ := props["id"].(string)
			if primary == "" || user == "" || id == "" {
				return st, fmt.Errorf("import: %w: line %d: a node needs a known label, an id and a user_id", ErrInvalid, i+1)
			}
			props["tenant"] = tenant
			if _, ok := props["scope"]; ok {
				props["scope"] = scopeToken(tenant, user)
			}
			if slices.Contains(l.Labels, "Memory") {
				// Vectors are not carried over: the importing service's
				// embedding lane embeds the memories with its own model.
				for _, k := range []string{"embedding", "embedding_model", "embedded_at", "embed_lease_until", "embed_owner"} {
					delete(props, k)
				}
				props["embed_queued_at"] = time.Now().UTC()
				if !slices.Contains(extra, "Unembedded") {
					extra = append(extra, "Unembedded")
				}
			}
			var g *nodeGroup
			if n := len(nodes); n > 0 && nodes[n-1].label == primary && nodes[n-1].extra == strings.Join(extra, ":") {
				g = nodes[n-1]
			} else {
				g = &nodeGroup{label: primary, extra: strings.Join(extra, ":")}
				nodes = append(nodes, g)
			}
			isUser := slices.Contains(l.Labels, "User")
			g.rows = append(g.rows, map[string]any{"id": id, "session_id": props["session_id"], "props": props,
				"user": user, "type": props["type"], "norm": props["norm_name"], "is_user": isUser})
		case "rel":
			if !ontology.ValidRelType(l.Type) || l.Start == nil || l.End == nil ||
				!slices.Contains(exportLabels, l.Start.Label) || !slices.Contains(exportLabels, l.End.Label) {
				return st, fmt.Errorf("import: %w: line %d: relationship %q between unknown nodes", ErrInvalid, i+1, l.Type)
			}
			props, err := decodeProps(l.Props)
			if err != nil {
				return st, fmt.Errorf("import: %w: line %d: %w", ErrInvalid, i+1, err)
			}
			props["tenant"] = tenant
			if _, ok := props["scope"]; ok {
				if user, _ := props["user_id"].(string); user != "" {
					props["scope"] = scopeToken(tenant, user)
				}
			}
			var g *relGroup
			if n := len(rels); n > 0 && rels[n-1].typ == l.Type && rels[n-1].from == l.Start.Label && rels[n-1].to == l.End.Label {
				g = rels[n-1]
			} else {
				g = &relGroup{typ: l.Type, from: l.Start.Label, to: l.End.Label}
				rels = append(rels, g)
			}
			g.rows = append(g.rows, map[string]any{"a": l.Start.ID, "as": nilIfEmpty(l.Start.SessionID), "b": l.End.ID,
				"bs": nilIfEmpty(l.End.SessionID), "id": props["id"], "props": props})
		default:
			return st, fmt.Errorf("import: %w: line %d: kind %q", ErrInvalid, i+1, l.Kind)
		}
	}
	_, err := writeTx(ctx, s, "import.batch", func(tx neo4j.ManagedTransaction) (struct{}, error) {
		created, existing, rc := 0, 0, 0
		{
			for _, g := range nodes {
				label := g.label
				rows := g.rows
				if label == "Entity" {
					var merged int
					var err error
					rows, merged, err = resolveEntities(ctx, tx, tenant, rows, ids)
					if err != nil {
						return struct{}{}, err
					}
					st.EntitiesMerged += merged
					existing += len(g.rows) - len(rows)
				}
				match := `{tenant: $tenant, id: row.id}`
				if label == "Raw" {
					match = `{tenant: $tenant, session_id: row.session_id, id: row.id}`
				}
				set := ""
				if g.extra != "" {
					set = "SET n:" + g.extra // each label validated above
				}
				res, err := tx.Run(ctx, `
					UNWIND $rows AS row
					MERGE (n:`+label+` `+match+`)
					ON CREATE SET n = row.props, n._imported = true
					WITH n WHERE n._imported = true
					REMOVE n._imported
					`+set, map[string]any{"tenant": tenant, "rows": rows})
				if err != nil {
					return struct{}{}, err
				}
				sum, err := res.Consume(ctx)
				if err != nil {
					return struct{}{}, err
				}
				created += sum.Counters().NodesCreated()
				existing += len(rows) - sum.Counters().NodesCreated()
			}
		}
		for _, g := range rels {
			for _, row := range g.rows {
				if g.from == "Entity" {
					if to, ok := ids[row["a"].(string)]; ok {
						row["a"] = to
					}
				}
				if g.to == "Entity" {
					if to, ok := ids[row["b"].(string)]; ok {
						row["b"] = to
					}
				}
			}
			ma, mb := `{tenant: $tenant, id: row.a}`, `{tenant: $tenant, id: row.b}`
			if g.from == "Raw" {
				ma = `{tenant: $tenant, session_id: row.as, id: row.a}`
			}
			if g.to == "Raw" {
				mb = `{tenant: $tenant, session_id: row.bs, id: row.b}`
			}
			// Facts (and anything else with an id) merge on it; the others
			// are unique per pair of nodes and type.
			res, err := tx.Run(ctx, `
				UNWIND $rows AS row
				MATCH (a:`+g.from+` `+ma+`)
				MATCH (b:`+g.to+` `+mb+`)
				CALL (a, b, row) {
				  WITH a, b, row WHERE row.id IS NOT NULL
				  MERGE (a)-[r:`+g.typ+` {tenant: $tenant, id: row.id}]->(b) ON CREATE SET r = row.props
				  RETURN count(*) AS x
				  UNION ALL
				  WITH a, b, row WHERE row.id IS NULL
				  MERGE (a)-[r:`+g.typ+`]->(b) ON CREATE SET r = row.props
				  RETURN count(*) AS x
				}
				RETURN sum(x)`, map[string]any{"tenant": tenant, "rows": g.rows})
			if err != nil {
				return struct{}{}, err
			}
			sum, err := res.Consume(ctx)
			if err != nil {
				return struct{}{}, err
			}
			rc += sum.Counters().RelationshipsCreated()
		}
		st.NodesCreated, st.NodesExisting, st.RelsCreated = created, existing, rc
		return struct{}{}, nil
	})
	return st, err
}

// resolveEntities drops the rows of entities the tenant already holds:
// under the same id (nothing to do), or under another id with the same
// uniqueness key or as the user's own entity (recorded in ids, counted as
// merged). It returns the rows to create.
func resolveEntities(ctx context.Context, tx neo4j.ManagedTransaction, tenant string, rows []map[string]any, ids EntityIDMap) ([]map[string]any, int, error) {
	res, err := tx.Run(ctx, `
		UNWIND $rows AS row
		OPTIONAL MATCH (x:Entity {tenant: $tenant, id: row.id})
		OPTIONAL MATCH (y:Entity {tenant: $tenant, user_id: row.user, type: row.type, norm_name: row.norm})
		OPTIONAL MATCH (u:User {tenant: $tenant, user_id: row.user}) WHERE row.is_user
		RETURN row.id AS id, coalesce(x.id, y.id, u.id) AS existing`, map[string]any{"tenant": tenant, "rows": rows})
	if err != nil {
		return nil, 0, err
	}
	recs, err := res.Collect(ctx)
	if err != nil {
		return nil, 0, err
	}
	found := make(map[string]string, len(recs))
	for _, rec := range recs {
		id, _ := get[string](rec, "id")
		if ex, _ := get[string](rec, "existing"); ex != "" {
			found[id] = ex
		}
	}
	merged := 0
	out := rows[:0:0]
	for _, row := range rows {
		id := row["id"].(string)
		ex, ok := found[id]
		switch {
		case !ok:
			out = append(out, row)
		case ex != id:
			ids[id] = ex
			merged++
		}
	}
	return out, merged, nil
}

// encodeProps turns stored properties into JSON values that keep their
// type: times as {"$datetime": RFC 3339}, floats always with a decimal
// point or exponent (so 1.0 does not come back as an integer), lists item
// by item. Tenant and scope are dropped: import sets them.
func encodeProps(p map[string]any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		// The tenant is the importer's; vectors and the embedding queue's
		// marks are derived data the importing service's lane recomputes
		// with its own model.
		if k == "tenant" || k == "embedding" || k == "embedding_model" || k == "embedded_at" || strings.HasPrefix(k, "embed_") {
			continue
		}
		if k == "scope" {
			out[k] = ""
			continue
		}
		out[k] = encodeValue(v)
	}
	return out
}

func encodeValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return map[string]any{"$datetime": x.UTC().Format(time.RFC3339Nano)}
	case dbtype.LocalDateTime:
		return map[string]any{"$datetime": x.Time().UTC().Format(time.RFC3339Nano)}
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return json.RawMessage(s)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = encodeValue(e)
		}
		return out
	}
	return v
}

// decodeProps reverses encodeProps on values decoded with json.Number.
func decodeProps(p map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(p))
	for k, v := range p {
		d, err := decodeValue(v)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", k, err)
		}
		out[k] = d
	}
	return out, nil
}

func decodeValue(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return x.Float64()
		}
		return x.Int64()
	case float64: // decoded without UseNumber
		return x, nil
	case map[string]any:
		s, ok := x["$datetime"].(string)
		if !ok || len(x) != 1 {
			return nil, fmt.Errorf("a map value (want only {\"$datetime\": ...})")
		}
		return time.Parse(time.RFC3339Nano, s)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			d, err := decodeValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	return v, nil
}
