package memory

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/graph"
)

// Engine is the language engine: the offline rule-based one or the LLM
// one. Both live in extract and have this method set.
type Engine interface {
	Summarize(ctx context.Context, req extract.SummaryRequest) (extract.Summary, error)
	SelectEvents(ctx context.Context, req extract.AttentionRequest) ([]string, error)
	Extract(ctx context.Context, in extract.Input) (extract.Result, error)
	Insights(ctx context.Context, in extract.InsightInput) ([]extract.Insight, error)
}

// Embedder turns texts into vectors (an OpenAI-compatible embeddings API);
// it is optional: without it, windows are not embedded and search uses
// full text, graph and recency.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// The store methods the service calls, as small interfaces by what they
// serve; *graph.Store satisfies all of them.

// SessionStore is the raw tier: sessions and their events.
type SessionStore interface {
	AppendEvents(ctx context.Context, tenant, sessionID, userID, agentID string, events []graph.NewRawEvent) (graph.AppendResult, error)
	GetSession(ctx context.Context, tenant, sessionID string) (graph.Session, error)
	ListEvents(ctx context.Context, tenant, sessionID string, afterSeq int64, limit int) ([]graph.RawEvent, error)
	SessionLog(ctx context.Context, tenant, sessionID string) (graph.SessionLog, error)
	CloseSession(ctx context.Context, tenant, sessionID string, idleBefore time.Time) (graph.Session, error)
	IdleSessions(ctx context.Context, before time.Time, limit int) ([]graph.SessionRef, error)
}

// WindowStore is the event tier: condensations and session summaries, the
// windows extraction reads.
type WindowStore interface {
	AppendCondensation(ctx context.Context, tenant, sessionID string, n graph.NewEventNode) (graph.EventNode, error)
	WriteSessionSummary(ctx context.Context, tenant, sessionID string, summary graph.NewEventNode) (graph.EventNode, error)
	UncoveredEvents(ctx context.Context, tenant, sessionID string) ([]graph.RawEvent, error)
	ListEventNodes(ctx context.Context, tenant, sessionID string) ([]graph.EventNode, error)
	EventWindow(ctx context.Context, tenant, eventID string) (graph.EventNode, []graph.RawEvent, error)
	MarkExtracted(ctx context.Context, tenant, eventID, extractor string) error
}

// JobStore is the durable job table as the service enqueues and lists.
type JobStore interface {
	EnqueueJob(ctx context.Context, tenant string, spec graph.JobSpec) (graph.Job, bool, error)
	ListJobs(ctx context.Context, tenant string, filter graph.JobFilter) ([]graph.Job, error)
	CountActiveJobs(ctx context.Context, tenant, sessionID string) (int, error)
	RetryJob(ctx context.Context, tenant, id string) (graph.Job, error)
}

// KnowledgeStore writes what extraction found and reads it back.
type KnowledgeStore interface {
	WriteKnowledge(ctx context.Context, w graph.KnowledgeWrite) (graph.KnowledgeResult, error)
	Facts(ctx context.Context, tenant, userID string, q graph.FactQuery) ([]graph.Fact, error)
	Preferences(ctx context.Context, tenant, userID string, q graph.PreferenceQuery) ([]graph.Preference, error)
	Conflicts(ctx context.Context, tenant, userID, status string, limit int) ([]graph.Conflict, error)
	ResolveConflict(ctx context.Context, tenant, conflictID string, r graph.ConflictResolution) (graph.Conflict, error)
	Entity(ctx context.Context, tenant, entityID string, q graph.EntityQuery) (graph.EntityView, error)
}

// InsightStore is the insight tier.
type InsightStore interface {
	WriteInsights(ctx context.Context, tenant, userID string, in []graph.InsightInput) (graph.InsightWriteResult, error)
	Insights(ctx context.Context, tenant, userID string, q graph.InsightQuery) ([]graph.Insight, error)
	InsightMaterial(ctx context.Context, tenant, userID string, since time.Time, limit int) (graph.InsightMaterial, error)
}

// EmbeddingWaiter says whether a session's memories all have their vectors.
type EmbeddingWaiter interface {
	SessionEmbedded(ctx context.Context, tenant, sessionID string) (bool, error)
}

// Config tunes the service; cmd/graphmem fills it from the environment.
type Config struct {
	// Profiles are the named condenser configurations; DefaultProfile is
	// used when a request names none.
	Profiles       map[string]condenser.Config
	DefaultProfile string
	// ViewMode selects how condensations fold into views (SDK by default).
	ViewMode condenser.ViewMode
	// Offload replaces large tool outputs in returned views with a preview
	// and a reference (the full event stays in the raw tier).
	Offload condenser.OffloadOptions
	// EngineName is recorded as the summarizer/extractor of every record.
	EngineName string
	// EngineIsLLM says the engine calls an LLM (for the call accounting).
	EngineIsLLM bool
	// JobMaxAttempts bounds retries of background jobs; 0 leaves it to
	// the job table (graph.DefaultJobMaxAttempts).
	JobMaxAttempts int
	// Budget caps each tenant's LLM tokens per window (needs Deps.Usage).
	Budget Budget
}

// Service is graphmem's orchestration. It is safe for concurrent use and
// keeps no per-session state in memory: every request reads the graph, so
// any replica can serve any session.
type Service struct {
	sessions  SessionStore
	windows   WindowStore
	jobs      JobStore
	knowledge KnowledgeStore
	insights  InsightStore
	embedded  EmbeddingWaiter // nil when no embedding lane runs
	engine    Engine
	embedder  Embedder // entity-name embedder; nil unless entity vectors are on
	counter   condenser.TokenCounter
	cfg       Config
	log       *slog.Logger
	now       func() time.Time
	// kicker wakes the local workers after an enqueue (nil: none).
	kicker func()
	// stored wakes the local embedding lane after memories were stored: an
	// append, or a job that may have written summaries or insights (nil:
	// none).
	stored func()
	// finished wakes waitForJobs when a local worker records a job's end
	// (see Service.JobQueue); polling remains for other replicas' jobs.
	finished jobEnds
	usage    UsageStore // nil: usage is counted in metrics only
}

// SetKicker registers the function that wakes local workers; main wires the
// worker pool's Kick here.
func (s *Service) SetKicker(kick func()) { s.kicker = kick }

// SetStoredNotifier registers the function that wakes the local embedding
// lane when memories are stored; main wires EmbeddingLane.Notify here. Call
// it before serving.
func (s *Service) SetStoredNotifier(notify func()) { s.stored = notify }

func (s *Service) notifyStored() {
	if s.stored != nil {
		s.stored()
	}
}

// Deps are the service's collaborators; *graph.Store is every store.
type Deps struct {
	Sessions  SessionStore
	Windows   WindowStore
	Jobs      JobStore
	Knowledge KnowledgeStore
	Insights  InsightStore
	Engine    Engine
	Counter   condenser.TokenCounter
	// Embedder is optional; with it, the names of extracted entities are
	// embedded for entity resolution by vector. Memories themselves are
	// embedded by the EmbeddingLane.
	Embedder Embedder
	// Embedded is optional; with it, Close with wait also waits until the
	// session's memories have their vectors (the embedding lane runs).
	Embedded EmbeddingWaiter
	// Usage is optional; with it, each job's LLM usage is stored on the
	// job and in its tenant's budget window, and Config.Budget applies.
	Usage UsageStore
	Log   *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// New validates the configuration (every profile must build) and returns
// the service.
func New(deps Deps, cfg Config) (*Service, error) {
	if deps.Sessions == nil || deps.Windows == nil || deps.Jobs == nil || deps.Knowledge == nil || deps.Insights == nil ||
		deps.Engine == nil || deps.Counter == nil {
		return nil, fmt.Errorf("memory: the session, window, job, knowledge and insight stores, an engine and a token counter are required")
	}
	if deps.Log == nil {
		deps.Log = slog.New(slog.DiscardHandler)
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if cfg.Profiles == nil {
		cfg.Profiles = condenser.Profiles()
	}
	if cfg.DefaultProfile == "" {
		cfg.DefaultProfile = condenser.ProfileDefault
	}
	if cfg.ViewMode == "" {
		cfg.ViewMode = condenser.ModeSDK
	}
	if cfg.EngineName == "" {
		cfg.EngineName = "offline"
	}
	s := &Service{sessions: deps.Sessions, windows: deps.Windows, jobs: deps.Jobs, knowledge: deps.Knowledge,
		insights: deps.Insights, embedded: deps.Embedded, engine: deps.Engine, embedder: deps.Embedder, counter: deps.Counter,
		cfg: cfg, log: deps.Log, now: deps.Now, usage: deps.Usage}
	if _, ok := cfg.Profiles[cfg.DefaultProfile]; !ok {
		return nil, fmt.Errorf("memory: default condenser profile %q is not defined", cfg.DefaultProfile)
	}
	for name, p := range cfg.Profiles {
		if _, err := condenser.New(p, s.condenserDeps()); err != nil {
			return nil, fmt.Errorf("memory: condenser profile %q: %w", name, err)
		}
	}
	return s, nil
}

// ProfileNames lists the configured condenser profiles.
func (s *Service) ProfileNames() []string {
	out := make([]string, 0, len(s.cfg.Profiles))
	for n := range s.cfg.Profiles {
		out = append(out, n)
	}
	return out
}

// newID returns a time-ordered unique id with a readable prefix.
func newID(prefix string) string {
	id, err := uuid.NewV7()
	if err != nil {
		var b [16]byte
		_, _ = rand.Read(b[:])
		return prefix + hex.EncodeToString(b[:])
	}
	return prefix + id.String()
}
