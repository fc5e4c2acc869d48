package api

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/api/apitest"
)

// TestDocsPageRendersEveryOperation opens /docs in headless Chromium with
// no network but this server's, lets Swagger UI fetch and render
// /openapi.yaml, and checks the rendered DOM lists every operation of the
// spec (Swagger UI gives each one an element id ending in its
// operationId) and the problem catalogue the problems' type URIs point at;
// a screenshot of the page is left for a person to look at.
//
// make test sets GRAPHMEM_TEST_CHROMIUM (scripts/chromium.sh installs
// Debian's Chromium when missing), so there it runs, never skips.
func TestDocsPageRendersEveryOperation(t *testing.T) {
	chromium := os.Getenv("GRAPHMEM_TEST_CHROMIUM")
	if chromium == "" {
		t.Skip("GRAPHMEM_TEST_CHROMIUM is unset: make test sets it to scripts/chromium.sh's browser")
	}
	_, doc, _ := apitest.Spec(t)
	c := newClient(t, fullDeps(t), Options{})
	srv := httptest.NewServer(c.engine)
	defer srv.Close()

	browse := func(extra ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
			"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=20000", "--window-size=1280,2400"}, extra...)
		out, err := exec.CommandContext(ctx, chromium, append(args, srv.URL+"/docs")...).Output()
		if err != nil {
			t.Fatalf("chromium %v: %v", extra, err)
		}
		return string(out)
	}
	dom := browse("--dump-dom")
	if strings.Contains(dom, "Failed to load API definition") || !strings.Contains(dom, "swagger-ui") {
		t.Fatalf("Swagger UI did not render the spec:\n%.2000s", dom)
	}
	missing := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			re := regexp.MustCompile(`id="operations-[^"]*-` + regexp.QuoteMeta(op.OperationID) + `"`)
			if !re.MatchString(dom) {
				t.Errorf("the rendered page lacks %s %s (%s)", method, path, op.OperationID)
				missing++
			}
		}
	}
	if missing == 0 && !strings.Contains(dom, `data-path="/v1/facts/{fact_id}"`) {
		t.Error("the operations carry no paths")
	}
	for _, p := range problemCatalogue {
		if !strings.Contains(dom, `id="problem-`+p.Slug+`"`) {
			t.Errorf("the problem catalogue lacks %s", p.Slug)
		}
	}
	shot := filepath.Join(t.TempDir(), "docs.png")
	browse("--screenshot=" + shot)
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 20_000 {
		t.Fatalf("screenshot %s: %v (%v bytes), want a rendered page", shot, err, fi)
	}
	if dst := os.Getenv("GRAPHMEM_TEST_SCREENSHOTS"); dst != "" {
		raw, _ := os.ReadFile(shot)
		_ = os.WriteFile(filepath.Join(dst, "docs.png"), raw, 0o644)
	}
}
