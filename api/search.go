package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/retrieval"
)

// RetrievalService is what the search and context routes need.
type RetrievalService interface {
	Search(ctx context.Context, tenant string, in retrieval.SearchInput) (retrieval.SearchOutput, error)
	Context(ctx context.Context, tenant string, in retrieval.ContextInput) (retrieval.ContextOutput, error)
}

type searchRequest struct {
	UserID         string   `json:"user_id" binding:"required,ident"`
	AgentID        string   `json:"agent_id" binding:"omitempty,ident"`
	SessionID      string   `json:"session_id" binding:"omitempty,ident"`
	Query          string   `json:"query" binding:"required,max=4000"`
	Limit          int      `json:"limit" binding:"omitempty,gte=1,lte=100"`
	Tiers          []string `json:"tiers" binding:"omitempty,dive,oneof=raw event insight fact entity"`
	AsOf           string   `json:"as_of"`
	KnownAt        string   `json:"known_at"`
	IncludeHistory bool     `json:"include_history"`
	Explain        bool     `json:"explain"`
}

type scorePartsOut struct {
	FullText float64 `json:"fulltext"`
	Vector   float64 `json:"vector"`
	Graph    float64 `json:"graph"`
	Recency  float64 `json:"recency"`
	Tier     float64 `json:"tier"`
}

type searchResultOut struct {
	ID             string        `json:"id"`
	Kind           string        `json:"kind"`
	Text           string        `json:"text"`
	Score          float64       `json:"score"`
	ScoreParts     scorePartsOut `json:"score_parts"`
	Status         string        `json:"status"`
	ValidFrom      *time.Time    `json:"valid_from"`
	ValidTo        *time.Time    `json:"valid_to"`
	OccurredAt     *time.Time    `json:"occurred_at"`
	SourceEventIDs []string      `json:"source_event_ids"`
	SessionID      string        `json:"session_id,omitempty"`
	Path           []string      `json:"path,omitempty"`
	Explanation    string        `json:"explanation,omitempty"`
	SupersededBy   string        `json:"superseded_by,omitempty"`
}

type searchResponse struct {
	Results []searchResultOut `json:"results"`
	TookMS  int64             `json:"took_ms"`
	Query   struct {
		Terms    []string `json:"terms"`
		Entities []string `json:"entities"`
		Hints    []string `json:"predicates"`
		Topic    string   `json:"topic,omitempty"`
	} `json:"query"`
}

type contextRequest struct {
	UserID         string `json:"user_id" binding:"required,ident"`
	SessionID      string `json:"session_id" binding:"omitempty,ident"`
	Query          string `json:"query" binding:"max=4000"`
	MaxTokens      int    `json:"max_tokens" binding:"omitempty,gte=50,lte=200000"`
	IncludeHistory bool   `json:"include_history"`
}

type contextResponse struct {
	Text      string `json:"text"`
	Tokens    int    `json:"tokens"`
	MaxTokens int    `json:"max_tokens"`
	Parts     struct {
		ShortTerm       []eventOut        `json:"short_term"`
		ShortTermTokens int               `json:"short_term_tokens"`
		Pinned          []searchResultOut `json:"pinned"`
		Insights        []searchResultOut `json:"insights"`
		Facts           []searchResultOut `json:"facts"`
		Preferences     []preferenceOut   `json:"preferences"`
		Memories        []searchResultOut `json:"memories"`
	} `json:"parts"`
	Omitted int `json:"omitted"`
}

func (s *server) search(c *gin.Context) {
	var req searchRequest
	if err := s.bindJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	asOf, err := parseInstant("as_of", req.AsOf)
	if err != nil {
		s.fail(c, err)
		return
	}
	knownAt, err := parseInstant("known_at", req.KnownAt)
	if err != nil {
		s.fail(c, err)
		return
	}
	started := time.Now()
	out, err := s.deps.Retrieval.Search(c.Request.Context(), tenantOf(c), retrieval.SearchInput{
		UserID: req.UserID, AgentID: req.AgentID, SessionID: req.SessionID, Query: req.Query, Limit: req.Limit,
		Tiers: req.Tiers, AsOf: asOf, KnownAt: knownAt, IncludeHistory: req.IncludeHistory, Explain: req.Explain})
	if err != nil {
		s.fail(c, err)
		return
	}
	resp := searchResponse{Results: toResultsOut(out.Results), TookMS: time.Since(started).Milliseconds()}
	resp.Query.Terms, resp.Query.Entities, resp.Query.Hints = nonNil(out.Terms), nonNil(out.Entities), nonNil(out.Hints)
	resp.Query.Topic = out.Topic
	c.JSON(http.StatusOK, resp)
}

func (s *server) context(c *gin.Context) {
	var req contextRequest
	if err := s.bindJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	out, err := s.deps.Retrieval.Context(c.Request.Context(), tenantOf(c), retrieval.ContextInput{
		UserID: req.UserID, SessionID: req.SessionID, Query: req.Query, MaxTokens: req.MaxTokens,
		IncludeHistory: req.IncludeHistory})
	if err != nil {
		s.fail(c, err)
		return
	}
	resp := contextResponse{Text: out.Text, Tokens: out.Tokens, MaxTokens: out.MaxTokens, Omitted: out.Omitted}
	resp.Parts.ShortTerm = make([]eventOut, len(out.ShortTerm))
	for i, e := range out.ShortTerm {
		resp.Parts.ShortTerm[i] = toViewEventOut(e)
	}
	resp.Parts.ShortTermTokens = out.ShortTermTokens
	resp.Parts.Pinned = toResultsOut(out.Pinned)
	resp.Parts.Insights = toResultsOut(out.Insights)
	resp.Parts.Facts = toResultsOut(out.Facts)
	resp.Parts.Memories = toResultsOut(out.Memories)
	resp.Parts.Preferences = make([]preferenceOut, len(out.Preferences))
	for i, p := range out.Preferences {
		resp.Parts.Preferences[i] = toContextPreferenceOut(p)
	}
	c.JSON(http.StatusOK, resp)
}

func toResultsOut(list []retrieval.SearchResult) []searchResultOut {
	out := make([]searchResultOut, len(list))
	for i, r := range list {
		out[i] = searchResultOut{ID: r.ID, Kind: r.Kind, Text: r.Text, Score: r.Score,
			ScoreParts: scorePartsOut{FullText: r.Parts.FullText, Vector: r.Parts.Vector, Graph: r.Parts.Graph,
				Recency: r.Parts.Recency, Tier: r.Parts.Tier},
			Status: r.Status, ValidFrom: timePtr(r.ValidFrom), ValidTo: timePtr(r.ValidTo), OccurredAt: timePtr(r.OccurredAt),
			SourceEventIDs: nonNil(r.SourceEventIDs), SessionID: r.SessionID, Path: r.Path, Explanation: r.Explanation,
			SupersededBy: r.SupersededBy}
	}
	return out
}

// toViewEventOut renders an event of the session's view packed into a
// context as the session routes render events.
func toViewEventOut(e retrieval.ViewEvent) eventOut {
	return eventOut{ID: e.ID, Seq: e.Seq, Kind: e.Kind, Role: e.Role, Name: e.Name, Content: e.Content,
		ToolCallID: e.ToolCallID, BatchID: e.BatchID, URL: e.URL, Metadata: e.Metadata, Tokens: e.Tokens,
		OccurredAt: timePtr(e.OccurredAt)}
}

// toContextPreferenceOut renders a preference packed into a context as the
// preference routes render preferences.
func toContextPreferenceOut(p retrieval.Preference) preferenceOut {
	return preferenceOut{FactID: p.FactID, Object: p.Object, ObjectID: p.ObjectID, Predicate: p.Predicate,
		Qualifier: p.Qualifier, Polarity: p.Polarity, Strength: p.Strength, Confidence: p.Confidence, Status: p.Status,
		ValidFrom: timePtr(p.ValidFrom), ValidTo: timePtr(p.ValidTo), RecordedAt: timePtr(p.RecordedAt),
		ExpiredAt: timePtr(p.ExpiredAt), Fact: p.Fact, SourceEventIDs: nonNil(p.SourceEventIDs), SupersededBy: p.SupersededBy}
}
