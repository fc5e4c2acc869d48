package retrieval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

// SessionViewer gives context assembly the session's condensed view within
// maxTokens, condensing (and storing the condensation) first when the
// budget or the condenser profile calls for it. userID, when set, must own
// the session (errs.ErrConflict otherwise). memory builds views;
// cmd/graphmem wires it here.
type SessionViewer interface {
	SessionView(ctx context.Context, tenant, sessionID, userID string, maxTokens int) ([]ViewEvent, error)
}

// ViewEvent is one event of a session's view, as a prompt shows it.
type ViewEvent struct {
	ID         string
	Seq        int64
	Kind       string
	Role       string
	Name       string
	Content    string
	ToolCallID string
	BatchID    string
	URL        string
	Metadata   map[string]any
	Tokens     int
	OccurredAt time.Time
	// Summary marks a condensation's summary, which stands for the turns
	// it condensed: packing keeps it before any turn.
	Summary bool
}

// Preference is one of the user's preferences as a context lists it.
type Preference struct {
	FactID         string
	Predicate      string
	Qualifier      string
	ObjectID       string
	Object         string
	Polarity       string
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

// ContextInput asks for a prompt-ready context.
type ContextInput struct {
	UserID         string
	SessionID      string // when set, the session's condensed view is included
	Query          string // what the agent is about to answer; long-term memories are searched with it
	MaxTokens      int
	IncludeHistory bool
}

// ContextOutput is one text block and its structured parts.
type ContextOutput struct {
	Text      string
	Tokens    int
	MaxTokens int
	// ShortTerm is the session's condensed view (empty without a session).
	ShortTerm       []ViewEvent
	ShortTermTokens int
	// Long-term parts, in the order they are packed. Pinned are the
	// user's pinned and critical memories, which come before anything else.
	Pinned      []SearchResult
	Insights    []SearchResult
	Facts       []SearchResult
	Preferences []Preference
	Memories    []SearchResult // relevant summaries and past turns
	// Omitted counts long-term items that did not fit the budget.
	Omitted int
}

// Context budget shares: the session's recent view may take up to this
// share of the budget; long-term memory takes the rest (and what the view
// leaves unused).
const (
	longTermHeading  = "## Long-term memory\n"
	shortTermHeading = "## Current conversation (condensed)\n"
	shortTermShare   = 0.5
	contextSearchN   = 25
	maxPreferences   = 8
	// maxProfileFacts bounds "About the user": the user's own current
	// facts (where they live, work, who they know), newest first, which an
	// agent needs whatever the query; maxContextInsights bounds the
	// insights shown when there is no query to search with.
	maxProfileFacts    = 12
	maxContextInsights = 5
	defaultCtxToken    = 2000
)

// Context assembles what an agent needs before its next LLM call: the
// session's condensed short-term view and the long-term memories relevant
// to the query (insights, current facts, preferences, past turns), packed
// most useful first into MaxTokens.
func (s *Service) Context(ctx context.Context, tenant string, in ContextInput) (ContextOutput, error) {
	if in.MaxTokens <= 0 {
		in.MaxTokens = defaultCtxToken
	}
	out := ContextOutput{MaxTokens: in.MaxTokens}
	// The section headings and the blank line between them count too.
	budget := in.MaxTokens - s.counter.Count(longTermHeading+"\n"+shortTermHeading)

	var session strings.Builder
	if in.SessionID != "" {
		share := min(int(float64(in.MaxTokens)*shortTermShare), budget)
		view, err := s.views.SessionView(ctx, tenant, in.SessionID, in.UserID, share)
		if err != nil {
			return ContextOutput{}, err
		}
		out.ShortTerm = s.packView(view, share)
		for _, e := range out.ShortTerm {
			session.WriteString(viewLine(e))
		}
		out.ShortTermTokens = s.counter.Count(session.String())
		budget -= out.ShortTermTokens
	}

	var long strings.Builder
	used := 0
	fits := func(line string) bool {
		n := s.counter.Count(line)
		if used+n > budget {
			out.Omitted++
			return false
		}
		used += n
		long.WriteString(line)
		return true
	}
	var insights, facts, memories []SearchResult
	if strings.TrimSpace(in.Query) != "" {
		res, err := s.Search(ctx, tenant, SearchInput{UserID: in.UserID, Query: in.Query, Limit: contextSearchN,
			IncludeHistory: in.IncludeHistory})
		if err != nil {
			return ContextOutput{}, err
		}
		for _, r := range res.Results {
			switch r.Kind {
			case KindInsight:
				insights = append(insights, r)
			case KindFact:
				facts = append(facts, r)
			case KindRaw, KindEvent:
				memories = append(memories, r)
			}
		}
	} else {
		// Nothing to search with (an agent starting a session): the
		// freshest insights stand for what is known across sessions.
		latest, err := s.store.Insights(ctx, tenant, in.UserID, graph.InsightQuery{Limit: maxContextInsights})
		if err != nil {
			return ContextOutput{}, err
		}
		for _, ins := range latest {
			insights = append(insights, insightCandidate(ins).SearchResult)
		}
	}
	section := func(title string, items []SearchResult, keep *[]SearchResult) {
		header := false
		for _, r := range items {
			line := "- " + resultLine(r) + "\n"
			if !header {
				line = "### " + title + "\n" + line
			}
			if fits(line) {
				header = true
				*keep = append(*keep, r)
			}
		}
	}
	pinned, err := s.pinnedMemories(ctx, tenant, in.UserID)
	if err != nil {
		return ContextOutput{}, err
	}
	section("Pinned", pinned, &out.Pinned)
	insights, facts, memories = notPinned(insights, pinned), notPinned(facts, pinned), notPinned(memories, pinned)
	section("Insights", insights, &out.Insights)
	section("Facts", facts, &out.Facts)
	profile, err := s.userProfile(ctx, tenant, in.UserID, slices.Concat(out.Facts, out.Pinned))
	if err != nil {
		return ContextOutput{}, err
	}
	section("About the user", notPinned(profile, pinned), &out.Facts)
	prefs, err := s.store.Preferences(ctx, tenant, in.UserID, graph.PreferenceQuery{Limit: maxPreferences})
	if err != nil {
		return ContextOutput{}, err
	}
	if len(prefs) > 0 && fits(preferencesSection(prefs)) {
		out.Preferences = make([]Preference, len(prefs))
		for i, p := range prefs {
			out.Preferences[i] = fromGraphPreference(p)
		}
	}
	section("Relevant past conversation", pastTurns(memories, out.Facts, in.SessionID), &out.Memories)

	var text strings.Builder
	if long.Len() > 0 {
		text.WriteString(longTermHeading)
		text.WriteString(long.String())
	}
	if session.Len() > 0 {
		if text.Len() > 0 {
			text.WriteString("\n")
		}
		text.WriteString(shortTermHeading)
		text.WriteString(session.String())
	}
	out.Text = text.String()
	out.Tokens = s.counter.Count(out.Text)
	return out, nil
}

// PinnedReader is what the pinned section reads: the user's pinned and
// critical memories, most important first (graph/marks.go). It is an
// optional capability of the ContextStore, so stores (and fakes) without
// marks assemble contexts as before.
type PinnedReader interface {
	PinnedMemories(ctx context.Context, tenant, userID string, limit int) ([]graph.PinnedMemory, error)
}

// maxPinned bounds the pinned section; the budget bounds it further.
const maxPinned = 20

// pinnedMemories returns the pinned section's items, whatever the query:
// a user who pins "I'm allergic to nuts" wants every prompt to carry it.
func (s *Service) pinnedMemories(ctx context.Context, tenant, userID string) ([]SearchResult, error) {
	pr, ok := s.store.(PinnedReader)
	if !ok {
		return nil, nil
	}
	pins, err := pr.PinnedMemories(ctx, tenant, userID, maxPinned)
	if err != nil {
		return nil, err
	}
	out := make([]SearchResult, len(pins))
	for i, p := range pins {
		kind := map[string]string{"fact": KindFact, "insight": KindInsight, "summary": KindEvent}[p.Kind]
		r := SearchResult{ID: p.ID, Kind: kind, Text: p.Text, Status: StatusCurrent, SessionID: p.SessionID,
			SourceEventIDs: p.SourceEventIDs, Explanation: "pinned"}
		if p.Importance == "critical" && !p.Pinned {
			r.Explanation = "critical"
		}
		if kind == KindFact {
			r.ValidFrom = p.At
		} else {
			r.OccurredAt = p.At
		}
		out[i] = r
	}
	return out, nil
}

// notPinned drops the items the pinned section already holds.
func notPinned(items, pinned []SearchResult) []SearchResult {
	if len(pinned) == 0 {
		return items
	}
	out := items[:0:0]
	for _, r := range items {
		if !slices.ContainsFunc(pinned, func(p SearchResult) bool { return p.ID == r.ID }) {
			out = append(out, r)
		}
	}
	return out
}

// preferencesSection renders the user's preferences as two lines, liked
// and disliked, which is how an agent uses them.
func preferencesSection(prefs []graph.Preference) string {
	var liked, disliked []string
	for _, p := range prefs {
		if p.Polarity == string(ontology.Negative) {
			disliked = append(disliked, p.Object)
		} else {
			liked = append(liked, p.Object)
		}
	}
	section := "### Preferences\n"
	if len(liked) > 0 {
		section += "- likes: " + strings.Join(liked, ", ") + "\n"
	}
	if len(disliked) > 0 {
		section += "- dislikes: " + strings.Join(disliked, ", ") + "\n"
	}
	return section
}

// packView keeps the view's events whose prompt lines fit budget tokens:
// the summaries first (each stands for many turns), then the newest turns,
// in their original order. A view that could not be condensed into its
// share (a huge first message, a summary over budget) must not push the
// context past max_tokens.
func (s *Service) packView(events []ViewEvent, budget int) []ViewEvent {
	total := 0
	cost := make([]int, len(events))
	for i, e := range events {
		cost[i] = s.counter.Count(viewLine(e))
		total += cost[i]
	}
	if total <= budget {
		return events
	}
	order := make([]int, 0, len(events))
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Summary {
			order = append(order, i)
		}
	}
	for i := len(events) - 1; i >= 0; i-- {
		if !events[i].Summary {
			order = append(order, i)
		}
	}
	chosen := make([]bool, len(events))
	used := 0
	for _, i := range order {
		if used+cost[i] <= budget {
			chosen[i], used = true, used+cost[i]
		}
	}
	var out []ViewEvent
	for i, e := range events {
		if chosen[i] {
			out = append(out, e)
		}
	}
	return out
}

// userProfile returns the user's current facts (the user as subject,
// preferences left to their own section), newest first, except those
// already packed from the search: whatever the query, an agent should know
// who it is talking to.
func (s *Service) userProfile(ctx context.Context, tenant, userID string, packed []SearchResult) ([]SearchResult, error) {
	id, err := s.store.UserEntityID(ctx, tenant, userID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	facts, err := s.store.Facts(ctx, tenant, userID, graph.FactQuery{Subject: id, Limit: maxProfileFacts + len(packed)})
	if err != nil {
		return nil, err
	}
	var out []SearchResult
	for _, f := range facts {
		// Facts from one turn come back from search merged into one
		// result, so a fact already packed is found by its sentence.
		if f.Preference || slices.ContainsFunc(packed, func(r SearchResult) bool { return strings.Contains(r.Text, f.Fact) }) {
			continue
		}
		if out = append(out, factCandidate(f).SearchResult); len(out) == maxProfileFacts {
			break
		}
	}
	return out, nil
}

// resultLine renders a memory for the prompt with its date and status.
func resultLine(r SearchResult) string {
	var b strings.Builder
	if when := firstTime(r.ValidFrom, r.OccurredAt); !when.IsZero() {
		fmt.Fprintf(&b, "[%s] ", when.Format("2006-01-02"))
	}
	b.WriteString(strings.Join(strings.Fields(r.Text), " "))
	if r.Status == StatusSuperseded {
		if !r.ValidTo.IsZero() {
			fmt.Fprintf(&b, " (no longer true since %s)", r.ValidTo.Format("2006-01-02"))
		} else {
			b.WriteString(" (no longer true)")
		}
	}
	return b.String()
}

func viewLine(e ViewEvent) string {
	who := e.Role
	if e.Summary {
		who = "summary"
	} else if e.Name != "" {
		who = e.Name
	}
	if who == "" {
		who = e.Kind
	}
	return who + ": " + strings.Join(strings.Fields(e.Content), " ") + "\n"
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

func fromGraphPreference(p graph.Preference) Preference {
	return Preference{FactID: p.FactID, Predicate: p.Predicate, Qualifier: p.Qualifier, ObjectID: p.ObjectID, Object: p.Object,
		Polarity: p.Polarity, Strength: p.Strength, Confidence: p.Confidence, Status: p.Status, ValidFrom: p.ValidFrom,
		ValidTo: p.ValidTo, RecordedAt: p.RecordedAt, ExpiredAt: p.ExpiredAt, SourceEventIDs: p.SourceEventIDs, Fact: p.Fact,
		SupersededBy: p.SupersededBy}
}

// pastTurns keeps the memories worth a line of their own: not a turn of the
// current session (the condensed view shows it), and not a turn every
// event of which a fact already in the context was read from (the fact
// says it, distilled).
func pastTurns(memories, facts []SearchResult, sessionID string) []SearchResult {
	cited := map[string]bool{}
	for _, f := range facts {
		for _, id := range f.SourceEventIDs {
			cited[id] = true
		}
	}
	var out []SearchResult
	for _, m := range memories {
		if m.Kind == KindRaw && sessionID != "" && m.SessionID == sessionID {
			continue
		}
		if m.Kind == KindRaw && len(m.SourceEventIDs) > 0 && !slices.ContainsFunc(m.SourceEventIDs, func(id string) bool { return !cited[id] }) {
			continue
		}
		out = append(out, m)
	}
	return out
}
