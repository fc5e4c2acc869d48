package offline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/ontology"
)

// The offline engine provides every method of extract.Engine, exactly as
// the LLM engine does; the assertions fail to compile when a signature drifts.
var (
	_ extract.Summarizer    = (*Engine)(nil)
	_ extract.EventSelector = (*Engine)(nil)
	_ extract.Extractor     = (*Engine)(nil)
	_ extract.Insighter     = (*Engine)(nil)
	_ extract.Engine        = (*Engine)(nil)
)

// defaultAt is the event time of test messages unless a case sets one.
var defaultAt = time.Date(2024, 9, 14, 18, 30, 0, 0, time.UTC)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	if s == "" {
		return defaultAt
	}
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		at, err = time.Parse(time.DateOnly, s)
	}
	if err != nil {
		t.Fatalf("bad time %q: %v", s, err)
	}
	return at
}

// extractUser runs one user message through the offline engine.
func extractUser(t *testing.T, text string, at time.Time) extract.Result {
	t.Helper()
	res, err := New(Config{}).Extract(context.Background(), extract.Input{UserID: "u1",
		Events: []extract.Event{{ID: "e1", Role: "user", Kind: "message", Content: text, OccurredAt: at}}})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	return res
}

// want describes an expected fact by display names: subj "" is the user,
// an unnamed relative is its role ("brother").
type want struct {
	subj, pred, obj string
	neg             bool
	qual            string // "" = unchecked, "-" = must be empty
	from            string // ValidFrom day (YYYY-MM-DD), "" = unchecked
	says            string // substring of the sentence, "" = unchecked
}

func (w want) String() string {
	pol := "+"
	if w.neg {
		pol = "-"
	}
	s := w.subj
	if s == "" {
		s = "user"
	}
	return fmt.Sprintf("%s %s%s %s [%s]", s, w.pred, pol, w.obj, w.qual)
}

// entityMatches reports whether entity e goes by name (or alias).
func entityMatches(e extract.Entity, name string) bool {
	if name == "" {
		return e.IsUser
	}
	if strings.EqualFold(e.Name, name) {
		return true
	}
	for _, a := range e.Aliases {
		if strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

// findFacts returns the facts matching subject, predicate and object names
// (any polarity).
func findFacts(res extract.Result, subj, pred, obj string) []extract.Fact {
	ents := make(map[string]extract.Entity, len(res.Entities))
	for _, e := range res.Entities {
		ents[e.Key] = e
	}
	var out []extract.Fact
	for _, f := range res.Facts {
		if f.Predicate != pred {
			continue
		}
		if entityMatches(ents[f.Subject], subj) && (obj == "*" || entityMatches(ents[f.Object], obj)) {
			out = append(out, f)
		}
	}
	return out
}

// checkWant asserts that res holds the wanted fact.
func checkWant(t *testing.T, res extract.Result, w want) {
	t.Helper()
	facts := findFacts(res, w.subj, w.pred, w.obj)
	pol := ontology.Positive
	if w.neg {
		pol = ontology.Negative
	}
	for _, f := range facts {
		if f.Polarity != pol || w.qual != "" && f.Qualifier != w.qual && !(w.qual == "-" && f.Qualifier == "") {
			continue
		}
		if w.from != "" && (f.ValidFrom == nil || f.ValidFrom.Format(time.DateOnly) != w.from) {
			t.Errorf("%v: valid from %v, want %s", w, f.ValidFrom, w.from)
		}
		if w.says != "" && !strings.Contains(f.Sentence, w.says) {
			t.Errorf("%v: sentence %q lacks %q", w, f.Sentence, w.says)
		}
		if f.Sentence == "" || len(f.SourceEventIDs) == 0 || f.Confidence <= 0 {
			t.Errorf("%v: incomplete fact %+v", w, f)
		}
		return
	}
	t.Errorf("missing fact %v; got:\n%s", w, dumpFacts(res))
}

// checkAbsent asserts that res holds no fact with this predicate and
// object for this subject, in either polarity.
func checkAbsent(t *testing.T, res extract.Result, w want) {
	t.Helper()
	if facts := findFacts(res, w.subj, w.pred, w.obj); len(facts) > 0 {
		t.Errorf("unexpected fact %v: %+v", w, facts)
	}
}

func dumpFacts(res extract.Result) string {
	var b strings.Builder
	for _, f := range res.Facts {
		fmt.Fprintf(&b, "  %s -%s/%s-> %s [%s] %q\n", f.Subject, f.Predicate, f.Polarity, f.Object, f.Qualifier, f.Sentence)
	}
	return b.String()
}
