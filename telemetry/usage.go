package telemetry

import (
	"context"
	"sync"
)

// Usage is what LLM and embedding calls cost: logical calls and the
// tokens the servers reported.
type Usage struct {
	Calls            int64 // chat completions
	EmbedCalls       int64 // embeddings requests
	PromptTokens     int64 // input tokens, embeddings included
	CompletionTokens int64
}

// Tokens is the total a token budget counts.
func (u Usage) Tokens() int64 { return u.PromptTokens + u.CompletionTokens }

// Zero reports whether nothing was used.
func (u Usage) Zero() bool { return u == Usage{} }

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{Calls: u.Calls + v.Calls, EmbedCalls: u.EmbedCalls + v.EmbedCalls,
		PromptTokens: u.PromptTokens + v.PromptTokens, CompletionTokens: u.CompletionTokens + v.CompletionTokens}
}

// Scope names whose work a context carries: the tenant always, the user
// and job when a background job runs it.
type Scope struct {
	Tenant string
	User   string
	Job    string
	// RequestID is the id of the request that caused the work: the
	// request itself, or the one that enqueued the job (its jobs carry it
	// on, so a job's trace names the request it came from).
	RequestID string
}

type scopeKey struct{}

// WithScope returns ctx carrying s.
func WithScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeFrom returns the scope ctx carries (zero when none).
func ScopeFrom(ctx context.Context) Scope {
	s, _ := ctx.Value(scopeKey{}).(Scope)
	return s
}

// Tally adds up the usage of one unit of work (a job attempt). It is safe
// for concurrent use: a job may embed and chat at once.
type Tally struct {
	mu     sync.Mutex
	u      Usage
	onCall func(Usage)
}

type tallyKey struct{}

// WithTally returns ctx carrying a fresh tally, and the tally. onCall, when
// set, is told each call's usage as it is recorded, on the caller's
// goroutine: the job wrapper stores it at once, so a budget check by the
// next job (which this one may enqueue before it returns) already sees it.
func WithTally(ctx context.Context, onCall func(Usage)) (context.Context, *Tally) {
	t := &Tally{onCall: onCall}
	return context.WithValue(ctx, tallyKey{}, t), t
}

// Record adds u to the tally ctx carries, if any; usage outside a tallied
// unit of work (a request's own LLM call) is only counted in metrics.
func Record(ctx context.Context, u Usage) {
	t, ok := ctx.Value(tallyKey{}).(*Tally)
	if !ok {
		return
	}
	t.mu.Lock()
	t.u = t.u.Add(u)
	t.mu.Unlock()
	if t.onCall != nil {
		t.onCall(u)
	}
}

// Usage returns the total so far.
func (t *Tally) Usage() Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.u
}
