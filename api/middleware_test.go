package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/api/apitest"
	"github.com/graphmem/graphmem/errs"
)

// TestPanicIsAnsweredLoggedAndCounted: a panicking handler yields a 500
// problem, and the access log and the metrics still see the request.
func TestPanicIsAnsweredLoggedAndCounted(t *testing.T) {
	var logs bytes.Buffer
	metrics := NewMetrics()
	e, err := New(fullDeps(t), Options{Log: slog.New(slog.NewJSONHandler(&logs, nil)), Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	e.GET("/boom", func(*gin.Context) { panic("boom") })

	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/boom", nil))
	p := apitest.Decode[apitest.Problem](t, rec)
	if rec.Code != http.StatusInternalServerError || p.Status != 500 || !strings.HasPrefix(rec.Header().Get("Content-Type"), problemContentType) {
		t.Fatalf("panic answered %d %s", rec.Code, rec.Body)
	}

	var logged bool
	for line := range strings.SplitSeq(strings.TrimSpace(logs.String()), "\n") {
		var entry struct {
			Msg    string `json:"msg"`
			Route  string `json:"route"`
			Status int    `json:"status"`
		}
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "request" && entry.Route == "/boom" && entry.Status == 500 {
			logged = true
		}
	}
	if !logged {
		t.Errorf("no access-log line for the panicking request:\n%s", logs.String())
	}

	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counted := false
	for _, f := range families {
		if f.GetName() != "graphmem_http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["route"] == "/boom" && labels["status"] == "500" && m.GetCounter().GetValue() == 1 {
				counted = true
			}
		}
	}
	if !counted {
		t.Error("the panicking request is not counted in graphmem_http_requests_total")
	}
}

// TestClientDisconnectIsNotAServerError: a cancelled request context,
// however the layers below wrapped it, is a 499 logged at Info.
func TestClientDisconnectIsNotAServerError(t *testing.T) {
	var logs bytes.Buffer
	deps := fullDeps(t)
	deps.Sessions.(*fakeMemory).failWith = fmt.Errorf("append events: %w: %w", errs.ErrUnavailable, context.Canceled)
	e, err := New(deps, Options{Log: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v1/sessions/s1/events",
		strings.NewReader(`{"user_id":"u1","events":[{"kind":"message","role":"user","content":"hi"}]}`))
	req.Header.Set("Content-Type", "application/json")
	e.ServeHTTP(rec, req)
	p := apitest.Decode[apitest.Problem](t, rec)
	if rec.Code != 499 || p.Type != "/docs#problem-client-closed-request" {
		t.Fatalf("disconnect answered %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(logs.String(), `"level":"ERROR"`) || !strings.Contains(logs.String(), `"msg":"request failed"`) {
		t.Fatalf("disconnect must be logged once, below error level:\n%s", logs.String())
	}
}

// TestMetricsCanLeaveTheAPIListener: with MetricsElsewhere the API router
// has no /metrics (main serves Metrics.Handler on its own listener).
func TestMetricsCanLeaveTheAPIListener(t *testing.T) {
	metrics := NewMetrics()
	c := newClient(t, fullDeps(t), Options{Metrics: metrics, MetricsElsewhere: true})
	c.do(http.MethodGet, "/healthz", nil)
	if rec := c.do(http.MethodGet, "/metrics", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("/metrics on the API listener: %d, want 404", rec.Code)
	}
	rec := httptest.NewRecorder()
	metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `graphmem_http_requests_total{method="GET",route="/healthz",status="200"} 1`) {
		t.Fatalf("metrics handler: %d\n%s", rec.Code, rec.Body)
	}
}

// TestAccessLogNamesTheClientBehindTrustedProxies: X-Forwarded-For counts
// only when the peer is a trusted proxy.
func TestAccessLogNamesTheClientBehindTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		proxies []string
		want    string
	}{
		{"trusted proxy", []string{"10.0.0.0/8"}, "203.0.113.7"},
		{"untrusted peer", nil, "10.1.2.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			e, err := New(fullDeps(t), Options{Log: slog.New(slog.NewJSONHandler(&logs, nil)), TrustedProxies: tc.proxies})
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
			req.RemoteAddr = "10.1.2.3:40000"
			req.Header.Set("X-Forwarded-For", "203.0.113.7")
			e.ServeHTTP(httptest.NewRecorder(), req)
			var entry struct {
				Msg      string `json:"msg"`
				ClientIP string `json:"client_ip"`
			}
			if err := json.Unmarshal(logs.Bytes(), &entry); err != nil || entry.Msg != "request" || entry.ClientIP != tc.want {
				t.Fatalf("access log %s: want client_ip %s", logs.String(), tc.want)
			}
		})
	}
}
