//go:build integration

package localneo4j

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestSuperviseBringsAKilledServerBack starts a real server, kills its JVM
// with SIGKILL (as the OOM killer would), and checks that Supervise starts
// it again on the same home: a new pid, and Cypher runs on the data the
// first one wrote (the store recovered from the crash).
func TestSuperviseBringsAKilledServerBack(t *testing.T) {
	var mu sync.Mutex
	var log bytes.Buffer
	s, err := New(Options{
		Home: t.TempDir(), LibDir: libDir(t),
		BoltPort: freePort(t), HTTPPort: freePort(t),
		Heap: "384m", PageCache: "64m", Progress: testWriter{t},
		Log: slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Start(t.Context())
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = s.Stop(context.WithoutCancel(t.Context())) })
	if err := runCypher(t.Context(), s.Options().HTTPURL(), "CREATE (:SurvivesCrash {n: 1})"); err != nil {
		t.Fatal(err)
	}
	// Fails (division by zero) unless exactly one node survived: runCypher
	// reports errors, not row counts.
	const exactlyOne = "MATCH (n:SurvivesCrash) WITH count(n) AS c RETURN 1 / CASE WHEN c = 1 THEN 1 ELSE 0 END AS ok"
	if err := runCypher(t.Context(), s.Options().HTTPURL(), exactlyOne); err != nil {
		t.Fatalf("before the crash: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	supervised := make(chan error, 1)
	go func() {
		supervised <- s.Supervise(ctx, Supervision{Poll: 200 * time.Millisecond, Backoff: 200 * time.Millisecond, MaxAttempts: 3})
	}()

	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	deadline := killed.Add(4 * time.Minute) // a JVM start on a loaded 2-core machine
	for {
		pid, ok := s.Running()
		if ok && pid != st.PID && runCypher(t.Context(), s.Options().HTTPURL(), exactlyOne) == nil {
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("not back %s after the kill (pid %d running %v)\n%s", time.Since(killed), pid, ok, log.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("back %s after SIGKILL", time.Since(killed).Round(time.Millisecond))
	// Start returns a moment after the server answers; let it log that.
	for logged := false; !logged && time.Now().Before(deadline.Add(time.Minute)); time.Sleep(100 * time.Millisecond) {
		mu.Lock()
		logged = strings.Contains(log.String(), "is back")
		mu.Unlock()
	}
	cancel()
	if err := <-supervised; err != nil {
		t.Fatalf("supervise: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"exited while graphmem was running", "restarting the local Neo4j", "is back"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}
