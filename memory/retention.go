package memory

import (
	"context"
	"slices"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

// JobRetention applies a tenant's retention policy (graph/retention.go) in
// the background: batches that commit one by one, so a sweep stopped by a
// crash resumes where it was when the job is retried.
const JobRetention = "retention"

// retentionBatch is how many items one sweep transaction changes.
const retentionBatch = 500

// RetentionStore is what retention needs of the graph.
type RetentionStore interface {
	RetentionPolicyOf(ctx context.Context, tenant string) (graph.RetentionPolicy, bool, error)
	SetRetentionPolicy(ctx context.Context, tenant string, p graph.RetentionPolicy) error
	RetentionTenants(ctx context.Context) ([]string, error)
	Tenants(ctx context.Context) ([]string, error)
	SweepBatch(ctx context.Context, tenant string, p graph.RetentionPolicy, step string, now time.Time, batch int) (int, error)
}

// RetentionPolicy is a tenant's policy; a zero field keeps forever.
type RetentionPolicy struct {
	RawTextDays int
	FactDays    int
	InsightDays int
}

// Where a tenant's effective policy comes from.
const (
	PolicyFromAPI  = "api"  // PUT /v1/retention
	PolicyFromFile = "file" // GRAPHMEM_RETENTION_FILE, for the tenant or "*"
	PolicyNone     = "none" // keep everything
)

// Retention is a tenant's effective policy and where it comes from.
type Retention struct {
	Policy RetentionPolicy
	Source string
}

// SetRetentionDefaults installs the config file's policies: by tenant, and
// under "*" for every other tenant. A policy set through the API wins.
func (l *Lifecycle) SetRetentionDefaults(p map[string]RetentionPolicy) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.retention = p
}

// Retention returns tenant's effective policy.
func (l *Lifecycle) Retention(ctx context.Context, tenant string) (Retention, error) {
	p, ok, err := l.store.RetentionPolicyOf(ctx, tenant)
	if err != nil {
		return Retention{}, err
	}
	if ok {
		return Retention{Policy: RetentionPolicy(p), Source: PolicyFromAPI}, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if fp, ok := l.retention[tenant]; ok {
		return Retention{Policy: fp, Source: PolicyFromFile}, nil
	}
	if fp, ok := l.retention["*"]; ok {
		return Retention{Policy: fp, Source: PolicyFromFile}, nil
	}
	return Retention{Source: PolicyNone}, nil
}

// SetRetention stores tenant's policy; it applies from the next sweep.
func (l *Lifecycle) SetRetention(ctx context.Context, tenant string, p RetentionPolicy) (Retention, error) {
	if err := l.store.SetRetentionPolicy(ctx, tenant, graph.RetentionPolicy(p)); err != nil {
		return Retention{}, err
	}
	return Retention{Policy: p, Source: PolicyFromAPI}, nil
}

// SweepRetention schedules a sweep of tenant and returns its job (the one
// pending or running, if any).
func (l *Lifecycle) SweepRetention(ctx context.Context, tenant string) (Job, error) {
	return l.enqueueJob(ctx, tenant, graph.JobSpec{Kind: JobRetention, Key: "sweep", Payload: map[string]any{}}, "retention sweep")
}

// RunRetention schedules a sweep of every tenant with a policy each
// interval until ctx ends (the worker runs them).
func (l *Lifecycle) RunRetention(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if err := l.scheduleSweeps(ctx); err != nil && ctx.Err() == nil {
			l.log.Warn("retention sweeps not scheduled", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (l *Lifecycle) scheduleSweeps(ctx context.Context) error {
	tenants, err := l.store.RetentionTenants(ctx)
	if err != nil {
		return err
	}
	l.mu.Lock()
	_, all := l.retention["*"]
	for t := range l.retention {
		if t != "*" {
			tenants = append(tenants, t)
		}
	}
	l.mu.Unlock()
	if all {
		every, err := l.store.Tenants(ctx)
		if err != nil {
			return err
		}
		tenants = append(tenants, every...)
	}
	slices.Sort(tenants)
	for _, t := range slices.Compact(tenants) {
		r, err := l.Retention(ctx, t)
		if err != nil {
			return err
		}
		if r.Policy == (RetentionPolicy{}) {
			continue
		}
		if _, err := l.SweepRetention(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

// handleRetention runs a sweep: each step in batches until none is left,
// the counts so far in the job's progress.
func (l *Lifecycle) handleRetention(ctx context.Context, job jobs.Job) (map[string]any, error) {
	r, err := l.Retention(ctx, job.Tenant)
	if err != nil {
		return nil, err
	}
	p := graph.RetentionPolicy(r.Policy)
	now := time.Now()
	counts := map[string]int{}
	last := time.Now()
	for _, step := range graph.SweepSteps {
		for {
			n, err := l.store.SweepBatch(ctx, job.Tenant, p, step, now, retentionBatch)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				break
			}
			counts[step] += n
			if time.Since(last) >= progressEvery {
				last = time.Now()
				if err := l.store.SetJobProgress(ctx, job.Tenant, job.ID, map[string]any{"done": false, "step": step, "changed": counts}); err != nil {
					l.log.Warn("retention progress not recorded", "job", job.ID, "error", err)
				}
			}
		}
	}
	l.log.Info("retention sweep done", "tenant", job.Tenant, "job", job.ID, "changed", counts)
	return map[string]any{"done": true, "policy_source": r.Source, "raw_text_dropped": counts[graph.SweepRawText],
		"facts_expired": counts[graph.SweepFacts], "insights_expired": counts[graph.SweepInsights]}, nil
}
