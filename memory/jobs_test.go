package memory

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

// The real store must satisfy the queue the workers claim from.
var _ QueueStore = (*graph.Store)(nil)

// Invalid input fails the same way on every retry: the handlers' errors of
// that category are marked permanent, the others are left to the worker's
// retries.
func TestHandlersFailInvalidInputForGood(t *testing.T) {
	t.Parallel()
	base := errors.New("bad prompt")
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"invalid", fmt.Errorf("write: %w", errs.ErrInvalid), true},
		{"validation error", errs.Invalid("kind", "oneof", "unknown kind"), true},
		{"marked", jobs.Permanent(base), true},
		{"unavailable", fmt.Errorf("llm: %w", errs.ErrUnavailable), false},
		{"plain", base, false},
		{"timeout", context.DeadlineExceeded, false},
		{"nil", nil, false},
	}
	for _, c := range cases {
		h := failInvalidForGood(func(context.Context, jobs.Job) (map[string]any, error) { return nil, c.err })
		_, err := h(t.Context(), jobs.Job{})
		if got := jobs.IsPermanent(err); got != c.want {
			t.Errorf("%s: permanent = %v, want %v", c.name, got, c.want)
		}
		if !errors.Is(err, c.err) {
			t.Errorf("%s: the handler's error %v is lost in %v", c.name, c.err, err)
		}
	}
}

// fakeQueue answers as the graph's job table does.
type fakeQueue struct {
	renewErr error
	claimed  []graph.Job
}

func (f *fakeQueue) ClaimJobs(context.Context, string, graph.ClaimFilter, int, time.Duration) ([]graph.Job, error) {
	return f.claimed, nil
}

func (f *fakeQueue) RenewLease(context.Context, string, string, string, time.Duration) error {
	return f.renewErr
}

func (f *fakeQueue) CompleteJob(context.Context, string, string, string, map[string]any) error {
	return nil
}

func (f *fakeQueue) FailJob(context.Context, string, string, string, error, time.Time, bool) error {
	return nil
}

func (f *fakeQueue) DeferJob(context.Context, string, string, string, time.Time, string) error {
	return nil
}

func TestJobQueueReportsLostLeases(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		err  error
		lost bool
	}{
		{"held by another worker", fmt.Errorf("job %q: %w: running, held by %q", "j1", errs.ErrConflict, "w2"), true},
		{"gone", errs.NotFound("job %q", "j1"), true},
		{"neo4j down", fmt.Errorf("renew: %w", graph.ErrUnavailable), false},
		{"renewed", nil, false},
	}
	for _, c := range cases {
		err := JobQueue(&fakeQueue{renewErr: c.err}).RenewLease(t.Context(), "t1", "j1", "w1", time.Second)
		if got := errors.Is(err, jobs.ErrLeaseLost); got != c.lost {
			t.Errorf("%s: lease lost = %v, want %v (%v)", c.name, got, c.lost, err)
		}
		if c.err != nil && !errors.Is(err, c.err) {
			t.Errorf("%s: the store's error is lost: %v", c.name, err)
		}
	}
	q := JobQueue(&fakeQueue{claimed: []graph.Job{{Tenant: "t1", ID: "j1", Kind: JobExtract, SessionID: "s1", UserID: "u1",
		Payload: []byte(`{"event_id":"e1"}`), Attempts: 2, MaxAttempts: 5, Status: graph.JobRunning}}})
	got, err := q.ClaimJobs(t.Context(), "w1", jobs.ClaimFilter{Kinds: []string{JobExtract}}, 1, time.Second)
	var p extractPayload
	if err != nil || len(got) != 1 || got[0].Tenant != "t1" || got[0].Attempts != 2 || got[0].MaxAttempts != 5 ||
		got[0].Decode(&p) != nil || p.EventID != "e1" {
		t.Fatalf("claimed %+v, %v", got, err)
	}
}
