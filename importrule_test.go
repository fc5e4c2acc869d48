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
// package that owns a third-party client may import it (clientOwners). A
// package the table does not list breaks the rule: a new package must say
// where it sits.
var importRule = map[string][]string{ // package → graphmem packages it may import, by exact path
	".":               nil, // the module root: the embedded OpenAPI contract
	"ontology":        nil,
	"nlp":             nil,
	"condenser":       nil,
	"errs":            nil,
	"jobs":            {"telemetry"},
	"telemetry":       nil, // tracing setup and usage accounting: a leaf every traced package may use
	"localneo4j":      nil,
	"embed":           nil,                                                            // sentence embedders; the packages that search declare what they need
	"bench":           nil,                                                            // an HTTP client of the service, like any user
	"client":          nil,                                                            // the Go client: its own wire types, nothing of the server's
	"api/mcp":         {"client"},                                                     // MCP tools, each a call of the REST API through the client
	"bench/embedref":  {"embed"},                                                      // measurements of the embedder's runtimes
	"bench/kuextract": {"extract", "extract/offline", "knowledge", "ontology", "nlp"}, // engine output through the policy, no graph
	"extract":         {"ontology"},
	"extract/offline": {"extract", "ontology", "nlp"},
	"extract/llm":     {"extract", "ontology", "telemetry"},
	"knowledge":       {"ontology", "nlp"},
	"graph":           {"ontology", "nlp", "knowledge", "errs", "telemetry"},
	"retrieval":       {"graph", "ontology", "nlp", "knowledge", "errs"}, // knowledge: the currency rules read at search time
	"memory":          {"ontology", "nlp", "condenser", "extract", "graph", "knowledge", "errs", "jobs", "telemetry"},
	"api":             {"memory", "retrieval", "ontology", "errs", "telemetry"},
	"cmd":             {"*"}, // wires everything
}

// clientOwners names, per third-party client, the packages that may use it
// outside tests. Every other package reaches the dependency through them.
var clientOwners = map[string][]string{
	"github.com/neo4j/":                {"graph"},
	"github.com/sashabaranov/":         {"extract/llm"},
	"github.com/yalue/onnxruntime_go":  {"embed"},
	"github.com/gin-gonic/":            {"api"},
	"github.com/go-playground/":        {"api"},
	"github.com/getkin/kin-openapi":    {"api"},
	"github.com/modelcontextprotocol/": {"api/mcp"},
	"github.com/google/jsonschema-go":  {"api/mcp"},
	// The trace API (go.opentelemetry.io/otel/trace) is for every traced
	// package; the SDK and the exporter only for the one that sets them up.
	"go.opentelemetry.io/otel/sdk":       {"telemetry"},
	"go.opentelemetry.io/otel/exporters": {"telemetry"},
}

// ruleFor returns the key of the rule a package follows: its own, or its
// closest listed parent's (the root's rule is the root's alone).
func ruleFor(pkg string) (key string, ok bool) {
	for p := pkg; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if _, ok := importRule[p]; ok {
			return p, true
		}
	}
	if pkg == "." {
		return ".", true
	}
	return "", false
}

// importProblems lists what is wrong with package pkg (a path relative to
// the module, "." for the root) importing imp. A package may import the
// packages that follow its own rule ("api" its "api/apitest") and the ones
// its rule lists; test says whether the importing file is a test, which
// may also use the graph test helper and any third-party package.
func importProblems(pkg, imp string, test bool) []string {
	var problems []string
	if strings.HasPrefix(imp, module+"cmd") {
		problems = append(problems, "nothing imports cmd")
	}
	key, ruled := ruleFor(pkg)
	if !ruled {
		return append(problems, fmt.Sprintf("package %s is not in the import rule: add it to importRule with what it may import", pkg))
	}
	allowed := importRule[key]
	if rest, ok := strings.CutPrefix(imp+"/", module); ok || imp == strings.TrimSuffix(module, "/") {
		rest = strings.TrimSuffix(rest, "/")
		if rest == "" {
			rest = "."
		}
		own, _ := ruleFor(rest)
		switch {
		case own == key || slices.Contains(allowed, "*") || slices.Contains(allowed, rest): // its own rule's packages, or a listed one
		case test && (rest == "graph/graphtest" || rest == "api/apitest" || rest == "bench/dataset"): // test helpers and the shared evaluation data
		default:
			problems = append(problems, fmt.Sprintf("%s may import only %v", key, allowed))
		}
		return problems
	}
	for prefix, owners := range clientOwners {
		if strings.HasPrefix(imp, prefix) && !test && !slices.Contains(owners, key) && key != "cmd" {
			problems = append(problems, fmt.Sprintf("only %v may use %s", owners, prefix))
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
// directory apart (the engines under extract may not reach each other, and
// only the LLM engine may use the OpenAI client), and that a package the
// table does not list fails it.
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
		// A package nobody listed fails whatever it imports, so a new
		// package cannot slip past the rule.
		{"newpkg", module + "ontology", false, false},
		{"newpkg", "strings", false, false},
		{"newpkg/sub", module + "errs", true, false},
		// The root, bench and cmd are ruled too.
		{".", module + "graph", false, false},
		{"bench", module + "memory", false, false},
		{"bench", module + "api", true, false},
		{"cmd/graphmem", module + "memory", false, true},
		{"cmd/graphmem", module, false, true},
		{"retrieval", "github.com/neo4j/neo4j-go-driver/v5/neo4j", false, false},
		{"api", "github.com/gin-gonic/gin", false, true},
		{"memory", "github.com/gin-gonic/gin", false, false},
		// The MCP tools reach the service only through the client.
		{"api/mcp", module + "client", false, true},
		{"api/mcp", module + "memory", false, false},
		{"api/mcp", "github.com/modelcontextprotocol/go-sdk/mcp", false, true},
		{"api", "github.com/modelcontextprotocol/go-sdk/mcp", false, false},
		{"client", module + "api", false, false},
	}
	for _, c := range cases {
		got := importProblems(c.pkg, c.imp, c.test)
		if (len(got) == 0) != c.ok {
			t.Errorf("%s importing %s: problems %v, want ok=%v", c.pkg, c.imp, got, c.ok)
		}
	}
}
