package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/ontology"
	"github.com/graphmem/graphmem/telemetry"
)

// Config is what the graph layer needs to know; cmd/graphmem fills it from
// the environment.
type Config struct {
	URI      string
	Username string // empty means no authentication (the local server)
	Password string
	Database string // default "neo4j"
	// MaxPoolSize bounds Bolt connections per replica.
	MaxPoolSize int
	// QueryTimeout is the server-side transaction timeout of each query.
	QueryTimeout time.Duration
	// ConnectTimeout bounds how long Open waits for the server to answer.
	ConnectTimeout time.Duration
	// EmbeddingDimensions > 0 creates vector indexes of that size; 0 means
	// no embedder is configured and no vector index is created.
	EmbeddingDimensions int
	// VectorCacheBytes bounds the vectors held for vector search in Go
	// (vectorcache.go): 0 means 64 MiB, negative turns the cache off (every
	// vector search scans in Cypher). VectorCacheRefresh is how stale a
	// user's vectors may be before a replica reads what others embedded
	// since (0: 5 s).
	VectorCacheBytes   int64
	VectorCacheRefresh time.Duration
	// RawCacheTurns bounds the raw turns this replica keeps the immutable
	// part of for search (rawcache.go): 0 means DefaultRawCacheTurns,
	// negative turns the cache off (every search reads its turns' text).
	RawCacheTurns int
	// ExtraFactTypes extends the ontology's fact vocabulary (validated).
	ExtraFactTypes []string
	// Observe, when set, is called after every query with its name,
	// duration and error; the service feeds it into Prometheus.
	Observe func(op string, d time.Duration, err error)
	// AppVersion is sent as transaction metadata so queries can be traced
	// to the graphmem build in Neo4j's query log.
	AppVersion string
	// Tracer, when set, gets one client span per statement (or managed
	// transaction), named after its op; nil traces nothing.
	Tracer trace.TracerProvider
}

// Store is the Neo4j-backed memory store. It is safe for concurrent use and
// holds no per-request state: many replicas can share one database.
type Store struct {
	driver    neo4j.DriverWithContext
	cfg       Config
	tracer    trace.Tracer
	log       *slog.Logger
	factTypes []ontology.Predicate
	// schemaApplied flips once ApplySchema succeeded; Ready reports it.
	schemaApplied atomic.Bool
	// unreachable is set when a statement could not reach Neo4j, and
	// cleared by the first connectivity check that succeeds (see reachable).
	unreachable atomic.Bool
	// vcache holds users' vectors for exact vector search in Go
	// (vectorcache.go); nil without an embedder.
	vcache *vectorCache
	// rcache holds the immutable part of raw turns search read
	// (rawcache.go); nil when RawCacheTurns is negative.
	rcache *rawCache
}

// Open connects to Neo4j, retrying until ConnectTimeout so a server that is
// still starting is waited for rather than reported as down.
func Open(ctx context.Context, cfg Config, log *slog.Logger) (*Store, error) {
	if cfg.Database == "" {
		cfg.Database = "neo4j"
	}
	if cfg.MaxPoolSize <= 0 {
		cfg.MaxPoolSize = 50
	}
	if cfg.QueryTimeout <= 0 {
		cfg.QueryTimeout = 30 * time.Second
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 60 * time.Second
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for _, t := range cfg.ExtraFactTypes {
		if !ontology.ValidRelType(t) {
			return nil, fmt.Errorf("open graph: %w: extra fact type %q must be UPPER_SNAKE", ErrInvalid, t)
		}
	}
	auth := neo4j.NoAuth()
	if cfg.Username != "" {
		auth = neo4j.BasicAuth(cfg.Username, cfg.Password, "")
	}
	driver, err := neo4j.NewDriverWithContext(cfg.URI, auth, func(c *neo4j.Config) {
		c.MaxConnectionPoolSize = cfg.MaxPoolSize
		c.ConnectionAcquisitionTimeout = 10 * time.Second
		c.SocketConnectTimeout = 5 * time.Second
		// Retries ride out deadlocks and brief hiccups; an outage should
		// become a 503 within seconds, not half a minute.
		c.MaxTransactionRetryTime = 5 * time.Second
		c.MaxConnectionLifetime = 30 * time.Minute
	})
	if err != nil {
		return nil, fmt.Errorf("open graph: %w: %w", ErrInvalid, err)
	}
	s := &Store{driver: driver, cfg: cfg, log: log, factTypes: ontology.Vocabulary(cfg.ExtraFactTypes...),
		tracer: telemetry.Tracer(cfg.Tracer, "graph"), rcache: newRawCache(cfg.RawCacheTurns)}
	if cfg.EmbeddingDimensions > 0 && cfg.VectorCacheBytes >= 0 {
		s.vcache = newVectorCache(cfg.VectorCacheBytes, cfg.VectorCacheRefresh)
	}

	deadline := time.Now().Add(cfg.ConnectTimeout)
	for {
		err = s.ping(ctx)
		if err == nil {
			return s, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			_ = driver.Close(context.WithoutCancel(ctx))
			return nil, fmt.Errorf("open graph at %s: %w", cfg.URI, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Close releases the driver's connections.
func (s *Store) Close(ctx context.Context) error {
	return s.driver.Close(ctx)
}

// FactTypes returns the relationship types facts may take.
func (s *Store) FactTypes() []ontology.Predicate {
	out := make([]ontology.Predicate, len(s.factTypes))
	copy(out, s.factTypes)
	return out
}

// Ready reports whether Neo4j answers and the schema is applied; /readyz
// uses it so a load balancer sends no traffic before both hold.
func (s *Store) Ready(ctx context.Context) error {
	if err := s.ping(ctx); err != nil {
		return err
	}
	if !s.schemaApplied.Load() {
		return fmt.Errorf("ready: %w: schema not applied yet", ErrUnavailable)
	}
	return nil
}

func (s *Store) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := s.driver.VerifyConnectivity(ctx); err != nil {
		return mapError("ping", err)
	}
	_, err := s.read(ctx, "ping", "RETURN 1 AS ok", nil)
	return err
}

// read runs one read-only statement routed to readers.
func (s *Store) read(ctx context.Context, op, cypher string, params map[string]any) (*neo4j.EagerResult, error) {
	return s.query(ctx, op, cypher, params, neo4j.ExecuteQueryWithReadersRouting())
}

// write runs one statement routed to the writer.
func (s *Store) write(ctx context.Context, op, cypher string, params map[string]any) (*neo4j.EagerResult, error) {
	return s.query(ctx, op, cypher, params, neo4j.ExecuteQueryWithWritersRouting())
}

func (s *Store) query(ctx context.Context, op, cypher string, params map[string]any, routing neo4j.ExecuteQueryConfigurationOption) (res *neo4j.EagerResult, err error) {
	ctx, span := s.startSpan(ctx, op, cypher)
	defer func() { endSpan(span, err) }()
	start := time.Now()
	if err := s.reachable(ctx, op); err != nil {
		s.observe(op, time.Since(start), err)
		return nil, err
	}
	res, err = neo4j.ExecuteQuery(ctx, s.driver, cypher, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.cfg.Database), routing,
		neo4j.ExecuteQueryWithTransactionConfig(s.txConfig(op)...))
	s.noteReach(err)
	err = mapError(op, err)
	s.observe(op, time.Since(start), err)
	if err == nil && res != nil {
		span.SetAttributes(attribute.Int("db.response.returned_rows", len(res.Records)))
	}
	return res, err
}

// reachable fails fast while Neo4j is known to be unreachable: after a
// statement could not reach it, each later one first checks the connection
// (a refused connection answers at once) instead of waiting out the
// driver's retries, which made every request of an outage take 15-30 s to
// answer its 503.
func (s *Store) reachable(ctx context.Context, op string) error {
	if !s.unreachable.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	// A statement, not VerifyConnectivity: while Neo4j starts, Bolt accepts
	// connections some 45 s before the database answers (measured by make
	// reliability on a loaded machine), and a request let through then
	// waited out its 30 s timeout instead of getting its 503 at once.
	if _, err := neo4j.ExecuteQuery(ctx, s.driver, "RETURN 1", nil, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.cfg.Database), neo4j.ExecuteQueryWithReadersRouting()); err != nil {
		return fmt.Errorf("%s: %w: Neo4j is unreachable: %w", op, ErrUnavailable, err)
	}
	s.unreachable.Store(false)
	return nil
}

// noteReach records whether a statement's error says Neo4j could not be
// reached at all (as opposed to a failing statement).
func (s *Store) noteReach(err error) {
	var limit *neo4j.TransactionExecutionLimit
	switch {
	case neo4j.IsConnectivityError(err):
	case errors.As(err, &limit) && len(limit.Errors) > 0 && neo4j.IsConnectivityError(limit.Errors[len(limit.Errors)-1]):
	default:
		return
	}
	s.unreachable.Store(true)
}

// writeTx runs fn in a managed write transaction. The driver retries fn on
// transient errors, so fn must be idempotent and consume its results.
func writeTx[T any](ctx context.Context, s *Store, op string, fn func(tx neo4j.ManagedTransaction) (T, error)) (out T, err error) {
	ctx, span := s.startSpan(ctx, op, "")
	defer func() { endSpan(span, err) }()
	start := time.Now()
	if err := s.reachable(ctx, op); err != nil {
		s.observe(op, time.Since(start), err)
		var zero T
		return zero, err
	}
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.cfg.Database, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(context.WithoutCancel(ctx))
	out, err = neo4j.ExecuteWrite(ctx, sess, fn, s.txConfig(op)...)
	s.noteReach(err)
	err = mapError(op, err)
	s.observe(op, time.Since(start), err)
	return out, err
}

func (s *Store) txConfig(op string) []func(*neo4j.TransactionConfig) {
	return []func(*neo4j.TransactionConfig){
		neo4j.WithTxTimeout(s.cfg.QueryTimeout),
		neo4j.WithTxMetadata(map[string]any{"app": "graphmem", "version": s.cfg.AppVersion, "op": op}),
	}
}

func (s *Store) observe(op string, d time.Duration, err error) {
	if s.cfg.Observe != nil {
		s.cfg.Observe(op, d, err)
	}
}

// runTx runs one statement inside a managed transaction and collects its
// records, so multi-statement work functions stay short.
func runTx(ctx context.Context, tx neo4j.ManagedTransaction, cypher string, params map[string]any) ([]*neo4j.Record, error) {
	res, err := tx.Run(ctx, cypher, params)
	if err != nil {
		return nil, err
	}
	return res.Collect(ctx)
}

// get reads a typed value from a record, treating a missing key or a null
// as the zero value; a value of the wrong type is an error.
func get[T any](rec *neo4j.Record, key string) (T, error) {
	var zero T
	raw, ok := rec.Get(key)
	if !ok || raw == nil {
		return zero, nil
	}
	v, ok := raw.(T)
	if !ok {
		return zero, fmt.Errorf("record field %q: unexpected type %T", key, raw)
	}
	return v, nil
}

// errNoRecords is returned by helpers that expected a row.
var errNoRecords = errors.New("no records")
