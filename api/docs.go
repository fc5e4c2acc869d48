package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// docsPage renders openapi.yaml as one self-contained HTML page (no CDN, no
// JavaScript), so the API reference works on air-gapped hosts too.
var docsPage = template.Must(template.New("docs").Funcs(template.FuncMap{
	"lower": strings.ToLower,
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#1d2330}
h1{margin-bottom:0}code,pre{font:13px ui-monospace,monospace;background:#f3f4f7;border-radius:4px}
pre{padding:.7em;overflow:auto}code{padding:1px 4px}
.op{border:1px solid #dde;border-radius:6px;margin:1em 0;padding:.2em 1em}
.m{display:inline-block;min-width:4.5em;font-weight:700;text-transform:uppercase}
.get{color:#0a7}.post{color:#06c}.delete{color:#c33}.put,.patch{color:#a60}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:.25em .5em;text-align:left;vertical-align:top}
nav a{margin-right:1em}
</style></head><body>
<h1>{{.Title}}</h1><p>Version {{.Version}} · <a href="/openapi.yaml">openapi.yaml</a> (OpenAPI {{.OpenAPI}})</p>
<div>{{.Description}}</div>
<nav>{{range .Tags}}<a href="#tag-{{lower .}}">{{.}}</a>{{end}}<a href="#problems">Errors</a></nav>
{{range .Groups}}<h2 id="tag-{{lower .Tag}}">{{.Tag}}</h2>
{{range .Ops}}<div class="op" id="{{.ID}}"><h3><span class="m {{lower .Method}}">{{.Method}}</span> <code>{{.Path}}</code></h3>
<p><b>{{.Summary}}</b></p><div>{{.Description}}</div>
{{if .Params}}<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Description</th></tr>
{{range .Params}}<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{if .Required}}yes{{end}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
{{if .Body}}<p>Request body (<code>application/json</code>):</p><pre>{{.Body}}</pre>{{end}}
<table><tr><th>Status</th><th>Description</th></tr>{{range .Responses}}<tr><td>{{.Code}}</td><td>{{.Description}}</td></tr>{{end}}</table>
</div>{{end}}{{end}}
<h2 id="problems">Errors</h2>
<p>Every error is an RFC 9457 <code>application/problem+json</code> body with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, <code>instance</code>, <code>request_id</code> and, for invalid input, an
<code>errors</code> list naming each field and the rule it broke. Problem types:</p>
<table>{{range .Problems}}<tr id="problem-{{.Slug}}"><td><code>{{.Slug}}</code></td><td>{{.Status}}</td><td>{{.Meaning}}</td></tr>{{end}}</table>
</body></html>`))

type docsOp struct {
	ID, Method, Path, Summary string
	Description               template.HTML
	Params                    []*openapi3.Parameter
	Body                      string
	Responses                 []struct{ Code, Description string }
}

// problemCatalogue documents every problem type the mapper can emit.
var problemCatalogue = []struct {
	Slug    string
	Status  int
	Meaning string
}{
	{"validation", 422, "A field is missing or breaks a rule; errors[] lists each one."},
	{"malformed-body", 400, "The body is not valid JSON."},
	{"starting", 503, "The service is still starting (Neo4j, schema, query plans); retry after Retry-After seconds."},
	{"malformed-query", 400, "The query string cannot be parsed (for example a raw ';')."},
	{"unsupported-media-type", 415, "The body is not application/json."},
	{"body-too-large", 413, "The body exceeds GRAPHMEM_MAX_BODY_BYTES; send smaller batches."},
	{"unauthorized", 401, "No API key, or an unknown one."},
	{"not-found", 404, "The route, or the thing it names, does not exist for your tenant."},
	{"method-not-allowed", 405, "The route exists but not with this method; see the Allow header."},
	{"conflict", 409, "The request clashes with stored state (e.g. a session owned by another user)."},
	{"timeout", 504, "The request did not finish within the deadline."},
	{"unavailable", 503, "Neo4j or the LLM is unavailable; retry after the Retry-After delay."},
	{"not-ready", 503, "The service is starting or cannot reach Neo4j."},
	{"client-closed-request", 499, "The client disconnected before the answer was ready (logged, never seen by that client)."},
	{"internal", 500, "An unexpected error; the detail is in the server log under the request_id."},
}

func renderDocs(spec []byte) ([]byte, error) {
	if len(spec) == 0 {
		return []byte("<!doctype html><title>graphmem</title><p>No API description was built into this binary.</p>"), nil
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("parse openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi.yaml is invalid: %w", err)
	}
	groups := map[string][]docsOp{}
	var tags []string
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		item := doc.Paths.Value(p)
		for method, op := range item.Operations() {
			tag := "Other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			if _, seen := groups[tag]; !seen {
				tags = append(tags, tag)
			}
			d := docsOp{ID: op.OperationID, Method: method, Path: p, Summary: op.Summary,
				Description: template.HTML(template.HTMLEscapeString(op.Description))}
			for _, pr := range append(item.Parameters, op.Parameters...) {
				if pr.Value != nil {
					d.Params = append(d.Params, pr.Value)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				if mt := op.RequestBody.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
					d.Body = schemaSketch(mt.Schema.Value, 0)
				}
			}
			codes := op.Responses.Map()
			keys := make([]string, 0, len(codes))
			for k := range codes {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				desc := ""
				if r := codes[k]; r != nil && r.Value != nil && r.Value.Description != nil {
					desc = *r.Value.Description
				}
				d.Responses = append(d.Responses, struct{ Code, Description string }{k, desc})
			}
			groups[tag] = append(groups[tag], d)
		}
	}
	type group struct {
		Tag string
		Ops []docsOp
	}
	var out []group
	for _, t := range tags {
		ops := groups[t]
		sort.SliceStable(ops, func(i, j int) bool {
			if ops[i].Path != ops[j].Path {
				return ops[i].Path < ops[j].Path
			}
			return ops[i].Method < ops[j].Method
		})
		out = append(out, group{t, ops})
	}
	var buf bytes.Buffer
	err = docsPage.Execute(&buf, map[string]any{
		"Title": doc.Info.Title, "Version": doc.Info.Version, "OpenAPI": doc.OpenAPI,
		"Description": template.HTML(template.HTMLEscapeString(doc.Info.Description)),
		"Tags":        tags, "Groups": out, "Problems": problemCatalogue,
	})
	return buf.Bytes(), err
}

// schemaSketch renders a schema as an indented JSON-like outline, enough
// for a reader to write a request without reading YAML.
func schemaSketch(s *openapi3.Schema, depth int) string {
	if s == nil || depth > 4 {
		return "…"
	}
	pad := strings.Repeat("  ", depth)
	switch {
	case s.Type.Is("object") || len(s.Properties) > 0:
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		var b strings.Builder
		b.WriteString("{\n")
		for _, n := range names {
			mark := ""
			if required[n] {
				mark = " (required)"
			}
			fmt.Fprintf(&b, "%s  %q: %s%s\n", pad, n, schemaSketch(s.Properties[n].Value, depth+1), mark)
		}
		b.WriteString(pad + "}")
		return b.String()
	case s.Type.Is("array"):
		if s.Items != nil {
			return "[" + schemaSketch(s.Items.Value, depth) + ", …]"
		}
		return "[…]"
	default:
		t := strings.Join(s.Type.Slice(), "|")
		if len(s.Enum) > 0 {
			enum, _ := json.Marshal(s.Enum)
			t += " " + string(enum)
		}
		return "<" + t + ">"
	}
}
