package api

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"
)

// The /docs page is Swagger UI (the swagger-ui-dist package, committed
// under docs/swagger-ui with its licence and embedded in the binary, so the
// reference works on air-gapped hosts: no CDN) rendering /openapi.yaml,
// followed by the catalogue of problem types, whose anchors the problems'
// type URIs point at (/docs#problem-validation).
//
//go:embed docs/init.js docs/swagger-ui/swagger-ui-bundle.js docs/swagger-ui/swagger-ui.css docs/swagger-ui/LICENSE docs/swagger-ui/NOTICE docs/swagger-ui/VERSION
var docsAssets embed.FS

// docsFiles are the assets /docs/assets/{file} serves, by file name.
var docsFiles = map[string]struct{ path, contentType string }{
	"init.js":              {"docs/init.js", "text/javascript; charset=utf-8"},
	"swagger-ui-bundle.js": {"docs/swagger-ui/swagger-ui-bundle.js", "text/javascript; charset=utf-8"},
	"swagger-ui.css":       {"docs/swagger-ui/swagger-ui.css", "text/css; charset=utf-8"},
	"LICENSE":              {"docs/swagger-ui/LICENSE", "text/plain; charset=utf-8"},
	"NOTICE":               {"docs/swagger-ui/NOTICE", "text/plain; charset=utf-8"},
	"VERSION":              {"docs/swagger-ui/VERSION", "text/plain; charset=utf-8"},
}

var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>
body{margin:0}#problems{font:14px/1.5 sans-serif;max-width:1460px;margin:0 auto 3em;padding:0 20px;color:#3b4151}
#problems table{border-collapse:collapse;width:100%}#problems td{border-bottom:1px solid #eee;padding:.3em .6em;vertical-align:top}
#problems code{font:13px monospace;background:#f3f4f7;border-radius:4px;padding:1px 4px}
</style></head><body>
<noscript><p style="font:15px sans-serif;margin:2em">This reference needs JavaScript. The contract itself is
<a href="/openapi.yaml">/openapi.yaml</a> (OpenAPI {{.OpenAPI}}).</p></noscript>
<div id="swagger-ui"></div>
<section id="problems"><h2>Errors</h2>
<p>Every error is an RFC 9457 <code>application/problem+json</code> body with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, <code>instance</code>, <code>request_id</code> and, for invalid input, an
<code>errors</code> list naming each field and the rule it broke. Problem types:</p>
<table>{{range .Problems}}<tr id="problem-{{.Slug}}"><td><code>{{.Slug}}</code></td><td>{{.Status}}</td><td>{{.Meaning}}</td></tr>{{end}}</table>
<p>Swagger UI {{.UIVersion}}: <a href="/docs/assets/LICENSE">licence</a>, <a href="/docs/assets/NOTICE">notice</a>.</p>
</section>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`))

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
	{"body-timeout", 408, "The body did not arrive within the server's read timeout (a client too slow, or holding the connection open)."},
	{"body-too-large", 413, "The body exceeds GRAPHMEM_MAX_BODY_BYTES; send smaller batches."},
	{"unauthorized", 401, "No API key, or an unknown one."},
	{"forbidden", 403, "The API key is read-only (\":ro\" in the keys file) and the route writes."},
	{"rate-limited", 429, "The API key is over GRAPHMEM_RATE_LIMIT; retry after the Retry-After delay."},
	{"not-found", 404, "The route, or the thing it names, does not exist for your tenant."},
	{"method-not-allowed", 405, "The route exists but not with this method; see the Allow header."},
	{"conflict", 409, "The request clashes with stored state (e.g. a session owned by another user)."},
	{"timeout", 504, "The request did not finish within the deadline."},
	{"unavailable", 503, "Neo4j or the LLM is unavailable; retry after the Retry-After delay."},
	{"not-ready", 503, "The service is starting or cannot reach Neo4j."},
	{"client-closed-request", 499, "The client disconnected before the answer was ready (logged, never seen by that client)."},
	{"internal", 500, "An unexpected error; the detail is in the server log under the request_id."},
}

// renderDocs renders the /docs page once, at start; the spec must be valid
// (a broken one fails the start, not a reader).
func renderDocs(spec []byte) ([]byte, error) {
	if len(spec) == 0 {
		return []byte("<!doctype html><title>graphmem</title><p>No API description was built into this binary.</p>"), nil
	}
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("parse openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi.yaml is invalid: %w", err)
	}
	version, _ := docsAssets.ReadFile(docsFiles["VERSION"].path)
	ui, _, _ := strings.Cut(strings.TrimPrefix(string(version), "swagger-ui-dist "), " ")
	var buf bytes.Buffer
	err = docsPage.Execute(&buf, map[string]any{"Title": doc.Info.Title, "OpenAPI": doc.OpenAPI,
		"Problems": problemCatalogue, "UIVersion": ui})
	return buf.Bytes(), err
}

// docsAsset serves one embedded asset of the /docs page.
func (s *server) docsAsset(c *gin.Context) {
	f, ok := docsFiles[c.Param("file")]
	if !ok {
		s.fail(c, errRouteNotFound)
		return
	}
	body, err := docsAssets.ReadFile(f.path)
	if err != nil {
		s.fail(c, err)
		return
	}
	// The assets change only with the binary.
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, f.contentType, body)
}
