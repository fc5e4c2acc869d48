package ontology

import "testing"

func TestNormalizeRelType(t *testing.T) {
	cases := map[string]string{
		"works for":        "WORKS_FOR",
		"worksFor":         "WORKS_FOR",
		"works-for":        "WORKS_FOR",
		"  lives_in ":      "LIVES_IN",
		"LIVES_IN":         "LIVES_IN",
		"x) DETACH DELETE": "X_DETACH_DELETE",
		"":                 "",
	}
	for in, want := range cases {
		if got := NormalizeRelType(in); got != want {
			t.Errorf("NormalizeRelType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidRelTypeRejectsInjection(t *testing.T) {
	bad := []string{"", "lives_in", "LIVES IN", "A]->(b) DELETE b//", "1ABC", "A__B", "_A", "A_"}
	for _, s := range bad {
		if ValidRelType(s) {
			t.Errorf("ValidRelType(%q) = true, want false", s)
		}
	}
	for _, p := range Vocabulary() {
		if !ValidRelType(p.Name) {
			t.Errorf("vocabulary type %q is not a valid relationship type", p.Name)
		}
	}
}

func TestLookupAliasesAndOpposites(t *testing.T) {
	p, ok := Lookup("employed by")
	if !ok || p.Name != "WORKS_AT" || !p.Exclusive() {
		t.Fatalf("Lookup(employed by) = %+v, %v", p, ok)
	}
	likes, _ := Lookup("loves")
	if likes.Name != "LIKES" || likes.Opposite != "DISLIKES" || !likes.Preference {
		t.Fatalf("Lookup(loves) = %+v", likes)
	}
	dis, _ := Lookup(likes.Opposite)
	if dis.Opposite != "LIKES" {
		t.Fatalf("DISLIKES opposite = %q", dis.Opposite)
	}
	for _, p := range Vocabulary() {
		if p.Opposite == "" {
			continue
		}
		o, ok := Lookup(p.Opposite)
		if !ok || o.Opposite != p.Name {
			t.Errorf("%s: opposite %q is not symmetric", p.Name, p.Opposite)
		}
	}
}

func TestResolveFallsBackSafely(t *testing.T) {
	p, orig := Resolve("collaborates with")
	if p.Name != Fallback || orig != "collaborates with" {
		t.Fatalf("Resolve(collaborates with) = %s, %q", p.Name, orig)
	}
	p, _ = Resolve("}]->() MATCH (n) DETACH DELETE n //")
	if p.Name != Fallback {
		t.Fatalf("injection attempt resolved to %q", p.Name)
	}
}

func TestVocabularyExtraIsValidatedAndDeduplicated(t *testing.T) {
	base := len(Vocabulary())
	got := Vocabulary("MENTORS", "LIVES_IN", "bad type", "MENTORS")
	if len(got) != base+1 {
		t.Fatalf("vocabulary with extras has %d types, want %d (only MENTORS, once)", len(got), base+1)
	}
	found := false
	for _, p := range got {
		if p.Name == "bad type" {
			t.Fatalf("invalid extra type accepted")
		}
		if p.Name == "MENTORS" {
			found = true
			if p.Exclusive() || p.Preference {
				t.Fatalf("extra type must be non-exclusive and not a preference: %+v", p)
			}
		}
	}
	if !found {
		t.Fatal("valid extra type MENTORS missing")
	}
}

func TestEntityTypesAndLabels(t *testing.T) {
	if ty, ok := ParseEntityType("Company"); !ok || ty != Organization {
		t.Fatalf("ParseEntityType(Company) = %s, %v", ty, ok)
	}
	if ty, ok := ParseEntityType("event"); !ok || ty != Occasion {
		t.Fatalf("event must map to Occasion (Event is a tier label), got %s", ty)
	}
	if ty, ok := ParseEntityType("spaceship"); ok || ty != Concept {
		t.Fatalf("unknown type must map to Concept with ok=false, got %s %v", ty, ok)
	}
	for _, ty := range EntityTypes() {
		if !ValidLabel(ty.Label()) {
			t.Errorf("entity type %s has invalid label", ty)
		}
	}
	for _, r := range ReservedLabels() {
		if ValidLabel(r) {
			t.Errorf("reserved label %s accepted as an entity type", r)
		}
	}
	if ValidLabel("Person:Admin") || ValidLabel("Person`) DETACH") {
		t.Fatal("label injection accepted")
	}
}

// Every predicate says how many values a slot holds; the vocabulary's
// pairs and flags agree with each other.
func TestVocabularyCardinalityAndFlags(t *testing.T) {
	byName := map[string]Predicate{}
	for _, p := range Vocabulary() {
		if !ValidRelType(p.Name) {
			t.Errorf("%s: invalid relationship type", p.Name)
		}
		if p.Cardinality != One && p.Cardinality != Many {
			t.Errorf("%s: cardinality %q (want one or many)", p.Name, p.Cardinality)
		}
		if p.Qualified && p.Cardinality != One {
			t.Errorf("%s: a qualified slot narrows a one-value predicate; %s is %s", p.Name, p.Name, p.Cardinality)
		}
		if p.Opposite != "" && p.Cardinality != Many {
			t.Errorf("%s: a predicate with an opposite holds many values", p.Name)
		}
		byName[p.Name] = p
	}
	for _, p := range byName {
		if p.Opposite != "" && byName[p.Opposite].Opposite != p.Name {
			t.Errorf("%s: opposite %s does not name it back", p.Name, p.Opposite)
		}
	}
	for name, want := range map[string]Cardinality{"LIVES_IN": One, "WORKS_AT": One, "HAS_FAVORITE": One,
		"HAS_MEASURE": One, "HAS_CONTACT": One, "COMMUTES_BY": One, "HAS_ROUTINE": One, "SCHEDULED_ON": One,
		"LIKES": Many, "VISITED": Many, "READ": Many, "ALLERGIC_TO": Many, "HAS_PET": Many} {
		if p, ok := Lookup(name); !ok || p.Cardinality != want {
			t.Errorf("%s: cardinality %q, want %q", name, p.Cardinality, want)
		}
	}
	for _, name := range []string{"HAS_FAVORITE", "HAS_MEASURE", "HAS_CONTACT", "HAS_BUDGET", "PREFERS"} {
		if !byName[name].Qualified {
			t.Errorf("%s should be qualified", name)
		}
	}
	if p := Vocabulary("LOANED_TO")[len(Vocabulary())]; p.Cardinality != Many || p.Qualified {
		t.Errorf("extra type: %+v", p)
	}
}

func TestAliasesNameTheirSlot(t *testing.T) {
	for alias, want := range map[string][2]string{"weighs": {"HAS_MEASURE", "weight"}, "has salary": {"HAS_MEASURE", "salary"},
		"pays rent": {"HAS_MEASURE", "rent"}, "has email": {"HAS_CONTACT", "email"}, "phone number": {"HAS_CONTACT", "phone"},
		"commutes": {"COMMUTES_BY", "work"}, "habit": {"HAS_ROUTINE", ""}, "lives in": {"LIVES_IN", ""}} {
		p, ok := Lookup(alias)
		if !ok || p.Name != want[0] || AliasQualifier(alias) != want[1] {
			t.Errorf("%q: %s %q, want %v", alias, p.Name, AliasQualifier(alias), want)
		}
	}
}
