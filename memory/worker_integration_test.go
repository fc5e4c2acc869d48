//go:build integration

package memory_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/memory"
)

// startWorker runs w until the returned stop is called (or the test ends).
func startWorker(t *testing.T, w *jobs.Worker) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("worker %s: %v", w.Owner(), err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func waitUntil(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Two replicas share one queue: 100 jobs, each handled exactly once.
func TestWorkerTwoReplicasProcessEachJobOnce(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := "replicas-" + strings.TrimPrefix(tenant, "t-")
	const total = 100
	for i := range total {
		if _, _, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: fmt.Sprint("k", i), SessionID: "s1",
			Payload: map[string]int{"n": i}}); err != nil {
			t.Fatal(err)
		}
	}

	var mu sync.Mutex
	handled := map[string][]string{} // job id → replicas that ran it
	replica := func(name string) *jobs.Worker {
		w := jobs.NewWorker(memory.JobQueue(s), jobs.Config{Owner: name, Concurrency: 4, PollInterval: 100 * time.Millisecond,
			Lease: 10 * time.Second}, slog.New(slog.DiscardHandler))
		w.Handle(kind, func(_ context.Context, j jobs.Job) (map[string]any, error) {
			var p struct{ N int }
			if err := j.Decode(&p); err != nil {
				return nil, jobs.Permanent(err)
			}
			mu.Lock()
			handled[j.ID] = append(handled[j.ID], name)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			return map[string]any{"n": p.N, "by": name}, nil
		})
		return w
	}
	start := time.Now()
	startWorker(t, replica("replica-a"))
	startWorker(t, replica("replica-b"))
	waitUntil(t, "the queue to drain", time.Minute, func() bool {
		n, err := s.CountActiveJobs(ctx, tenant, "s1")
		return err == nil && n == 0
	})
	t.Logf("2 replicas ran %d jobs in %v", total, time.Since(start))

	mu.Lock()
	defer mu.Unlock()
	perReplica := map[string]int{}
	for id, by := range handled {
		if len(by) != 1 {
			t.Errorf("job %s ran %d times: %v", id, len(by), by)
		}
		perReplica[by[0]]++
	}
	if len(handled) != total {
		t.Fatalf("%d jobs ran, want %d", len(handled), total)
	}
	t.Logf("per replica: %v", perReplica)
	done, err := s.ListJobs(ctx, tenant, graph.JobFilter{Status: graph.JobDone, Limit: 1000})
	if err != nil || len(done) != total {
		t.Fatalf("%d done jobs, %v", len(done), err)
	}
	for _, j := range done {
		if j.Attempts != 1 || j.Result["by"] != handled[j.ID][0] {
			t.Errorf("job %s: attempts %d, result %v, ran by %v", j.ID, j.Attempts, j.Result, handled[j.ID])
		}
	}
}

// A replica dies mid-job: it never completes and its lease is not renewed.
// After the lease expires another replica runs the job again (attempt 2).
func TestWorkerCrashedJobIsRetriedByAnotherReplica(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	kind := "crash-" + strings.TrimPrefix(tenant, "t-")
	job, _, err := s.EnqueueJob(ctx, tenant, graph.JobSpec{Kind: kind, Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	const lease = time.Second

	crashing := jobs.NewWorker(memory.JobQueue(s), jobs.Config{Owner: "doomed", PollInterval: 50 * time.Millisecond,
		Lease: lease, DrainTimeout: time.Millisecond}, slog.New(slog.DiscardHandler))
	started := make(chan struct{})
	crashing.Handle(kind, func(ctx context.Context, _ jobs.Job) (map[string]any, error) {
		close(started)
		<-ctx.Done() // hangs until the process "dies"
		return nil, ctx.Err()
	})
	stopCrashing := startWorker(t, crashing)
	<-started
	stopCrashing()

	held, err := s.GetJob(ctx, tenant, job.ID)
	if err != nil || held.Status != graph.JobRunning || held.LeaseOwner != "doomed" || held.Attempts != 1 {
		t.Fatalf("job after the crash = %+v, %v", held, err)
	}

	rescuer := jobs.NewWorker(memory.JobQueue(s), jobs.Config{Owner: "rescuer", PollInterval: 50 * time.Millisecond, Lease: lease},
		slog.New(slog.DiscardHandler))
	ran := make(chan int, 1)
	rescuer.Handle(kind, func(_ context.Context, j jobs.Job) (map[string]any, error) {
		ran <- j.Attempts
		return map[string]any{"recovered": true}, nil
	})
	crashedAt := time.Now()
	startWorker(t, rescuer)
	select {
	case attempt := <-ran:
		if attempt != 2 {
			t.Fatalf("rescuer ran attempt %d, want 2", attempt)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the abandoned job was never retried")
	}
	t.Logf("retried %v after the crash (lease %v)", time.Since(crashedAt), lease)
	waitUntil(t, "completion", 10*time.Second, func() bool {
		j, err := s.GetJob(ctx, tenant, job.ID)
		return err == nil && j.Status == graph.JobDone
	})
	j, _ := s.GetJob(ctx, tenant, job.ID)
	if j.Attempts != 2 || j.LeaseOwner != "rescuer" || j.Result["recovered"] != true {
		t.Fatalf("job after recovery = %+v", j)
	}
}
