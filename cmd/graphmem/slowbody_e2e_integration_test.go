//go:build integration

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestSlowClientsAreCutOff runs the real binary and holds requests open
// the slowloris way: headers that never end are cut at the read-header
// timeout, and a body trickled past the request deadline is answered with
// a 4xx problem (or the connection closed), never a 5xx, and nothing of it
// is stored.
func TestSlowClientsAreCutOff(t *testing.T) {
	sc := newScope()
	tenant, key := sc.id("slow"), "slow-"+sc.token+"-0123456789"
	addr := freeLoopbackAddr(t)
	env := serveEnv(map[string]string{
		"GRAPHMEM_NEO4J_URI":          graphtest.URI(t),
		"GRAPHMEM_LISTEN_ADDR":        addr,
		"GRAPHMEM_API_KEYS":           tenant + ":" + key,
		"GRAPHMEM_REQUEST_TIMEOUT":    "3s",
		"GRAPHMEM_WORKERS":            "0",
		"GRAPHMEM_EMBEDDER":           "off",
		"GRAPHMEM_SESSION_IDLE_CLOSE": "0",
		"GRAPHMEM_LOG_FORMAT":         "json",
	})
	p := startServe(t, buildGraphmem(t), env, key)
	session := sc.id("slow", "s")
	body := `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"trickled in"}]}`

	type result struct {
		what    string
		elapsed time.Duration
		status  int
		ctype   string
		err     error
	}
	results := make(chan result, 2)
	// Body: headers at once, then one byte every 500 ms; the read timeout
	// (the 3 s request deadline, but never below the 10 s header timeout)
	// cuts it.
	go func() {
		r := result{what: "slow body"}
		start := time.Now()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			r.err = err
			results <- r
			return
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /v1/sessions/%s/events HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
			session, addr, key, len(body))
		for i := 0; i < len(body)-1; i++ {
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				break // the server hung up on us: fine
			}
			time.Sleep(500 * time.Millisecond)
			if time.Since(start) > 20*time.Second {
				break
			}
		}
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		r.elapsed = time.Since(start)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			r.status, r.ctype = resp.StatusCode, resp.Header.Get("Content-Type")
		}
		r.err = err
		results <- r
	}()
	// Headers: a request line and one header, then nothing.
	go func() {
		r := result{what: "slow headers"}
		start := time.Now()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			r.err = err
			results <- r
			return
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET /v1/jobs HTTP/1.1\r\nHost: %s\r\n", addr)
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, err = io.ReadAll(conn) // returns when the server closes the connection
		r.elapsed, r.err = time.Since(start), err
		results <- r
	}()
	for range 2 {
		r := <-results
		t.Logf("%s: after %s, status %d, error %v", r.what, r.elapsed.Round(10*time.Millisecond), r.status, r.err)
		switch r.what {
		case "slow headers":
			if r.err != nil || r.elapsed > readHeaderTimeout+5*time.Second {
				t.Errorf("slow headers held the connection %s (read-header timeout %s): %v", r.elapsed, readHeaderTimeout, r.err)
			}
		case "slow body":
			if r.elapsed > 15*time.Second {
				t.Errorf("a slow body held its request %s, past the 3 s deadline", r.elapsed)
			}
			if r.status >= 500 || (r.status != 0 && (r.status < 400 || !strings.HasPrefix(r.ctype, "application/problem+json"))) {
				t.Errorf("slow body answered %d %s, want a 4xx problem or a closed connection", r.status, r.ctype)
			}
		}
	}
	if code, out := p.call(t, http.MethodGet, "/v1/sessions/"+session+"/events", nil); code != http.StatusNotFound && strings.Contains(string(out), "trickled in") {
		t.Fatalf("the trickled body was stored: %d %s", code, out)
	}
	if strings.Contains(p.out.String(), `"level":"ERROR"`) {
		t.Errorf("a slow client was logged as a server error:\n%s", p.out.String())
	}
}
