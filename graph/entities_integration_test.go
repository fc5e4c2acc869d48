//go:build integration

package graph_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

// knEntities lists "Type:name" of the tenant's entities for a user.
func knEntities(t *testing.T, tenant, user string) []string {
	t.Helper()
	var out []string
	for _, rec := range knQuery(t, `MATCH (e:Entity {tenant: $t, user_id: $u}) RETURN e.type + ':' + e.name AS x ORDER BY x`,
		map[string]any{"t": tenant, "u": user}) {
		s, _ := rec.Values[0].(string)
		out = append(out, s)
	}
	return out
}

// TestEntityResolutionMergesVariants: the same name twice is one entity;
// punctuation and case do not split an organization; a Concept is upgraded
// to the specific type; an alias and a first name resolve to the entity.
func TestEntityResolutionMergesVariants(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	r1 := k.write("s1", knDay("2024-01-01"), []graph.EntityInput{knUserEnt(),
		knEnt("emma", "Emma Stone", ontology.Person), knEnt("acme", "Acme Corp", ontology.Organization),
		knEnt("globex", "Globex", ontology.Concept),
		{Key: "nyc", Name: "New York City", Type: ontology.Place, Aliases: []string{"NYC", "the Big Apple"}}},
		knFact("user", "LIKES", "emma"), knFact("user", "WORKS_AT", "acme"), knFact("user", "VISITED", "nyc"))
	r2 := k.write("s2", knDay("2024-02-01"), []graph.EntityInput{knUserEnt(),
		knEnt("emma", "Emma", ontology.Person), knEnt("acme", "acme corp.", ontology.Organization),
		knEnt("globex", "Globex", ontology.Organization), knEnt("nyc", "NYC", ontology.Place),
		knEnt("acme2", "ACME", ontology.Organization)},
		knFact("user", "LIKES", "emma"), knFact("user", "WORKS_AT", "acme"), knFact("user", "VISITED", "nyc"))
	for _, key := range []string{"emma", "acme", "globex", "nyc"} {
		if r1.EntityIDs[key] != r2.EntityIDs[key] || r2.EntityIDs[key] == "" {
			t.Errorf("%s resolved to %s then %s", key, r1.EntityIDs[key], r2.EntityIDs[key])
		}
	}
	if r2.EntityIDs["acme2"] != r1.EntityIDs["acme"] {
		t.Errorf("ACME (company suffix dropped) did not resolve to Acme Corp")
	}
	if len(r2.EntitiesCreated) != 0 {
		t.Fatalf("second write created entities %v: %v", r2.EntitiesCreated, knEntities(t, k.tenant, k.user))
	}
	for _, key := range []string{"emma", "globex", "nyc"} {
		if !slices.Contains(r2.EntitiesMerged, r2.EntityIDs[key]) {
			t.Errorf("%s not reported merged: %v", key, r2.EntitiesMerged)
		}
	}
	knEqual(t, "entities", knEntities(t, k.tenant, k.user), []string{
		"Organization:Acme Corp", "Organization:Globex", "Person:Emma Stone", "Person:u-1", "Place:New York City"})
	labels := knQuery(t, `MATCH (e:Entity {tenant: $t, name: 'Globex'}) RETURN labels(e)`, map[string]any{"t": k.tenant})
	knEqual(t, "upgraded labels", knStrings(labels[0].Values[0]), []string{"Entity", "Organization"})
	emma, err := k.s.Entity(ctx, k.tenant, r1.EntityIDs["emma"], graph.EntityQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(emma.Aliases, "Emma") || !slices.Contains(emma.MergedNames, "Emma") || emma.Type != "Person" {
		t.Fatalf("Emma Stone after the first-name merge: %+v", emma)
	}
	acme, _ := k.s.Entity(ctx, k.tenant, r1.EntityIDs["acme"], graph.EntityQuery{})
	if acme.MentionCount != 2 || len(acme.In) != 1 || acme.In[0].MentionCount != 2 {
		t.Fatalf("Acme: %+v", acme)
	}
	nyc, _ := k.s.Entity(ctx, k.tenant, r1.EntityIDs["nyc"], graph.EntityQuery{})
	knEqual(t, "NYC aliases", nyc.Aliases, []string{"NYC", "the Big Apple"})
	if n := knInt(t, `MATCH (e:Entity {tenant: $t}) WHERE e.aliases_text CONTAINS 'Big Apple' RETURN count(e)`,
		map[string]any{"t": k.tenant}); n != 1 {
		t.Fatal("aliases_text not maintained")
	}
}

// TestEntityResolutionAvoidsWrongMerges: an ambiguous first name, a
// contradicting family tie and a type clash all give new entities.
func TestEntityResolutionAvoidsWrongMerges(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-01-01"), []graph.EntityInput{knUserEnt(),
		knEnt("stone", "Emma Stone", ontology.Person), knEnt("watson", "Emma Watson", ontology.Person),
		knEnt("anna", "Anna", ontology.Person), knEnt("paris", "Paris", ontology.Place)},
		knFact("user", "LIKES", "stone"), knFact("user", "LIKES", "watson"),
		knFact("user", "SIBLING_OF", "anna", knQual("sister")), knFact("user", "VISITED", "paris"))
	r := k.write("s2", knDay("2024-02-01"), []graph.EntityInput{knUserEnt(),
		knEnt("emma", "Emma", ontology.Person), knEnt("anna", "Anna Berg", ontology.Person),
		knEnt("parisp", "Paris", ontology.Person)},
		knFact("user", "FRIEND_OF", "emma"), knFact("user", "RELATIVE_OF", "anna", knQual("cousin")),
		knFact("user", "KNOWS", "parisp"))
	if len(r.EntitiesCreated) != 3 || len(r.EntitiesMerged) != 0 {
		t.Fatalf("wrong merges: %+v\n%v", r, knEntities(t, k.tenant, k.user))
	}
	knEqual(t, "entities", knEntities(t, k.tenant, k.user), []string{"Person:Anna", "Person:Anna Berg", "Person:Emma",
		"Person:Emma Stone", "Person:Emma Watson", "Person:Paris", "Person:u-1", "Place:Paris"})
}

// TestEntityScopedPerUser: "Emma" of one user is not "Emma" of another.
func TestEntityScopedPerUser(t *testing.T) {
	t.Parallel()
	a := newKn(t)
	b := &kn{t: t, s: a.s, tenant: a.tenant, user: "u-2"}
	ents := []graph.EntityInput{knUserEnt(), knEnt("emma", "Emma", ontology.Person), knEnt("rome", "Rome", ontology.Place)}
	ra := a.write("s1", knDay("2024-01-01"), ents, knFact("emma", "LIVES_IN", "rome"))
	rb := b.write("s2", knDay("2024-01-02"), ents, knFact("emma", "LIVES_IN", "rome"))
	for _, key := range []string{"user", "emma", "rome"} {
		if ra.EntityIDs[key] == rb.EntityIDs[key] {
			t.Fatalf("%s shared between users", key)
		}
	}
	if len(rb.EntitiesCreated) != 3 || len(rb.ConflictsResolved) != 0 {
		t.Fatalf("second user's write: %+v", rb)
	}
	if got := a.facts(graph.FactQuery{}); len(got) != 1 || got[0].SubjectID != ra.EntityIDs["emma"] {
		t.Fatalf("user a facts: %+v", got)
	}
	if got, _ := a.s.Facts(t.Context(), a.tenant, a.user, graph.FactQuery{Subject: rb.EntityIDs["emma"]}); len(got) != 0 {
		t.Fatalf("user a reads user b's Emma through a subject filter: %+v", got)
	}
}

// TestUserEntityIsUniqueUnderConcurrentFirstWrites: the first windows of
// a new user, extracted at once and naming the user differently, cannot
// leave two user entities. A writer that loses the race fails with
// ErrConflict (its job retries) and, retried, joins the winner's node.
func TestUserEntityIsUniqueUnderConcurrentFirstWrites(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	names := []string{"Caroline", "Caro", "C. Jones", "u-1", "Carrie", "Lina"}
	errs := make([]error, len(names))
	write := func(i int) error {
		_, err := k.s.WriteKnowledge(t.Context(), graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user,
			SessionID: fmt.Sprint("s", i), ObservedAt: knDay("2024-01-01"),
			Entities: []graph.EntityInput{{Key: "me", Name: names[i], IsUser: true}, knEnt("p", "Paris", ontology.Place)},
			Facts:    []graph.FactInput{knFact("me", "LIVES_IN", "p")}})
		return err
	}
	var wg sync.WaitGroup
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = write(i)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, graph.ErrConflict) {
			t.Fatalf("writer %d: %v, want success or ErrConflict", i, err)
		}
		if err != nil {
			if err := write(i); err != nil {
				t.Fatalf("writer %d retried: %v", i, err)
			}
		}
	}
	if n := knInt(t, `MATCH (u:User {tenant: $t, user_id: $u}) RETURN count(u)`, map[string]any{"t": k.tenant, "u": k.user}); n != 1 {
		t.Fatalf("%d user entities after concurrent first writes, want 1", n)
	}
	if n := knInt(t, `MATCH (:User {tenant: $t})-[r:LIVES_IN]->() RETURN count(r)`, map[string]any{"t": k.tenant}); n != 1 {
		t.Fatalf("%d LIVES_IN facts from the user, want 1 (reinforced)", n)
	}
}

// TestEntityConcurrentCreationConverges: eight writers of one new entity
// leave exactly one node, and all of them get its id.
func TestEntityConcurrentCreationConverges(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	var wg sync.WaitGroup
	ids := make([]string, 8)
	errs := make([]error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := k.s.WriteKnowledge(t.Context(), graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user,
				SessionID: "s1", ObservedAt: knDay("2024-01-01"),
				Entities: []graph.EntityInput{knUserEnt(), knEnt("z", "Zanzibar Trading Co", ontology.Organization)},
				Facts:    []graph.FactInput{knFact("user", "WORKS_AT", "z")}})
			ids[i], errs[i] = res.EntityIDs["z"], err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
		if ids[i] != ids[0] || ids[i] == "" {
			t.Fatalf("writers got different ids: %v", ids)
		}
	}
	knEqual(t, "entities", knEntities(t, k.tenant, k.user), []string{"Organization:Zanzibar Trading Co", "Person:u-1"})
	if n := knInt(t, `MATCH ()-[r:WORKS_AT {tenant: $t}]->() RETURN count(r)`, map[string]any{"t": k.tenant}); n != 1 {
		t.Fatalf("%d WORKS_AT relationships, want 1", n)
	}
}

// TestUserEntity: one :Entity:Person:User per user, found by is_user; the
// display name replaces the placeholder when it becomes known.
func TestUserEntity(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	if _, err := k.s.UserEntityID(ctx, k.tenant, k.user); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("before any write: %v", err)
	}
	r1 := k.write("s1", knDay("2024-01-01"), []graph.EntityInput{knUserEnt(), knEnt("tea", "tea", ontology.Food)},
		knFact("user", "LIKES", "tea"))
	id, err := k.s.UserEntityID(ctx, k.tenant, k.user)
	if err != nil || id != r1.EntityIDs["user"] {
		t.Fatalf("user entity %q, %v; want %q", id, err, r1.EntityIDs["user"])
	}
	res, err := k.s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user, UserName: "Caroline",
		SessionID: "s2", Entities: []graph.EntityInput{{Key: "me", Name: "Caroline", IsUser: true}, knEnt("mel", "Melanie", ontology.Person)},
		Facts: []graph.FactInput{knFact("me", "FRIEND_OF", "mel")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.EntityIDs["me"] != id {
		t.Fatalf("user entity changed: %s vs %s", res.EntityIDs["me"], id)
	}
	view, err := k.s.Entity(ctx, k.tenant, id, graph.EntityQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if view.Name != "Caroline" || !view.IsUser || view.Type != "Person" || !slices.Contains(view.Aliases, k.user) || len(view.Out) != 2 {
		t.Fatalf("user entity: %+v", view)
	}
	labels := knQuery(t, `MATCH (e:Entity {tenant: $t, id: $id}) RETURN labels(e)`, map[string]any{"t": k.tenant, "id": id})
	knEqual(t, "user labels", knStrings(labels[0].Values[0]), []string{"Entity", "Person", "User"})
	// "Caroline" mentioned by name (not flagged as the user) is the user.
	r3 := k.write("s3", knDay("2024-03-01"), []graph.EntityInput{knEnt("c", "Caroline", ontology.Person),
		knEnt("paris", "Paris", ontology.Place)}, knFact("c", "VISITED", "paris"))
	if r3.EntityIDs["c"] != id {
		t.Fatalf("the user's name resolved to %s, want the user %s", r3.EntityIDs["c"], id)
	}
	if n := knInt(t, `MATCH (u:User {tenant: $t}) RETURN count(u)`, map[string]any{"t": k.tenant}); n != 1 {
		t.Fatalf("%d user entities", n)
	}
}
