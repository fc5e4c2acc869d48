package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/memory"
)

// KnowledgeService is what the long-term memory routes need.
type KnowledgeService interface {
	Facts(ctx context.Context, tenant, userID string, q memory.FactQuery) ([]memory.Fact, error)
	Preferences(ctx context.Context, tenant, userID string, q memory.PreferenceQuery) ([]memory.Preference, error)
	Conflicts(ctx context.Context, tenant, userID, status string, limit int) ([]memory.Conflict, error)
	ResolveConflict(ctx context.Context, tenant, conflictID string, r memory.ConflictResolution) (memory.Conflict, error)
	Entity(ctx context.Context, tenant, entityID string, q memory.EntityQuery) (memory.Entity, error)
	Insights(ctx context.Context, tenant, userID string, q memory.InsightQuery) ([]memory.Insight, error)
	GenerateInsights(ctx context.Context, tenant, userID string) ([]memory.Insight, error)
}

// --- DTOs ---------------------------------------------------------------

type historyQuery struct {
	AsOf           string `form:"as_of"`
	KnownAt        string `form:"known_at"`
	IncludeHistory bool   `form:"include_history"`
	Limit          int    `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

// asOf parses as_of: an RFC 3339 instant, or a date (midnight UTC).
func (q historyQuery) asOf() (*time.Time, error) {
	return parseInstant("as_of", q.AsOf)
}

// knownAt parses known_at like as_of.
func (q historyQuery) knownAt() (*time.Time, error) {
	return parseInstant("known_at", q.KnownAt)
}

func parseInstant(field, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, invalidField(field, "datetime", "must be an RFC 3339 time (2024-05-01T12:00:00Z) or a date (2024-05-01)")
}

type factsQuery struct {
	historyQuery
	Subject   string `form:"subject" binding:"omitempty,ident"`
	Predicate string `form:"predicate" binding:"omitempty,max=64"`
}

type conflictsQuery struct {
	Status string `form:"status" binding:"omitempty,oneof=open resolved"`
	Limit  int    `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

type resolveRequest struct {
	Winner string `json:"winner" binding:"required,oneof=new old"`
	Note   string `json:"note" binding:"max=2000"`
}

type entityQuery struct {
	IncludeHistory bool `form:"include_history"`
	Limit          int  `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

type insightsQuery struct {
	IncludeSuperseded bool `form:"include_superseded"`
	Limit             int  `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

type factOut struct {
	ID             string     `json:"id"`
	SubjectID      string     `json:"subject_id"`
	Subject        string     `json:"subject"`
	Predicate      string     `json:"predicate"`
	RawPredicate   string     `json:"raw_predicate,omitempty"`
	ObjectID       string     `json:"object_id"`
	Object         string     `json:"object"`
	Qualifier      string     `json:"qualifier,omitempty"`
	Fact           string     `json:"fact"`
	Polarity       string     `json:"polarity"`
	Confidence     float64    `json:"confidence"`
	Strength       float64    `json:"strength,omitempty"`
	Preference     bool       `json:"preference"`
	Status         string     `json:"status"`
	ValidFrom      *time.Time `json:"valid_from"`
	ValidTo        *time.Time `json:"valid_to"`
	RecordedAt     *time.Time `json:"recorded_at"`
	ExpiredAt      *time.Time `json:"expired_at"`
	MentionCount   int64      `json:"mention_count"`
	SourceEventIDs []string   `json:"source_event_ids"`
	SessionIDs     []string   `json:"session_ids"`
	SupersededBy   string     `json:"superseded_by,omitempty"`
	ExtractedBy    string     `json:"extracted_by,omitempty"`
	EditIDs        []string   `json:"edit_ids,omitempty"`
	Pinned         bool       `json:"pinned,omitempty"`
	Importance     string     `json:"importance,omitempty"`
}

type preferenceOut struct {
	FactID         string     `json:"fact_id"`
	Object         string     `json:"object"`
	ObjectID       string     `json:"object_id"`
	Predicate      string     `json:"predicate"`
	Qualifier      string     `json:"qualifier,omitempty"`
	Polarity       string     `json:"polarity"`
	Strength       float64    `json:"strength"`
	Confidence     float64    `json:"confidence"`
	Status         string     `json:"status"`
	ValidFrom      *time.Time `json:"valid_from"`
	ValidTo        *time.Time `json:"valid_to"`
	RecordedAt     *time.Time `json:"recorded_at"`
	ExpiredAt      *time.Time `json:"expired_at"`
	Fact           string     `json:"fact"`
	SourceEventIDs []string   `json:"source_event_ids"`
	SupersededBy   string     `json:"superseded_by,omitempty"`
}

type conflictOut struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Status     string     `json:"status"`
	Resolution string     `json:"resolution,omitempty"`
	Kind       string     `json:"kind"`
	Winner     string     `json:"winner,omitempty"`
	Predicate  string     `json:"predicate"`
	SubjectID  string     `json:"subject_id"`
	Subject    string     `json:"subject"`
	OldFactID  string     `json:"old_fact_id"`
	OldFact    string     `json:"old_fact"`
	NewFactID  string     `json:"new_fact_id"`
	NewFact    string     `json:"new_fact"`
	DetectedAt time.Time  `json:"detected_at"`
	ResolvedAt *time.Time `json:"resolved_at,omitempty"`
	Note       string     `json:"note,omitempty"`
}

type entityOut struct {
	ID           string    `json:"id"`
	UserID       string    `json:"user_id"`
	Name         string    `json:"name"`
	Type         string    `json:"type"`
	Aliases      []string  `json:"aliases"`
	MergedNames  []string  `json:"merged_names"`
	IsUser       bool      `json:"is_user"`
	MentionCount int64     `json:"mention_count"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
	Out          []factOut `json:"facts_out"`
	In           []factOut `json:"facts_in"`
	RawEventIDs  []string  `json:"mentioned_in_event_ids"`
	EventIDs     []string  `json:"mentioned_in_summary_ids"`
}

type entityRefOut struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type,omitempty"`
}

type insightOut struct {
	ID             string         `json:"id"`
	Text           string         `json:"text"`
	Confidence     float64        `json:"confidence"`
	Status         string         `json:"status"`
	CreatedAt      time.Time      `json:"created_at"`
	SupersededAt   *time.Time     `json:"superseded_at,omitempty"`
	SupersededBy   string         `json:"superseded_by,omitempty"`
	SourceEventIDs []string       `json:"source_event_ids"`
	FactIDs        []string       `json:"fact_ids"`
	Entities       []entityRefOut `json:"entities"`
	GeneratedBy    string         `json:"generated_by,omitempty"`
}

// --- handlers -----------------------------------------------------------

func (s *server) listFacts(c *gin.Context) {
	userID, q, ok := pathAndQuery[factsQuery](s, c, "user_id")
	if !ok {
		return
	}
	asOf, err := q.asOf()
	if err != nil {
		s.fail(c, err)
		return
	}
	knownAt, err := q.knownAt()
	if err != nil {
		s.fail(c, err)
		return
	}
	facts, err := s.deps.Knowledge.Facts(c.Request.Context(), tenantOf(c), userID, memory.FactQuery{
		AsOf: asOf, KnownAt: knownAt, IncludeHistory: q.IncludeHistory, Subject: q.Subject, Predicate: q.Predicate, Limit: q.Limit})
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]factOut, len(facts))
	for i, f := range facts {
		out[i] = toFactOut(f)
	}
	c.JSON(http.StatusOK, gin.H{"user_id": userID, "facts": out})
}

func (s *server) listPreferences(c *gin.Context) {
	userID, q, ok := pathAndQuery[historyQuery](s, c, "user_id")
	if !ok {
		return
	}
	asOf, err := q.asOf()
	if err != nil {
		s.fail(c, err)
		return
	}
	knownAt, err := q.knownAt()
	if err != nil {
		s.fail(c, err)
		return
	}
	prefs, err := s.deps.Knowledge.Preferences(c.Request.Context(), tenantOf(c), userID, memory.PreferenceQuery{
		AsOf: asOf, KnownAt: knownAt, IncludeHistory: q.IncludeHistory, Limit: q.Limit})
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]preferenceOut, len(prefs))
	for i, p := range prefs {
		out[i] = toPreferenceOut(p)
	}
	c.JSON(http.StatusOK, gin.H{"user_id": userID, "preferences": out})
}

func (s *server) listConflicts(c *gin.Context) {
	userID, q, ok := pathAndQuery[conflictsQuery](s, c, "user_id")
	if !ok {
		return
	}
	list, err := s.deps.Knowledge.Conflicts(c.Request.Context(), tenantOf(c), userID, q.Status, q.Limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]conflictOut, len(list))
	for i, cf := range list {
		out[i] = toConflictOut(cf)
	}
	c.JSON(http.StatusOK, gin.H{"user_id": userID, "conflicts": out})
}

func (s *server) resolveConflict(c *gin.Context) {
	id, req, ok := pathAndBody[resolveRequest](s, c, "conflict_id")
	if !ok {
		return
	}
	cf, err := s.deps.Knowledge.ResolveConflict(c.Request.Context(), tenantOf(c), id, memory.ConflictResolution{Winner: req.Winner, Note: req.Note})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toConflictOut(cf))
}

func (s *server) getEntity(c *gin.Context) {
	id, q, ok := pathAndQuery[entityQuery](s, c, "entity_id")
	if !ok {
		return
	}
	e, err := s.deps.Knowledge.Entity(c.Request.Context(), tenantOf(c), id, memory.EntityQuery{IncludeHistory: q.IncludeHistory, Limit: q.Limit})
	if err != nil {
		s.fail(c, err)
		return
	}
	out := entityOut{ID: e.ID, UserID: e.UserID, Name: e.Name, Type: e.Type, Aliases: nonNil(e.Aliases),
		MergedNames: nonNil(e.MergedNames), IsUser: e.IsUser, MentionCount: e.MentionCount, CreatedAt: e.CreatedAt,
		UpdatedAt: e.UpdatedAt, Out: make([]factOut, len(e.Out)), In: make([]factOut, len(e.In)),
		RawEventIDs: nonNil(e.RawEventIDs), EventIDs: nonNil(e.EventIDs)}
	for i, f := range e.Out {
		out.Out[i] = toFactOut(f)
	}
	for i, f := range e.In {
		out.In[i] = toFactOut(f)
	}
	c.JSON(http.StatusOK, out)
}

func (s *server) listInsights(c *gin.Context) {
	userID, q, ok := pathAndQuery[insightsQuery](s, c, "user_id")
	if !ok {
		return
	}
	list, err := s.deps.Knowledge.Insights(c.Request.Context(), tenantOf(c), userID, memory.InsightQuery{IncludeSuperseded: q.IncludeSuperseded, Limit: q.Limit})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"user_id": userID, "insights": toInsightsOut(list)})
}

func (s *server) generateInsights(c *gin.Context) {
	userID, err := pathIdent(c, "user_id")
	if err != nil {
		s.fail(c, err)
		return
	}
	list, err := s.deps.Knowledge.GenerateInsights(c.Request.Context(), tenantOf(c), userID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"user_id": userID, "insights": toInsightsOut(list)})
}

// --- converters -----------------------------------------------------------

func toFactOut(f memory.Fact) factOut {
	return factOut{ID: f.ID, SubjectID: f.SubjectID, Subject: f.Subject, Predicate: f.Predicate, RawPredicate: f.RawPredicate,
		ObjectID: f.ObjectID, Object: f.Object, Qualifier: f.Qualifier, Fact: f.Fact, Polarity: f.Polarity,
		Confidence: f.Confidence, Strength: f.Strength, Preference: f.Preference, Status: f.Status,
		ValidFrom: timePtr(f.ValidFrom), ValidTo: timePtr(f.ValidTo), RecordedAt: timePtr(f.RecordedAt),
		ExpiredAt: timePtr(f.ExpiredAt), MentionCount: f.MentionCount, SourceEventIDs: nonNil(f.SourceEventIDs),
		SessionIDs: nonNil(f.SessionIDs), SupersededBy: f.SupersededBy, ExtractedBy: f.ExtractedBy, EditIDs: f.EditIDs,
		Pinned: f.Pinned, Importance: f.Importance}
}

func toPreferenceOut(p memory.Preference) preferenceOut {
	return preferenceOut{FactID: p.FactID, Object: p.Object, ObjectID: p.ObjectID, Predicate: p.Predicate,
		Qualifier: p.Qualifier, Polarity: p.Polarity, Strength: p.Strength, Confidence: p.Confidence, Status: p.Status,
		ValidFrom: timePtr(p.ValidFrom), ValidTo: timePtr(p.ValidTo), RecordedAt: timePtr(p.RecordedAt),
		ExpiredAt: timePtr(p.ExpiredAt), Fact: p.Fact, SourceEventIDs: nonNil(p.SourceEventIDs), SupersededBy: p.SupersededBy}
}

func toConflictOut(c memory.Conflict) conflictOut {
	return conflictOut{ID: c.ID, UserID: c.UserID, Status: string(c.Status), Resolution: string(c.Resolution),
		Kind: string(c.Kind), Winner: string(c.Winner),
		Predicate: c.Predicate, SubjectID: c.SubjectID, Subject: c.Subject, OldFactID: c.OldFactID, OldFact: c.OldFact,
		NewFactID: c.NewFactID, NewFact: c.NewFact, DetectedAt: c.DetectedAt, ResolvedAt: timePtr(c.ResolvedAt), Note: c.Note}
}

func toInsightsOut(list []memory.Insight) []insightOut {
	out := make([]insightOut, len(list))
	for i, in := range list {
		o := insightOut{ID: in.ID, Text: in.Text, Confidence: in.Confidence, Status: in.Status, CreatedAt: in.CreatedAt,
			SupersededAt: timePtr(in.SupersededAt), SupersededBy: in.SupersededBy, SourceEventIDs: nonNil(in.SourceEventIDs),
			FactIDs: nonNil(in.FactIDs), Entities: make([]entityRefOut, len(in.Entities)), GeneratedBy: in.GeneratedBy}
		for j, e := range in.Entities {
			o.Entities[j] = entityRefOut{ID: e.ID, Name: e.Name, Type: e.Type}
		}
		out[i] = o
	}
	return out
}
