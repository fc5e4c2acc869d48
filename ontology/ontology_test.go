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
	if !ok || p.Name != "WORKS_AT" || !p.Exclusive {
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
			if p.Exclusive || p.Preference {
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
