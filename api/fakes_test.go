package api

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/memory"
	"github.com/graphmem/graphmem/retrieval"
)

// fakeMemory is a hand-written in-memory stand-in for the memory service,
// enough for routing, validation and contract tests; end-to-end tests use
// the real service on Neo4j.
type fakeMemory struct {
	appended []memory.AppendInput
	tenants  []string
	failWith error
	// edits records the inputs of the fact-edit calls (edits_test.go).
	edits []any
	// deadlines records the time left on each call's context, by method.
	deadlines map[string]time.Duration
}

func (f *fakeMemory) noteDeadline(ctx context.Context, method string) {
	if d, ok := ctx.Deadline(); ok {
		if f.deadlines == nil {
			f.deadlines = map[string]time.Duration{}
		}
		f.deadlines[method] = time.Until(d)
	}
}

func fullDeps(t testing.TB) Deps {
	t.Helper()
	f := &fakeMemory{}
	return Deps{Ready: readyFunc(func(context.Context) error { return nil }), Sessions: f, Knowledge: f, Jobs: f, Retrieval: f, Edits: f}
}

var fakeTime = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

func (f *fakeMemory) Append(_ context.Context, tenant, sessionID string, in memory.AppendInput) (memory.AppendOutput, error) {
	if f.failWith != nil {
		return memory.AppendOutput{}, f.failWith
	}
	f.appended = append(f.appended, in)
	f.tenants = append(f.tenants, tenant)
	out := memory.AppendOutput{SessionID: sessionID, Created: len(f.appended) == 1}
	for i, e := range in.Events {
		id := e.ID
		if id == "" {
			id = fmt.Sprintf("ev_%d", i)
		}
		out.Events = append(out.Events, memory.Appended{ID: id, Seq: int64(i + 1)})
		out.LastSeq = int64(i + 1)
	}
	return out, nil
}

func (f *fakeMemory) GetSession(_ context.Context, _, sessionID string) (memory.Session, error) {
	return memory.Session{ID: sessionID, UserID: "alice", Status: "open", CreatedAt: fakeTime, UpdatedAt: fakeTime}, nil
}

func (f *fakeMemory) ListEvents(context.Context, string, string, int64, int, bool) ([]memory.Event, error) {
	return []memory.Event{{ID: "m1", Seq: 1, Kind: "message", Role: "user", Content: "hi", OccurredAt: fakeTime}}, nil
}

func (f *fakeMemory) View(context.Context, string, string, memory.ViewInput) (memory.ViewOutput, error) {
	return memory.ViewOutput{Profile: "default"}, nil
}

func (f *fakeMemory) Condensations(context.Context, string, string) ([]memory.Condensation, error) {
	return nil, nil
}

func (f *fakeMemory) RequestCondensation(context.Context, string, string) (memory.Appended, error) {
	return memory.Appended{ID: "req_1", Seq: 2}, nil
}

func (f *fakeMemory) Condense(context.Context, string, string, string) (memory.ViewOutput, error) {
	return memory.ViewOutput{Profile: "default"}, nil
}

func (f *fakeMemory) Close(ctx context.Context, _, _ string, _ bool) (memory.CloseOutput, error) {
	f.noteDeadline(ctx, "Close")
	return memory.CloseOutput{Status: "closed", Done: true}, nil
}

func (f *fakeMemory) Facts(context.Context, string, string, memory.FactQuery) ([]memory.Fact, error) {
	return nil, nil
}

func (f *fakeMemory) Preferences(context.Context, string, string, memory.PreferenceQuery) ([]memory.Preference, error) {
	return nil, nil
}

func (f *fakeMemory) Conflicts(context.Context, string, string, string, int) ([]memory.Conflict, error) {
	return nil, nil
}

func (f *fakeMemory) ResolveConflict(context.Context, string, string, memory.ConflictResolution) (memory.Conflict, error) {
	return memory.Conflict{}, errs.ErrNotFound
}

func (f *fakeMemory) Entity(_ context.Context, _, id string, _ memory.EntityQuery) (memory.Entity, error) {
	// Wrapped as the graph layer wraps it, operation name first.
	return memory.Entity{}, fmt.Errorf("entity.get: %w", errs.NotFound("entity %q", id))
}

func (f *fakeMemory) Insights(context.Context, string, string, memory.InsightQuery) ([]memory.Insight, error) {
	return nil, nil
}

func (f *fakeMemory) GenerateInsights(context.Context, string, string) ([]memory.Insight, error) {
	return nil, nil
}

func (f *fakeMemory) ListJobs(context.Context, string, memory.JobQuery) ([]memory.Job, error) {
	return nil, nil
}

func (f *fakeMemory) RetryJob(context.Context, string, string) (memory.Job, error) {
	return memory.Job{}, errs.ErrNotFound
}

func (f *fakeMemory) Usage(context.Context, string) (memory.TenantUsage, error) {
	return memory.TenantUsage{}, nil
}

func (f *fakeMemory) Search(ctx context.Context, _ string, in retrieval.SearchInput) (retrieval.SearchOutput, error) {
	f.noteDeadline(ctx, "Search")
	return retrieval.SearchOutput{Results: []retrieval.SearchResult{{ID: "m1", Kind: retrieval.KindRaw, Text: "Alice: hi",
		Score: 1, Status: "current", OccurredAt: fakeTime, SourceEventIDs: []string{"m1"}}}}, nil
}

func (f *fakeMemory) Context(ctx context.Context, _ string, _ retrieval.ContextInput) (retrieval.ContextOutput, error) {
	f.noteDeadline(ctx, "Context")
	return retrieval.ContextOutput{Text: "## Long-term memory\n", Tokens: 5, MaxTokens: 2000}, nil
}
