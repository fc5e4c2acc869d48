package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphmem/graphmem/client"
)

// Memory is the REST API as the tools call it; *client.Client is one.
type Memory interface {
	Append(ctx context.Context, sessionID string, req client.AppendRequest) (client.AppendResponse, error)
	Close(ctx context.Context, sessionID string, wait bool) (client.CloseResponse, error)
	SessionView(ctx context.Context, sessionID string, req client.ViewRequest) (client.ViewResponse, error)
	RequestCondensation(ctx context.Context, sessionID string) (client.Appended, error)
	Search(ctx context.Context, req client.SearchRequest) (client.SearchResponse, error)
	Context(ctx context.Context, req client.ContextRequest) (client.ContextResponse, error)
	Facts(ctx context.Context, userID string, q client.FactsQuery) ([]client.Fact, error)
	Preferences(ctx context.Context, userID string, q client.HistoryQuery) ([]client.Preference, error)
	Conflicts(ctx context.Context, userID, status string, limit int) ([]client.Conflict, error)
	ResolveConflict(ctx context.Context, conflictID, winner, note string) (client.Conflict, error)
	AddFact(ctx context.Context, userID string, f client.NewFact) (client.EditResult, error)
	CorrectFact(ctx context.Context, factID string, ch client.FactChange) (client.EditResult, error)
	RetractFact(ctx context.Context, factID string, r client.Retraction) (client.EditResult, error)
	Mark(ctx context.Context, kind, id string, m client.Marks) (client.Marked, error)
}

// Tool inputs. Their JSON names are the REST fields'; optional ones are
// omitted when empty, as the client sends them.

type rememberIn struct {
	UserID     string         `json:"user_id"`
	SessionID  string         `json:"session_id,omitempty"`
	AgentID    string         `json:"agent_id,omitempty"`
	Note       string         `json:"note,omitempty"`
	Role       string         `json:"role,omitempty"`
	Events     []client.Event `json:"events,omitempty"`
	ExtractNow bool           `json:"extract_now,omitempty"`
}

type recallIn struct {
	UserID         string   `json:"user_id"`
	Query          string   `json:"query"`
	Limit          int      `json:"limit,omitempty"`
	Tiers          []string `json:"tiers,omitempty"`
	SessionID      string   `json:"session_id,omitempty"`
	AgentID        string   `json:"agent_id,omitempty"`
	AsOf           string   `json:"as_of,omitempty"`
	IncludeHistory bool     `json:"include_history,omitempty"`
}

type contextIn struct {
	UserID         string `json:"user_id"`
	Query          string `json:"query,omitempty"`
	SessionID      string `json:"session_id,omitempty"`
	MaxTokens      int    `json:"max_tokens,omitempty"`
	IncludeHistory bool   `json:"include_history,omitempty"`
}

type viewIn struct {
	SessionID string `json:"session_id"`
	MaxTokens int    `json:"max_tokens,omitempty"`
	MaxEvents int    `json:"max_events,omitempty"`
	Profile   string `json:"profile,omitempty"`
}

type preferencesIn struct {
	UserID         string `json:"user_id"`
	IncludeHistory bool   `json:"include_history,omitempty"`
	AsOf           string `json:"as_of,omitempty"`
	Limit          int    `json:"limit,omitempty"`
}

type factsIn struct {
	UserID         string `json:"user_id"`
	IncludeHistory bool   `json:"include_history,omitempty"`
	AsOf           string `json:"as_of,omitempty"`
	Subject        string `json:"subject,omitempty"`
	Predicate      string `json:"predicate,omitempty"`
	Limit          int    `json:"limit,omitempty"`
}

type conflictsIn struct {
	UserID string `json:"user_id"`
	Status string `json:"status,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

type resolveIn struct {
	ConflictID string `json:"conflict_id"`
	Winner     string `json:"winner"`
	Note       string `json:"note,omitempty"`
}

type addFactIn struct {
	UserID string `json:"user_id"`
	client.NewFact
}

type correctFactIn struct {
	FactID string `json:"fact_id"`
	client.FactChange
}

type retractFactIn struct {
	FactID string `json:"fact_id"`
	Purge  bool   `json:"purge,omitempty"`
	Actor  string `json:"actor,omitempty"`
	Reason string `json:"reason,omitempty"`
}

type markIn struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	client.Marks
}

type sessionIn struct {
	SessionID string `json:"session_id"`
}

// Descriptions shared by several tools.
const (
	userDesc    = "The user whose memory this is (the same user_id the agent appends events with)."
	historyDesc = "Also return superseded (and, for facts, retracted) items, each marked with its status and validity."
	asOfDesc    = "Valid time: what held at this instant (RFC 3339, or YYYY-MM-DD for midnight UTC)."
	limitDesc   = "How many items to return at most."
	actorDesc   = "Who makes this edit, within the API key's tenant (the user, an agent's name, an operator). Recorded with the edit."
	reasonDesc  = "Why. Recorded with the edit and shown in the fact's history."
	typeDesc    = "Entity type: Person, Place, Organization, Animal, Food, Product, Activity, Language, Artwork, Occasion, Condition, Concept or Value (synonyms such as city or company work); default Concept."
)

func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
}

func writes(destructive bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{DestructiveHint: &destructive}
}

// addTools registers every tool on s, each calling m.
func addTools(s *mcp.Server, m Memory) {
	mcp.AddTool(s, &mcp.Tool{Name: "remember", Annotations: writes(false), Description: `Store something in the user's long-term memory.
Call it whenever the user tells you something worth keeping (where they live, what they like, plans, people in their life), or to append the turns of a conversation you are having.
Give either a plain "note" (one statement; write it as the user said it, "I moved to Berlin", or about "the user") or "events" (conversation turns, as POST /v1/sessions/{id}/events takes them). A note is stored like a user turn and extracted into facts like any turn.
The raw text is searchable by recall at once. Facts, preferences and conflicts are extracted when the session closes; extract_now=true closes it now and waits (a few seconds), so list_facts and list_preferences see the result at once.
Returns the stored event ids and, with extract_now, the extraction jobs.`,
		InputSchema: object([]string{"user_id"}, map[string]*prop{
			"user_id":    ident(userDesc),
			"session_id": ident("The session to append to; default notes-<user_id>, a session of notes kept for the user."),
			"agent_id":   optIdent("The agent that heard it (optional)."),
			"note":       text("One thing to remember, in plain words.", 1, 0),
			"role":       enum("Who said the note: user (default) or assistant.", "user", "assistant"),
			"events": array("Conversation turns to append instead of (or besides) a note.", object([]string{"kind"}, map[string]*prop{
				"id":           ident("Your id for the event; resending the same id is a no-op."),
				"kind":         enum("What the event is.", "message", "tool_call", "tool_result", "observation", "condensation_request"),
				"role":         enum("Who produced a message.", "system", "user", "assistant", "tool"),
				"name":         text("Tool name, or the speaker's name.", 0, 200),
				"content":      text("The text of the event.", 0, 0),
				"tool_call_id": text("Links a tool result to its call.", 0, 200),
				"occurred_at":  instant("When it happened (RFC 3339 or YYYY-MM-DD); default now."),
			}), 2000),
			"extract_now": boolean("Close the session and wait until it is extracted into facts (the session reopens on the next event)."),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in rememberIn) (*mcp.CallToolResult, any, error) {
		return remember(ctx, m, in)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "recall", Annotations: readOnly(), Description: `Search the user's memory before you answer anything that may depend on what you were told earlier (their home, job, tastes, plans, people, past conversations).
Hybrid search (full text, graph traversal from the entities the query names, recency, and vectors when configured) over facts, conversation turns, summaries and insights. Current facts by default: a superseded fact appears only with include_history, marked "superseded"; as_of asks what held at a past instant.
Returns the best results, each with its kind, status, validity, score and id. An empty result means nothing relevant is stored for this user (check the user_id); say you don't know rather than guess.`,
		InputSchema: object([]string{"user_id", "query"}, map[string]*prop{
			"user_id":         ident(userDesc),
			"query":           text("What you want to know, in natural language (\"Where does the user live?\").", 1, 4000),
			"limit":           integer(limitDesc+" Default 10.", 0, 100),
			"tiers":           array("Kinds of memory to search (default all).", enum("", "raw", "event", "insight", "fact", "entity"), 0),
			"session_id":      optIdent("Only turns and summaries of this session."),
			"agent_id":        optIdent("Only turns this agent appended."),
			"as_of":           instant(asOfDesc),
			"include_history": boolean(historyDesc),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in recallIn) (*mcp.CallToolResult, any, error) {
		out, err := m.Search(ctx, client.SearchRequest{UserID: in.UserID, Query: in.Query, Limit: in.Limit, Tiers: in.Tiers,
			SessionID: in.SessionID, AgentID: in.AgentID, AsOf: in.AsOf, IncludeHistory: in.IncludeHistory, Explain: true})
		if err != nil {
			return toolError(err)
		}
		if len(out.Results) == 0 {
			return result("No memories matched. Nothing relevant is stored for this user yet (or the user_id differs); that is not an error, just unknown.", out)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d memories, best first:\n", len(out.Results))
		for i, r := range out.Results {
			fmt.Fprintf(&b, "%d. [%s, %s, score %.2f] %s%s (id %s)\n", i+1, r.Kind, r.Status, r.Score, r.Text, validity(r.ValidFrom, r.ValidTo), r.ID)
		}
		return result(b.String(), out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "get_context", Annotations: readOnly(), Description: `Get a prompt-ready memory context before an LLM call: what graphmem knows about the user (current facts, preferences, insights) plus the memories relevant to the query, and, with session_id, the session's condensed recent turns, packed within max_tokens.
Returns the text to put in your prompt. A context with no long-term part means nothing is stored for this user yet.`,
		InputSchema: object([]string{"user_id"}, map[string]*prop{
			"user_id":         ident(userDesc),
			"query":           text("What the next answer is about; it selects the relevant memories.", 0, 4000),
			"session_id":      optIdent("Include this session's condensed view (it may condense first)."),
			"max_tokens":      integer("Token budget of the whole context. Default 2000.", 50, 200000),
			"include_history": boolean(historyDesc),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in contextIn) (*mcp.CallToolResult, any, error) {
		out, err := m.Context(ctx, client.ContextRequest{UserID: in.UserID, Query: in.Query, SessionID: in.SessionID,
			MaxTokens: in.MaxTokens, IncludeHistory: in.IncludeHistory})
		if err != nil {
			return toolError(err)
		}
		txt := out.Text
		if strings.TrimSpace(txt) == "" {
			txt = "(empty context: nothing is stored for this user yet)"
		}
		return result(txt, out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "get_session_view", Annotations: writes(false), Description: `Get the condensed view of a session: the events to send to the LLM next, with older turns replaced by summaries when the session grew past its budget (graphmem condenses first when max_tokens or the condenser profile call for it, and stores that condensation).
Returns the events in order (role: content) and their token count. An unknown session is an error; an empty list means the session has no events yet.`,
		InputSchema: object([]string{"session_id"}, map[string]*prop{
			"session_id": ident("The session."),
			"max_tokens": integer("Most tokens the view may hold (0: no limit).", 0, 10000000),
			"max_events": integer("Most events the view may hold (0: no limit).", 0, 100000),
			"profile":    ident("Condenser profile (default, sdk, v1, mem1, noop, or a configured one)."),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in viewIn) (*mcp.CallToolResult, any, error) {
		out, err := m.SessionView(ctx, in.SessionID, client.ViewRequest{MaxTokens: in.MaxTokens, MaxEvents: in.MaxEvents, Profile: in.Profile})
		if err != nil {
			return toolError(err)
		}
		return result(renderView(out), out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "list_preferences", Annotations: readOnly(), Description: `List what the user likes, dislikes, prefers and names as favourites, current by default (include_history adds the ones that changed, with when).
Call it before recommending anything. Returns one line per preference with its fact id. An empty list means no preference is known yet.`,
		InputSchema: object([]string{"user_id"}, map[string]*prop{
			"user_id": ident(userDesc), "include_history": boolean(historyDesc), "as_of": instant(asOfDesc),
			"limit": integer(limitDesc+" Default 100.", 0, 1000),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in preferencesIn) (*mcp.CallToolResult, any, error) {
		out, err := m.Preferences(ctx, in.UserID, client.HistoryQuery{AsOf: in.AsOf, IncludeHistory: in.IncludeHistory, Limit: in.Limit})
		if err != nil {
			return toolError(err)
		}
		if len(out) == 0 {
			return result("No preferences are known for this user.", map[string]any{"preferences": out})
		}
		var b strings.Builder
		for _, p := range out {
			fmt.Fprintf(&b, "- %s %s%s [%s]%s (fact %s)\n", p.Predicate, p.Object, qualifier(p.Qualifier), p.Status, validity(p.ValidFrom, p.ValidTo), p.FactID)
		}
		return result(b.String(), map[string]any{"preferences": out})
	})

	mcp.AddTool(s, &mcp.Tool{Name: "list_facts", Annotations: readOnly(), Description: `List the facts graphmem holds about the user: typed statements (LIVES_IN, WORKS_AT, LIKES, HAS_CHILD, ...) with their validity and provenance. Current facts by default; include_history adds superseded and retracted ones; as_of gives what held at a past instant.
Use it to check a fact before correcting or retracting it: each line ends with the fact id those tools take. An empty list means nothing is known yet.`,
		InputSchema: object([]string{"user_id"}, map[string]*prop{
			"user_id": ident(userDesc), "include_history": boolean(historyDesc), "as_of": instant(asOfDesc),
			"subject":   optIdent("Only facts whose subject is this entity id."),
			"predicate": text("Only this relationship type (LIVES_IN, LIKES, ...).", 0, 64),
			"limit":     integer(limitDesc+" Default 100.", 0, 1000),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in factsIn) (*mcp.CallToolResult, any, error) {
		out, err := m.Facts(ctx, in.UserID, client.FactsQuery{AsOf: in.AsOf, IncludeHistory: in.IncludeHistory, Subject: in.Subject,
			Predicate: in.Predicate, Limit: in.Limit})
		if err != nil {
			return toolError(err)
		}
		if len(out) == 0 {
			return result("No facts are known for this user.", map[string]any{"facts": out})
		}
		var b strings.Builder
		for _, f := range out {
			fmt.Fprintf(&b, "- %s -[%s]-> %s%s: %q [%s]%s (fact %s)\n", f.Subject, f.Predicate, f.Object, qualifier(f.Qualifier), f.Text, f.Status, validity(f.ValidFrom, f.ValidTo), f.ID)
		}
		return result(b.String(), map[string]any{"facts": out})
	})

	mcp.AddTool(s, &mcp.Tool{Name: "list_conflicts", Annotations: readOnly(), Description: `List contradictions between an older and a newer fact about the user ("lives in Paris" then "lives in Berlin"). Resolved ones were decided automatically; open ones wait for a decision (the newer statement was uncertain). Ask the user about open conflicts and settle them with resolve_conflict.
An empty list means no contradiction was found.`,
		InputSchema: object([]string{"user_id"}, map[string]*prop{
			"user_id": ident(userDesc), "status": enum("open or resolved (default both).", "open", "resolved"),
			"limit": integer(limitDesc+" Default 100.", 0, 1000),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in conflictsIn) (*mcp.CallToolResult, any, error) {
		out, err := m.Conflicts(ctx, in.UserID, in.Status, in.Limit)
		if err != nil {
			return toolError(err)
		}
		if len(out) == 0 {
			return result("No conflicts.", map[string]any{"conflicts": out})
		}
		var b strings.Builder
		for _, c := range out {
			fmt.Fprintf(&b, "- %s (%s, %s): old %q vs new %q", c.ID, c.Status, c.Kind, c.OldFact, c.NewFact)
			if c.Winner != "" {
				fmt.Fprintf(&b, ", kept %s", c.Winner)
			}
			b.WriteString("\n")
		}
		return result(b.String(), map[string]any{"conflicts": out})
	})

	mcp.AddTool(s, &mcp.Tool{Name: "resolve_conflict", Annotations: writes(true), Description: `Decide a conflict: keep the "new" or the "old" fact; the other is closed (kept in history, never deleted). Choosing the other side of an already resolved conflict reopens the fact it had closed.
Returns the conflict after the decision.`,
		InputSchema: object([]string{"conflict_id", "winner"}, map[string]*prop{
			"conflict_id": ident("The conflict's id (from list_conflicts)."),
			"winner":      enum("Which fact is true now.", "new", "old"),
			"note":        text("Why (kept with the conflict).", 0, 2000),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in resolveIn) (*mcp.CallToolResult, any, error) {
		out, err := m.ResolveConflict(ctx, in.ConflictID, in.Winner, in.Note)
		if err != nil {
			return toolError(err)
		}
		return result(fmt.Sprintf("Conflict %s resolved: kept the %s fact (%s).", out.ID, out.Winner, map[string]string{"new": out.NewFact, "old": out.OldFact}[out.Winner]), out)
	})

	factProps := map[string]*prop{
		"user_id":      ident(userDesc),
		"subject":      text(`Whom the fact is about: empty or "user" for the user, otherwise an entity's name (resolved against the user's entities).`, 0, 300),
		"subject_type": text(typeDesc, 0, 64),
		"predicate":    text("The relationship type: LIVES_IN, FROM, WORKS_AT, WORKS_AS, STUDIES_AT, LIKES, DISLIKES, PREFERS, HAS_FAVORITE, HAS_PET, HAS_CHILD, MARRIED_TO, SPEAKS, ALLERGIC_TO, ... (or its phrase, \"lives in\").", 1, 64),
		"object":       text(`The other end: a name (resolved against the user's entities), or "user".`, 1, 300),
		"object_type":  text(typeDesc, 0, 64),
		"qualifier":    text("The slot of a one-value fact: the category of a favourite (\"programming language\"), what a budget is for.", 0, 200),
		"polarity":     enum("negative denies the fact (\"no longer works at Acme\"); a negative LIKES is stored as DISLIKES.", "positive", "negative"),
		"sentence":     text("The fact as a readable sentence; rendered from the names when empty.", 0, 4000),
		"confidence":   number("How sure (default 1). Below 0.5 a contradiction is left open for review instead of closing the older fact.", 0, 1),
		"strength":     number("How strong a preference is.", 0, 1),
		"valid_from":   instant("When it began to hold (RFC 3339 or YYYY-MM-DD); default now."),
		"valid_to":     instant("When it stopped holding, if it already has."),
		"actor":        text(actorDesc, 0, 128),
		"reason":       text(reasonDesc, 0, 2000),
	}
	mcp.AddTool(s, &mcp.Tool{Name: "add_fact", Annotations: writes(false), Description: `Record one fact directly, without waiting for extraction, when the user states something plainly ("I'm vegetarian now", "my daughter is called Mia").
It is judged like an extracted fact: the same current fact is reinforced; a contradicting one (a new home replaces the old) is superseded and kept in history; with confidence below 0.5 the contradiction stays open for review. The edit is recorded with actor and reason.
Returns the stored fact with its id and what it superseded or conflicted with.`,
		InputSchema: object([]string{"user_id", "predicate", "object"}, factProps),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in addFactIn) (*mcp.CallToolResult, any, error) {
		out, err := m.AddFact(ctx, in.UserID, in.NewFact)
		if err != nil {
			return toolError(err)
		}
		return result(renderEdit(out), out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "correct_fact", Annotations: writes(true), Description: `Correct a fact that is wrong as stored (a misheard city, a wrong date): give its fact_id (from list_facts or recall) and only the fields to change. The old version is superseded by the corrected one and kept in history with an empty validity (it never held as stated); the edit is recorded with actor and reason.
Only a current fact can be corrected. For a change in the world (the user moved again) use add_fact instead: the old fact then keeps the time it held.`,
		InputSchema: object([]string{"fact_id"}, map[string]*prop{
			"fact_id":     ident("The fact to correct."),
			"predicate":   factProps["predicate"],
			"object":      factProps["object"],
			"object_type": factProps["object_type"],
			"qualifier":   factProps["qualifier"],
			"polarity":    factProps["polarity"],
			"sentence":    factProps["sentence"],
			"confidence":  factProps["confidence"],
			"strength":    factProps["strength"],
			"valid_from":  &prop{Type: "string", Pattern: "^" + strings.TrimSuffix(strings.TrimPrefix(instantPattern, "^("), ")?$") + "$", Description: "The corrected start (RFC 3339 or YYYY-MM-DD)."},
			"actor":       factProps["actor"],
			"reason":      factProps["reason"],
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in correctFactIn) (*mcp.CallToolResult, any, error) {
		out, err := m.CorrectFact(ctx, in.FactID, in.FactChange)
		if err != nil {
			return toolError(err)
		}
		return result(renderEdit(out), out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "retract_fact", Annotations: writes(true), Description: `Withdraw a fact that is wrong or that the user wants forgotten: give its fact_id. From the next call on it is in no recall, context or fact list; a fact it had replaced becomes current again. It stays in history as "retracted" with actor and reason, unless purge=true deletes it (use purge when the user asks to erase the information).`,
		InputSchema: object([]string{"fact_id"}, map[string]*prop{
			"fact_id": ident("The fact to withdraw."),
			"purge":   boolean("Delete the fact instead of keeping it in history."),
			"actor":   text(actorDesc, 0, 128),
			"reason":  text(reasonDesc, 0, 2000),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in retractFactIn) (*mcp.CallToolResult, any, error) {
		out, err := m.RetractFact(ctx, in.FactID, client.Retraction{Purge: in.Purge, Actor: in.Actor, Reason: in.Reason})
		if err != nil {
			return toolError(err)
		}
		return result(renderEdit(out), out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "mark_memory", Annotations: writes(false), Description: `Pin a memory or set how much it matters, when the user says something must not be forgotten ("always remember I'm allergic to nuts") or no longer matters. Give the kind (fact, insight or summary) and its id (from recall or list_facts).
Pinned and critical memories open every get_context answer (before anything else, within max_tokens) and are never dropped or expired by retention; low ones may be. pinned=false unpins. The fact is marked in place (no new version).`,
		InputSchema: object([]string{"kind", "id"}, map[string]*prop{
			"kind":       enum("What the id names.", "fact", "insight", "summary"),
			"id":         ident("The memory's id (a fact id, an insight id, or a summary's id from recall results of kind event)."),
			"pinned":     {Type: "boolean", Description: "Pin (true) or unpin (false); leave out to keep the pin as it is."},
			"importance": enum("How much it matters; critical, like pinned, always comes first.", "low", "normal", "high", "critical"),
			"actor":      text(actorDesc, 0, 128),
		}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in markIn) (*mcp.CallToolResult, any, error) {
		if in.Pinned == nil && in.Importance == nil {
			return toolError(errors.New("give pinned or importance"))
		}
		out, err := m.Mark(ctx, in.Kind, in.ID, in.Marks)
		if err != nil {
			return toolError(err)
		}
		state := "not pinned"
		if out.Pinned {
			state = "pinned"
		}
		return result(fmt.Sprintf("The %s %s is %s, importance %s.", out.Kind, out.ID, state, out.Importance), out)
	})

	mcp.AddTool(s, &mcp.Tool{Name: "request_condensation", Annotations: writes(false), Description: `Ask graphmem to condense a session at its next view: older turns are summarized (and extracted into facts) so the context stays small. Call it when the conversation changes topic or grows long; get_session_view then returns the condensed events.
Returns the id and position of the recorded request.`,
		InputSchema: object([]string{"session_id"}, map[string]*prop{"session_id": ident("The session.")}),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in sessionIn) (*mcp.CallToolResult, any, error) {
		out, err := m.RequestCondensation(ctx, in.SessionID)
		if err != nil {
			return toolError(err)
		}
		return result(fmt.Sprintf("Condensation requested for session %s (event %s, seq %d); the next view condenses.", in.SessionID, out.ID, out.Seq), out)
	})
}

// remember appends a note or events and, on request, extracts them now.
func remember(ctx context.Context, m Memory, in rememberIn) (*mcp.CallToolResult, any, error) {
	events := in.Events
	if in.Note != "" {
		role := in.Role
		if role == "" {
			role = "user"
		}
		// The same note twice is one event: a retried call stores nothing new.
		sum := sha256.Sum256([]byte(role + "\x00" + in.Note))
		events = append(events, client.Event{ID: "note-" + hex.EncodeToString(sum[:12]), Kind: "message", Role: role, Content: in.Note})
	}
	if len(events) == 0 {
		return toolError(errors.New(`give a "note" or at least one of "events"`))
	}
	session := in.SessionID
	if session == "" {
		session = defaultSession(in.UserID)
	}
	out, err := m.Append(ctx, session, client.AppendRequest{UserID: in.UserID, AgentID: in.AgentID, Events: events})
	if err != nil {
		return toolError(err)
	}
	stored := 0
	for _, e := range out.Events {
		if !e.Duplicate {
			stored++
		}
	}
	msg := fmt.Sprintf("Stored %d new event(s) in session %s (%d already there); recall finds the text now.", stored, session, len(out.Events)-stored)
	res := map[string]any{"append": out}
	if in.ExtractNow {
		closed, err := m.Close(ctx, session, true)
		if err != nil {
			return toolError(err)
		}
		res["close"] = closed
		if closed.Done {
			msg += " Extracted into long-term memory: its facts and preferences are listed now."
		} else {
			msg += " Extraction is still running; facts appear within seconds."
		}
	} else {
		msg += " Facts are extracted when the session closes (extract_now=true does it at once)."
	}
	return result(msg, res)
}

// defaultSession is the notes session of a user: "notes-" + user id, cut
// to the identifier's 128 characters.
func defaultSession(userID string) string {
	s := "notes-" + userID
	if len(s) > 128 {
		s = s[:128]
	}
	return s
}

// result is a tool answer: text for the model, the API's JSON as
// structured content.
func result(text string, structured any) (*mcp.CallToolResult, any, error) {
	raw, err := json.Marshal(structured)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(raw)}, nil, nil
}

// toolError turns an API error into a tool error the model can act on:
// the problem's title, detail and field issues as text, the problem as
// structured content. A client-side failure (graphmem unreachable) reads
// as one too, rather than failing the protocol call.
func toolError(err error) (*mcp.CallToolResult, any, error) {
	var p *client.Problem
	text := err.Error()
	var structured any = map[string]string{"error": text}
	if errors.As(err, &p) {
		var b strings.Builder
		fmt.Fprintf(&b, "%s (%d): %s", p.Title, p.Status, p.Detail)
		for _, f := range p.Errors {
			fmt.Fprintf(&b, "\n- %s: %s", f.Field, f.Message)
		}
		text, structured = b.String(), p
	}
	raw, _ := json.Marshal(structured)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(raw)}, nil, nil
}

func validity(from, to *time.Time) string {
	switch {
	case from != nil && to != nil:
		return fmt.Sprintf(" (%s to %s)", from.Format("2006-01-02"), to.Format("2006-01-02"))
	case from != nil:
		return " (since " + from.Format("2006-01-02") + ")"
	}
	return ""
}

func qualifier(q string) string {
	if q == "" {
		return ""
	}
	return " (" + q + ")"
}

func renderView(v client.ViewResponse) string {
	if len(v.Events) == 0 {
		return fmt.Sprintf("Session %s has no events yet.", v.SessionID)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d events, %d tokens:\n", len(v.Events), v.Tokens)
	for _, e := range v.Events {
		who := e.Role
		if who == "" {
			who = e.Kind
		}
		fmt.Fprintf(&b, "%s: %s\n", who, e.Content)
	}
	return b.String()
}

func renderEdit(r client.EditResult) string {
	f := r.Fact
	var b strings.Builder
	switch r.Edit.Kind {
	case "add":
		fmt.Fprintf(&b, "Fact %s %s: %s -[%s]-> %s, %q.", f.ID, r.Edit.Outcome, f.Subject, f.Predicate, f.Object, f.Text)
	case "correct":
		fmt.Fprintf(&b, "Fact %s corrected: the new version is %s (%s -[%s]-> %s, %q).", r.Edit.FactID, f.ID, f.Subject, f.Predicate, f.Object, f.Text)
	case "retract":
		fmt.Fprintf(&b, "Fact %s retracted (%q); it is kept in history only.", f.ID, f.Text)
	case "purge":
		fmt.Fprintf(&b, "Fact %s purged: deleted, only the edit record remains.", f.ID)
	}
	if len(r.Superseded) > 0 {
		fmt.Fprintf(&b, " Superseded: %s.", strings.Join(r.Superseded, ", "))
	}
	if len(r.Reopened) > 0 {
		fmt.Fprintf(&b, " Current again: %s.", strings.Join(r.Reopened, ", "))
	}
	if len(r.ConflictsOpened) > 0 {
		fmt.Fprintf(&b, " Open conflicts to review: %s.", strings.Join(r.ConflictsOpened, ", "))
	}
	fmt.Fprintf(&b, " Edit %s.", r.Edit.ID)
	return b.String()
}
