//go:build integration

package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// ClaimJobs works across tenants and other tests share the database, so
// every test here claims only a kind of its own and asserts only about its
// own tenant's jobs.
func jobKind(tenant, name string) string {
	return name + "-" + strings.TrimPrefix(tenant, "t-")
}

func mustEnqueue(t *testing.T, s *graph.Store, tenant string, spec graph.JobSpec) graph.Job {
	t.Helper()
	j, created, err := s.EnqueueJob(t.Context(), tenant, spec)
	if err != nil {
		t.Fatalf("enqueue %+v: %v", spec, err)
	}
	if !created {
		t.Fatalf("enqueue %+v: not created, got existing %s", spec, j.ID)
	}
	return j
}

func claimOne(t *testing.T, s *graph.Store, owner, kind string, lease time.Duration) graph.Job {
	t.Helper()
	got, err := s.ClaimJobs(t.Context(), owner, graph.ClaimFilter{Kinds: []string{kind}}, 1, lease)
	if err != nil {
		t.Fatalf("claim %s: %v", kind, err)
	}
	if len(got) != 1 {
		t.Fatalf("claim %s: got %d jobs, want 1", kind, len(got))
	}
	return got[0]
}

func mustGetJob(t *testing.T, s *graph.Store, tenant, id string) graph.Job {
	t.Helper()
	j, err := s.GetJob(t.Context(), tenant, id)
	if err != nil {
		t.Fatalf("get job %s: %v", id, err)
	}
	return j
}

func TestJobEnqueueIsIdempotentWhileActive(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "enq")

	first := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "s1", Payload: map[string]any{"n": 1},
		SessionID: "s1", UserID: "alice"})
	if first.Status != graph.JobPending || first.Attempts != 0 || first.MaxAttempts != graph.DefaultJobMaxAttempts ||
		first.Generation != 1 || first.SessionID != "s1" || first.UserID != "alice" || first.RunAfter.IsZero() {
		t.Fatalf("new job = %+v", first)
	}
	var payload struct{ N int }
	if err := first.Decode(&payload); err != nil || payload.N != 1 {
		t.Fatalf("payload = %+v, %v", payload, err)
	}

	// Pending: a second enqueue returns the same job and keeps its payload.
	again, created, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "s1", Payload: map[string]any{"n": 2}})
	if err != nil || created || again.ID != first.ID || string(again.Payload) != `{"n":1}` {
		t.Fatalf("re-enqueue while pending = %s created=%v payload=%s, %v", again.ID, created, again.Payload, err)
	}
	// Running: still the same job.
	claimed := claimOne(t, s, "w1", kind, time.Minute)
	again, created, err = s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "s1"})
	if err != nil || created || again.ID != claimed.ID || again.Status != graph.JobRunning {
		t.Fatalf("re-enqueue while running = %+v created=%v, %v", again, created, err)
	}
	// Done: a new generation.
	if err := s.CompleteJob(ctx, tenant, claimed.ID, "w1", nil); err != nil {
		t.Fatal(err)
	}
	next, created, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "s1"})
	if err != nil || !created || next.ID == first.ID || next.Generation != 2 || next.Status != graph.JobPending {
		t.Fatalf("enqueue after done = %+v created=%v, %v", next, created, err)
	}

	// Keys with characters outside the readable set are hashed, and stay distinct.
	a := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "user:alice/ü"})
	b := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "user:alice/v"})
	if a.ID == b.ID || a.Key != "user:alice/ü" {
		t.Fatalf("hashed keys: %s and %s (key %q)", a.ID, b.ID, a.Key)
	}
	// A key that is another key's prefix is a different job.
	mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "s"})
	// Without a key there is no deduplication.
	x := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind})
	y := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind})
	if x.ID == y.ID || x.Generation != 0 {
		t.Fatalf("keyless jobs share id %s", x.ID)
	}
}

// A recompute job (insights) absorbs enqueues only while pending: one
// made while it runs may report a change it already missed, so it gets a
// run of its own after it.
func TestJobRequeueWhileRunning(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "recompute")
	spec := graph.JobSpec{Kind: kind, Key: "u1", RequeueWhileRunning: true}
	first := mustEnqueue(t, s, tenant, spec)
	if again, created, err := s.EnqueueJob(ctx, tenant, spec); err != nil || created || again.ID != first.ID {
		t.Fatalf("enqueue while pending = %s created=%v err=%v, want the pending %s", again.ID, created, err, first.ID)
	}
	running := claimOne(t, s, "w", kind, time.Minute)
	next, created, err := s.EnqueueJob(ctx, tenant, spec)
	if err != nil || !created || next.ID == running.ID || next.Generation != running.Generation+1 || next.Status != graph.JobPending {
		t.Fatalf("enqueue while running = %+v created=%v err=%v, want generation %d pending", next, created, err, running.Generation+1)
	}
	if again, created, err := s.EnqueueJob(ctx, tenant, spec); err != nil || created || again.ID != next.ID {
		t.Fatalf("enqueue while the next one is pending = %s created=%v err=%v, want %s", again.ID, created, err, next.ID)
	}
	// Without the option a running job absorbs the enqueue.
	plain := graph.JobSpec{Kind: kind, Key: "u2"}
	mustEnqueue(t, s, tenant, plain)
	claimed, err := s.ClaimJobs(ctx, "w", graph.ClaimFilter{Kinds: []string{kind}}, 5, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var u2 graph.Job
	for _, j := range claimed {
		if j.Key == "u2" {
			u2 = j
		}
	}
	if got, created, err := s.EnqueueJob(ctx, tenant, plain); err != nil || created || got.ID != u2.ID {
		t.Fatalf("plain enqueue while running = %s created=%v err=%v, want the running %s", got.ID, created, err, u2.ID)
	}
}

// A debounced enqueue postpones the pending job of its key to its own
// RunAfter (never earlier, never past MaxDelay after the job was created):
// insights run once a user's extractions go quiet, however long the burst.
func TestJobEnqueueDebounce(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "debounce")
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	spec := func(after time.Duration) graph.JobSpec {
		return graph.JobSpec{Kind: kind, Key: "u1", RunAfter: t0.Add(after), Debounce: true, MaxDelay: time.Minute}
	}
	first := mustEnqueue(t, s, tenant, spec(2*time.Second))
	for _, step := range []struct {
		name  string
		after time.Duration
		want  time.Time
	}{
		{"later enqueue postpones", 5 * time.Second, t0.Add(5 * time.Second)},
		{"earlier enqueue does not advance", 3 * time.Second, t0.Add(5 * time.Second)},
		{"postponed at most MaxDelay after creation", time.Hour, first.CreatedAt.Add(time.Minute)},
	} {
		got, created, err := s.EnqueueJob(ctx, tenant, spec(step.after))
		if err != nil || created || got.ID != first.ID {
			t.Fatalf("%s: enqueue = %s created=%v err=%v, want the pending %s", step.name, got.ID, created, err, first.ID)
		}
		if d := got.RunAfter.Sub(step.want); d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("%s: run_after %s, want %s", step.name, got.RunAfter, step.want)
		}
	}
	// Without Debounce the first RunAfter holds.
	plain := graph.JobSpec{Kind: kind, Key: "u2", RunAfter: t0.Add(2 * time.Second)}
	p := mustEnqueue(t, s, tenant, plain)
	plain.RunAfter = t0.Add(time.Hour)
	if got, _, err := s.EnqueueJob(ctx, tenant, plain); err != nil || !got.RunAfter.Equal(p.RunAfter) {
		t.Fatalf("plain enqueue moved run_after %s -> %s (err %v)", p.RunAfter, got.RunAfter, err)
	}
}

func TestJobEnqueueConcurrentCreatesOne(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "enqc")

	race := func() (ids map[string]int, created int) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		ids = map[string]int{}
		for range 16 {
			wg.Go(func() {
				j, c, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "hot", SessionID: "s1"})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				ids[j.ID]++
				if c {
					created++
				}
			})
		}
		wg.Wait()
		return ids, created
	}
	ids, created := race()
	if len(ids) != 1 || created != 1 {
		t.Fatalf("16 concurrent enqueues: ids %v, %d created; want one id, one created", ids, created)
	}
	// Finish it, then race again: exactly one new generation.
	j := claimOne(t, s, "w1", kind, time.Minute)
	if err := s.CompleteJob(ctx, tenant, j.ID, "w1", map[string]any{"ok": true}); err != nil {
		t.Fatal(err)
	}
	ids, created = race()
	if len(ids) != 1 || created != 1 {
		t.Fatalf("second round: ids %v, %d created", ids, created)
	}
	for id := range ids {
		if id == j.ID {
			t.Fatalf("second round returned the done job %s", id)
		}
	}
	if n, err := s.CountActiveJobs(ctx, tenant, "s1"); err != nil || n != 1 {
		t.Fatalf("active jobs = %d, %v; want 1", n, err)
	}
}

// Eight claimers (eight replicas) race over 200 jobs: each job is claimed
// exactly once.
func TestJobClaimIsExclusive(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "claim")
	const jobs, claimers = 200, 8
	for i := range jobs {
		mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: fmt.Sprint("k", i)})
	}

	var (
		mu     sync.Mutex
		byID   = map[string][]string{} // job id → owners that claimed it
		total  atomic.Int64
		wg     sync.WaitGroup
		ctxDue = time.Now().Add(2 * time.Minute)
	)
	start := time.Now()
	for w := range claimers {
		owner := fmt.Sprint("claimer-", w)
		wg.Go(func() {
			for total.Load() < jobs && time.Now().Before(ctxDue) {
				got, err := s.ClaimJobs(ctx, owner, graph.ClaimFilter{Kinds: []string{kind}}, 5, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, j := range got {
					if j.Tenant != tenant || j.Kind != kind || j.LeaseOwner != owner || j.Status != graph.JobRunning || j.Attempts != 1 {
						t.Errorf("claimed job %+v", j)
					}
					byID[j.ID] = append(byID[j.ID], owner)
				}
				mu.Unlock()
				total.Add(int64(len(got)))
			}
		})
	}
	wg.Wait()
	t.Logf("%d claimers claimed %d jobs in %v", claimers, total.Load(), time.Since(start))
	if total.Load() != jobs || len(byID) != jobs {
		t.Fatalf("claimed %d times, %d distinct jobs; want %d each", total.Load(), len(byID), jobs)
	}
	for id, owners := range byID {
		if len(owners) != 1 {
			t.Errorf("job %s claimed by %v", id, owners)
		}
	}
	list, err := s.ListJobs(ctx, tenant, graph.JobFilter{Kind: kind, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range list {
		if j.Status != graph.JobRunning || j.Attempts != 1 || byID[j.ID][0] != j.LeaseOwner {
			t.Errorf("stored job %s: status %s attempts %d owner %s, claimed by %v", j.ID, j.Status, j.Attempts, j.LeaseOwner, byID[j.ID])
		}
	}
}

func TestJobClaimOrderAndFairness(t *testing.T) {
	t.Parallel()
	s, ctx := graphtest.Store(t), t.Context()
	busy, quiet := graphtest.Tenant(t), graphtest.Tenant(t)
	kind := jobKind(busy, "fair")
	old := time.Now().Add(-time.Hour)
	for i := range 10 {
		mustEnqueue(t, s, busy, graph.JobSpec{Kind: kind, Key: fmt.Sprint("b", i), RunAfter: old.Add(time.Duration(i) * time.Second)})
	}
	mustEnqueue(t, s, quiet, graph.JobSpec{Kind: kind, Key: "q", RunAfter: old.Add(time.Minute)})
	future := mustEnqueue(t, s, busy, graph.JobSpec{Kind: kind, Key: "later", RunAfter: time.Now().Add(time.Hour)})

	got, err := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{kind}}, 3, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range got {
		ids = append(ids, j.Key)
	}
	// Oldest first, but the quiet tenant is not starved behind the busy one.
	tenants := map[string]int{}
	for _, j := range got {
		tenants[j.Tenant]++
	}
	if len(got) != 3 || tenants[quiet] != 1 || got[0].Key != "b0" {
		t.Fatalf("claimed %v; want b0 first and the quiet tenant's job among 3", ids)
	}
	// The rest drains oldest first, and a job due later is not claimed.
	rest, err := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{kind}}, 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(rest) != 8 {
		t.Fatalf("claimed %d more, want 8", len(rest))
	}
	for _, j := range rest {
		if j.ID == future.ID {
			t.Fatalf("claimed a job due in an hour")
		}
	}
}

// A worker that crashes never completes; once its lease expires another
// worker claims the job again, with attempts incremented, and the first
// worker's late calls are rejected.
func TestJobLeaseExpiryAllowsReclaim(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "lease")
	j := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "k"})

	first := claimOne(t, s, "crashed", kind, 300*time.Millisecond)
	if first.ID != j.ID || first.Attempts != 1 || !first.LeaseUntil.After(first.StartedAt) {
		t.Fatalf("first claim = %+v", first)
	}
	if got, err := s.ClaimJobs(ctx, "rescuer", graph.ClaimFilter{Kinds: []string{kind}}, 1, time.Minute); err != nil || len(got) != 0 {
		t.Fatalf("claim under a live lease = %d jobs, %v", len(got), err)
	}
	// Renewal keeps it ours.
	if err := s.RenewLease(ctx, tenant, j.ID, "crashed", 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}

	var second graph.Job
	deadline := time.Now().Add(10 * time.Second)
	for second.ID == "" && time.Now().Before(deadline) {
		got, err := s.ClaimJobs(ctx, "rescuer", graph.ClaimFilter{Kinds: []string{kind}}, 1, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 {
			second = got[0]
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if second.ID != j.ID || second.Attempts != 2 || second.LeaseOwner != "rescuer" {
		t.Fatalf("re-claim after lease expiry = %+v", second)
	}
	for name, err := range map[string]error{
		"renew":    s.RenewLease(ctx, tenant, j.ID, "crashed", time.Minute),
		"complete": s.CompleteJob(ctx, tenant, j.ID, "crashed", nil),
		"fail":     s.FailJob(ctx, tenant, j.ID, "crashed", errors.New("late"), time.Now(), false),
	} {
		if !errors.Is(err, graph.ErrConflict) {
			t.Errorf("%s by the old owner: %v, want ErrConflict", name, err)
		}
	}
	if err := s.CompleteJob(ctx, tenant, j.ID, "rescuer", map[string]any{"events": 3}); err != nil {
		t.Fatal(err)
	}
	done := mustGetJob(t, s, tenant, j.ID)
	if done.Status != graph.JobDone || done.Attempts != 2 || done.FinishedAt.IsZero() || done.Result["events"] != float64(3) {
		t.Fatalf("done job = %+v", done)
	}
	if err := s.RenewLease(ctx, tenant, j.ID, "rescuer", time.Minute); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("renew a done job: %v, want ErrConflict", err)
	}
	if err := s.RenewLease(ctx, tenant, "missing", "rescuer", time.Minute); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("renew a missing job: %v, want ErrNotFound", err)
	}
}

// A job whose worker dies on every attempt (a crash it causes itself)
// must not be handed out forever: once its lease expires on the last
// allowed attempt, the next claim fails it instead of running it again.
func TestJobLeaseExpiredOnLastAttemptFails(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "poison")
	j := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "k", MaxAttempts: 2})
	claimUntil := func(owner string) []graph.Job {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			got, err := s.ClaimJobs(ctx, owner, graph.ClaimFilter{Kinds: []string{kind}}, 1, 200*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) > 0 || time.Now().After(deadline) {
				return got
			}
			if cur := mustGetJob(t, s, tenant, j.ID); cur.Status == graph.JobFailed {
				return nil
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if got := claimUntil("crash-1"); len(got) != 1 || got[0].Attempts != 1 {
		t.Fatalf("first claim = %+v", got)
	}
	if got := claimUntil("crash-2"); len(got) != 1 || got[0].Attempts != 2 {
		t.Fatalf("claim after the first lease expired = %+v", got)
	}
	if got := claimUntil("crash-3"); len(got) != 0 {
		t.Fatalf("claim after the last lease expired handed the job out again: %+v", got)
	}
	failed := mustGetJob(t, s, tenant, j.ID)
	if failed.Status != graph.JobFailed || failed.Attempts != 2 || failed.FinishedAt.IsZero() ||
		!strings.Contains(failed.LastError, "stopped before finishing") {
		t.Fatalf("job after its last lease expired = %+v", failed)
	}
	// The operator's retry (after fixing the cause) still works.
	if _, err := s.RetryJob(ctx, tenant, j.ID); err != nil {
		t.Fatalf("retry the failed job: %v", err)
	}
	if got := claimUntil("fixed"); len(got) != 1 {
		t.Fatalf("claim after an operator retry = %+v", got)
	}
}

func TestJobFailWithRetryThenSucceed(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "retry")
	later := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "later", RunAfter: time.Now().Add(-time.Minute)})
	soon := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "soon"})

	got, err := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{kind}}, 2, time.Minute)
	if err != nil || len(got) != 2 {
		t.Fatalf("claim = %d, %v", len(got), err)
	}
	retryAt := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	if err := s.FailJob(ctx, tenant, later.ID, "w1", errors.New("llm unavailable: 503"), retryAt, false); err != nil {
		t.Fatal(err)
	}
	if err := s.FailJob(ctx, tenant, soon.ID, "w1", errors.New("timeout"), time.Now().Add(-time.Second), false); err != nil {
		t.Fatal(err)
	}
	l := mustGetJob(t, s, tenant, later.ID)
	if l.Status != graph.JobPending || l.LastError != "llm unavailable: 503" || !l.RunAfter.Equal(retryAt) ||
		l.Attempts != 1 || !l.FinishedAt.IsZero() || !l.LeaseUntil.IsZero() {
		t.Fatalf("after transient failure = %+v", l)
	}
	// Only the job whose retry time has come is claimable.
	again := claimOne(t, s, "w2", kind, time.Minute)
	if again.ID != soon.ID || again.Attempts != 2 {
		t.Fatalf("re-claim = %+v", again)
	}
	if err := s.CompleteJob(ctx, tenant, soon.ID, "w2", map[string]any{"summary": "ok"}); err != nil {
		t.Fatal(err)
	}
	done := mustGetJob(t, s, tenant, soon.ID)
	if done.Status != graph.JobDone || done.Result["summary"] != "ok" || done.LastError != "timeout" {
		t.Fatalf("done = %+v", done)
	}
	if n, err := s.CountActiveJobs(ctx, tenant, ""); err != nil || n != 1 {
		t.Fatalf("active = %d, %v; want 1 (the job retrying in an hour)", n, err)
	}
}

func TestJobPermanentFailure(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "perm")
	j := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "k"})
	claimOne(t, s, "w1", kind, time.Minute)
	long := strings.Repeat("é", 2000)
	if err := s.FailJob(ctx, tenant, j.ID, "w1", errors.New(long), time.Now(), true); err != nil {
		t.Fatal(err)
	}
	failed := mustGetJob(t, s, tenant, j.ID)
	if failed.Status != graph.JobFailed || failed.FinishedAt.IsZero() || failed.Attempts != 1 ||
		len(failed.LastError) > 1100 || !strings.HasPrefix(failed.LastError, "éé") {
		t.Fatalf("permanently failed = %+v", failed)
	}
	if got, _ := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{kind}}, 1, time.Minute); len(got) != 0 {
		t.Fatalf("claimed a failed job")
	}
	// A failed job no longer blocks its key.
	next, created, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "k"})
	if err != nil || !created || next.ID == j.ID {
		t.Fatalf("enqueue after failure = %s created=%v, %v", next.ID, created, err)
	}
	// The old generation cannot be revived beside the new one.
	if _, err := s.RetryJob(ctx, tenant, j.ID); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("retry a superseded job: %v, want ErrConflict", err)
	}
	if _, err := s.RetryJob(ctx, tenant, next.ID); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("retry a pending job: %v, want ErrConflict", err)
	}
	if _, err := s.RetryJob(ctx, tenant, "nope"); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("retry a missing job: %v, want ErrNotFound", err)
	}
}

func TestJobMaxAttemptsThenOperatorRetry(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "max")
	j := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: "k", MaxAttempts: 2})

	claimOne(t, s, "w1", kind, time.Minute)
	if err := s.FailJob(ctx, tenant, j.ID, "w1", errors.New("one"), time.Now().Add(-time.Second), false); err != nil {
		t.Fatal(err)
	}
	if st := mustGetJob(t, s, tenant, j.ID).Status; st != graph.JobPending {
		t.Fatalf("after attempt 1 of 2: %s", st)
	}
	claimOne(t, s, "w1", kind, time.Minute)
	if err := s.FailJob(ctx, tenant, j.ID, "w1", errors.New("two"), time.Now().Add(-time.Second), false); err != nil {
		t.Fatal(err)
	}
	failed := mustGetJob(t, s, tenant, j.ID)
	if failed.Status != graph.JobFailed || failed.Attempts != 2 || failed.LastError != "two" {
		t.Fatalf("after attempt 2 of 2 = %+v", failed)
	}
	if n, _ := s.CountActiveJobs(ctx, tenant, ""); n != 0 {
		t.Fatalf("active = %d", n)
	}

	retried, err := s.RetryJob(ctx, tenant, j.ID)
	if err != nil || retried.Status != graph.JobPending || retried.Attempts != 0 || !retried.FinishedAt.IsZero() {
		t.Fatalf("operator retry = %+v, %v", retried, err)
	}
	// While retried, the key deduplicates onto it again.
	same, created, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "k"})
	if err != nil || created || same.ID != j.ID {
		t.Fatalf("enqueue during retry = %s created=%v, %v", same.ID, created, err)
	}
	if c := claimOne(t, s, "w1", kind, time.Minute); c.Attempts != 1 {
		t.Fatalf("attempts after retry = %d", c.Attempts)
	}
}

func TestJobTenantIsolation(t *testing.T) {
	t.Parallel()
	s, ctx := graphtest.Store(t), t.Context()
	a, b := graphtest.Tenant(t), graphtest.Tenant(t)
	kind := jobKind(a, "iso")
	ja := mustEnqueue(t, s, a, graph.JobSpec{Kind: kind, SessionID: "s1"})
	// The same kind and key in another tenant is another job.
	ka := mustEnqueue(t, s, a, graph.JobSpec{Kind: kind, Key: "shared"})
	kb := mustEnqueue(t, s, b, graph.JobSpec{Kind: kind, Key: "shared"})
	if ka.Tenant != a || kb.Tenant != b {
		t.Fatalf("tenants: %s, %s", ka.Tenant, kb.Tenant)
	}

	if _, err := s.GetJob(ctx, b, ja.ID); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("get another tenant's job: %v, want ErrNotFound", err)
	}
	listB, err := s.ListJobs(ctx, b, graph.JobFilter{})
	if err != nil || len(listB) != 1 || listB[0].Tenant != b {
		t.Fatalf("tenant b lists %+v, %v", listB, err)
	}
	listA, err := s.ListJobs(ctx, a, graph.JobFilter{})
	if err != nil || len(listA) != 2 {
		t.Fatalf("tenant a lists %d jobs, %v", len(listA), err)
	}
	if n, _ := s.CountActiveJobs(ctx, b, "s1"); n != 0 {
		t.Fatalf("tenant b counts %d active jobs in a's session", n)
	}
	if _, err := s.RetryJob(ctx, b, ja.ID); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("retry another tenant's job: %v", err)
	}

	// Claim takes both tenants' jobs; completing needs the right tenant.
	got, err := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{kind}}, 10, time.Minute)
	if err != nil || len(got) != 3 {
		t.Fatalf("claimed %d, %v", len(got), err)
	}
	if err := s.CompleteJob(ctx, b, ja.ID, "w1", nil); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("complete with the wrong tenant: %v, want ErrNotFound", err)
	}
	if err := s.CompleteJob(ctx, a, ka.ID, "w1", nil); err != nil {
		t.Fatal(err)
	}
	if st := mustGetJob(t, s, b, kb.ID).Status; st != graph.JobRunning {
		t.Fatalf("tenant b's job with the same id changed: %s", st)
	}
}

func TestJobClaimFiltersKinds(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	want, other := jobKind(tenant, "kind-a"), jobKind(tenant, "kind-b")
	for i := range 3 {
		mustEnqueue(t, s, tenant, graph.JobSpec{Kind: want, Key: fmt.Sprint(i)})
		mustEnqueue(t, s, tenant, graph.JobSpec{Kind: other, Key: fmt.Sprint(i)})
	}
	got, err := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{want}}, 10, time.Minute)
	if err != nil || len(got) != 3 {
		t.Fatalf("claimed %d, %v", len(got), err)
	}
	for _, j := range got {
		if j.Kind != want {
			t.Fatalf("claimed kind %s", j.Kind)
		}
	}
	pending, err := s.ListJobs(ctx, tenant, graph.JobFilter{Status: graph.JobPending})
	if err != nil || len(pending) != 3 || pending[0].Kind != other {
		t.Fatalf("pending after claim = %d, %v", len(pending), err)
	}
	both, err := s.ClaimJobs(ctx, "w1", graph.ClaimFilter{Kinds: []string{want, other}}, 10, time.Minute)
	if err != nil || len(both) != 3 {
		t.Fatalf("claim with two kinds = %d, %v", len(both), err)
	}
}

func TestJobClaimFiltersTenants(t *testing.T) {
	t.Parallel()
	s, ctx := graphtest.Store(t), t.Context()
	a, b := graphtest.Tenant(t), graphtest.Tenant(t)
	kind := jobKind(a, "dedicated")
	mustEnqueue(t, s, a, graph.JobSpec{Kind: kind, Key: "x"})
	mustEnqueue(t, s, b, graph.JobSpec{Kind: kind, Key: "x"})
	got, err := s.ClaimJobs(ctx, "wb", graph.ClaimFilter{Kinds: []string{kind}, Tenants: []string{b}}, 10, time.Minute)
	if err != nil || len(got) != 1 || got[0].Tenant != b {
		t.Fatalf("a worker dedicated to tenant b claimed %+v, %v", got, err)
	}
	pending, err := s.ListJobs(ctx, a, graph.JobFilter{Status: graph.JobPending})
	if err != nil || len(pending) != 1 {
		t.Fatalf("tenant a's job must stay pending: %d, %v", len(pending), err)
	}
}

func TestJobListFiltersAndCounts(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := jobKind(tenant, "list")
	for i := range 4 {
		mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Key: fmt.Sprint(i), SessionID: fmt.Sprint("s", i%2)})
	}
	j := claimOne(t, s, "w1", kind, time.Minute)
	if err := s.CompleteJob(ctx, tenant, j.ID, "w1", nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		filter graph.JobFilter
		want   int
	}{
		{graph.JobFilter{}, 4},
		{graph.JobFilter{Limit: 2}, 2},
		{graph.JobFilter{Status: graph.JobDone}, 1},
		{graph.JobFilter{Status: graph.JobPending}, 3},
		{graph.JobFilter{SessionID: "s0"}, 2},
		{graph.JobFilter{Kind: "nope"}, 0},
	}
	for _, c := range cases {
		got, err := s.ListJobs(ctx, tenant, c.filter)
		if err != nil || len(got) != c.want {
			t.Errorf("list %+v = %d jobs, %v; want %d", c.filter, len(got), err, c.want)
		}
	}
	if _, err := s.ListJobs(ctx, tenant, graph.JobFilter{Status: "bogus"}); !errors.Is(err, graph.ErrInvalid) {
		t.Errorf("bad status filter: %v", err)
	}
	active0, _ := s.CountActiveJobs(ctx, tenant, "s0")
	active1, _ := s.CountActiveJobs(ctx, tenant, "s1")
	if active0+active1 != 3 {
		t.Errorf("active per session = %d + %d, want 3", active0, active1)
	}
	for _, bad := range []graph.JobSpec{{Kind: ""}, {Kind: "has space"}, {Kind: kind, MaxAttempts: -1}, {Kind: kind, Payload: func() {}}} {
		if _, _, err := s.EnqueueJob(ctx, tenant, bad); !errors.Is(err, graph.ErrInvalid) {
			t.Errorf("enqueue %+v: %v, want ErrInvalid", bad.Kind, err)
		}
	}
	if _, err := s.ClaimJobs(context.WithoutCancel(ctx), "", graph.ClaimFilter{}, 1, time.Minute); !errors.Is(err, graph.ErrInvalid) {
		t.Errorf("claim without owner: %v", err)
	}
}
