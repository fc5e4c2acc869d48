package localneo4j

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeServer is a process that dies when told and whose starts fail a
// scripted number of times.
type fakeServer struct {
	mu         sync.Mutex
	up         bool
	failStarts int // starts that fail before one succeeds
	dieAfter   int // starts after which the server dies again at once (crash loop); 0: never
	starts     atomic.Int32
}

func (f *fakeServer) running() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.up
}

func (f *fakeServer) kill() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.up = false
}

func (f *fakeServer) start(context.Context) error {
	n := f.starts.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failStarts > 0 {
		f.failStarts--
		return ErrStartFailed
	}
	f.up = f.dieAfter == 0 || int(n) > f.dieAfter
	return nil
}

func testOptions(buf *bytes.Buffer) Options {
	var mu sync.Mutex
	return Options{Home: "/tmp/h", Log: slog.New(slog.NewTextHandler(lockedWriter{&mu, buf}, nil))}
}

type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

var fast = Supervision{Poll: 5 * time.Millisecond, MaxAttempts: 3, Backoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond, Stable: time.Hour}

func TestSuperviseRestartsADeadServerAfterFailedStarts(t *testing.T) {
	var log bytes.Buffer
	f := &fakeServer{up: true, failStarts: 2} // two failed starts, then one that works: within MaxAttempts 3
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- supervise(ctx, fast, testOptions(&log), f.running, f.start) }()
	time.Sleep(20 * time.Millisecond)
	if f.starts.Load() != 0 {
		t.Fatalf("a running server was started %d times", f.starts.Load())
	}
	f.kill()
	deadline := time.Now().Add(5 * time.Second)
	for !f.running() {
		if time.Now().After(deadline) {
			t.Fatalf("never restarted; %d starts\n%s", f.starts.Load(), log.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("supervise returned %v after ctx ended", err)
	}
	if got := f.starts.Load(); got != 3 {
		t.Fatalf("starts = %d, want 3 (2 failures, 1 success)", got)
	}
	for _, want := range []string{"exited while graphmem was running", "restarting the local Neo4j failed", "is back"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

func TestSuperviseGivesUpWhenStartsKeepFailing(t *testing.T) {
	var log bytes.Buffer
	f := &fakeServer{up: false, failStarts: 1000}
	err := supervise(t.Context(), fast, testOptions(&log), f.running, f.start)
	if !errors.Is(err, ErrGaveUp) {
		t.Fatalf("err = %v, want ErrGaveUp", err)
	}
	if got := f.starts.Load(); got != int32(fast.MaxAttempts) {
		t.Fatalf("starts = %d, want MaxAttempts %d", got, fast.MaxAttempts)
	}
}

func TestSuperviseEndsACrashLoop(t *testing.T) {
	var log bytes.Buffer
	f := &fakeServer{up: false, dieAfter: 1000} // every start "works" and the server dies at once
	err := supervise(t.Context(), fast, testOptions(&log), f.running, f.start)
	if !errors.Is(err, ErrGaveUp) {
		t.Fatalf("err = %v, want ErrGaveUp", err)
	}
	if got := f.starts.Load(); got != int32(fast.MaxAttempts) {
		t.Fatalf("starts = %d, want %d before giving up on the crash loop", got, fast.MaxAttempts)
	}
}

func TestSuperviseBackoffDoublesUpToTheCap(t *testing.T) {
	var log bytes.Buffer
	v := fast
	v.MaxAttempts, v.Backoff, v.MaxBackoff = 5, 10*time.Millisecond, 40*time.Millisecond
	f := &fakeServer{up: false, failStarts: 1000}
	start := time.Now()
	if err := supervise(t.Context(), v, testOptions(&log), f.running, f.start); !errors.Is(err, ErrGaveUp) {
		t.Fatalf("err = %v", err)
	}
	// Waits 10, 20, 40, 40, 40 ms: at least 150ms in all.
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Fatalf("gave up after %s; the backoff did not grow", took)
	}
	for _, want := range []string{"after=10ms", "after=20ms", "after=40ms"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if strings.Contains(log.String(), "after=80ms") {
		t.Errorf("the backoff passed its cap:\n%s", log.String())
	}
}
