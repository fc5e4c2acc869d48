package memory

import (
	"context"
	"errors"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// The knowledge layer's read models are the graph's own types, re-exported
// so the API depends on this package only.
type (
	Fact               = graph.Fact
	FactQuery          = graph.FactQuery
	Preference         = graph.Preference
	PreferenceQuery    = graph.PreferenceQuery
	Conflict           = graph.Conflict
	ConflictResolution = graph.ConflictResolution
	EntityView         = graph.EntityView
	EntityQuery        = graph.EntityQuery
	Insight            = graph.Insight
	InsightQuery       = graph.InsightQuery
)

// Facts returns a user's facts: current ones by default, what held at AsOf,
// or the full history.
func (s *Service) Facts(ctx context.Context, tenant, userID string, q FactQuery) ([]Fact, error) {
	facts, err := s.store.Facts(ctx, tenant, userID, q)
	if q.Predicate != "" && errors.Is(err, errs.ErrInvalid) {
		// The only input the store can find invalid here is the type.
		return nil, errs.Invalid("predicate", "oneof", "%q is not a fact type; fact types are UPPER_SNAKE relationship types such as LIVES_IN or WORKS_AT (GET /v1/users/{user_id}/facts lists those in use)", q.Predicate)
	}
	return facts, err
}

// Preferences returns the user's preferences with their validity and status.
func (s *Service) Preferences(ctx context.Context, tenant, userID string, q PreferenceQuery) ([]Preference, error) {
	return s.store.Preferences(ctx, tenant, userID, q)
}

// Conflicts lists a user's conflicts, optionally by status.
func (s *Service) Conflicts(ctx context.Context, tenant, userID, status string, limit int) ([]Conflict, error) {
	return s.store.Conflicts(ctx, tenant, userID, status, limit)
}

// ResolveConflict applies a reviewer's decision.
func (s *Service) ResolveConflict(ctx context.Context, tenant, conflictID string, r ConflictResolution) (Conflict, error) {
	return s.store.ResolveConflict(ctx, tenant, conflictID, r)
}

// Entity returns an entity with its neighbourhood.
func (s *Service) Entity(ctx context.Context, tenant, entityID string, q EntityQuery) (EntityView, error) {
	return s.store.Entity(ctx, tenant, entityID, q)
}

// Insights lists a user's insights.
func (s *Service) Insights(ctx context.Context, tenant, userID string, q InsightQuery) ([]Insight, error) {
	return s.store.Insights(ctx, tenant, userID, q)
}
