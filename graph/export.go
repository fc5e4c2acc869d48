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
// relationship between two of them, in an order an import can replay.
func (s *Store) ExportUser(ctx context.Context, tenant, userID string, emit func(ExportLine) error) error {
	now := time.Now().UTC()
	if err := emit(ExportLine{Kind: "header", Format: ExportFormat, Version: ExportVersion, Tenant: tenant, UserID: userID, At: &now}); err != nil {
		return err
	}
	p := map[string]any{"tenant": tenant, "user": userID}
	for _, l := range exportLabels {
		res, err := s.read(ctx, "export.nodes", `
			MATCH (n:`+l+` {tenant: $tenant}) WHERE n.user_id = $user
			RETURN labels(n) AS labels, properties(n) AS props ORDER BY n.id`, p)
		if err != nil {
			return fmt.Errorf("export %s: %w", l, err)
		}
		for _, rec := range res.Records {
			labels, _ := get[[]any](rec, "labels")
			props, _ := get[map[string]any](rec, "props")
			line := ExportLine{Kind: "node", Props: encodeProps(props)}
			for _, x := range labels {
				if str, ok := x.(string); ok {
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
			ORDER BY type, a.id, b.id, r.id`, map[string]any{"tenant": tenant, "user": userID, "primary": exportLabels})
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
			line := ExportLine{Kind: "rel", Type: typ, Props: encodeProps(props),
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
}

// ImportBatch writes a batch of export lines into tenant: nodes are merged
// on their key (created with their properties and labels, left alone when
// present), relationships merged between them (facts on their id). A user's
// nodes must come before the relationships that need them, as ExportUser
// writes them. Importing the same lines twice changes nothing.
func (s *Store) ImportBatch(ctx context.Context, tenant string, lines []ExportLine) (ImportStats, error) {
	var st ImportStats
	type nodeGroup struct {
		label, extra string
		rows         []map[string]any
	}
	nodes := map[string]*nodeGroup{}
	type relGroup struct {
		typ, from, to string
		rows          []map[string]any
	}
	rels := map[string]*relGroup{}
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
			key := primary + ":" + strings.Join(extra, ":")
			g := nodes[key]
			if g == nil {
				g = &nodeGroup{label: primary, extra: strings.Join(extra, ":")}
				nodes[key] = g
			}
			g.rows = append(g.rows, map[string]any{"id": id, "session_id": props["session_id"], "props": props})
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
			key := l.Type + ":" + l.Start.Label + ":" + l.End.Label
			g := rels[key]
			if g == nil {
				g = &relGroup{typ: l.Type, from: l.Start.Label, to: l.End.Label}
				rels[key] = g
			}
			g.rows = append(g.rows, map[string]any{"a": l.Start.ID, "as": nilIfEmpty(l.Start.SessionID), "b": l.End.ID,
				"bs": nilIfEmpty(l.End.SessionID), "id": props["id"], "props": props})
		default:
			return st, fmt.Errorf("import: %w: line %d: kind %q", ErrInvalid, i+1, l.Kind)
		}
	}
	_, err := writeTx(ctx, s, "import.batch", func(tx neo4j.ManagedTransaction) (struct{}, error) {
		created, existing, rc := 0, 0, 0
		for _, label := range exportLabels {
			for _, g := range nodes {
				if g.label != label {
					continue
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
					`+set, map[string]any{"tenant": tenant, "rows": g.rows})
				if err != nil {
					return struct{}{}, err
				}
				sum, err := res.Consume(ctx)
				if err != nil {
					return struct{}{}, err
				}
				created += sum.Counters().NodesCreated()
				existing += len(g.rows) - sum.Counters().NodesCreated()
			}
		}
		for _, g := range rels {
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

// encodeProps turns stored properties into JSON values that keep their
// type: times as {"$datetime": RFC 3339}, floats always with a decimal
// point or exponent (so 1.0 does not come back as an integer), lists item
// by item. Tenant and scope are dropped: import sets them.
func encodeProps(p map[string]any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		if k == "tenant" {
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
