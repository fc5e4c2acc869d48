package graph

import (
	"context"
	"fmt"
	"time"
)

// LLM usage accounting. A job's usage (all its attempts) is kept on its
// (:Job) node; a tenant's usage per budget window on a (:UsageWindow
// {tenant, start}) node that every replica adds to, so a token budget holds
// across replicas. Windows carry no user id: per-user usage is read from
// the jobs, which erasing a user deletes with the rest of their data.

// Usage is LLM and embedding usage: logical calls and reported tokens.
type Usage struct {
	Calls            int64
	EmbedCalls       int64
	PromptTokens     int64
	CompletionTokens int64
}

// UserUsage is one user's usage, summed over their jobs.
type UserUsage struct {
	UserID string
	Jobs   int64
	Usage  Usage
}

// RecordJobUsage adds one job attempt's usage to the job and to the
// tenant's window starting at window.
func (s *Store) RecordJobUsage(ctx context.Context, tenant, jobID string, window time.Time, u Usage) error {
	if tenant == "" || jobID == "" || window.IsZero() {
		return fmt.Errorf("record job usage: %w: tenant, job id and window are required", ErrInvalid)
	}
	_, err := s.write(ctx, "usage.record", `
		MERGE (w:UsageWindow {tenant: $tenant, start: $window})
		ON CREATE SET w.calls = 0, w.embed_calls = 0, w.prompt_tokens = 0, w.completion_tokens = 0
		SET w.calls = w.calls + $calls, w.embed_calls = w.embed_calls + $embed_calls,
		    w.prompt_tokens = w.prompt_tokens + $prompt, w.completion_tokens = w.completion_tokens + $completion,
		    w.updated_at = datetime()
		WITH w
		OPTIONAL MATCH (j:Job {tenant: $tenant, id: $job})
		FOREACH (_ IN CASE WHEN j IS NULL THEN [] ELSE [1] END |
		  SET j.usage_calls = coalesce(j.usage_calls, 0) + $calls,
		      j.usage_embed_calls = coalesce(j.usage_embed_calls, 0) + $embed_calls,
		      j.usage_prompt_tokens = coalesce(j.usage_prompt_tokens, 0) + $prompt,
		      j.usage_completion_tokens = coalesce(j.usage_completion_tokens, 0) + $completion)`,
		map[string]any{"tenant": tenant, "job": jobID, "window": window.UTC(), "calls": u.Calls, "embed_calls": u.EmbedCalls,
			"prompt": u.PromptTokens, "completion": u.CompletionTokens})
	return err
}

// WindowUsage returns the tenant's usage in the window starting at window
// (zero when nothing was recorded in it).
func (s *Store) WindowUsage(ctx context.Context, tenant string, window time.Time) (Usage, error) {
	res, err := s.read(ctx, "usage.window", `
		OPTIONAL MATCH (w:UsageWindow {tenant: $tenant, start: $window})
		RETURN coalesce(w.calls, 0) AS calls, coalesce(w.embed_calls, 0) AS embed_calls,
		       coalesce(w.prompt_tokens, 0) AS prompt, coalesce(w.completion_tokens, 0) AS completion`,
		map[string]any{"tenant": tenant, "window": window.UTC()})
	if err != nil {
		return Usage{}, err
	}
	if len(res.Records) != 1 {
		return Usage{}, fmt.Errorf("usage window: %w", errNoRecords)
	}
	return decodeUsage(res.Records[0].AsMap(), "calls", "embed_calls", "prompt", "completion"), nil
}

// UsageByUser sums the usage of the tenant's jobs created since since, per
// user (jobs without a user under ""), most tokens first.
func (s *Store) UsageByUser(ctx context.Context, tenant string, since time.Time) ([]UserUsage, error) {
	res, err := s.read(ctx, "usage.by_user", `
		MATCH (j:Job) USING INDEX j:Job(tenant, id)
		WHERE j.tenant = $tenant AND j.id IS NOT NULL AND j.usage_calls IS NOT NULL AND j.created_at >= $since
		WITH coalesce(j.user_id, '') AS user, count(j) AS jobs,
		     sum(j.usage_calls) AS calls, sum(j.usage_embed_calls) AS embed_calls,
		     sum(j.usage_prompt_tokens) AS prompt, sum(j.usage_completion_tokens) AS completion
		RETURN user, jobs, calls, embed_calls, prompt, completion
		ORDER BY prompt + completion DESC, user
		LIMIT 1000`,
		map[string]any{"tenant": tenant, "since": since.UTC()})
	if err != nil {
		return nil, err
	}
	out := make([]UserUsage, 0, len(res.Records))
	for _, rec := range res.Records {
		m := rec.AsMap()
		out = append(out, UserUsage{UserID: str(m, "user"), Jobs: i64(m, "jobs"),
			Usage: decodeUsage(m, "calls", "embed_calls", "prompt", "completion")})
	}
	return out, nil
}

func decodeUsage(m map[string]any, calls, embed, prompt, completion string) Usage {
	return Usage{Calls: i64(m, calls), EmbedCalls: i64(m, embed), PromptTokens: i64(m, prompt), CompletionTokens: i64(m, completion)}
}

// DeferJob puts a running job owner holds back to pending until until,
// giving back the attempt its claim counted (a deferral is not a failure,
// so a job deferred many times never runs out of attempts), with reason
// readable in the job list until it runs again.
func (s *Store) DeferJob(ctx context.Context, tenant, jobID, owner string, until time.Time, reason string) error {
	_, err := s.ownedTransition(ctx, "job.defer", tenant, jobID, owner, `
		SET j.status = 'pending', j.run_after = $until, j.attempts = CASE WHEN j.attempts > 0 THEN j.attempts - 1 ELSE 0 END,
		    j.deferred_reason = $reason, j.lease_until = null, j.updated_at = datetime()`,
		map[string]any{"until": until.UTC(), "reason": truncateUTF8(reason, maxJobError)})
	return err
}
