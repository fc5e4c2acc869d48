package memory

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/errs"
)

// summaryEvents returns the view's summary events.
func summaryEvents(v ViewOutput) []Event {
	var out []Event
	for _, e := range v.Events {
		if e.Kind == string(condenser.KindSummary) {
			out = append(out, e)
		}
	}
	return out
}

func TestViewWithinBudgetReturnsEveryEventAndStoresNothing(t *testing.T) {
	t.Parallel()
	s, store, engine := newTestService(t)
	store.addSession(t, "s1", "alice", 5)
	out, err := s.View(t.Context(), "t1", "s1", ViewInput{MaxEvents: 10})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	tokens := 0
	for _, e := range out.Events {
		ids = append(ids, e.ID)
		tokens += e.Tokens
	}
	if !slices.Equal(ids, []string{"m1", "m2", "m3", "m4", "m5"}) || out.Tokens != tokens || out.HeadSeq != 5 {
		t.Fatalf("view = %v (%d tokens, events say %d), head %d", ids, out.Tokens, tokens, out.HeadSeq)
	}
	if len(out.NewCondensations) != 0 || len(store.nodes["s1"]) != 0 || len(store.jobs) != 0 || len(engine.summaries) != 0 {
		t.Fatalf("a view within budget condensed: %+v, nodes %v, jobs %v", out.NewCondensations, store.nodes["s1"], store.jobs)
	}
}

func TestViewOverBudgetCondensesStoresAndSchedulesExtraction(t *testing.T) {
	t.Parallel()
	s, store, engine := newTestService(t)
	store.addSession(t, "s1", "alice", 30)
	out, err := s.View(t.Context(), "t1", "s1", ViewInput{MaxEvents: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Events) > 10 || len(out.NewCondensations) != 1 || out.Deferred != "" {
		t.Fatalf("view of %d events, %d new condensations, deferred %q", len(out.Events), len(out.NewCondensations), out.Deferred)
	}
	c := out.NewCondensations[0]
	if len(c.ForgottenIDs) == 0 || !slices.Equal(c.ForgottenIDs, c.CoveredIDs) || !slices.Contains(out.AppliedCondensationIDs, c.ID) {
		t.Fatalf("condensation = %+v, applied %v", c, out.AppliedCondensationIDs)
	}
	// The summary in the view is the engine's, over exactly what was forgotten.
	sums := summaryEvents(out)
	if len(sums) != 1 || sums[0].Content != "summary of "+strings.Join(c.ForgottenIDs, ",") || c.Summary != sums[0].Content {
		t.Fatalf("summaries in the view %+v, condensation summary %q", sums, c.Summary)
	}
	for _, e := range out.Events {
		if slices.Contains(c.ForgottenIDs, e.ID) {
			t.Errorf("forgotten event %s is still in the view", e.ID)
		}
	}
	// Stored once, and its window is scheduled for extraction.
	if len(store.nodes["s1"]) != 1 || store.nodes["s1"][0].ID != c.ID {
		t.Fatalf("stored nodes %+v", store.nodes["s1"])
	}
	jobs := store.jobsOf(JobExtract)
	var p extractPayload
	if len(jobs) != 1 || jobs[0].SessionID != "s1" || jobs[0].UserID != "alice" || mustDecode(t, jobs[0].Payload, &p).EventID != c.ID {
		t.Fatalf("extraction jobs %+v", jobs)
	}

	// The condensed view now fits: asking again condenses nothing.
	again, err := s.View(t.Context(), "t1", "s1", ViewInput{MaxEvents: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.NewCondensations) != 0 || len(engine.summaries) != 1 || len(store.nodes["s1"]) != 1 {
		t.Fatalf("second view condensed again: %d new, %d summaries", len(again.NewCondensations), len(engine.summaries))
	}
	if !slices.EqualFunc(again.Events, out.Events, func(a, b Event) bool { return a.ID == b.ID && a.Content == b.Content }) {
		t.Fatalf("second view differs:\n%+v\n%+v", again.Events, out.Events)
	}
}

func TestViewDryRunPreviewsTheCondensationWithoutStoringIt(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	store.addSession(t, "s1", "alice", 30)
	out, err := s.View(t.Context(), "t1", "s1", ViewInput{MaxEvents: 10, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(store.nodes["s1"]) != 0 || len(store.jobs) != 0 || len(out.NewCondensations) != 0 {
		t.Fatalf("a dry run stored %v and enqueued %v", store.nodes["s1"], store.jobs)
	}
	if len(summaryEvents(out)) != 1 || len(out.Events) > 10 {
		t.Fatalf("the dry run does not preview the condensed view: %+v", out.Events)
	}
}

// Two requests condensing the same view at once: the store refuses the
// second condensation, and the view is rebuilt on top of the first.
func TestViewRebuildsWhenAnotherRequestCondensedFirst(t *testing.T) {
	t.Parallel()
	s, store, engine := newTestService(t)
	store.addSession(t, "s1", "alice", 30)
	store.staleCondensations = 1
	out, err := s.View(t.Context(), "t1", "s1", ViewInput{MaxEvents: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(engine.summaries) != 2 || len(store.nodes["s1"]) != 1 || len(out.NewCondensations) != 1 || len(out.Events) > 10 {
		t.Fatalf("after a refused condensation: %d summaries, %d stored, %d new, %d events",
			len(engine.summaries), len(store.nodes["s1"]), len(out.NewCondensations), len(out.Events))
	}
}

func TestViewRefusesBadRequests(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	store.addSession(t, "s1", "alice", 30)
	cases := []struct {
		name    string
		session string
		in      ViewInput
		check   func(error) bool
	}{
		{"negative budget", "s1", ViewInput{MaxEvents: -1}, func(err error) bool {
			v, ok := errors.AsType[*errs.ValidationError](err)
			return ok && v.Fields[0].Field == "max_events"
		}},
		{"unknown profile", "s1", ViewInput{Profile: "nope"}, func(err error) bool {
			v, ok := errors.AsType[*errs.ValidationError](err)
			return ok && v.Fields[0].Field == "profile" && strings.Contains(v.Fields[0].Message, `"nope"`)
		}},
		{"another user's session", "s1", ViewInput{MaxEvents: 10, UserID: "bob"}, func(err error) bool {
			c, ok := errors.AsType[*errs.ConflictError](err)
			return ok && c.Detail == `session "s1" belongs to another user`
		}},
		{"unknown session", "nope", ViewInput{}, func(err error) bool {
			nf, ok := errors.AsType[*errs.NotFoundError](err)
			return ok && nf.What == `session "nope"`
		}},
	}
	for _, c := range cases {
		if _, err := s.View(t.Context(), "t1", c.session, c.in); !c.check(err) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if len(store.nodes["s1"]) != 0 || len(store.jobs) != 0 {
		t.Fatalf("a refused view stored %v, enqueued %v", store.nodes["s1"], store.jobs)
	}
}
