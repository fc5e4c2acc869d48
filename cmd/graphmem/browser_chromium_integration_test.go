//go:build integration

package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeo4jBrowserShowsTheDemo opens the Neo4j Browser the test Neo4j
// serves in headless Chromium and uses it as the README tells a person to:
// `:play` graphmem's guide (fetched cross-origin from graphmem, which the
// local Neo4j allows), the guide's :param lines, `:style` with graphmem's
// style, then the guide's neighbourhood query. It checks the guide's
// slides rendered, the graph drew the demo user with the style's colour
// and caption, and superseded facts carry their status in the caption,
// and leaves a screenshot (docs/browser-demo.png is one).
//
// make test sets GRAPHMEM_TEST_CHROMIUM and GRAPHMEM_TEST_NEO4J_BROWSER
// (the local Neo4j's Browser), so there it runs, never skips.
func TestNeo4jBrowserShowsTheDemo(t *testing.T) {
	chromium, browserURL := os.Getenv("GRAPHMEM_TEST_CHROMIUM"), os.Getenv("GRAPHMEM_TEST_NEO4J_BROWSER")
	if chromium == "" || browserURL == "" {
		t.Skip("GRAPHMEM_TEST_CHROMIUM or GRAPHMEM_TEST_NEO4J_BROWSER is unset: make test sets both")
	}
	t.Parallel()
	d := loadDemoGraph(t)
	c := startChromium(t, chromium)
	c.call("Page.enable", nil)

	// Connect as the guide says: the local server needs no authentication.
	c.call("Page.navigate", map[string]any{"url": browserURL})
	c.waitFor("Browser's connect form", `[...document.querySelectorAll("option")].some(o => o.text === "No authentication")`, 90*time.Second)
	c.eval(`(() => {
	  const sel = [...document.querySelectorAll("select")].find(s => [...s.options].some(o => o.text === "No authentication"));
	  const opt = [...sel.options].find(o => o.text === "No authentication");
	  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(sel, opt.value);
	  sel.dispatchEvent(new Event("change", {bubbles: true}));
	  return true })()`)
	time.Sleep(300 * time.Millisecond)
	c.eval(`[...document.querySelectorAll("button")].find(b => b.textContent.trim() === "Connect").click()`)
	c.waitFor("a connection to Neo4j", `/You are connected|Connected to Neo4j|working connection/.test(document.body.innerText)`, 60*time.Second)

	run := func(cmd string) {
		t.Helper()
		c.eval(`(() => { const ta = document.querySelector('#monaco-main-editor textarea, .monaco-editor textarea'); ta.focus(); return !!ta })()`)
		c.call("Input.insertText", map[string]any{"text": cmd})
		c.press("Enter", 13)
		time.Sleep(700 * time.Millisecond)
	}
	// :play fetches the guide cross-origin from graphmem; Browser allows it
	// because the local Neo4j lists 127.0.0.1 (it reads that list once
	// connected).
	time.Sleep(2 * time.Second) // Browser reads the server's settings (the allowlist) after connecting
	run(":play " + d.url + "/browser/guide.html?tenant=" + url.QueryEscape(d.e.Tenant))
	slides := strings.Count(readGuide(t), "\n## ") + 1
	c.waitFor("the guide's slides", fmt.Sprintf(`document.body.innerText.includes("Exploring graphmem") && document.body.innerText.includes("1 / %d")`, slides), 60*time.Second)
	run(":param tenant => '" + d.e.Tenant + "'")
	run(":param user => 'maya'")
	run(":style " + d.url + "/browser/graphmem.grass")
	c.waitFor("the style to load", `document.body.innerText.includes("superseded") || document.querySelectorAll('[data-testid="frame"]').length >= 3`, 30*time.Second)
	run("MATCH (u:User {tenant: $tenant, user_id: $user})-[f]-(o:Entity) RETURN u, f, o")
	c.waitFor("the graph", `document.querySelectorAll("svg g.node").length >= 10`, 60*time.Second)
	// For the picture: no usage banner, the graph frame full screen, the
	// overview folded.
	c.eval(`(() => {
	  const click = el => el && el.click();
	  click([...document.querySelectorAll("button")].find(b => b.closest("[class]") && b.parentElement.textContent.includes("product usage")));
	  click(document.querySelector('[title="Fullscreen"], [aria-label="Fullscreen"]'));
	  return true })()`)
	time.Sleep(4 * time.Second) // let the force layout settle
	c.eval(`(() => {
	  const zoom = [...document.querySelectorAll("button")].filter(b => /zoom.?in/i.test((b.title||"") + (b.getAttribute("aria-label")||"") + (b.dataset.testid||"") + b.className));
	  zoom.slice(0, 1).forEach(b => { b.click(); b.click(); });
	  return zoom.length })()`)
	time.Sleep(2 * time.Second)

	var drawn struct {
		Nodes     int      `json:"nodes"`
		Texts     []string `json:"texts"`
		UserFills []string `json:"userFills"`
	}
	raw := c.eval(`(() => {
	  const svg = [...document.querySelectorAll("svg")].filter(s => s.querySelector("g.node")).pop();
	  const texts = [...svg.querySelectorAll("text")].map(t => t.textContent);
	  const fills = [...svg.querySelectorAll("g.node")].filter(g => g.textContent.includes("Maya")).map(g => (g.querySelector("circle.b-outline")||g.querySelector("circle")).getAttribute("fill"));
	  return {nodes: svg.querySelectorAll("g.node").length, texts, userFills: fills};
	})()`)
	if err := json.Unmarshal(raw, &drawn); err != nil {
		t.Fatalf("read the drawn graph: %v (%s)", err, raw)
	}
	all := strings.Join(drawn.Texts, "|")
	for _, want := range []string{"Maya", "Berlin", "Lisbon", "Emma", "superseded", "current"} {
		if !strings.Contains(all, want) {
			t.Errorf("the drawn graph lacks %q: %v", want, drawn.Texts)
		}
	}
	if len(drawn.UserFills) == 0 || !strings.EqualFold(drawn.UserFills[0], "#F16667") {
		t.Errorf("the user node is filled %v, want graphmem.grass's #F16667", drawn.UserFills)
	}
	shot := filepath.Join(t.TempDir(), "browser-demo.png")
	if n := c.screenshot(shot); n < 50_000 {
		t.Errorf("screenshot of %d bytes: nothing rendered?", n)
	}
	if dst := os.Getenv("GRAPHMEM_TEST_SCREENSHOTS"); dst != "" {
		raw, _ := os.ReadFile(shot)
		_ = os.WriteFile(filepath.Join(dst, "browser-demo.png"), raw, 0o644)
	}
	t.Logf("Browser drew %d nodes; screenshot %s", drawn.Nodes, shot)
}
