package memory

import (
	"context"
	"errors"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
)

// The knowledge layer's read models, as clients see them. They mirror what
// the graph stores; the API renders them.

// Fact is a typed fact between two entities, with its validity and its
// provenance.
type Fact struct {
	ID           string
	SubjectID    string
	Subject      string // subject name
	Predicate    string // relationship type
	RawPredicate string // the verb phrase when Predicate is RELATED_TO
	ObjectID     string
	Object       string // object name
	Qualifier    string
	Fact         string // the readable sentence
	Polarity     string // positive | negative
	Confidence   float64
	Strength     float64
	Preference   bool
	Status       string // knowledge.Current | knowledge.Superseded
	ValidFrom    time.Time
	ValidTo      time.Time
	RecordedAt   time.Time
	ExpiredAt    time.Time
	MentionCount int64
	// SourceEventIDs are the raw turns it was read from, SessionIDs where
	// they were said.
	SourceEventIDs []string
	SessionIDs     []string
	SupersededBy   string
	ExtractedBy    string
	// EditIDs are the direct edits that touched this version (edits.go).
	EditIDs []string
	// Pinned and Importance are its marks (marks.go); "" means normal.
	Pinned     bool
	Importance string
}

// FactQuery selects a user's facts: current ones by default, what held at
// AsOf, or the full history.
type FactQuery struct {
	AsOf           *time.Time
	KnownAt        *time.Time // record time: what graphmem believed then
	IncludeHistory bool
	Subject        string // entity id; empty means every subject of the user
	Predicate      string // relationship type
	Limit          int
}

// Preference is a like, dislike or favourite of the user.
type Preference struct {
	FactID         string
	Predicate      string // LIKES, DISLIKES, PREFERS, HAS_FAVORITE, ...
	Qualifier      string
	ObjectID       string
	Object         string
	Polarity       string // positive | negative
	Strength       float64
	Confidence     float64
	Status         string
	ValidFrom      time.Time
	ValidTo        time.Time
	RecordedAt     time.Time
	ExpiredAt      time.Time
	SourceEventIDs []string
	Fact           string
	SupersededBy   string
}

// PreferenceQuery selects a user's preferences.
type PreferenceQuery struct {
	AsOf           *time.Time
	KnownAt        *time.Time
	IncludeHistory bool
	Limit          int
}

// Conflict is a clash between an old and a new fact, open or resolved.
type Conflict struct {
	ID         string
	UserID     string
	Status     knowledge.ConflictStatus // open | resolved
	Resolution knowledge.Resolution     // auto | manual | "" while open
	Kind       knowledge.ConflictKind   // exclusive | polarity | negation | stale
	Winner     knowledge.Winner         // new | old | ""
	Predicate  string
	OldFactID  string
	NewFactID  string
	OldFact    string
	NewFact    string
	SubjectID  string
	Subject    string
	DetectedAt time.Time
	ResolvedAt time.Time
	Note       string
}

// ConflictResolution is a reviewer's decision.
type ConflictResolution struct {
	Winner string // "new" or "old"
	Note   string
}

// Entity is an entity with its facts and the events that mention it.
type Entity struct {
	ID           string
	UserID       string
	Name         string
	Type         string
	Aliases      []string
	MergedNames  []string
	IsUser       bool
	MentionCount int64
	CreatedAt    time.Time
	UpdatedAt    time.Time
	Out          []Fact   // facts whose subject it is
	In           []Fact   // facts whose object it is
	RawEventIDs  []string // raw events that mention it
	EventIDs     []string // event-tier nodes that mention it
}

// EntityQuery selects what an entity view includes.
type EntityQuery struct {
	IncludeHistory bool // superseded facts too
	Limit          int  // per list
}

// EntityRef names an entity.
type EntityRef struct {
	ID   string
	Name string
	Type string
}

// Insight is a higher-level observation derived from many events.
type Insight struct {
	ID             string
	Text           string
	Confidence     float64
	Status         string // current | superseded
	CreatedAt      time.Time
	SupersededAt   time.Time
	SupersededBy   string
	SourceEventIDs []string
	FactIDs        []string
	GeneratedBy    string
	Entities       []EntityRef
}

// InsightQuery selects a user's insights.
type InsightQuery struct {
	IncludeSuperseded bool
	Limit             int
}

// Facts returns a user's facts: current ones by default, what held at AsOf,
// or the full history.
func (s *Service) Facts(ctx context.Context, tenant, userID string, q FactQuery) ([]Fact, error) {
	facts, err := s.knowledge.Facts(ctx, tenant, userID, graph.FactQuery{AsOf: q.AsOf, KnownAt: q.KnownAt, IncludeHistory: q.IncludeHistory,
		Subject: q.Subject, Predicate: q.Predicate, Limit: q.Limit})
	if q.Predicate != "" && errors.Is(err, errs.ErrInvalid) {
		// The only input the store can find invalid here is the type.
		return nil, errs.Invalid("predicate", "oneof", "%q is not a fact type; fact types are UPPER_SNAKE relationship types such as LIVES_IN or WORKS_AT (GET /v1/users/{user_id}/facts lists those in use)", q.Predicate)
	}
	if err != nil {
		return nil, err
	}
	return convertAll(facts, fromGraphFact), nil
}

// Preferences returns the user's preferences with their validity and status.
func (s *Service) Preferences(ctx context.Context, tenant, userID string, q PreferenceQuery) ([]Preference, error) {
	prefs, err := s.knowledge.Preferences(ctx, tenant, userID, graph.PreferenceQuery{AsOf: q.AsOf, KnownAt: q.KnownAt,
		IncludeHistory: q.IncludeHistory, Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	return convertAll(prefs, fromGraphPreference), nil
}

// Conflicts lists a user's conflicts, optionally by status.
func (s *Service) Conflicts(ctx context.Context, tenant, userID, status string, limit int) ([]Conflict, error) {
	list, err := s.knowledge.Conflicts(ctx, tenant, userID, status, limit)
	if err != nil {
		return nil, err
	}
	return convertAll(list, fromGraphConflict), nil
}

// ResolveConflict applies a reviewer's decision.
func (s *Service) ResolveConflict(ctx context.Context, tenant, conflictID string, r ConflictResolution) (Conflict, error) {
	c, err := s.knowledge.ResolveConflict(ctx, tenant, conflictID, graph.ConflictResolution{Winner: r.Winner, Note: r.Note})
	if err != nil {
		return Conflict{}, err
	}
	return fromGraphConflict(c), nil
}

// Entity returns an entity with its neighbourhood.
func (s *Service) Entity(ctx context.Context, tenant, entityID string, q EntityQuery) (Entity, error) {
	e, err := s.knowledge.Entity(ctx, tenant, entityID, graph.EntityQuery{IncludeHistory: q.IncludeHistory, Limit: q.Limit})
	if err != nil {
		return Entity{}, err
	}
	return Entity{ID: e.ID, UserID: e.UserID, Name: e.Name, Type: e.Type, Aliases: e.Aliases, MergedNames: e.MergedNames,
		IsUser: e.IsUser, MentionCount: e.MentionCount, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		Out: convertAll(e.Out, fromGraphFact), In: convertAll(e.In, fromGraphFact), RawEventIDs: e.RawEventIDs,
		EventIDs: e.EventIDs}, nil
}

// Insights lists a user's insights.
func (s *Service) Insights(ctx context.Context, tenant, userID string, q InsightQuery) ([]Insight, error) {
	list, err := s.insights.Insights(ctx, tenant, userID, graph.InsightQuery{IncludeSuperseded: q.IncludeSuperseded, Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	return convertAll(list, fromGraphInsight), nil
}

func convertAll[G, M any](in []G, conv func(G) M) []M {
	if in == nil {
		return nil
	}
	out := make([]M, len(in))
	for i, v := range in {
		out[i] = conv(v)
	}
	return out
}

func fromGraphFact(f graph.Fact) Fact {
	return Fact{ID: f.ID, SubjectID: f.SubjectID, Subject: f.Subject, Predicate: f.Predicate, RawPredicate: f.RawPredicate,
		ObjectID: f.ObjectID, Object: f.Object, Qualifier: f.Qualifier, Fact: f.Fact, Polarity: f.Polarity,
		Confidence: f.Confidence, Strength: f.Strength, Preference: f.Preference, Status: f.Status, ValidFrom: f.ValidFrom,
		ValidTo: f.ValidTo, RecordedAt: f.RecordedAt, ExpiredAt: f.ExpiredAt, MentionCount: f.MentionCount,
		SourceEventIDs: f.SourceEventIDs, SessionIDs: f.SessionIDs, SupersededBy: f.SupersededBy, ExtractedBy: f.ExtractedBy,
		EditIDs: f.EditIDs, Pinned: f.Pinned, Importance: f.Importance}
}

func fromGraphPreference(p graph.Preference) Preference {
	return Preference{FactID: p.FactID, Predicate: p.Predicate, Qualifier: p.Qualifier, ObjectID: p.ObjectID, Object: p.Object,
		Polarity: p.Polarity, Strength: p.Strength, Confidence: p.Confidence, Status: p.Status, ValidFrom: p.ValidFrom,
		ValidTo: p.ValidTo, RecordedAt: p.RecordedAt, ExpiredAt: p.ExpiredAt, SourceEventIDs: p.SourceEventIDs, Fact: p.Fact,
		SupersededBy: p.SupersededBy}
}

func fromGraphConflict(c graph.Conflict) Conflict {
	return Conflict{ID: c.ID, UserID: c.UserID, Status: c.Status, Resolution: c.Resolution, Kind: c.Kind, Winner: c.Winner,
		Predicate: c.Predicate, OldFactID: c.OldFactID, NewFactID: c.NewFactID, OldFact: c.OldFact, NewFact: c.NewFact,
		SubjectID: c.SubjectID, Subject: c.Subject, DetectedAt: c.DetectedAt, ResolvedAt: c.ResolvedAt, Note: c.Note}
}

func fromGraphInsight(in graph.Insight) Insight {
	out := Insight{ID: in.ID, Text: in.Text, Confidence: in.Confidence, Status: in.Status, CreatedAt: in.CreatedAt,
		SupersededAt: in.SupersededAt, SupersededBy: in.SupersededBy, SourceEventIDs: in.SourceEventIDs, FactIDs: in.FactIDs,
		GeneratedBy: in.GeneratedBy}
	for _, e := range in.Entities {
		out.Entities = append(out.Entities, EntityRef{ID: e.ID, Name: e.Name, Type: e.Type})
	}
	return out
}
