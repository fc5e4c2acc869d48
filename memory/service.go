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
// it is optional: without it, retrieval uses full text, graph and recency.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// sessionStore is what sessions and condensation need from the graph.
type sessionStore interface {
	AppendEvents(ctx context.Context, tenant, sessionID, userID, agentID string, events []graph.NewRawEvent) (graph.AppendResult, error)
	GetSession(ctx context.Context, tenant, sessionID string) (graph.Session, error)
	ListEvents(ctx context.Context, tenant, sessionID string, afterSeq int64, limit int) ([]graph.RawEvent, error)
	SessionLog(ctx context.Context, tenant, sessionID string) (graph.SessionLog, error)
	AppendCondensation(ctx context.Context, tenant, sessionID string, n graph.NewEventNode) (graph.EventNode, error)
	CloseSession(ctx context.Context, tenant, sessionID string, idleBefore time.Time) (graph.Session, error)
	WriteSessionSummary(ctx context.Context, tenant, sessionID string, summary graph.NewEventNode) (graph.EventNode, error)
	UncoveredEvents(ctx context.Context, tenant, sessionID string) ([]graph.RawEvent, error)
	ListEventNodes(ctx context.Context, tenant, sessionID string) ([]graph.EventNode, error)
}

// Store is everything the service needs from the graph; *graph.Store
// satisfies it.
type Store interface {
	sessionStore
	jobStore
	knowledgeStore
	idleStore
	searchStore
	vectorStore
}

// vectorStore stores and queries embeddings.
type vectorStore interface {
	SetEmbeddings(ctx context.Context, tenant string, items []graph.Embedding) error
	VectorSearch(ctx context.Context, sc graph.SearchScope, vec []float32, limit int) ([]graph.VectorHit, error)
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
	// JobMaxAttempts bounds retries of background jobs.
	JobMaxAttempts int
	// Search tunes retrieval ranking; the zero value means the defaults.
	Search SearchConfig
}

// Service is graphmem's orchestration. It is safe for concurrent use and
// keeps no per-session state in memory: every request reads the graph, so
// any replica can serve any session.
type Service struct {
	store    Store
	engine   Engine
	embedder Embedder // nil when no embedder is configured
	counter  condenser.TokenCounter
	cfg      Config
	log      *slog.Logger
	now      func() time.Time
	// kicker wakes the local workers after an enqueue (nil: none).
	kicker func()
	// hints maps query-word stems to the fact types they ask about.
	hints hintIndex
}

// SetKicker registers the function that wakes local workers; main wires the
// worker pool's Kick here.
func (s *Service) SetKicker(kick func()) { s.kicker = kick }

// Deps are the service's collaborators.
type Deps struct {
	Store   Store
	Engine  Engine
	Counter condenser.TokenCounter
	// Embedder is optional; with it, windows are embedded at extraction and
	// queries at search.
	Embedder Embedder
	Log      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// New validates the configuration (every profile must build) and returns
// the service.
func New(deps Deps, cfg Config) (*Service, error) {
	if deps.Store == nil || deps.Engine == nil || deps.Counter == nil {
		return nil, fmt.Errorf("memory: store, engine and token counter are required")
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
	if cfg.JobMaxAttempts <= 0 {
		cfg.JobMaxAttempts = 5
	}
	if cfg.Search.Fusion == "" {
		cfg.Search = DefaultSearchConfig()
	}
	s := &Service{store: deps.Store, engine: deps.Engine, embedder: deps.Embedder, counter: deps.Counter, cfg: cfg,
		log: deps.Log, now: deps.Now, hints: newHintIndex()}
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
