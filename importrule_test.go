package graphmem_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/graphmem/graphmem/"

// importRule is the layout's dependency rule (house style): cmd wires
// everything; api reaches the orchestration; the orchestration (memory)
// uses the leaves; condenser, extract and graph never import each other,
// and only their own package may import its third-party client.
var importRule = map[string]struct {
	allowed   []string // graphmem packages this one may import
	forbidden []string // third-party import prefixes it may not use
}{
	"ontology":   {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"nlp":        {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"condenser":  {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"extract":    {allowed: []string{"ontology", "nlp"}, forbidden: []string{"github.com/neo4j", "github.com/gin-gonic", "github.com/go-playground"}},
	"graph":      {allowed: []string{"ontology", "nlp", "graph"}, forbidden: []string{"github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"embed":      {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/gin-gonic", "github.com/go-playground"}}, // may use onnxruntime_go and (for its remote embedder) go-openai
	"localneo4j": {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"memory":     {allowed: []string{"ontology", "nlp", "condenser", "extract", "graph"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"api":        {allowed: []string{"memory", "ontology"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov"}},
}

func TestImportRule(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		top := strings.Split(filepath.ToSlash(path), "/")[0]
		rule, ruled := importRule[top]
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		isTest := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, module+"cmd") {
				t.Errorf("%s imports %s: nothing imports cmd", path, p)
			}
			if !ruled {
				continue
			}
			if rest, ok := strings.CutPrefix(p, module); ok {
				target := strings.Split(rest, "/")[0]
				if target == top || contains(rule.allowed, target) {
					continue
				}
				// Tests may use the graph test helper to reach the real Neo4j.
				if isTest && rest == "graph/graphtest" {
					continue
				}
				t.Errorf("%s imports %s: %s may import only %v", path, p, top, rule.allowed)
			}
			for _, f := range rule.forbidden {
				if strings.HasPrefix(p, f) && !isTest {
					t.Errorf("%s imports %s: only its owning package may use %s", path, p, f)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
