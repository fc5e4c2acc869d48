package kuextract

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/bench/dataset"
	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/extract/offline"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// sessionsOf turns a scenario into the windows the service would extract.
func sessionsOf(s dataset.Scenario) []Session {
	out := make([]Session, len(s.Sessions))
	for si, sess := range s.Sessions {
		out[si].At = sess.At
		for ei, e := range sess.Events {
			out[si].Events = append(out[si].Events, extract.Event{ID: fmt.Sprintf("s%d-e%d", si, ei), Role: e.Role,
				Kind: "message", Name: e.Name, Content: e.Content, OccurredAt: sess.At})
		}
	}
	return out
}

// passes judges one check against the memory at the extraction level:
//   - search_top: a current fact says an expected string, and no current
//     positive fact of the same slot says a rejected one (without also
//     saying an expected one): the slot holds the new value alone;
//   - history: some fact, current or not, says an expected string;
//   - preference: a current preference on the object with that polarity,
//     and none with the other.
func passes(m Memory, c dataset.Check) bool {
	switch c.Type {
	case dataset.CheckSearchTop:
		slots := map[string]bool{}
		for _, f := range m.Facts {
			if f.IsCurrent() && dataset.ContainsAnyFold(m.Text(f), c.Expect) {
				slots[slotOf(f)] = true
			}
		}
		for _, f := range m.Facts {
			t := m.Text(f)
			if f.IsCurrent() && asserts(f) && slots[slotOf(f)] && !dataset.ContainsAnyFold(t, c.Expect) &&
				dataset.ContainsAnyFold(t, c.Reject) {
				return false
			}
		}
		return len(slots) > 0
	case dataset.CheckHistory:
		for _, f := range m.Facts {
			if dataset.ContainsAnyFold(m.Text(f), c.Expect) {
				return true
			}
		}
		return false
	case dataset.CheckPreference:
		want, other := false, false
		for _, f := range m.Facts {
			if !f.IsCurrent() || !f.Predicate.Preference || f.Subject != "user" ||
				!strings.Contains(strings.ToLower(m.Names[f.Object]), strings.ToLower(c.Object)) {
				continue
			}
			pol := f.Polarity
			if f.Predicate.Polarity() == ontology.Negative {
				pol = ontology.Negative
			}
			if string(pol) == c.Polarity {
				want = true
			} else {
				other = true
			}
		}
		return want && !other
	}
	return false
}

// slotOf is the slot a fact fills, as the checks compare them.
func slotOf(f *knowledge.Fact) string {
	return f.Subject + "|" + f.Predicate.Name + "|" + f.Qualifier
}

// asserts: a positive statement (not a denial, not an aversion).
func asserts(f *knowledge.Fact) bool {
	return f.Polarity == ontology.Positive && f.Predicate.Polarity() == ontology.Positive
}

type tally struct{ pass, total map[string]int }

func (t *tally) add(typ string, ok bool) {
	t.total[typ]++
	t.total["all"]++
	if ok {
		t.pass[typ]++
		t.pass["all"]++
	}
}

func (t *tally) String() string {
	var keys []string
	for k := range t.total {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s %d/%d", k, t.pass[k], t.total[k])
	}
	return b.String()
}

func (t *tally) rate() float64 { return float64(t.pass["all"]) / float64(max(1, t.total["all"])) }

// measure runs every scenario keep selects and tallies its checks.
func measure(t *testing.T, path string, keep func(dataset.Scenario) bool, verbose bool) *tally {
	t.Helper()
	scenarios, err := dataset.LoadScenarios(path)
	if err != nil {
		t.Fatal(err)
	}
	eng := offline.New(offline.Config{})
	tl := &tally{pass: map[string]int{}, total: map[string]int{}}
	for _, s := range scenarios {
		if !keep(s) {
			continue
		}
		m, err := Run(context.Background(), eng, s.UserID, sessionsOf(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Checks {
			ok := passes(m, c)
			tl.add(c.Type, ok)
			if !ok && verbose {
				t.Logf("FAIL %s [%s] %s %q expect=%v reject=%v obj=%q", s.ID, s.Kind, c.Type, c.Query, c.Expect, c.Reject, c.Object)
				for _, f := range m.Facts {
					t.Logf("    %-10s %s %s(%s) %s", f.Status, m.Names[f.Subject], f.Predicate.Name, f.Qualifier, m.Text(f))
				}
			}
		}
	}
	return tl
}

// The extraction-level figures of the visible set and the dev half. The
// floors are what the engine reached when they were set; a change that
// loses ground fails here before it reaches the bench.
func TestExtractionCurrency(t *testing.T) {
	verbose := testing.Verbose()
	vis := measure(t, "../../extract/offline/testdata/knowledge_update.jsonl", func(dataset.Scenario) bool { return true }, verbose)
	// The second batch (ku-own-r3-*) is measured apart: its floor was set
	// when it arrived, so the first batch's floor keeps its meaning.
	second := func(s dataset.Scenario) bool { return strings.HasPrefix(s.ID, "ku-own-r3-") }
	dev := measure(t, "../data/ku-own.jsonl", func(s dataset.Scenario) bool { return dataset.Half(s.ID) == dataset.Dev && !second(s) }, verbose)
	dev2 := measure(t, "../data/ku-own.jsonl", func(s dataset.Scenario) bool { return dataset.Half(s.ID) == dataset.Dev && second(s) }, verbose)
	t.Logf("visible:%s", vis)
	t.Logf("dev:    %s", dev)
	t.Logf("dev r3: %s", dev2)
	for name, c := range map[string]struct {
		tl    *tally
		floor float64
	}{"visible": {vis, visibleFloor}, "dev": {dev, devFloor}, "dev r3": {dev2, devR3Floor}} {
		if r := c.tl.rate(); r < c.floor {
			t.Errorf("%s extraction-level pass rate %.3f below its floor %.3f", name, r, c.floor)
		}
	}
}

const (
	visibleFloor = 0.96 // 30/31
	devFloor     = 0.83 // 70/84 (28/84 before moves, turnarounds, transitions, favourites by habit, schedules, in passing)
	devR3Floor   = 0.52 // 22/42 (18/42 when the second batch arrived, 11/42 before any change for it)
)
