package ontology

import (
	"regexp"
	"slices"
	"strings"
)

// EntityType is the type of an entity; it becomes a second label next to
// :Entity, so a Browser user reads (:Entity:Person {name:'Alice'}).
type EntityType string

// The entity types graphmem knows. The list is an allow-list: a type outside
// it never becomes a label. "Occasion" stands for real-world events (a
// concert, a wedding) because Event is the tier label of summaries.
const (
	Person       EntityType = "Person"
	Place        EntityType = "Place"
	Organization EntityType = "Organization"
	Animal       EntityType = "Animal"
	Food         EntityType = "Food"
	Product      EntityType = "Product"
	Activity     EntityType = "Activity"
	Language     EntityType = "Language"
	Artwork      EntityType = "Artwork"
	Occasion     EntityType = "Occasion"
	Condition    EntityType = "Condition"
	Concept      EntityType = "Concept"
	Value        EntityType = "Value"
)

// EntityTypes lists every allowed entity type in a stable order.
func EntityTypes() []EntityType {
	return []EntityType{Person, Place, Organization, Animal, Food, Product, Activity,
		Language, Artwork, Occasion, Condition, Concept, Value}
}

// entityTypeAliases maps the words extractors and LLMs commonly use to the
// canonical type. Keys are lower case.
var entityTypeAliases = map[string]EntityType{
	"person": Person, "people": Person, "human": Person, "user": Person, "character": Person,
	"place": Place, "location": Place, "city": Place, "country": Place, "region": Place, "address": Place,
	"organization": Organization, "organisation": Organization, "company": Organization,
	"employer": Organization, "school": Organization, "university": Organization, "team": Organization,
	"institution": Organization, "club": Organization, "band": Organization,
	"animal": Animal, "pet": Animal,
	"food": Food, "drink": Food, "dish": Food, "beverage": Food, "cuisine": Food,
	"product": Product, "item": Product, "object": Product, "vehicle": Product, "car": Product,
	"device": Product, "possession": Product, "thing": Product,
	"activity": Activity, "hobby": Activity, "sport": Activity, "skill": Activity,
	"language": Language,
	"artwork":  Artwork, "work": Artwork, "book": Artwork, "movie": Artwork, "film": Artwork,
	"song": Artwork, "music": Artwork, "painting": Artwork, "game": Artwork, "show": Artwork,
	"occasion": Occasion, "event": Occasion, "meeting": Occasion, "trip": Occasion, "appointment": Occasion,
	"condition": Condition, "allergy": Condition, "illness": Condition, "health": Condition, "diet": Condition,
	"concept": Concept, "topic": Concept, "idea": Concept, "other": Concept, "misc": Concept,
	"value": Value, "amount": Value, "money": Value, "number": Value, "time": Value, "date": Value,
}

// ParseEntityType maps a free-form type name to an allowed EntityType.
// Unknown names map to Concept with ok=false, so callers can keep the entity
// while knowing the type was a guess.
func ParseEntityType(s string) (t EntityType, ok bool) {
	if t, found := entityTypeAliases[strings.ToLower(strings.TrimSpace(s))]; found {
		return t, true
	}
	return Concept, false
}

// Label returns the Neo4j label for the type. It is always one of the
// allow-listed names, never caller input.
func (t EntityType) Label() string {
	if canonical, ok := ParseEntityType(string(t)); ok {
		return string(canonical)
	}
	return string(Concept)
}

// Tier and structural labels. An entity type can never take one of these
// names, which is why real-world events are "Occasion" and not "Event".
const (
	LabelMemory    = "Memory"   // common label of every tiered node
	LabelRaw       = "Raw"      // raw tier: one immutable event as the agent sent it
	LabelEvent     = "Event"    // event tier: a condensation or session summary
	LabelInsight   = "Insight"  // insight tier: a pattern derived from many events
	LabelEntity    = "Entity"   // something facts are about
	LabelSession   = "Session"  // one conversation
	LabelUser      = "User"     // the entity that stands for a session's user
	LabelConflict  = "Conflict" // a recorded contradiction between two facts
	LabelJob       = "Job"      // a durable background job
	LabelEdit      = "Edit"     // a direct edit of a fact: who, why, what it did
	LabelSchemaVer = "SchemaVersion"
)

// ReservedLabels are labels graphmem uses for structure.
func ReservedLabels() []string {
	return []string{LabelMemory, LabelRaw, LabelEvent, LabelInsight, LabelEntity, LabelSession,
		LabelUser, LabelConflict, LabelJob, LabelSchemaVer, LabelEdit}
}

var labelPattern = regexp.MustCompile(`^[A-Z][A-Za-z0-9]{0,63}$`)

// ValidLabel reports whether s may be used as an entity type label: it must
// match the label pattern, be an allow-listed type, and not be reserved.
func ValidLabel(s string) bool {
	if !labelPattern.MatchString(s) {
		return false
	}
	for _, r := range ReservedLabels() {
		if s == r {
			return false
		}
	}
	for _, t := range EntityTypes() {
		if string(t) == s {
			return true
		}
	}
	return false
}

// legalForms are the suffixes of an organization's legal form. Entity
// resolution drops them when it compares names, so "Acme" and "Acme Corp"
// are one company; they say nothing about which company it is.
var legalForms = map[string]bool{"corp": true, "corporation": true, "inc": true, "incorporated": true,
	"ltd": true, "limited": true, "llc": true, "co": true, "company": true, "gmbh": true, "plc": true, "ag": true}

// IsLegalForm reports whether a lower-case name term is a legal-form
// suffix such as "inc" or "gmbh".
func IsLegalForm(term string) bool { return legalForms[term] }

// userWords are names an extractor may give the user's own entity that
// say nothing about the user's name ("I", "me", "user").
var userWords = map[string]bool{"i": true, "me": true, "myself": true, "user": true, "speaker": true, "you": true}

// IsUserWord reports whether a normalized name is a word for the user
// rather than a name.
func IsUserWord(norm string) bool { return userWords[norm] }

// UserWords lists the user words, sorted.
func UserWords() []string {
	out := make([]string, 0, len(userWords))
	for w := range userWords {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
