package graphmem_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/graphmem/graphmem/"

// importRule is the layout's dependency rule (house style), keyed by
// package path: a package follows the rule of its own path, or of the
// closest listed parent ("graph/graphtest" follows "graph"). cmd wires
// everything; api reaches the orchestration; the orchestration (memory)
// uses the leaves; condenser, extract and graph never import each other,
// the engines under extract share only extract's types, and only the
// package that owns a third-party client may import it.
var importRule = map[string]struct {
	allowed   []string // graphmem packages this one may import, by exact path
	forbidden []string // third-party import prefixes it may not use
}{
	"ontology":        {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"nlp":             {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"condenser":       {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"errs":            {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"jobs":            {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"extract":         {allowed: []string{"ontology"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"extract/offline": {allowed: []string{"extract", "ontology", "nlp"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"extract/llm":     {allowed: []string{"extract", "ontology"}, forbidden: []string{"github.com/neo4j", "github.com/gin-gonic", "github.com/go-playground"}},
	"knowledge":       {allowed: []string{"ontology", "nlp"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"graph":           {allowed: []string{"ontology", "nlp", "graph", "knowledge", "errs"}, forbidden: []string{"github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"localneo4j":      {allowed: nil, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"retrieval":       {allowed: []string{"graph", "ontology", "nlp", "errs"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"memory":          {allowed: []string{"ontology", "nlp", "condenser", "extract", "graph", "knowledge", "errs", "jobs"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov", "github.com/gin-gonic", "github.com/go-playground"}},
	"api":             {allowed: []string{"memory", "retrieval", "ontology", "errs"}, forbidden: []string{"github.com/neo4j", "github.com/sashabaranov"}},
}

// ruleFor returns the rule a package follows and the key it was found under.
func ruleFor(pkg string) (key string, ok bool) {
	for p := pkg; p != "." && p != ""; p = path.Dir(p) {
		if _, ok := importRule[p]; ok {
			return p, true
		}
	}
	return "", false
}

// importProblems lists what is wrong with package pkg (a path relative to
// the module) importing imp. A package may import the packages that follow
// its own rule ("api" its "api/apitest") and the ones its rule lists; test
// says whether the importing file is a test, which may also use the graph
// test helper and any third-party package.
func importProblems(pkg, imp string, test bool) []string {
	var problems []string
	if strings.HasPrefix(imp, module+"cmd") {
		problems = append(problems, "nothing imports cmd")
	}
	key, ruled := ruleFor(pkg)
	if !ruled {
		return problems
	}
	rule := importRule[key]
	if rest, ok := strings.CutPrefix(imp, module); ok {
		own, _ := ruleFor(rest)
		switch {
		case own == key || slices.Contains(rule.allowed, rest): // its own rule's packages, or a listed one
		case test && rest == "graph/graphtest": // tests reach the real Neo4j through it
		default:
			problems = append(problems, fmt.Sprintf("%s may import only %v", key, rule.allowed))
		}
	}
	for _, f := range rule.forbidden {
		if strings.HasPrefix(imp, f) && !test {
			problems = append(problems, "only its owning package may use "+f)
		}
	}
	return problems
}

func TestImportRule(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, `"`)
			for _, problem := range importProblems(pkg, ip, strings.HasSuffix(p, "_test.go")) {
				t.Errorf("%s imports %s: %s", p, ip, problem)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestImportRuleByPackagePath proves the rule tells packages under one
// directory apart: the engines under extract may not reach each other, and
// only the LLM engine may use the OpenAI client.
func TestImportRuleByPackagePath(t *testing.T) {
	cases := []struct {
		pkg, imp string
		test     bool
		ok       bool
	}{
		{"extract/offline", module + "extract", false, true},
		{"extract/offline", module + "nlp", false, true},
		{"extract/offline", module + "extract/llm", false, false},
		{"extract/offline", "github.com/sashabaranov/go-openai", false, false},
		{"extract/llm", module + "extract", false, true},
		{"extract/llm", module + "ontology", false, true},
		{"extract/llm", module + "nlp", false, false},
		{"extract/llm", module + "extract/offline", false, false},
		{"extract/llm", "github.com/sashabaranov/go-openai/jsonschema", false, true},
		{"extract", module + "nlp", false, false},
		{"extract", module + "extract/offline", false, false},
		{"extract", "github.com/sashabaranov/go-openai", false, false},
		{"memory", module + "extract", false, true},
		{"memory", module + "extract/offline", false, false},
		{"graph/graphtest", module + "graph", false, true},
		{"graph", module + "graph/graphtest", true, true},
		{"api", module + "api/apitest", true, true},
		{"memory", module + "cmd/graphmem", false, false},
	}
	for _, c := range cases {
		got := importProblems(c.pkg, c.imp, c.test)
		if (len(got) == 0) != c.ok {
			t.Errorf("%s importing %s: problems %v, want ok=%v", c.pkg, c.imp, got, c.ok)
		}
	}
}
