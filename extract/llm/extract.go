package llm

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/ontology"
)

// extraction is the structured answer of one extraction call. Entities
// are declared once and facts refer to them by name, which keeps the answer
// small and lets the engine reject a fact about an entity it never saw.
type extraction struct {
	Entities []extractedEntity `json:"entities" description:"Every entity that a fact mentions, each once."`
	Facts    []extractedFact   `json:"facts" description:"Facts stated in the window, preferences included."`
}

type extractedEntity struct {
	Name    string   `json:"name" description:"The entity's proper name as spoken; a common noun for unnamed ones (\"sister\")."`
	Type    string   `json:"type" description:"One of the entity types."`
	Aliases []string `json:"aliases" required:"false" description:"Other names used for it in the window."`
	IsUser  bool     `json:"is_user" required:"false" description:"True only for the entity that is the user."`
	Owner   string   `json:"owner" required:"false" description:"For an unnamed relational entity (\"my sister\"), the name of the entity it belongs to; otherwise empty."`
}

type extractedFact struct {
	Subject        string   `json:"subject" description:"Name of a declared entity."`
	Predicate      string   `json:"predicate" description:"A predicate name from the vocabulary, or a short lower-case verb phrase when none fits."`
	Object         string   `json:"object" description:"Name of a declared entity."`
	Qualifier      string   `json:"qualifier" required:"false" description:"Slot of a qualified predicate: a favourite's category (\"board game\"), a measure's name (\"salary\", \"weight\"), a contact's kind (\"email\"), a budget's purpose (\"trip\"); a relative's role (\"sister\"); otherwise empty."`
	Sentence       string   `json:"sentence" required:"false" description:"The fact as one standalone sentence with names instead of pronouns."`
	Polarity       string   `json:"polarity" required:"false" description:"negative when the fact is denied or has stopped being true; otherwise positive."`
	Confidence     *float64 `json:"confidence" required:"false" description:"0 to 1: how sure it is that the speaker asserted this."`
	Strength       *float64 `json:"strength" required:"false" description:"0 to 1: strength of a preference (love > like); 0 for other facts."`
	ValidFrom      string   `json:"valid_from" required:"false" description:"YYYY-MM-DD when the fact started to hold, resolved against the event dates; empty if unknown."`
	ValidTo        string   `json:"valid_to" required:"false" description:"YYYY-MM-DD when the fact stopped holding; empty if it still holds or is unknown."`
	SourceEventIDs []string `json:"source_event_ids" required:"false" description:"Ids of the events the fact was read from."`
	Ended          bool     `json:"ended" required:"false" description:"true when the speaker says the fact is over and nothing replaces it (sold, gave away, passed away, broke up, quit, cancelled); valid_to defaults to the date it was said."`
	Correction     bool     `json:"correction" required:"false" description:"true when the speaker corrects what they just said wrongly (\"sorry, I meant Wednesday\"): the wrong value never held."`
	Corrects       string   `json:"corrects" required:"false" description:"Name of a declared entity: the wrong value a correction replaces; empty otherwise."`
}

// extractEnums constrains the wire schema to the ontology's entity types
// and polarities; the check schema accepts any string and normalizes it.
func extractEnums() []enum {
	types := make([]string, 0, len(ontology.EntityTypes()))
	for _, t := range ontology.EntityTypes() {
		types = append(types, string(t))
	}
	return []enum{
		{def: "entity", prop: "type", values: types},
		{def: "fact", prop: "polarity", values: []string{string(ontology.Positive), string(ontology.Negative)}},
	}
}

// Extraction defaults and limits, applied while validating.
const (
	// defaultConfidence stands in for a confidence the model left out:
	// stated facts are usually right, but not certain enough to close an
	// older fact without review.
	defaultConfidence = 0.7
	// defaultStrength stands in for a preference strength left out.
	defaultStrength = 0.5
	maxNameRunes    = 200
	maxSentence     = 500
	maxQualifier    = 100
	userKey         = "user"
)

// extractPrompt is the data of extract.tmpl.
type extractPrompt struct {
	UserName    string // "" when unknown
	SessionID   string
	Summary     string
	Events      []promptEvent
	EntityTypes []string
	Predicates  []ontology.Predicate
	Schema      string // json_object mode only
}

// Extract turns one condensation window into entities and facts with one
// structured call, then validates everything before it can reach the graph:
// entity types through ontology.ParseEntityType; predicates through
// ontology.Resolve (an LLM string never becomes a relationship type; an
// unknown one becomes RELATED_TO with the phrase kept in RawPredicate);
// subjects and objects must name declared entities; source ids must be input
// ids; confidence and strength are clamped; bad dates are dropped. Items
// that fail are dropped (logged once per call as a warning), not fatal; only
// output that does not parse as the schema is extract.ErrInvalidOutput.
//
// A fact whose source ids are all missing or unknown is still attributed to
// the window, never left without provenance: to the events that mention its
// object (or its subject, when the subject is not the user) by name or
// alias; failing that, to the window's user events; failing that, to all of
// its events.
//
// A window with no events and no summary makes no call.
func (l *Engine) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if len(in.Events) == 0 && strings.TrimSpace(in.Summary) == "" {
		return extract.Result{Model: l.cfg.Model}, nil
	}
	types := make([]string, 0, len(ontology.EntityTypes()))
	for _, t := range ontology.EntityTypes() {
		types = append(types, string(t))
	}
	system, err := l.render("extract_system", extractPrompt{
		UserName:    strings.TrimSpace(in.UserName),
		EntityTypes: types,
		Predicates:  promptVocabulary(),
		Schema:      l.schemaHint(l.schemas.extract),
	})
	if err != nil {
		return extract.Result{}, fmt.Errorf("extract: %w", err)
	}
	user, err := l.render("extract_user", extractPrompt{
		UserName:  strings.TrimSpace(in.UserName),
		SessionID: in.SessionID,
		Summary:   truncate(strings.TrimSpace(in.Summary), 2*l.cfg.MaxEventChars),
		Events:    promptEvents(in.Events, l.cfg.MaxEventChars),
	})
	if err != nil {
		return extract.Result{}, fmt.Errorf("extract: %w", err)
	}
	res, err := l.chat(ctx, "extract", openai.ChatCompletionRequest{
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		ResponseFormat: l.responseFormat("graphmem_extraction", l.schemas.extract),
	})
	if err != nil {
		return extract.Result{}, err
	}
	var out extraction
	if err := decode(res.message.Content, l.schemas.extract, &out); err != nil {
		return extract.Result{}, fmt.Errorf("extract: %w: %w%s", extract.ErrInvalidOutput, err, cutOff(res.finishReason))
	}
	result, dropped := validateExtraction(in, out)
	if len(out.Facts) > 0 && len(result.Facts) == 0 {
		// Every fact failed validation: an empty result would mark the window
		// extracted and lose its knowledge for good; failing keeps it retryable.
		return extract.Result{}, fmt.Errorf("extract: %w: every one of the %d facts was rejected: %s",
			extract.ErrInvalidOutput, len(out.Facts), strings.Join(firstN(dropped, 5), "; "))
	}
	result.Model = res.model
	result.PromptTokens, result.CompletionTokens = res.promptTokens, res.completionTokens
	if len(dropped) > 0 {
		l.log.WarnContext(ctx, "llm extraction items dropped or repaired",
			"model", res.model, "session", in.SessionID, "count", len(dropped), "problems", firstN(dropped, 25))
	}
	return result, nil
}

// promptVocabulary is the vocabulary the prompt lists. The fallback is
// left out on purpose: a model that picks RELATED_TO says nothing, while one
// that writes its own phrase keeps it in RawPredicate.
func promptVocabulary() []ontology.Predicate {
	var out []ontology.Predicate
	for _, p := range ontology.Vocabulary() {
		if p.Name != ontology.Fallback {
			out = append(out, p)
		}
	}
	return out
}

// firstN returns at most n items, so a log line stays short.
func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// entitySet builds the window's entities and resolves names to keys.
type entitySet struct {
	in       extract.Input
	entities []extract.Entity
	byName   map[string]string // folded name or alias -> key
	guessed  map[string]bool   // key -> type was a guess (unknown type word)
	userKey  string
}

// userWords are the names a model uses for the user when it does not
// know the user's name.
var userWords = map[string]bool{"user": true, "the user": true, "i": true, "me": true, "my": true, "myself": true}

func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func cleanName(s string) string {
	return clipRunes(strings.Join(strings.Fields(s), " "), maxNameRunes)
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n]))
}

// isUserName reports whether a name denotes the session's user.
func (s *entitySet) isUserName(folded string) bool {
	if userWords[folded] {
		return true
	}
	if n := fold(s.in.UserName); n != "" && n == folded {
		return true
	}
	return s.in.UserID != "" && fold(s.in.UserID) == folded
}

// user returns the user entity's key, creating it on first use: facts often
// name the user ("I", "user") without the model declaring it. spoken is
// the name the model used; when the session does not know the user's name
// and the model does, that name replaces the "user" placeholder.
func (s *entitySet) user(spoken string) string {
	spoken = cleanName(spoken)
	named := spoken != "" && !userWords[fold(spoken)]
	if s.userKey == "" {
		name := cleanName(s.in.UserName)
		if name == "" {
			name = "user"
		}
		s.userKey = userKey
		s.entities = append(s.entities, extract.Entity{Key: userKey, Name: name, Type: ontology.Person, IsUser: true})
		s.byName[fold(name)] = userKey
	}
	if named {
		e := s.entity(s.userKey)
		if e.Name == "user" && cleanName(s.in.UserName) == "" {
			delete(s.byName, "user")
			e.Name = spoken
			s.byName[fold(spoken)] = s.userKey
		} else {
			s.addAlias(s.userKey, spoken)
		}
	}
	return s.userKey
}

func (s *entitySet) entity(key string) *extract.Entity {
	for i := range s.entities {
		if s.entities[i].Key == key {
			return &s.entities[i]
		}
	}
	return nil
}

// addAlias records another name for an entity unless it names another one.
func (s *entitySet) addAlias(key, alias string) {
	alias = cleanName(alias)
	f := fold(alias)
	if f == "" || userWords[f] {
		return
	}
	if owner, ok := s.byName[f]; ok && owner != key {
		return
	}
	e := s.entity(key)
	if fold(e.Name) == f {
		return
	}
	for _, a := range e.Aliases {
		if fold(a) == f {
			return
		}
	}
	e.Aliases = append(e.Aliases, alias)
	s.byName[f] = key
}

// resolve maps a name used in a fact to an entity key.
func (s *entitySet) resolve(name string) (string, bool) {
	f := fold(name)
	if f == "" {
		return "", false
	}
	if key, ok := s.byName[f]; ok {
		return key, true
	}
	if s.isUserName(f) {
		return s.user(""), true
	}
	return "", false
}

// validateExtraction turns the model's answer into an extract.Result and lists
// what it dropped or repaired.
func validateExtraction(in extract.Input, out extraction) (extract.Result, []string) {
	var problems []string
	note := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	set := &entitySet{in: in, byName: map[string]string{}, guessed: map[string]bool{}}

	for i, raw := range out.Entities {
		name := cleanName(raw.Name)
		if name == "" {
			note("entity %d: empty name", i)
			continue
		}
		typ, known := ontology.ParseEntityType(raw.Type)
		if !known {
			note("entity %q: unknown type %q, kept as %s", name, raw.Type, typ)
		}
		f := fold(name)
		existing, dup := set.byName[f]
		var key string
		claimsUser := raw.IsUser
		if claimsUser && !set.isUserName(f) && fold(in.UserName) != "" {
			// The session knows the user's name and this is another one: the
			// session wins, and the entity is somebody else.
			note("entity %q: marked as the user, but the user is %q", name, in.UserName)
			claimsUser = false
		}
		switch {
		case claimsUser || set.isUserName(f):
			key = set.user(name)
		case dup:
			key = existing
			if set.guessed[key] && known {
				set.entity(key).Type = typ
				delete(set.guessed, key)
			}
		default:
			key = "e" + strconv.Itoa(len(set.entities)+1)
			for set.entity(key) != nil {
				key += "_"
			}
			set.entities = append(set.entities, extract.Entity{Key: key, Name: name, Type: typ})
			set.byName[f] = key
			if !known {
				set.guessed[key] = true
			}
		}
		for _, a := range raw.Aliases {
			set.addAlias(key, a)
		}
	}
	for _, raw := range out.Entities {
		if strings.TrimSpace(raw.Owner) == "" {
			continue
		}
		key, ok := set.resolve(raw.Name)
		if !ok {
			continue
		}
		owner, ok := set.resolve(raw.Owner)
		if !ok || owner == key {
			note("entity %q: owner %q is not a declared entity", raw.Name, raw.Owner)
			continue
		}
		set.entity(key).Owner = owner
	}

	eventIDs := make(map[string]bool, len(in.Events))
	for _, e := range in.Events {
		eventIDs[e.ID] = true
	}
	facts := make([]extract.Fact, 0, len(out.Facts))
	index := map[string]int{}
	for i, raw := range out.Facts {
		subj, ok := set.resolve(raw.Subject)
		if !ok {
			note("fact %d: subject %q is not a declared entity", i, raw.Subject)
			continue
		}
		obj, ok := set.resolve(raw.Object)
		if !ok {
			note("fact %d: object %q is not a declared entity", i, raw.Object)
			continue
		}
		if subj == obj {
			note("fact %d: subject and object are the same entity %q", i, raw.Subject)
			continue
		}
		pred, phrase := ontology.Resolve(raw.Predicate)
		if !ontology.ValidRelType(pred.Name) {
			note("fact %d: predicate %q resolved to an invalid type", i, raw.Predicate)
			continue
		}
		fact := extract.Fact{Subject: subj, Predicate: pred.Name, Object: obj}
		if pred.Name == ontology.Fallback && ontology.NormalizeRelType(raw.Predicate) != ontology.Fallback {
			if phrase == "" {
				note("fact %d: predicate %q has no words", i, raw.Predicate)
				continue
			}
			// Not a problem: the prompt asks for a phrase when nothing fits.
			fact.RawPredicate = phrase
		}
		fact.Qualifier = clipRunes(fold(raw.Qualifier), maxQualifier)
		if fact.Qualifier == "" {
			fact.Qualifier = ontology.AliasQualifier(raw.Predicate) // "has salary" names its measure
		}
		fact.Polarity = polarity(raw.Polarity)
		fact.Confidence = unit(raw.Confidence, defaultConfidence, func() { note("fact %d: confidence %v clamped", i, *raw.Confidence) })
		defStrength := 0.0
		if pred.Preference {
			defStrength = defaultStrength
		}
		fact.Strength = unit(raw.Strength, defStrength, func() { note("fact %d: strength %v clamped", i, *raw.Strength) })
		if raw.ValidFrom != "" {
			if fact.ValidFrom = parseDate(raw.ValidFrom); fact.ValidFrom == nil {
				note("fact %d: valid_from %q is not a date", i, raw.ValidFrom)
			}
		}
		if raw.ValidTo != "" {
			if fact.ValidTo = parseDate(raw.ValidTo); fact.ValidTo == nil {
				note("fact %d: valid_to %q is not a date", i, raw.ValidTo)
			}
		}
		if fact.ValidFrom != nil && fact.ValidTo != nil && fact.ValidTo.Before(*fact.ValidFrom) {
			note("fact %d: valid_to %s before valid_from %s dropped", i, raw.ValidTo, raw.ValidFrom)
			fact.ValidTo = nil
		}
		if raw.Correction || strings.TrimSpace(raw.Corrects) != "" {
			fact.Correction = true
			if strings.TrimSpace(raw.Corrects) != "" {
				if slip, ok := set.resolve(raw.Corrects); ok && slip != obj {
					fact.Corrects = slip
				} else {
					note("fact %d: corrected value %q is not another declared entity", i, raw.Corrects)
				}
			}
		}
		seen := map[string]bool{}
		for _, id := range raw.SourceEventIDs {
			id = strings.TrimSpace(id)
			switch {
			case !eventIDs[id]:
				note("fact %d: unknown source event id %q dropped", i, id)
			case !seen[id]:
				seen[id] = true
				fact.SourceEventIDs = append(fact.SourceEventIDs, id)
			}
		}
		if len(fact.SourceEventIDs) == 0 {
			fact.SourceEventIDs = fallbackSources(in.Events, set, fact)
		}
		if raw.Ended && fact.ValidTo == nil {
			fact.ValidTo = endedAt(in.Events, fact)
		}
		fact.Sentence = clipRunes(strings.Join(strings.Fields(raw.Sentence), " "), maxSentence)
		if fact.Sentence == "" {
			fact.Sentence = renderSentence(set, fact, pred)
		}

		dedup := strings.Join([]string{fact.Subject, fact.Predicate, fact.RawPredicate, fact.Object, fact.Qualifier, string(fact.Polarity)}, "\x00")
		if j, dup := index[dedup]; dup {
			prev := &facts[j]
			prev.Confidence = max(prev.Confidence, fact.Confidence)
			prev.Strength = max(prev.Strength, fact.Strength)
			for _, id := range fact.SourceEventIDs {
				if !slices.Contains(prev.SourceEventIDs, id) {
					prev.SourceEventIDs = append(prev.SourceEventIDs, id)
				}
			}
			continue
		}
		index[dedup] = len(facts)
		facts = append(facts, fact)
	}

	return extract.Result{Entities: set.entities, Facts: facts, Mentions: mentions(in.Events, set.entities)}, problems
}

// endedAt is when an ended fact stopped holding, when the model gave no
// date: the latest time of the events it was read from (or of the window),
// never before its start. The policy closes the current fact it names
// with no successor.
func endedAt(events []extract.Event, f extract.Fact) *time.Time {
	var at time.Time
	for _, ev := range events {
		if (len(f.SourceEventIDs) == 0 || slices.Contains(f.SourceEventIDs, ev.ID)) && ev.OccurredAt.After(at) {
			at = ev.OccurredAt
		}
	}
	if at.IsZero() {
		return nil
	}
	if f.ValidFrom != nil && at.Before(*f.ValidFrom) {
		at = *f.ValidFrom
	}
	at = at.UTC()
	return &at
}

// polarity reads a polarity leniently; anything that is not clearly a
// denial is an assertion.
func polarity(s string) ontology.Polarity {
	switch fold(s) {
	case "negative", "neg", "negated", "false", "no", "denied":
		return ontology.Negative
	default:
		return ontology.Positive
	}
}

// unit clamps an optional score to [0,1], using def when absent and
// calling clamped when the model's value was out of range.
func unit(v *float64, def float64, clamped func()) float64 {
	if v == nil {
		return def
	}
	x := *v
	if x < 0 || x > 1 || x != x {
		clamped()
		switch {
		case x > 1:
			return 1
		default:
			return 0
		}
	}
	return x
}

// parseDate accepts the ISO forms models produce: a date, a date-time
// (with or without zone), a month or a year; partial dates mean their first
// day. Everything is UTC. It returns nil for anything else.
func parseDate(s string) *time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02", time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			if t.Year() < 1 || t.Year() > 9999 {
				return nil
			}
			t = t.UTC()
			return &t
		}
	}
	return nil
}

// fallbackSources attributes a fact without valid source ids (see
// Extract): events naming the object (or a non-user subject), else the
// user's events, else every event of the window.
func fallbackSources(events []extract.Event, set *entitySet, f extract.Fact) []string {
	var names []string
	for _, key := range []string{f.Object, f.Subject} {
		e := set.entity(key)
		if e == nil || e.IsUser {
			continue
		}
		names = append(names, e.Name)
		names = append(names, e.Aliases...)
	}
	var ids []string
	for _, ev := range events {
		for _, n := range names {
			if mentionsName(ev.Content, n) {
				ids = append(ids, ev.ID)
				break
			}
		}
	}
	if len(ids) > 0 {
		return ids
	}
	for _, ev := range events {
		if ev.Role == "user" {
			ids = append(ids, ev.ID)
		}
	}
	if len(ids) > 0 {
		return ids
	}
	for _, ev := range events {
		ids = append(ids, ev.ID)
	}
	return ids
}

// renderSentence writes a fact sentence when the model gave none, from
// the predicate's phrase: "Caroline lives in Berlin".
func renderSentence(set *entitySet, f extract.Fact, p ontology.Predicate) string {
	name := func(key string) string {
		e := set.entity(key)
		if e.IsUser && strings.TrimSpace(set.in.UserName) == "" {
			return "the user"
		}
		return e.Name
	}
	phrase := p.Phrase
	if f.RawPredicate != "" {
		phrase = f.RawPredicate
	}
	s := name(f.Subject) + " " + phrase + " " + name(f.Object)
	if f.Qualifier != "" {
		s += " (" + f.Qualifier + ")"
	}
	if f.Polarity == ontology.Negative {
		s = "Not true: " + s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// mentions lists, per event, the entities named in it (by name or
// alias, as whole words). The user is left out: every user message
// "mentions" the user, which would add nothing but edges.
func mentions(events []extract.Event, entities []extract.Entity) map[string][]string {
	out := map[string][]string{}
	for _, ev := range events {
		for _, e := range entities {
			if e.IsUser {
				continue
			}
			for _, n := range append([]string{e.Name}, e.Aliases...) {
				if mentionsName(ev.Content, n) {
					out[ev.ID] = append(out[ev.ID], e.Key)
					break
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// mentionsName reports whether name occurs in text as a whole word,
// case-insensitively.
func mentionsName(text, name string) bool {
	t, n := strings.ToLower(text), fold(name)
	if n == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(t[from:], n)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(n)
		if wordBoundary(t, start, true) && wordBoundary(t, end, false) {
			return true
		}
		from = start + 1
	}
}

// wordBoundary reports whether the rune before (before=true) or at byte
// offset i of s is not part of a word.
func wordBoundary(s string, i int, before bool) bool {
	var r rune
	switch {
	case before && i <= 0, !before && i >= len(s):
		return true
	case before:
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	default:
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
}
