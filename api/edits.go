package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/memory"
)

// FactEditService is what the direct-edit routes need: add, correct,
// retract a fact, and read one fact with its edits.
type FactEditService interface {
	AddFact(ctx context.Context, tenant string, in memory.NewFact) (memory.EditResult, error)
	CorrectFact(ctx context.Context, tenant, factID string, ch memory.FactChange) (memory.EditResult, error)
	RetractFact(ctx context.Context, tenant, factID string, r memory.Retraction) (memory.EditResult, error)
	FactByID(ctx context.Context, tenant, factID string) (memory.FactDetail, error)
}

// --- DTOs ---------------------------------------------------------------

// editWho says who makes an edit and why; the tenant is the API key's.
type editWho struct {
	Actor  string `json:"actor" form:"actor" binding:"max=128"`
	Reason string `json:"reason" form:"reason" binding:"max=2000"`
}

type addFactRequest struct {
	Subject     string   `json:"subject" binding:"max=300"`
	SubjectType string   `json:"subject_type" binding:"max=64"`
	Predicate   string   `json:"predicate" binding:"required,max=64"`
	Object      string   `json:"object" binding:"required,max=300"`
	ObjectType  string   `json:"object_type" binding:"max=64"`
	Qualifier   string   `json:"qualifier" binding:"max=200"`
	Polarity    string   `json:"polarity" binding:"omitempty,oneof=positive negative"`
	Sentence    string   `json:"sentence" binding:"max=4000"`
	Confidence  *float64 `json:"confidence" binding:"omitempty,gte=0,lte=1"`
	Strength    *float64 `json:"strength" binding:"omitempty,gte=0,lte=1"`
	ValidFrom   string   `json:"valid_from"`
	ValidTo     string   `json:"valid_to"`
	editWho
}

type correctFactRequest struct {
	Predicate  *string  `json:"predicate" binding:"omitempty,min=1,max=64"`
	Object     *string  `json:"object" binding:"omitempty,min=1,max=300"`
	ObjectType *string  `json:"object_type" binding:"omitempty,max=64"`
	Qualifier  *string  `json:"qualifier" binding:"omitempty,max=200"`
	Polarity   *string  `json:"polarity" binding:"omitempty,oneof=positive negative"`
	Sentence   *string  `json:"sentence" binding:"omitempty,max=4000"`
	Confidence *float64 `json:"confidence" binding:"omitempty,gte=0,lte=1"`
	Strength   *float64 `json:"strength" binding:"omitempty,gte=0,lte=1"`
	ValidFrom  *string  `json:"valid_from"`
	markFields
	editWho
}

type retractQuery struct {
	Purge bool `form:"purge"`
	editWho
}

type editOut struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Tenant    string    `json:"tenant"`
	Actor     string    `json:"actor,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	At        time.Time `json:"at"`
	FactID    string    `json:"fact_id"`
	NewFactID string    `json:"new_fact_id,omitempty"`
	Fact      string    `json:"fact,omitempty"`
	Outcome   string    `json:"outcome"`
}

type factDetailOut struct {
	factOut
	UserID string    `json:"user_id"`
	Edits  []editOut `json:"edits"`
}

type editResponse struct {
	Edit              editOut       `json:"edit"`
	Fact              factDetailOut `json:"fact"`
	Superseded        []string      `json:"superseded"`
	Reopened          []string      `json:"reopened"`
	ConflictsOpened   []string      `json:"conflicts_opened"`
	ConflictsResolved []string      `json:"conflicts_resolved"`
}

// --- handlers -----------------------------------------------------------

func (s *server) addFact(c *gin.Context) {
	userID, req, ok := pathAndBody[addFactRequest](s, c, "user_id")
	if !ok {
		return
	}
	validFrom, err := parseInstant("valid_from", req.ValidFrom)
	if err != nil {
		s.fail(c, err)
		return
	}
	validTo, err := parseInstant("valid_to", req.ValidTo)
	if err != nil {
		s.fail(c, err)
		return
	}
	in := memory.NewFact{UserID: userID, Subject: req.Subject, SubjectType: req.SubjectType, Object: req.Object,
		ObjectType: req.ObjectType, Predicate: req.Predicate, Qualifier: req.Qualifier, Polarity: req.Polarity,
		Sentence: req.Sentence, ValidFrom: validFrom, ValidTo: validTo, Actor: req.Actor, Reason: req.Reason}
	if req.Confidence != nil {
		in.Confidence = *req.Confidence
	}
	if req.Strength != nil {
		in.Strength = *req.Strength
	}
	res, err := s.deps.Edits.AddFact(c.Request.Context(), tenantOf(c), in)
	if err != nil {
		s.fail(c, err)
		return
	}
	status := http.StatusCreated
	if res.Edit.Outcome != "created" {
		status = http.StatusOK // the same current fact, reinforced
	}
	c.JSON(status, toEditResponse(tenantOf(c), res))
}

func (s *server) getFact(c *gin.Context) {
	id, err := pathIdent(c, "fact_id")
	if err != nil {
		s.fail(c, err)
		return
	}
	d, err := s.deps.Edits.FactByID(c.Request.Context(), tenantOf(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toFactDetailOut(tenantOf(c), d))
}

func (s *server) correctFact(c *gin.Context) {
	id, req, ok := pathAndBody[correctFactRequest](s, c, "fact_id")
	if !ok {
		return
	}
	ch := memory.FactChange{Predicate: req.Predicate, Object: req.Object, ObjectType: req.ObjectType, Qualifier: req.Qualifier,
		Polarity: req.Polarity, Sentence: req.Sentence, Confidence: req.Confidence, Strength: req.Strength,
		Actor: req.Actor, Reason: req.Reason}
	if req.ValidFrom != nil {
		at, err := parseInstant("valid_from", *req.ValidFrom)
		if err != nil || at == nil {
			s.fail(c, invalidField("valid_from", "datetime", "must be an RFC 3339 time (2024-05-01T12:00:00Z) or a date (2024-05-01)"))
			return
		}
		ch.ValidFrom = at
	}
	restate := ch.Predicate != nil || ch.Object != nil || ch.ObjectType != nil || ch.Qualifier != nil || ch.Polarity != nil ||
		ch.Sentence != nil || ch.Confidence != nil || ch.Strength != nil || ch.ValidFrom != nil
	if !restate && !req.markFields.given() {
		s.fail(c, invalidField("body", "required", "name at least one field to correct (predicate, object, object_type, qualifier, polarity, sentence, confidence, strength, valid_from) or to mark (pinned, importance)"))
		return
	}
	if !restate {
		// Pinning or weighting a fact marks it in place: no new version.
		s.markMemory(c, memory.MarkFact, id, req.markFields, req.Actor)
		return
	}
	res, err := s.deps.Edits.CorrectFact(c.Request.Context(), tenantOf(c), id, ch)
	if err != nil {
		s.fail(c, err)
		return
	}
	if req.markFields.given() {
		// Marks given with a correction go to the new version.
		svc, ok := s.lifecycle(c)
		if !ok {
			return
		}
		m, err := svc.Mark(c.Request.Context(), tenantOf(c), memory.MarkFact, res.Fact.ID, req.markFields.input(req.Actor))
		if err != nil {
			s.fail(c, err)
			return
		}
		res.Fact.Pinned, res.Fact.Importance = m.Pinned, m.Importance
	}
	c.JSON(http.StatusOK, toEditResponse(tenantOf(c), res))
}

func (s *server) retractFact(c *gin.Context) {
	id, q, ok := pathAndQuery[retractQuery](s, c, "fact_id")
	if !ok {
		return
	}
	res, err := s.deps.Edits.RetractFact(c.Request.Context(), tenantOf(c), id,
		memory.Retraction{Purge: q.Purge, Actor: q.Actor, Reason: q.Reason})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toEditResponse(tenantOf(c), res))
}

// --- converters -----------------------------------------------------------

func toEditOut(tenant string, e memory.Edit) editOut {
	return editOut{ID: e.ID, Kind: string(e.Kind), Tenant: tenant, Actor: e.Actor, Reason: e.Reason, At: e.At,
		FactID: e.FactID, NewFactID: e.NewFactID, Fact: e.Fact, Outcome: e.Outcome}
}

func toFactDetailOut(tenant string, d memory.FactDetail) factDetailOut {
	out := factDetailOut{factOut: toFactOut(d.Fact), UserID: d.UserID, Edits: make([]editOut, len(d.Edits))}
	for i, e := range d.Edits {
		out.Edits[i] = toEditOut(tenant, e)
	}
	return out
}

func toEditResponse(tenant string, r memory.EditResult) editResponse {
	return editResponse{Edit: toEditOut(tenant, r.Edit), Fact: toFactDetailOut(tenant, r.Fact),
		Superseded: nonNil(r.Superseded), Reopened: nonNil(r.Reopened), ConflictsOpened: nonNil(r.ConflictsOpened),
		ConflictsResolved: nonNil(r.ConflictsResolved)}
}
