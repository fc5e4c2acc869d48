package localneo4j

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Supervision bounds how a dead server is brought back. The zero value
// of a field means its default.
type Supervision struct {
	// Poll is how often the process table is checked (default 2s).
	Poll time.Duration
	// MaxAttempts is how many starts in a row may fail before Supervise
	// gives up (default 5).
	MaxAttempts int
	// Backoff is the wait before the first start after a death; it doubles
	// after each failed start, up to MaxBackoff (defaults 1s and 30s).
	Backoff, MaxBackoff time.Duration
	// Stable is how long a restarted server must stay up before its
	// failures count from zero again (default 2m): a server that dies right
	// after each start is a crash loop, which must end, not spin forever.
	Stable time.Duration
}

func (v Supervision) withDefaults() Supervision {
	if v.Poll <= 0 {
		v.Poll = 2 * time.Second
	}
	if v.MaxAttempts <= 0 {
		v.MaxAttempts = 5
	}
	if v.Backoff <= 0 {
		v.Backoff = time.Second
	}
	if v.MaxBackoff <= 0 {
		v.MaxBackoff = 30 * time.Second
	}
	if v.Stable <= 0 {
		v.Stable = 2 * time.Minute
	}
	return v
}

// ErrGaveUp means Supervise could not bring the server back within its
// bounds; the caller should stop rather than serve without a database.
var ErrGaveUp = errors.New("local neo4j could not be restarted")

// Supervise watches the server until ctx ends and starts it again each
// time it dies (killed, out of memory), waiting Backoff, then twice that,
// and so on between failed starts. Every death and every attempt is
// logged. It returns nil when ctx ends, and an error matching ErrGaveUp
// when MaxAttempts starts in a row failed, or the server died again within
// Stable of each of MaxAttempts restarts.
//
// Why here and not in a service manager: in embedded mode graphmem is the
// only thing that knows its Neo4j exists; a dead database behind a live API
// would answer 503 forever.
func (s *Server) Supervise(ctx context.Context, v Supervision) error {
	return supervise(ctx, v.withDefaults(), s.o, func() bool { _, ok := s.Running(); return ok },
		func(ctx context.Context) error { _, err := s.Start(ctx); return err })
}

// supervise is Supervise over a running check and a start function, so the
// policy is tested without a JVM.
func supervise(ctx context.Context, v Supervision, o Options, running func() bool, start func(context.Context) error) error {
	tick := time.NewTicker(v.Poll)
	defer tick.Stop()
	failures := 0 // failed starts, or deaths within Stable of a restart, in a row
	var upSince time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if running() {
			if failures > 0 && !upSince.IsZero() && time.Since(upSince) >= v.Stable {
				o.Log.Info("local neo4j stable again after its restart", "up_for", time.Since(upSince).Round(time.Second))
				failures = 0
			}
			continue
		}
		if !upSince.IsZero() && time.Since(upSince) < v.Stable {
			failures++ // died again soon after a restart: a crash loop
		}
		o.Log.Error("the local Neo4j exited while graphmem was running; restarting it", "log", o.NeoLog(), "failures_in_a_row", failures)
		delay := v.Backoff
		for {
			if failures >= v.MaxAttempts {
				return fmt.Errorf("%w: %d attempts in a row failed or died within %s (see %s)", ErrGaveUp, failures, v.Stable, o.NeoLog())
			}
			o.Log.Warn("restarting the local Neo4j", "attempt", failures+1, "of", v.MaxAttempts, "after", delay)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(delay):
			}
			started := time.Now()
			err := start(ctx)
			if err == nil || errors.Is(err, ErrAlreadyRunning) {
				o.Log.Info("the local Neo4j is back", "took", time.Since(started).Round(time.Millisecond))
				upSince = time.Now()
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			failures++
			o.Log.Error("restarting the local Neo4j failed", "attempt", failures, "error", err)
			delay = min(delay*2, v.MaxBackoff)
		}
	}
}
