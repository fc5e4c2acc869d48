package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/errs"
)

// SweepIdle closes sessions untouched for idle, so a conversation an agent
// never closed still gets summarized and extracted. Every replica may
// sweep: the close jobs are deduplicated per session state, so two sweeps
// of the same session enqueue one job.
func (s *Service) SweepIdle(ctx context.Context, idle time.Duration) (int, error) {
	before := s.now().Add(-idle)
	refs, err := s.sessions.IdleSessions(ctx, before, 200)
	if err != nil {
		return 0, fmt.Errorf("find idle sessions: %w", err)
	}
	closed := 0
	for _, r := range refs {
		_, err := s.closeAndSchedule(ctx, r.Tenant, r.ID, before)
		switch {
		case errors.Is(err, errs.ErrConflict):
			continue // an event arrived since the session was found idle
		case err != nil:
			return closed, fmt.Errorf("close idle session %s: %w", r.ID, err)
		}
		closed++
	}
	if closed > 0 {
		s.log.Info("closed idle sessions", "count", closed, "idle", idle)
	}
	return closed, nil
}

// RunSweeper sweeps idle sessions every interval until ctx ends.
func (s *Service) RunSweeper(ctx context.Context, idle, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.SweepIdle(ctx, idle); err != nil && ctx.Err() == nil {
				s.log.Warn("idle session sweep failed", "error", err)
			}
		}
	}
}
