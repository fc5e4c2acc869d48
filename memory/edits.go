package memory

import (
	"context"
	"errors"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// Direct edits of facts (POST /v1/users/{user_id}/facts, PATCH and DELETE
// /v1/facts/{fact_id}, and the MCP tools add_fact, correct_fact and
// retract_fact): the store runs them through the same knowledge-update
// policy as extracted facts (graph/edits.go, knowledge/edit.go).

// FactEditor is what the edits need of the store; *graph.Store has it. It
// is asked of the knowledge store rather than wired apart, since the edits
// are writes of that same knowledge.
type FactEditor interface {
	AddFact(ctx context.Context, in graph.NewFact) (graph.FactEditResult, error)
	CorrectFact(ctx context.Context, tenant, factID string, ch graph.FactChange) (graph.FactEditResult, error)
	RetractFact(ctx context.Context, tenant, factID string, purge bool, e graph.FactEdit) (graph.FactEditResult, error)
	FactByID(ctx context.Context, tenant, factID string) (graph.FactDetail, error)
}

// errNoEditor: the knowledge store cannot edit facts (a test double).
var errNoEditor = errors.New("memory: the knowledge store does not edit facts")

// NewFact is a statement to add. An empty Subject, or a user word such as
// "user" or "me", is the user.
type NewFact struct {
	UserID      string
	Subject     string
	SubjectType string
	Object      string
	ObjectType  string
	Predicate   string // a relationship type (LIVES_IN) or an alias ("lives in")
	Qualifier   string
	Polarity    string // positive (default) | negative
	Sentence    string
	Confidence  float64 // 0: 1.0, someone said it directly
	Strength    float64
	ValidFrom   *time.Time
	ValidTo     *time.Time
	Actor       string
	Reason      string
}

// FactChange is a correction; nil fields keep the current version's value.
type FactChange struct {
	Predicate  *string
	Object     *string
	ObjectType *string
	Qualifier  *string
	Polarity   *string
	Sentence   *string
	Confidence *float64
	Strength   *float64
	ValidFrom  *time.Time
	Actor      string
	Reason     string
}

// Retraction withdraws a fact; Purge deletes it instead of keeping it in
// history as retracted.
type Retraction struct {
	Purge  bool
	Actor  string
	Reason string
}

// Edit is a recorded direct edit: who (the tenant's Actor), why, what.
type Edit struct {
	ID        string
	Kind      knowledge.EditKind // add | correct | retract | purge
	Actor     string
	Reason    string
	At        time.Time
	FactID    string
	NewFactID string
	Fact      string
	Outcome   string
}

// FactDetail is one fact of any status with the edits that touched it.
type FactDetail struct {
	Fact
	UserID string
	Edits  []Edit
}

// EditResult is what an edit did.
type EditResult struct {
	Edit              Edit
	Fact              FactDetail
	Superseded        []string
	Reopened          []string
	ConflictsOpened   []string
	ConflictsResolved []string
}

func (s *Service) editor() (FactEditor, error) {
	e, ok := s.knowledge.(FactEditor)
	if !ok {
		return nil, errNoEditor
	}
	return e, nil
}

// canonicalPredicate maps an alias ("lives in") to its relationship type;
// a name the ontology does not know is passed on for the store's own
// vocabulary (deployment types) to accept or refuse.
func canonicalPredicate(name string) string {
	if p, ok := ontology.Lookup(name); ok {
		return p.Name
	}
	return ontology.NormalizeRelType(name)
}

// AddFact adds one statement to the user's knowledge; see graph.AddFact.
func (s *Service) AddFact(ctx context.Context, tenant string, in NewFact) (EditResult, error) {
	ed, err := s.editor()
	if err != nil {
		return EditResult{}, err
	}
	subject := in.Subject
	if subject == "" {
		subject = "user"
	}
	res, err := ed.AddFact(ctx, graph.NewFact{Tenant: tenant, UserID: in.UserID, Subject: subject,
		SubjectType: ontology.EntityType(in.SubjectType), Object: in.Object, ObjectType: ontology.EntityType(in.ObjectType),
		Predicate: canonicalPredicate(in.Predicate), Qualifier: in.Qualifier, Polarity: ontology.Polarity(in.Polarity),
		Sentence: in.Sentence, Confidence: in.Confidence, Strength: in.Strength, ValidFrom: in.ValidFrom, ValidTo: in.ValidTo,
		Edit: graph.FactEdit{Actor: in.Actor, Reason: in.Reason}})
	if err != nil {
		return EditResult{}, err
	}
	return fromGraphEditResult(res), nil
}

// CorrectFact replaces a current fact by a corrected version; see
// graph.CorrectFact.
func (s *Service) CorrectFact(ctx context.Context, tenant, factID string, ch FactChange) (EditResult, error) {
	ed, err := s.editor()
	if err != nil {
		return EditResult{}, err
	}
	gc := graph.FactChange{Object: ch.Object, Qualifier: ch.Qualifier, Sentence: ch.Sentence, Confidence: ch.Confidence,
		Strength: ch.Strength, ValidFrom: ch.ValidFrom, Edit: graph.FactEdit{Actor: ch.Actor, Reason: ch.Reason}}
	if ch.Predicate != nil {
		p := canonicalPredicate(*ch.Predicate)
		gc.Predicate = &p
	}
	if ch.ObjectType != nil {
		t := ontology.EntityType(*ch.ObjectType)
		gc.ObjectType = &t
	}
	if ch.Polarity != nil {
		p := ontology.Polarity(*ch.Polarity)
		gc.Polarity = &p
	}
	res, err := ed.CorrectFact(ctx, tenant, factID, gc)
	if err != nil {
		return EditResult{}, err
	}
	return fromGraphEditResult(res), nil
}

// RetractFact withdraws a fact; see graph.RetractFact.
func (s *Service) RetractFact(ctx context.Context, tenant, factID string, r Retraction) (EditResult, error) {
	ed, err := s.editor()
	if err != nil {
		return EditResult{}, err
	}
	res, err := ed.RetractFact(ctx, tenant, factID, r.Purge, graph.FactEdit{Actor: r.Actor, Reason: r.Reason})
	if err != nil {
		return EditResult{}, err
	}
	return fromGraphEditResult(res), nil
}

// FactByID returns a fact of any status with its edits.
func (s *Service) FactByID(ctx context.Context, tenant, factID string) (FactDetail, error) {
	ed, err := s.editor()
	if err != nil {
		return FactDetail{}, err
	}
	d, err := ed.FactByID(ctx, tenant, factID)
	if err != nil {
		return FactDetail{}, err
	}
	return fromGraphFactDetail(d), nil
}

func fromGraphFactDetail(d graph.FactDetail) FactDetail {
	return FactDetail{Fact: fromGraphFact(d.Fact), UserID: d.UserID, Edits: convertAll(d.Edits, fromGraphEdit)}
}

func fromGraphEdit(e graph.EditRecord) Edit {
	return Edit{ID: e.ID, Kind: e.Kind, Actor: e.Actor, Reason: e.Reason, At: e.At, FactID: e.FactID,
		NewFactID: e.NewFactID, Fact: e.Fact, Outcome: e.Outcome}
}

func fromGraphEditResult(r graph.FactEditResult) EditResult {
	return EditResult{Edit: fromGraphEdit(r.Edit), Fact: fromGraphFactDetail(r.Fact), Superseded: r.Superseded,
		Reopened: r.Reopened, ConflictsOpened: r.ConflictsOpened, ConflictsResolved: r.ConflictsResolved}
}
