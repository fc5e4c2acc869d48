package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphmem/graphmem/api/apitest"
)

// toolRoutes names the REST operation each tool calls; its arguments are
// that operation's path parameters, query parameters or body fields.
var toolRoutes = map[string]struct{ method, path string }{
	"remember":             {"POST", "/v1/sessions/{session_id}/events"},
	"recall":               {"POST", "/v1/search"},
	"get_context":          {"POST", "/v1/context"},
	"get_session_view":     {"POST", "/v1/sessions/{session_id}/context"},
	"list_preferences":     {"GET", "/v1/users/{user_id}/preferences"},
	"list_facts":           {"GET", "/v1/users/{user_id}/facts"},
	"list_conflicts":       {"GET", "/v1/users/{user_id}/conflicts"},
	"resolve_conflict":     {"POST", "/v1/conflicts/{conflict_id}/resolve"},
	"add_fact":             {"POST", "/v1/users/{user_id}/facts"},
	"correct_fact":         {"PATCH", "/v1/facts/{fact_id}"},
	"retract_fact":         {"DELETE", "/v1/facts/{fact_id}"},
	"request_condensation": {"POST", "/v1/sessions/{session_id}/condensation-requests"},
	// mark_memory calls PATCH /v1/facts, /v1/insights or /v1/summaries by
	// its kind; their marks are the same MarkRequest fields.
	"mark_memory": {"PATCH", "/v1/insights/{insight_id}"},
}

// toolOnly are the arguments a tool adds to its route's: a note is turned
// into an event, extract_now into a close.
var toolOnly = map[string]bool{"remember.note": true, "remember.role": true, "remember.extract_now": true,
	"mark_memory.kind": true, "mark_memory.id": true}

// TestToolSchemasMatchTheAPI: every tool argument is a field of the route
// the tool calls, with the same type, lengths, range, enum and pattern as
// openapi.yaml gives it (nested: the events of remember), so a model
// reads the REST rules in the tool's schema.
func TestToolSchemasMatchTheAPI(t *testing.T) {
	_, doc, _ := apitest.Spec(t)
	cs := connect(t, &fakeMemory{})
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		route, ok := toolRoutes[tool.Name]
		if !ok {
			t.Errorf("tool %s names no route", tool.Name)
			continue
		}
		op := doc.Paths.Find(route.path).GetOperation(route.method)
		if op == nil {
			t.Fatalf("%s: no %s %s in openapi.yaml", tool.Name, route.method, route.path)
		}
		fields := restFields(doc.Paths.Find(route.path).Parameters, op)
		schema := toolSchema(t, tool)
		for name, p := range schema.Properties {
			if toolOnly[tool.Name+"."+name] {
				continue
			}
			rest, ok := fields[name]
			if !ok {
				t.Errorf("%s.%s is no field of %s %s", tool.Name, name, route.method, route.path)
				continue
			}
			compare(t, tool.Name+"."+name, p, rest)
		}
		// What the route requires, the tool requires (path parameters
		// and required body fields), except what the tool fills itself.
		for _, req := range requiredFields(doc.Paths.Find(route.path).Parameters, op) {
			if req == "events" || tool.Name == "remember" && req == "session_id" || tool.Name == "mark_memory" && req == "insight_id" {
				continue // remember builds events from a note, and has a default session
			}
			if !slices.Contains(schema.Required, req) {
				t.Errorf("%s: %s is required by the route but not by the tool", tool.Name, req)
			}
		}
	}
}

func toolSchema(t *testing.T, tool *mcp.Tool) *jsonschema.Schema {
	raw, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func restFields(pathParams openapi3.Parameters, op *openapi3.Operation) map[string]*openapi3.Schema {
	out := map[string]*openapi3.Schema{}
	for _, p := range append(pathParams, op.Parameters...) {
		out[p.Value.Name] = p.Value.Schema.Value
	}
	if op.RequestBody != nil {
		body := op.RequestBody.Value.Content.Get("application/json").Schema.Value
		for name, p := range body.Properties {
			out[name] = p.Value
		}
	}
	return out
}

func requiredFields(pathParams openapi3.Parameters, op *openapi3.Operation) []string {
	var out []string
	for _, p := range append(pathParams, op.Parameters...) {
		if p.Value.Required {
			out = append(out, p.Value.Name)
		}
	}
	if op.RequestBody != nil {
		out = append(out, op.RequestBody.Value.Content.Get("application/json").Schema.Value.Required...)
	}
	return out
}

// compare holds one tool argument to its REST field.
func compare(t *testing.T, where string, tool *jsonschema.Schema, rest *openapi3.Schema) {
	t.Helper()
	if rest.Type != nil && !rest.Type.Is(tool.Type) {
		t.Errorf("%s: type %s, REST %v", where, tool.Type, rest.Type)
	}
	if got, want := intPtr(tool.MaxLength), uintPtr(rest.MaxLength); got != want {
		t.Errorf("%s: maxLength %s, REST %s", where, got, want)
	}
	if got, want := intPtr(tool.MinLength), fmt.Sprint(rest.MinLength); got != want && !(got == "-" && want == "0") {
		t.Errorf("%s: minLength %s, REST %s", where, got, want)
	}
	if got, want := floatPtr(tool.Minimum), floatPtr(rest.Min); got != want {
		t.Errorf("%s: minimum %s, REST %s", where, got, want)
	}
	if got, want := floatPtr(tool.Maximum), floatPtr(rest.Max); got != want {
		t.Errorf("%s: maximum %s, REST %s", where, got, want)
	}
	if got, want := fmt.Sprint(tool.Enum), fmt.Sprint(rest.Enum); got != want {
		t.Errorf("%s: enum %s, REST %s", where, got, want)
	}
	if tool.Pattern != rest.Pattern {
		t.Errorf("%s: pattern %q, REST %q", where, tool.Pattern, rest.Pattern)
	}
	if tool.Items != nil && rest.Items != nil {
		if got, want := intPtr(tool.MaxItems), uintPtr(rest.MaxItems); got != want {
			t.Errorf("%s: maxItems %s, REST %s", where, got, want)
		}
		if len(tool.Items.Properties) == 0 {
			compare(t, where+"[]", tool.Items, rest.Items.Value)
		}
		for name, p := range tool.Items.Properties {
			rp, ok := rest.Items.Value.Properties[name]
			if !ok {
				t.Errorf("%s[].%s is no field of the REST items", where, name)
				continue
			}
			compare(t, where+"[]."+name, p, rp.Value)
		}
	}
}

func intPtr(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func uintPtr(p *uint64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func floatPtr(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}
