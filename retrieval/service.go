package retrieval

import (
	"context"
	"errors"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// TextSearcher runs the full-text candidate queries of one search in one
// round trip, and resolves the query's name n-grams to entities.
type TextSearcher interface {
	SearchText(ctx context.Context, sc graph.SearchScope, terms, grams []string, aboutUser bool, lim graph.TextLimits) (graph.Candidates, error)
}

// GraphExpander walks current facts around entities.
type GraphExpander interface {
	Expand(ctx context.Context, sc graph.SearchScope, seeds, types []string, perEntity int, rare []string, mentionLimit int) (graph.Expansion, error)
	Neighbors(ctx context.Context, sc graph.SearchScope, entityIDs []string, types []string, perEntity int) ([]graph.Hop, error)
}

// VectorSearcher finds the nodes nearest to a query vector, and reads the
// stored vectors of the memories a search holds (the meaning stage weighs
// them by their cosine to the query, the currency stage reads their topics).
type VectorSearcher interface {
	VectorSearch(ctx context.Context, sc graph.SearchScope, q graph.VectorQuery) ([]graph.VectorHit, error)
	Vectors(ctx context.Context, sc graph.SearchScope, refs []graph.VectorRef) (map[graph.VectorRef][]float32, error)
}

// TurnReader reads turns by their place in the conversation: the one
// before a turn (the statement an assistant's reply acknowledges).
type TurnReader interface {
	PrecedingTurns(ctx context.Context, sc graph.SearchScope, turns []graph.TurnRef) (map[graph.TurnRef]graph.RawEvent, error)
}

// ContextStore reads what a context shows besides search results: the
// freshest insights, the user's preferences and their own facts.
type ContextStore interface {
	Insights(ctx context.Context, tenant, userID string, q graph.InsightQuery) ([]graph.Insight, error)
	Preferences(ctx context.Context, tenant, userID string, q graph.PreferenceQuery) ([]graph.Preference, error)
	UserEntityID(ctx context.Context, tenant, userID string) (string, error)
	Facts(ctx context.Context, tenant, userID string, q graph.FactQuery) ([]graph.Fact, error)
}

// Embedder turns texts into vectors; with one, queries are embedded and
// the vector index is a signal.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// TokenCounter counts the tokens of a prompt's text.
type TokenCounter interface {
	Count(text string) int
}

// Service ranks memories and assembles contexts. It is safe for concurrent
// use and keeps no state between requests beyond memos of pure functions.
type Service struct {
	text     TextSearcher
	graph    GraphExpander
	vectors  VectorSearcher // nil without an embedder
	store    ContextStore
	views    SessionViewer
	embedder Embedder    // nil: no vector signal
	qcache   *queryCache // nil: every question is embedded
	topics   TopicReader // nil: no slot reading by meaning
	counter  TokenCounter
	access   AccessTracker // nil: no access counts, no decay
	turns    TurnReader    // nil: replies do not lead back to what they acknowledge
	cfg      Config
	hints    hintIndex
	// statements memoizes the reading of candidate turns (candidates.go).
	statements *statementMemo
	now        func() time.Time
}

// Deps are the service's collaborators; *graph.Store is every store.
type Deps struct {
	Text    TextSearcher
	Graph   GraphExpander
	Context ContextStore
	// Views gives Context the session's condensed view.
	Views   SessionViewer
	Counter TokenCounter
	// Embedder and Vectors are optional and go together: with them,
	// queries are embedded and the vector index is searched.
	Embedder Embedder
	Vectors  VectorSearcher
	// Topics is optional (it needs the embedder): with it, the currency
	// stage reads which slot a question and the user's statements speak
	// of.
	Topics TopicReader
	// Access is optional: access counts and the decay they feed.
	Access AccessTracker
	// Turns is optional: with it, an assistant's reply that matches a
	// question about the user leads to the statement it replies to.
	Turns TurnReader
	// Now is the clock recency is measured against; nil means time.Now.
	Now func() time.Time
}

// New returns the service; a zero Config means DefaultConfig.
func New(deps Deps, cfg Config) (*Service, error) {
	if deps.Text == nil || deps.Graph == nil || deps.Context == nil || deps.Views == nil || deps.Counter == nil {
		return nil, errors.New("retrieval: text, graph and context stores, session views and a token counter are required")
	}
	if (deps.Embedder == nil) != (deps.Vectors == nil) {
		return nil, errors.New("retrieval: an embedder needs a vector store, and a vector store an embedder")
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if cfg.Fusion == "" {
		cfg = DefaultConfig()
	}
	return &Service{text: deps.Text, graph: deps.Graph, vectors: deps.Vectors, store: deps.Context, views: deps.Views,
		embedder: deps.Embedder, topics: deps.Topics, counter: deps.Counter, access: deps.Access, turns: deps.Turns, cfg: cfg, hints: newHintIndex(), now: deps.Now,
		statements: newStatementMemo(statementMemoSize), qcache: newQueryCache(cfg.QueryCache)}, nil
}
