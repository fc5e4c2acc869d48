package api

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/graphmem/graphmem/api/apitest"
)

// TestSpecLinksReachRealOperations checks every OpenAPI link a response
// declares: its operation exists, each parameter it fills is a parameter
// of that operation, a $request.path expression names a path parameter of
// the linking operation, and a $response.body pointer walks through
// properties the response schema declares. A stateful tester following a
// broken link would silently stop exploring; this fails instead.
func TestSpecLinksReachRealOperations(t *testing.T) {
	_, doc, _ := apitest.Spec(t)
	ops := map[string]*openapi3.Operation{}
	opParams := map[string]openapi3.Parameters{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			ops[op.OperationID] = op
			opParams[op.OperationID] = append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...)
		}
	}
	hasParam := func(params openapi3.Parameters, in, name string) bool {
		for _, p := range params {
			if p.Value != nil && p.Value.In == in && p.Value.Name == name {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	checked := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for code, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for name, link := range resp.Value.Links {
					where := fmt.Sprintf("%s %s %s link %s", method, path, code, name)
					if link.Value == nil {
						t.Errorf("%s: unresolved", where)
						continue
					}
					seen[link.Value.OperationID] = true
					target, ok := ops[link.Value.OperationID]
					if !ok {
						t.Errorf("%s: no operation %q", where, link.Value.OperationID)
						continue
					}
					if len(link.Value.Parameters) == 0 {
						t.Errorf("%s: fills no parameter of %s", where, target.OperationID)
					}
					for param, expr := range link.Value.Parameters {
						if !hasParam(opParams[target.OperationID], "path", param) && !hasParam(opParams[target.OperationID], "query", param) {
							t.Errorf("%s: %s has no parameter %q", where, target.OperationID, param)
						}
						s, _ := expr.(string)
						switch {
						case strings.HasPrefix(s, "$request.path."):
							if p := strings.TrimPrefix(s, "$request.path."); !hasParam(opParams[op.OperationID], "path", p) {
								t.Errorf("%s: %s has no path parameter %q", where, op.OperationID, p)
							}
						case strings.HasPrefix(s, "$response.body#/"):
							if err := walkPointer(resp.Value, strings.TrimPrefix(s, "$response.body#/")); err != nil {
								t.Errorf("%s: %s: %v", where, s, err)
							}
						default:
							t.Errorf("%s: parameter %q has an expression this test does not know: %v", where, param, expr)
						}
						checked++
					}
				}
			}
		}
	}
	// The links the contract promises (issue 14): close → jobs, conflicts →
	// resolve, facts → entity.
	for _, want := range []string{"listJobs", "getJob", "resolveConflict", "getEntity"} {
		if !seen[want] {
			t.Errorf("no response links to %s", want)
		}
	}
	if checked == 0 {
		t.Fatal("openapi.yaml declares no links")
	}
}

// walkPointer follows a JSON pointer (without its leading "/") through the
// response's JSON schema: object properties by name, array items by index.
func walkPointer(resp *openapi3.Response, pointer string) error {
	mt := resp.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return fmt.Errorf("the response has no JSON schema")
	}
	s := mt.Schema.Value
	for _, tok := range strings.Split(pointer, "/") {
		if _, err := strconv.Atoi(tok); err == nil {
			if s.Items == nil || s.Items.Value == nil {
				return fmt.Errorf("%q indexes a schema that is not an array", tok)
			}
			s = s.Items.Value
			continue
		}
		p, ok := s.Properties[tok]
		if !ok || p.Value == nil {
			return fmt.Errorf("no property %q", tok)
		}
		s = p.Value
	}
	if !s.Type.Is("string") {
		return fmt.Errorf("points at a %v, not a string id", s.Type)
	}
	return nil
}
