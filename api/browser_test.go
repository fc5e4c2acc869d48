package api

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/api/apitest"
)

func readDoc(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile("../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

var (
	runnable   = regexp.MustCompile(`(?s)<pre(?: mode="cypher")? class="pre-scrollable code runnable">(.*?)</pre>`)
	slideTag   = regexp.MustCompile(`<slide class="row-fluid">`)
	fenceCount = regexp.MustCompile("(?m)^```(cypher|browser)$")
)

// TestBrowserGuideServesTheDoc renders docs/browser.md as a Browser guide
// and checks its structure: one slide per "##" section plus the title
// slide, every code block runnable, the presets and
// graphmem's own address substituted, CORS for Browser's cross-origin
// fetch and its preflight, and bad presets refused as problems.
func TestBrowserGuideServesTheDoc(t *testing.T) {
	md, grass := readDoc(t, "browser.md"), readDoc(t, "graphmem.grass")
	c := newClient(t, fullDeps(t), Options{BrowserGuide: md, BrowserStyle: grass})

	rec := c.do(http.MethodGet, "http://graphmem.example:9000/browser/guide.html?tenant=acme&user=bob", nil)
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("guide: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Error("the guide lacks Access-Control-Allow-Origin: Browser's cross-origin fetch would be blocked")
	}
	page := rec.Body.String()
	for _, want := range []string{`<article class="guide">`, `<carousel class="deck container-fluid">`,
		"<title>Exploring graphmem&#39;s memory in Neo4j Browser</title>",
		":param tenant =&gt; &#39;acme&#39;", ":param user =&gt; &#39;bob&#39;",
		":style http://graphmem.example:9000/browser/graphmem.grass", "<table"} {
		if !strings.Contains(page, want) {
			t.Errorf("the guide lacks %q", want)
		}
	}
	if strings.Contains(page, "127.0.0.1:8080") {
		t.Error("the guide still points at 127.0.0.1:8080 instead of the address it was fetched from")
	}
	sections := strings.Count(string(md), "\n## ")
	if got := len(slideTag.FindAllString(page, -1)); got != sections+1 {
		t.Errorf("%d slides, want %d (title + one per section)", got, sections+1)
	}
	// Every fenced block becomes a runnable block.
	blocks := runnable.FindAllStringSubmatch(page, -1)
	if want := len(fenceCount.FindAllString(string(md), -1)); len(blocks) != want {
		t.Errorf("%d runnable blocks, want %d", len(blocks), want)
	}
	if !strings.Contains(page, "WITH e, count(r) AS raw_events") || strings.Contains(page, "<script") {
		t.Error("the condensation query is missing or the page carries a script")
	}

	// Defaults: the guide's own presets.
	rec = c.do(http.MethodGet, "/browser/guide.html", nil)
	if !strings.Contains(rec.Body.String(), ":param tenant =&gt; &#39;default&#39;") || !strings.Contains(rec.Body.String(), ":param user =&gt; &#39;maya&#39;") {
		t.Error("without presets the guide does not keep its defaults")
	}

	rec = c.do(http.MethodGet, "/browser/graphmem.grass", nil)
	if rec.Code != http.StatusOK || rec.Body.String() != string(grass) || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("style: %d, %d bytes, CORS %q", rec.Code, rec.Body.Len(), rec.Header().Get("Access-Control-Allow-Origin"))
	}
	rec = c.do(http.MethodOptions, "/browser/guide.html", nil, "Origin", "http://127.0.0.1:7474",
		"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "cache-control,pragma")
	allow := strings.ToLower(rec.Header().Get("Access-Control-Allow-Headers"))
	if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(allow, "pragma") || !strings.Contains(allow, "cache-control") {
		t.Errorf("preflight: %d %v", rec.Code, rec.Header())
	}

	rec = c.do(http.MethodGet, "/browser/guide.html?user=bob'})%20DETACH%20DELETE%20n", nil)
	if p := apitest.Decode[apitest.Problem](t, rec); rec.Code != http.StatusUnprocessableEntity || len(p.Errors) != 1 || p.Errors[0].Field != "user" {
		t.Errorf("a quote in the user preset: %d %+v", rec.Code, p)
	}
	if rec := c.do(http.MethodGet, "/browser/other.html", nil); rec.Code != http.StatusNotFound {
		t.Errorf("unknown file: %d", rec.Code)
	}
	// Without the documents (a binary built without them) the routes 404.
	bare := newClient(t, fullDeps(t), Options{})
	if rec := bare.do(http.MethodGet, "/browser/guide.html", nil); rec.Code != http.StatusNotFound {
		t.Errorf("no guide: %d", rec.Code)
	}
}

// TestGuideInlineMarkdown covers the inline rendering: escaping first,
// code kept verbatim, links to the style served, other relative links
// reduced to their text.
func TestGuideInlineMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a <b> & **bold** `x<y>` text", "a &lt;b&gt; &amp; <strong>bold</strong> <code>x&lt;y&gt;</code> text"},
		{"drag [`graphmem.grass`](graphmem.grass)", `drag <a href="http://h:1/browser/graphmem.grass" target="_blank"><code>graphmem.grass</code></a>`},
		{"see [the README](../README.md)", "see the README"},
		{"open <http://127.0.0.1:7474/browser/>", `open <a href="http://127.0.0.1:7474/browser/" target="_blank">http://127.0.0.1:7474/browser/</a>`},
		{"`**not bold**`", "<code>**not bold**</code>"},
	} {
		if got := inline(tc.in, "http://h:1"); got != tc.want {
			t.Errorf("inline(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
