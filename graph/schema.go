package graph

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/graphmem/graphmem/ontology"
)

//go:embed schema/schema.cypher.tmpl
var schemaTemplate string

// SchemaReport says what ApplySchema changed; on an up-to-date database
// every count is zero.
type SchemaReport struct {
	Statements         int
	IndexesAdded       int
	ConstraintsAdded   int
	IndexesRecreated   []string
	IndexesAwaitedSecs float64
}

// schemaStatements renders the schema for this store's fact types and
// vector size. Relationship types are interpolated here, and only here,
// after ValidRelType, because Cypher cannot take them as parameters.
func (s *Store) schemaStatements() ([]string, error) {
	names := make([]string, 0, len(s.factTypes))
	for _, p := range s.factTypes {
		if !ontology.ValidRelType(p.Name) {
			return nil, fmt.Errorf("schema: %w: fact type %q", ErrInvalid, p.Name)
		}
		names = append(names, p.Name)
	}
	tmpl, err := template.New("schema").Funcs(template.FuncMap{"lower": strings.ToLower}).Parse(schemaTemplate)
	if err != nil {
		return nil, fmt.Errorf("schema template: %w", err)
	}
	var buf bytes.Buffer
	err = tmpl.Execute(&buf, map[string]any{
		"FactTypes":     s.factTypes,
		"FactTypeUnion": strings.Join(names, "|"),
		"Dimensions":    s.cfg.EmbeddingDimensions,
	})
	if err != nil {
		return nil, fmt.Errorf("render schema: %w", err)
	}
	var out []string
	for _, chunk := range strings.Split(buf.String(), "\n;\n") {
		var lines []string
		for _, line := range strings.Split(chunk, "\n") {
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "//") && t != ";" {
				lines = append(lines, line)
			}
		}
		if stmt := strings.TrimSpace(strings.Join(lines, "\n")); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out, nil
}

// ApplySchema creates constraints and indexes that are missing, recreates
// the two whose definition depends on config when that config changed (the
// fact full-text index when the vocabulary grows, vector indexes when the
// embedding size changes), then waits for every index to be online. Each
// DDL statement runs on its own, as Neo4j requires.
func (s *Store) ApplySchema(ctx context.Context) (SchemaReport, error) {
	var rep SchemaReport
	stmts, err := s.schemaStatements()
	if err != nil {
		return rep, err
	}
	if rep.IndexesRecreated, err = s.dropDriftedIndexes(ctx); err != nil {
		return rep, err
	}
	for _, stmt := range stmts {
		res, err := s.write(ctx, "schema", stmt, nil)
		if err != nil && strings.Contains(err.Error(), "EquivalentSchemaRuleAlreadyExists") {
			// Another replica (or test process) created the same index
			// between our IF NOT EXISTS check and the creation: the
			// schema is as wanted.
			continue
		}
		if err != nil {
			return rep, fmt.Errorf("apply schema statement %q: %w", firstLine(stmt), err)
		}
		rep.Statements++
		c := res.Summary.Counters()
		rep.IndexesAdded += c.IndexesAdded()
		rep.ConstraintsAdded += c.ConstraintsAdded()
	}
	if _, err := s.write(ctx, "schema.await", "CALL db.awaitIndexes(300)", nil); err != nil {
		return rep, fmt.Errorf("await indexes: %w", err)
	}
	s.schemaApplied.Store(true)
	s.log.Info("schema applied", "statements", rep.Statements, "indexes_added", rep.IndexesAdded,
		"constraints_added", rep.ConstraintsAdded, "recreated", rep.IndexesRecreated)
	return rep, nil
}

// dropDriftedIndexes drops fact_text when its relationship types differ from
// the configured vocabulary and the vector indexes when an embedder of
// another size is configured, so the CREATE ... IF NOT EXISTS that follows
// builds them anew.
func (s *Store) dropDriftedIndexes(ctx context.Context) ([]string, error) {
	res, err := s.read(ctx, "schema.inspect",
		`SHOW INDEXES YIELD name, labelsOrTypes, options
		 WHERE name IN ['fact_text', 'entity_embedding']
		 RETURN name, labelsOrTypes, options`, nil)
	if err != nil {
		return nil, fmt.Errorf("inspect indexes: %w", err)
	}
	want := make([]string, 0, len(s.factTypes))
	for _, p := range s.factTypes {
		want = append(want, p.Name)
	}
	slices.Sort(want)
	var dropped []string
	for _, rec := range res.Records {
		name, _ := get[string](rec, "name")
		drift := false
		switch name {
		case "fact_text":
			raw, _ := get[[]any](rec, "labelsOrTypes")
			have := make([]string, 0, len(raw))
			for _, v := range raw {
				if str, ok := v.(string); ok {
					have = append(have, str)
				}
			}
			slices.Sort(have)
			drift = !slices.Equal(have, want)
		default:
			// Without an embedder the vector indexes are left alone: another
			// replica (or a later restart) may use them, and an unused index
			// costs nothing. Only a different size forces a rebuild.
			if s.cfg.EmbeddingDimensions == 0 {
				continue
			}
			opts, _ := get[map[string]any](rec, "options")
			cfg, _ := opts["indexConfig"].(map[string]any)
			dims, _ := cfg["vector.dimensions"].(int64)
			drift = int(dims) != s.cfg.EmbeddingDimensions
			if drift {
				s.log.Warn("vector index size differs from config; recreating it (stored embeddings of the old size are ignored until re-embedded)",
					"index", name, "stored_dimensions", dims, "configured_dimensions", s.cfg.EmbeddingDimensions)
			}
		}
		if !drift {
			continue
		}
		// name is one of the two literals of the WHERE clause above.
		if _, err := s.write(ctx, "schema.drop", "DROP INDEX "+name+" IF EXISTS", nil); err != nil {
			return dropped, fmt.Errorf("drop drifted index %s: %w", name, err)
		}
		dropped = append(dropped, name)
	}
	return dropped, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
