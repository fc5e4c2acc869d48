package ontology

import (
	"regexp"
	"strings"
)

// Polarity says whether a fact is asserted or denied ("I no longer eat
// meat" is LIKES meat with negative polarity, stored as DISLIKES).
type Polarity string

// The two polarities.
const (
	Positive Polarity = "positive"
	Negative Polarity = "negative"
)

// Opposite returns the other polarity.
func (p Polarity) Opposite() Polarity {
	if p == Negative {
		return Positive
	}
	return Negative
}

// Cardinality says how many current values one slot of a predicate holds.
type Cardinality string

// The two cardinalities.
const (
	// One: a slot holds one current value; a newer one supersedes it (a
	// home, an employer, a favourite per category, each measure).
	One Cardinality = "one"
	// Many: values accumulate (likes, visited, allergies, pets) until one
	// is said to be over.
	Many Cardinality = "many"
)

// Predicate describes one relationship type of the fact vocabulary.
type Predicate struct {
	// Name is the UPPER_SNAKE relationship type written to Neo4j.
	Name string
	// Phrase is the verb phrase used to render a fact sentence when an
	// extractor gives none: "<subject> <phrase> <object>".
	Phrase string
	// Cardinality: One means a subject holds at most one current object
	// per slot (subject, predicate, qualifier): a new object supersedes the
	// old one. Many means facts coexist (likes pizza and likes burgers).
	// Empty means Many (a deployment's extra types).
	Cardinality Cardinality
	// Qualified means the qualifier is part of the slot: a favourite per
	// category ("board game"), a measure per name ("salary"), a contact
	// per kind ("email"), a budget per purpose. For other predicates a
	// qualifier is a note (a pet's species, a relative's role) and two
	// facts with different ones still share a slot.
	Qualified bool
	// Preference marks predicates that the preferences endpoint reports.
	Preference bool
	// Opposite names the predicate with the opposite polarity (LIKES and
	// DISLIKES), so a flip of taste is detected as a conflict.
	Opposite string
	// Sentiment is the polarity a fact of this type expresses by its name
	// alone: Negative for DISLIKES, so its facts carry polarity 'negative'
	// and it contradicts the positive preferences on the same object.
	// Empty means Positive.
	Sentiment Polarity
	// Kin marks the ties of family and partnership. Two people with
	// differing ties to the user are not the same person (a sister Emma is
	// not a cousin Emma Stone), which entity resolution checks.
	Kin bool
}

// Exclusive reports whether a slot of the predicate holds one current
// value (Cardinality One).
func (p Predicate) Exclusive() bool { return p.Cardinality == One }

// Polarity returns the sentiment of the predicate's name (Positive unless
// it is a negative one such as DISLIKES).
func (p Predicate) Polarity() Polarity {
	if p.Sentiment == Negative {
		return Negative
	}
	return Positive
}

// The canonical vocabulary. Types are kept few and general so that the
// graph stays readable and the full-text index over facts covers them all.
var vocabulary = []Predicate{
	{Name: "IS_A", Phrase: "is", Cardinality: Many},
	{Name: "LIVES_IN", Phrase: "lives in", Cardinality: One},
	{Name: "FROM", Phrase: "is from", Cardinality: One},
	{Name: "WORKS_AT", Phrase: "works at", Cardinality: One},
	{Name: "WORKS_AS", Phrase: "works as", Cardinality: One},
	{Name: "STUDIES_AT", Phrase: "studies at", Cardinality: One},
	{Name: "STUDIES", Phrase: "studies", Cardinality: Many},
	{Name: "LEARNING", Phrase: "is learning", Cardinality: Many},
	{Name: "MARRIED_TO", Phrase: "is married to", Cardinality: One, Kin: true},
	{Name: "PARTNER_OF", Phrase: "is in a relationship with", Cardinality: One, Kin: true},
	{Name: "HAS_STATUS", Phrase: "is", Cardinality: One},
	{Name: "PARENT_OF", Phrase: "is a parent of", Kin: true, Cardinality: Many},
	{Name: "CHILD_OF", Phrase: "is a child of", Kin: true, Cardinality: Many},
	{Name: "SIBLING_OF", Phrase: "is a sibling of", Kin: true, Cardinality: Many},
	{Name: "RELATIVE_OF", Phrase: "is a relative of", Kin: true, Cardinality: Many},
	{Name: "FRIEND_OF", Phrase: "is a friend of", Cardinality: Many},
	{Name: "COLLEAGUE_OF", Phrase: "is a colleague of", Cardinality: Many},
	{Name: "KNOWS", Phrase: "knows", Cardinality: Many},
	{Name: "HAS_PET", Phrase: "has a pet", Cardinality: Many},
	{Name: "OWNS", Phrase: "owns", Cardinality: Many},
	{Name: "DRIVES", Phrase: "drives", Cardinality: One},
	{Name: "USES", Phrase: "uses", Cardinality: Many},
	{Name: "LIKES", Phrase: "likes", Preference: true, Opposite: "DISLIKES", Cardinality: Many},
	{Name: "DISLIKES", Phrase: "dislikes", Preference: true, Opposite: "LIKES", Sentiment: Negative, Cardinality: Many},
	{Name: "PREFERS", Phrase: "prefers", Preference: true, Cardinality: One, Qualified: true},
	{Name: "HAS_FAVORITE", Phrase: "has as favourite", Preference: true, Cardinality: One, Qualified: true},
	{Name: "ALLERGIC_TO", Phrase: "is allergic to", Cardinality: Many},
	{Name: "HAS_DIET", Phrase: "follows the diet", Cardinality: One},
	{Name: "HAS_CONDITION", Phrase: "has", Cardinality: Many},
	{Name: "SUPPORTS", Phrase: "supports", Cardinality: Many},
	{Name: "PRACTICES", Phrase: "practices", Cardinality: Many},
	{Name: "MEMBER_OF", Phrase: "is a member of", Cardinality: Many},
	{Name: "ATTENDED", Phrase: "attended", Cardinality: Many},
	{Name: "VISITED", Phrase: "visited", Cardinality: Many},
	{Name: "PLANS", Phrase: "plans", Cardinality: Many},
	{Name: "CREATED", Phrase: "created", Cardinality: Many},
	{Name: "READ", Phrase: "read", Cardinality: Many},
	{Name: "WATCHED", Phrase: "watched", Cardinality: Many},
	{Name: "HAS_GOAL", Phrase: "has the goal", Cardinality: Many},
	{Name: "SCHEDULED_ON", Phrase: "is scheduled on", Cardinality: One},
	{Name: "HAS_BUDGET", Phrase: "has a budget of", Cardinality: One, Qualified: true},
	{Name: "HAS_AGE", Phrase: "is aged", Cardinality: One},
	{Name: "BORN_ON", Phrase: "was born on", Cardinality: One},
	{Name: "LOCATED_IN", Phrase: "is located in", Cardinality: One},
	{Name: "PART_OF", Phrase: "is part of", Cardinality: Many},
	// Measures: weight, salary, rent, distance, duration, counts, each a
	// slot of its own named by the qualifier; the object is the value with
	// its unit ("58k", "72 kg", "25 minutes").
	{Name: "HAS_MEASURE", Phrase: "has the measure", Cardinality: One, Qualified: true},
	// Contact details per kind ("email", "phone").
	{Name: "HAS_CONTACT", Phrase: "can be reached at", Cardinality: One, Qualified: true},
	// How the subject travels a route (qualifier: "work"): bus, bike, car.
	{Name: "COMMUTES_BY", Phrase: "commutes by", Cardinality: One, Qualified: true},
	// A routine per activity (qualifier: "gym"), its object the day or
	// frequency ("Tuesdays", "three times a week").
	{Name: "HAS_ROUTINE", Phrase: "has the routine", Cardinality: One, Qualified: true},
	// RELATED_TO is the fallback for a relation outside the vocabulary; the
	// original verb phrase is kept on the relationship as `predicate`.
	{Name: "RELATED_TO", Phrase: "is related to", Cardinality: Many},
}

// KinTypes lists the relationship types marked Kin, in vocabulary order.
func KinTypes() []string {
	var out []string
	for _, p := range vocabulary {
		if p.Kin {
			out = append(out, p.Name)
		}
	}
	return out
}

// Fallback is the relationship type used for relations outside the vocabulary.
const Fallback = "RELATED_TO"

// predicateAliases maps common synonyms (as an LLM or a rule may name them)
// to canonical names. Keys are already normalized to UPPER_SNAKE.
var predicateAliases = map[string]string{
	"IS": "IS_A", "IS_AN": "IS_A", "HAS_IDENTITY": "IS_A", "IDENTIFIES_AS": "IS_A",
	"RESIDES_IN": "LIVES_IN", "LIVE_IN": "LIVES_IN", "LIVING_IN": "LIVES_IN", "MOVED_TO": "LIVES_IN", "HOME": "LIVES_IN",
	"ORIGINATES_FROM": "FROM", "COMES_FROM": "FROM", "IS_FROM": "FROM", "BORN_IN": "FROM",
	"EMPLOYED_BY": "WORKS_AT", "WORKS_FOR": "WORKS_AT", "EMPLOYER": "WORKS_AT", "JOINED": "WORKS_AT",
	"OCCUPATION": "WORKS_AS", "JOB": "WORKS_AS", "PROFESSION": "WORKS_AS", "JOB_TITLE": "WORKS_AS",
	"ATTENDS": "STUDIES_AT", "ENROLLED_AT": "STUDIES_AT",
	"LEARNS": "LEARNING", "IS_LEARNING": "LEARNING",
	"SPOUSE_OF": "MARRIED_TO", "SPOUSE": "MARRIED_TO", "HUSBAND_OF": "MARRIED_TO", "WIFE_OF": "MARRIED_TO",
	"DATING": "PARTNER_OF", "PARTNER": "PARTNER_OF", "BOYFRIEND_OF": "PARTNER_OF", "GIRLFRIEND_OF": "PARTNER_OF",
	"RELATIONSHIP_STATUS": "HAS_STATUS", "MARITAL_STATUS": "HAS_STATUS",
	"SISTER_OF": "SIBLING_OF", "BROTHER_OF": "SIBLING_OF", "HAS_SISTER": "SIBLING_OF", "HAS_BROTHER": "SIBLING_OF",
	"MOTHER_OF": "PARENT_OF", "FATHER_OF": "PARENT_OF", "HAS_CHILD": "PARENT_OF",
	"SON_OF": "CHILD_OF", "DAUGHTER_OF": "CHILD_OF", "HAS_PARENT": "CHILD_OF",
	"FAMILY_OF": "RELATIVE_OF", "RELATED_BY_FAMILY": "RELATIVE_OF",
	"FRIENDS_WITH": "FRIEND_OF", "HAS_FRIEND": "FRIEND_OF",
	"WORKS_WITH": "COLLEAGUE_OF",
	"PET":        "HAS_PET", "OWNS_PET": "HAS_PET",
	"HAS": "OWNS", "POSSESSES": "OWNS", "BOUGHT": "OWNS",
	"USES_DEVICE": "USES",
	"LOVES":       "LIKES", "ENJOYS": "LIKES", "LIKE": "LIKES", "FANCIES": "LIKES",
	"HATES": "DISLIKES", "DISLIKE": "DISLIKES", "AVOIDS": "DISLIKES",
	"PREFER": "PREFERS", "FAVORITE": "HAS_FAVORITE", "FAVOURITE": "HAS_FAVORITE", "HAS_FAVOURITE": "HAS_FAVORITE",
	"ALLERGY": "ALLERGIC_TO", "IS_ALLERGIC_TO": "ALLERGIC_TO",
	"DIET": "HAS_DIET", "FOLLOWS_DIET": "HAS_DIET",
	"SUFFERS_FROM": "HAS_CONDITION",
	"FAN_OF":       "SUPPORTS", "ROOTS_FOR": "SUPPORTS",
	"PLAYS": "PRACTICES", "DOES": "PRACTICES", "HOBBY": "PRACTICES",
	"BELONGS_TO": "MEMBER_OF",
	"WENT_TO":    "ATTENDED", "PARTICIPATED_IN": "ATTENDED",
	"TRAVELED_TO": "VISITED", "TRAVELLED_TO": "VISITED",
	"PLANS_TO": "PLANS", "INTENDS_TO": "PLANS", "WANTS_TO": "PLANS",
	"MADE": "CREATED", "PAINTED": "CREATED", "WROTE": "CREATED", "BUILT": "CREATED",
	"SCHEDULED_AT": "SCHEDULED_ON", "HAPPENS_ON": "SCHEDULED_ON", "TAKES_PLACE_ON": "SCHEDULED_ON",
	"BUDGET": "HAS_BUDGET", "AGE": "HAS_AGE", "BIRTHDAY": "BORN_ON",
	"IN": "LOCATED_IN", "LOCATED_AT": "LOCATED_IN",
	"MEASURE": "HAS_MEASURE", "HAS_QUANTITY": "HAS_MEASURE", "HAS_COUNT": "HAS_MEASURE", "COUNT": "HAS_MEASURE",
	"HAS_WEIGHT": "HAS_MEASURE", "WEIGHS": "HAS_MEASURE", "EARNS": "HAS_MEASURE", "HAS_SALARY": "HAS_MEASURE",
	"HAS_INCOME": "HAS_MEASURE", "PAYS_RENT": "HAS_MEASURE", "HAS_RENT": "HAS_MEASURE", "HAS_HEIGHT": "HAS_MEASURE",
	"CONTACT": "HAS_CONTACT", "HAS_EMAIL": "HAS_CONTACT", "HAS_PHONE": "HAS_CONTACT", "EMAIL": "HAS_CONTACT",
	"PHONE": "HAS_CONTACT", "PHONE_NUMBER": "HAS_CONTACT", "HAS_ADDRESS": "HAS_CONTACT",
	"COMMUTES": "COMMUTES_BY", "COMMUTE": "COMMUTES_BY", "TRAVELS_BY": "COMMUTES_BY", "COMMUTES_WITH": "COMMUTES_BY",
	"ROUTINE": "HAS_ROUTINE", "HABIT": "HAS_ROUTINE", "HAS_HABIT": "HAS_ROUTINE",
	"RELATES_TO": "RELATED_TO", "ASSOCIATED_WITH": "RELATED_TO",
}

// aliasQualifiers is the slot an alias names by itself: HAS_WEIGHT is the
// measure "weight", HAS_EMAIL the contact "email". Keys are UPPER_SNAKE.
var aliasQualifiers = map[string]string{
	"HAS_WEIGHT": "weight", "WEIGHS": "weight", "EARNS": "salary", "HAS_SALARY": "salary", "HAS_INCOME": "salary",
	"PAYS_RENT": "rent", "HAS_RENT": "rent", "HAS_HEIGHT": "height",
	"HAS_EMAIL": "email", "EMAIL": "email", "HAS_PHONE": "phone", "PHONE": "phone", "PHONE_NUMBER": "phone",
	"HAS_ADDRESS": "address", "COMMUTES": "work", "COMMUTE": "work",
}

// AliasQualifier returns the qualifier an alias implies ("weight" for
// HAS_WEIGHT), or "" when it implies none.
func AliasQualifier(name string) string { return aliasQualifiers[NormalizeRelType(name)] }

// Vocabulary returns the canonical predicates in a stable order. extra adds
// deployment-specific types (validated by ValidRelType); they hold many
// values and are not preferences.
func Vocabulary(extra ...string) []Predicate {
	out := make([]Predicate, len(vocabulary), len(vocabulary)+len(extra))
	copy(out, vocabulary)
	seen := make(map[string]bool, len(extra))
	for _, name := range extra {
		if _, known := Lookup(name); known || !ValidRelType(name) || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, Predicate{Name: name, Phrase: strings.ToLower(strings.ReplaceAll(name, "_", " ")), Cardinality: Many})
	}
	return out
}

// Lookup returns the canonical predicate for a name (canonical or alias).
func Lookup(name string) (Predicate, bool) {
	n := NormalizeRelType(name)
	if canonical, ok := predicateAliases[n]; ok {
		n = canonical
	}
	for _, p := range vocabulary {
		if p.Name == n {
			return p, true
		}
	}
	return Predicate{}, false
}

var relTypePattern = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)

// ValidRelType reports whether s is safe to use as a relationship type:
// UPPER_SNAKE, starting with a letter, at most 64 characters.
func ValidRelType(s string) bool {
	return len(s) <= 64 && relTypePattern.MatchString(s)
}

// NormalizeRelType turns a free-form relation name ("works for",
// "worksFor", "works-for") into UPPER_SNAKE. The result may still be
// invalid (empty, or starting with a digit); check it with ValidRelType.
func NormalizeRelType(s string) string {
	var b strings.Builder
	prevLower := false
	pendingSep := false
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			isUpper := r >= 'A' && r <= 'Z'
			if (pendingSep || (isUpper && prevLower)) && b.Len() > 0 {
				b.WriteByte('_')
			}
			pendingSep = false
			b.WriteRune(r)
			prevLower = (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')
		default:
			pendingSep = true
			prevLower = false
		}
	}
	return strings.ToUpper(b.String())
}

// Resolve maps any relation name to a relationship type that is safe for
// Cypher: the canonical predicate when known, otherwise Fallback. The
// second result is the normalized original, kept as the `predicate`
// property when the fallback is used.
func Resolve(name string) (Predicate, string) {
	if p, ok := Lookup(name); ok {
		return p, p.Name
	}
	p, _ := Lookup(Fallback)
	return p, strings.ToLower(strings.ReplaceAll(NormalizeRelType(name), "_", " "))
}
