package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// ViewInput asks for a session's condensed short-term view.
type ViewInput struct {
	// MaxEvents and MaxTokens bound the returned view (0: unbounded).
	MaxEvents int
	MaxTokens int
	// Profile names the condenser profile; empty means the default.
	Profile string
	// DryRun computes the view without storing any condensation.
	DryRun bool
	// UserID, when set, must own the session (errs.ErrConflict otherwise):
	// a caller assembling one user's context must not read another's.
	UserID string
}

// ViewOutput is the view an agent hands to its LLM.
type ViewOutput struct {
	Events []Event
	// Summary events carry Kind "summary"; their ID is "<condensation>-summary".
	Tokens                 int
	HeadSeq                int64
	UnhandledRequest       bool
	AppliedCondensationIDs []string
	// NewCondensations lists the condensations this call stored.
	NewCondensations []Condensation
	// Trimmed counts events dropped to fit the budget after condensing
	// could not get under it (they stay stored and in later views).
	Trimmed int
	Profile string
	// Deferred explains why a wanted condensation was not possible.
	Deferred string
}

// Condensation is a stored condensation as clients see it.
type Condensation struct {
	ID            string
	Seq           int64
	Kind          string
	Summary       string
	SummaryOffset *int
	ForgottenIDs  []string
	Strategy      string
	Reasons       []string
	Requirement   string
	Summarizer    string
	Config        json.RawMessage
	TokensBefore  int
	TokensAfter   int
	EventsBefore  int
	EventsAfter   int
	LLMCalls      int
	DurationMS    int64
	CoveredIDs    []string
	CreatedAt     time.Time
	ExtractedAt   time.Time
}

// maxCondenseRounds bounds how many condensations one view request may
// store: a pipeline may condense, and the rebuilt view may still be over a
// budget that the next round handles.
const maxCondenseRounds = 4

// View returns the session's condensed view within the budget, condensing
// and storing condensations first when the profile's triggers (or the
// budget) call for it.
func (s *Service) View(ctx context.Context, tenant, sessionID string, in ViewInput) (ViewOutput, error) {
	if in.MaxEvents < 0 || in.MaxTokens < 0 {
		return ViewOutput{}, errs.Invalid("max_events", "gte", "budgets must not be negative")
	}
	profileName := in.Profile
	if profileName == "" {
		profileName = s.cfg.DefaultProfile
	}
	profile, ok := s.cfg.Profiles[profileName]
	if !ok {
		return ViewOutput{}, errs.Invalid("profile", "oneof", "unknown condenser profile %q (configured: %v)", profileName, s.ProfileNames())
	}
	cfg := withBudget(profile, in.MaxEvents, in.MaxTokens)
	out := ViewOutput{Profile: profileName}

	for round := 0; ; round++ {
		glog, err := s.sessions.SessionLog(ctx, tenant, sessionID)
		if err != nil {
			return ViewOutput{}, err
		}
		if in.UserID != "" && glog.Session.UserID != in.UserID {
			return ViewOutput{}, errs.Conflict("session %q belongs to another user", sessionID)
		}
		clog := toCondenserLog(glog)
		view := condenser.BuildView(clog, s.cfg.ViewMode)
		deps := s.condenserDeps(clog...)
		cond, err := condenser.New(cfg, deps)
		if err != nil {
			return ViewOutput{}, fmt.Errorf("build condenser %q: %w", profileName, err)
		}
		started := time.Now()
		res, err := cond.Condense(ctx, view)
		if err != nil {
			return ViewOutput{}, condenseError(err)
		}
		useless := res.Condensation != nil && !shrinks(*res.Condensation)
		if res.Condensation == nil || in.DryRun || round >= maxCondenseRounds || useless {
			if res.Deferred != nil {
				out.Deferred = res.Deferred.Error()
			}
			view := res.View
			switch {
			case in.DryRun && res.Condensation != nil && !useless:
				// What the condensation would make of the view, unstored.
				view = condenser.Preview(res.View, *res.Condensation)
			case useless && !in.DryRun:
				// Storing it would grow the log on every call and
				// shrink nothing.
				out.Deferred = "condensing cannot shrink this view further; the view was trimmed to the budget"
			case res.Condensation != nil && !in.DryRun:
				out.Deferred = "condensation rounds exhausted; the view was trimmed to the budget"
			}
			return s.finishView(out, view, in), nil
		}
		stored, err := s.storeCondensation(ctx, tenant, sessionID, clog, *res.Condensation, cfg, deps, time.Since(started))
		if errors.Is(err, errs.ErrConflict) {
			continue // another request condensed the same view first: rebuild
		}
		if err != nil {
			return ViewOutput{}, err
		}
		out.NewCondensations = append(out.NewCondensations, stored)
	}
}

// shrinks reports whether a condensation makes the view smaller in events
// or in tokens; one that does neither is not worth storing.
func shrinks(c condenser.Condensation) bool {
	return c.EventsAfter < c.EventsBefore || c.TokensAfter < c.TokensBefore
}

// condenseError maps condenser failures: a configuration problem is the
// caller's, a HARD condensation that could not be made means the budget
// cannot be met now (the LLM failed or nothing can be cut).
func condenseError(err error) error {
	switch {
	case errors.Is(err, condenser.ErrInvalidConfig):
		return &errs.ValidationError{Fields: []errs.FieldError{{Field: "profile", Rule: "invalid", Message: err.Error()}}}
	case errors.Is(err, condenser.ErrNoCondensation):
		return fmt.Errorf("%w: a required condensation could not be made: %v", errs.ErrUnavailable, err)
	default:
		return fmt.Errorf("condense: %w", err)
	}
}

// finishView trims the view to the budget if condensing could not, and
// offloads large tool outputs.
func (s *Service) finishView(out ViewOutput, view condenser.View, in ViewInput) ViewOutput {
	events := view.Events
	events, out.Trimmed = trimToBudget(events, in.MaxEvents, in.MaxTokens, s.counter)
	events, _ = condenser.Offload(events, s.cfg.Offload)
	out.Events = make([]Event, len(events))
	for i, e := range events {
		out.Events[i] = fromCondenserEvent(e)
		// Summaries and offload previews exist only in the view: their
		// size is counted here, as the view's total counts it.
		out.Events[i].Tokens = condenser.EventTokens(e, s.counter)
	}
	out.Tokens = condenser.View{Events: events}.Tokens(s.counter)
	if over := (in.MaxEvents > 0 && len(events) > in.MaxEvents) || (in.MaxTokens > 0 && out.Tokens > in.MaxTokens); over && out.Deferred == "" {
		out.Deferred = fmt.Sprintf("the view cannot be smaller than its system prompt, first user message, summaries and last event (%d events, %d tokens)",
			len(events), out.Tokens)
	}
	out.HeadSeq = view.HeadSeq
	out.UnhandledRequest = view.UnhandledRequest
	out.AppliedCondensationIDs = view.AppliedCondensationIDs
	return out
}

// storeCondensation persists a condensation the condenser returned from
// log, with the audit data only the orchestration knows, and returns it.
// The store refuses it if the session moved past the log's end since.
func (s *Service) storeCondensation(ctx context.Context, tenant, sessionID string, log []condenser.Event, c condenser.Condensation, cfg condenser.Config,
	deps condenser.Deps, took time.Duration) (Condensation, error) {
	id := newID("cnd_")
	c.ID = id
	record, err := json.Marshal(c)
	if err != nil {
		return Condensation{}, fmt.Errorf("encode condensation: %w", err)
	}
	cfgJSON, _ := json.Marshal(cfg)
	summary := ""
	if c.Summary != nil {
		summary = *c.Summary
	}
	summarizerName := c.SummarizerModel
	if sm, ok := deps.Summarizer.(*summarizer); ok && summarizerName == "" {
		summarizerName = sm.model
	}
	forgotten := c.ForgottenIDs
	if c.ForgottenRange != nil {
		forgotten = c.ExpandForgotten(log)
	}
	node, err := s.windows.AppendCondensation(ctx, tenant, sessionID, graph.NewEventNode{
		ID: id, Kind: graph.EventKindCondensation, Summary: summary, Record: string(record), Config: string(cfgJSON),
		Strategy: c.Strategy, SummarizerName: summarizerName, ForgottenIDs: forgotten, BasedOnSeq: c.BasedOnSeq,
		TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, EventsBefore: c.EventsBefore, EventsAfter: c.EventsAfter,
		LLMCalls: c.LLMCalls, DurationMS: took.Milliseconds(),
		// Summarized raw events become this node's extraction window.
		Cover: forgotten,
	})
	if err != nil {
		return Condensation{}, fmt.Errorf("store condensation: %w", err)
	}
	if len(node.CoveredIDs) > 0 {
		// Best effort: closing the session reconciles windows whose job
		// could not be enqueued here.
		if err := s.scheduleExtraction(ctx, tenant, sessionID, node.UserID, node.ID); err != nil {
			s.log.Warn("schedule extraction of a condensation (closing the session will retry)", "id", id, "error", err)
		}
	}
	s.log.Info("condensation stored", "tenant", tenant, "session", sessionID, "id", id, "strategy", c.Strategy,
		"forgotten", len(forgotten), "events_before", c.EventsBefore, "events_after", c.EventsAfter,
		"tokens_before", c.TokensBefore, "tokens_after", c.TokensAfter, "llm_calls", c.LLMCalls, "ms", took.Milliseconds())
	return fromEventNode(node), nil
}

// Condensations lists a session's event-tier nodes (condensations and
// session summaries), the audit trail of its short-term memory.
func (s *Service) Condensations(ctx context.Context, tenant, sessionID string) ([]Condensation, error) {
	nodes, err := s.windows.ListEventNodes(ctx, tenant, sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]Condensation, len(nodes))
	for i, n := range nodes {
		out[i] = fromEventNode(n)
	}
	return out, nil
}

// RequestCondensation appends a condensation request to the session log;
// the next view request handles it (HARD: the view must shrink).
func (s *Service) RequestCondensation(ctx context.Context, tenant, sessionID string) (Appended, error) {
	sess, err := s.sessions.GetSession(ctx, tenant, sessionID)
	if err != nil {
		return Appended{}, err
	}
	res, err := s.sessions.AppendEvents(ctx, tenant, sessionID, sess.UserID, sess.AgentID, []graph.NewRawEvent{{
		ID: newID("req_"), Kind: graph.RawCondensationRequest, OccurredAt: s.now().UTC(),
	}})
	if err != nil {
		return Appended{}, err
	}
	a := res.Events[0]
	return Appended{ID: a.ID, Seq: a.Seq}, nil
}

// Condense runs an explicit condensation now: it records a request and
// builds the view, which makes the profile condense (HARD). It returns the
// condensations stored (none when there was nothing to condense).
func (s *Service) Condense(ctx context.Context, tenant, sessionID, profile string) (ViewOutput, error) {
	if _, err := s.RequestCondensation(ctx, tenant, sessionID); err != nil {
		return ViewOutput{}, err
	}
	return s.View(ctx, tenant, sessionID, ViewInput{Profile: profile})
}

// withBudget narrows every rolling condenser of a profile to the request's
// budget, so condensing aims at a view that fits: max_size never exceeds
// max_events, and max_tokens becomes the TOKENS trigger. keep_first shrinks
// when a small budget would otherwise make the config invalid.
func withBudget(cfg condenser.Config, maxEvents, maxTokens int) condenser.Config {
	if maxEvents <= 0 && maxTokens <= 0 {
		return cfg
	}
	out := cfg
	if len(cfg.Condensers) > 0 {
		out.Condensers = make([]condenser.Config, len(cfg.Condensers))
		for i, c := range cfg.Condensers {
			out.Condensers[i] = withBudget(c, maxEvents, maxTokens)
		}
		return out
	}
	switch cfg.Type {
	case condenser.TypeLLMSummarizing, condenser.TypeStructured, condenser.TypeAmortized,
		condenser.TypeLLMAttention, condenser.TypeMem1:
	default:
		return out
	}
	d := cfg.WithDefaults()
	if maxEvents > 0 && (d.MaxSize == nil || *d.MaxSize > maxEvents) {
		size := max(maxEvents, 4)
		out.MaxSize = condenser.Ptr(size)
		keep := 0
		if d.KeepFirst != nil {
			keep = *d.KeepFirst
		}
		// LLMSummarizing keeps keep_first + summary + tail, and needs a tail.
		if limit := size/2 - 2; keep > limit {
			out.KeepFirst = condenser.Ptr(max(limit, 0))
		}
		if cfg.Type == condenser.TypeMem1 && d.KeepLast != nil {
			kf := 0
			if out.KeepFirst != nil {
				kf = *out.KeepFirst
			} else if d.KeepFirst != nil {
				kf = *d.KeepFirst
			}
			if *d.KeepLast >= size-kf-1 {
				out.KeepLast = condenser.Ptr(max(size-kf-2, 1))
			}
		}
	}
	if maxTokens > 0 && (cfg.MaxTokens == 0 || cfg.MaxTokens > maxTokens) {
		out.MaxTokens = maxTokens
		out.TokenRatio = 0
	}
	return out
}

// trimToBudget drops the oldest events after the head (system message and
// first user message are kept) until the view fits. It is the last resort
// when condensing could not reach the budget (a SOFT trigger deferred, or a
// dry run); tool calls stay with their results because whole atomic units
// are dropped.
func trimToBudget(events []condenser.Event, maxEvents, maxTokens int, counter condenser.TokenCounter) ([]condenser.Event, int) {
	fits := func(evs []condenser.Event) bool {
		if maxEvents > 0 && len(evs) > maxEvents {
			return false
		}
		return maxTokens <= 0 || (condenser.View{Events: evs}).Tokens(counter) <= maxTokens
	}
	if fits(events) {
		return events, 0
	}
	// Kept: the system prompt, the task (first user message) and the
	// summaries, which stand for everything condensed before them;
	// dropping a summary but not the turns after it would lose the oldest
	// part of the conversation first.
	keep := map[int]bool{}
	task := false
	for i, e := range events {
		switch {
		case e.IsSystemMessage(), e.Kind == condenser.KindSummary:
			keep[i] = true
		case e.IsUserMessage() && !task:
			keep[i], task = true, true
		}
	}
	cuts := condenser.ManipulationIndices(events)
	// Drop from the oldest droppable unit forward until the rest fits; if
	// nothing but the kept head and the last unit is left, that is the
	// smallest view there is.
	dropped := map[int]bool{}
	rest := events
	for ci := 0; ci+1 < len(cuts); ci++ {
		for i := cuts[ci]; i < cuts[ci+1]; i++ {
			if !keep[i] {
				dropped[i] = true
			}
		}
		rest = nil
		for i, e := range events {
			if !dropped[i] {
				rest = append(rest, e)
			}
		}
		if fits(rest) || len(rest) <= len(keep)+1 {
			break
		}
	}
	return rest, len(events) - len(rest)
}

// toCondenserLog turns the stored log into condenser events: raw events as
// they were sent, condensations from their stored records.
func toCondenserLog(log graph.SessionLog) []condenser.Event {
	out := make([]condenser.Event, 0, len(log.Raw)+len(log.Condensations))
	ri, ci := 0, 0
	for ri < len(log.Raw) || ci < len(log.Condensations) {
		if ci >= len(log.Condensations) || (ri < len(log.Raw) && log.Raw[ri].Seq < log.Condensations[ci].Seq) {
			r := log.Raw[ri]
			out = append(out, condenser.Event{
				ID: r.ID, Seq: r.Seq, Time: r.OccurredAt, Kind: condenser.Kind(r.Kind), Role: condenser.Role(r.Role),
				Content: r.Content, Name: r.Name, ToolCallID: r.ToolCallID, BatchID: r.BatchID, URL: r.URL,
				Tokens: r.Tokens, Metadata: r.Metadata,
			})
			ri++
			continue
		}
		n := log.Condensations[ci]
		var rec condenser.Condensation
		if err := json.Unmarshal([]byte(n.Record), &rec); err != nil {
			// An unreadable record is kept as an empty condensation event;
			// BuildView hides it and reports it as invalid.
			rec = condenser.Condensation{}
		}
		out = append(out, condenser.CondensationEvent(rec, n.ID, n.Seq, n.CreatedAt))
		ci++
	}
	return out
}

func fromCondenserEvent(e condenser.Event) Event {
	return Event{ID: e.ID, Seq: e.Seq, Kind: string(e.Kind), Role: string(e.Role), Name: e.Name, Content: e.Content,
		ToolCallID: e.ToolCallID, BatchID: e.BatchID, URL: e.URL, Metadata: e.Metadata, Tokens: e.Tokens, OccurredAt: e.Time}
}

func fromEventNode(n graph.EventNode) Condensation {
	c := Condensation{ID: n.ID, Seq: n.Seq, Kind: n.Kind, Summary: n.Summary, ForgottenIDs: n.ForgottenIDs,
		Strategy: n.Strategy, Summarizer: n.SummarizerName, TokensBefore: n.TokensBefore, TokensAfter: n.TokensAfter,
		EventsBefore: n.EventsBefore, EventsAfter: n.EventsAfter, LLMCalls: n.LLMCalls, DurationMS: n.DurationMS,
		CoveredIDs: n.CoveredIDs, CreatedAt: n.CreatedAt, ExtractedAt: n.ExtractedAt}
	if n.Config != "" {
		c.Config = json.RawMessage(n.Config)
	}
	if n.Record != "" {
		var rec condenser.Condensation
		if json.Unmarshal([]byte(n.Record), &rec) == nil {
			c.SummaryOffset = rec.SummaryOffset
			c.Requirement = string(rec.Requirement)
			for _, r := range rec.Reasons {
				c.Reasons = append(c.Reasons, string(r))
			}
		}
	}
	return c
}
