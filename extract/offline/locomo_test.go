package offline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// locomoPath is where the evaluation-only LoCoMo sample lives, relative to
// this package. It is never committed (CC BY-NC); tests skip without it.
const locomoPath = "../../../shared/datasets/locomo/locomo-visible.json"

type locomoTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
}

// locomoSession is one session of a LoCoMo conversation as engine input.
type locomoSession struct {
	conv   string
	index  int
	events []extract.Event
}

// loadLoCoMo reads every session of the sample as named-speaker events:
// one turn per event, the session's stamp plus one second per turn.
func loadLoCoMo(tb testing.TB) []locomoSession {
	tb.Helper()
	if _, err := os.Stat(locomoPath); errors.Is(err, fs.ErrNotExist) {
		tb.Skip("LoCoMo sample not present at " + locomoPath)
	}
	return loadLoCoMoNoSkip(tb)
}

// loadLoCoMoNoSkip returns nil when the sample is absent.
func loadLoCoMoNoSkip(tb testing.TB) []locomoSession {
	tb.Helper()
	raw, err := os.ReadFile(locomoPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	var convs []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
	}
	if err := json.Unmarshal(raw, &convs); err != nil {
		tb.Fatal(err)
	}
	var out []locomoSession
	for _, c := range convs {
		for n := 1; n <= 60; n++ {
			var turns []locomoTurn
			if json.Unmarshal(c.Conversation[fmt.Sprintf("session_%d", n)], &turns) != nil || len(turns) == 0 {
				continue
			}
			var stamp string
			_ = json.Unmarshal(c.Conversation[fmt.Sprintf("session_%d_date_time", n)], &stamp)
			at, err := nlp.ParseTimestamp(stamp)
			if err != nil {
				tb.Fatalf("%s session %d: stamp %q: %v", c.SampleID, n, stamp, err)
			}
			s := locomoSession{conv: c.SampleID, index: n}
			for i, tr := range turns {
				s.events = append(s.events, extract.Event{ID: tr.DiaID, Role: "user", Kind: "message", Name: tr.Speaker,
					Content: tr.Text, OccurredAt: at.Add(time.Duration(i) * time.Second)})
			}
			out = append(out, s)
		}
	}
	return out
}

func locomoSessionByIndex(t *testing.T, all []locomoSession, conv string, n int) locomoSession {
	t.Helper()
	for _, s := range all {
		if s.conv == conv && s.index == n {
			return s
		}
	}
	t.Fatalf("%s session %d not found", conv, n)
	return locomoSession{}
}

// Named-speaker turns: first person is the speaker, relative dates are
// resolved against the session time, and there is no "user".
func TestLoCoMoNamedSpeakers(t *testing.T) {
	all := loadLoCoMo(t)
	o := New(Config{})
	cases := []struct {
		session int
		w       want
	}{
		{1, want{subj: "Caroline", pred: "ATTENDED", obj: "LGBTQ support group", from: "2023-05-07", says: "7 May 2023"}},
		{1, want{subj: "Melanie", pred: "CREATED", obj: "lake sunrise", from: "2022-01-01", says: "2022"}},
		{2, want{subj: "Melanie", pred: "ATTENDED", obj: "charity race", from: "2023-05-20"}},
		{2, want{subj: "Melanie", pred: "PLANS", obj: "camping", from: "2023-06-01", says: "June 2023"}},
		{2, want{subj: "Melanie", pred: "PARENT_OF", obj: "kids"}},
		{5, want{subj: "Melanie", pred: "MEMBER_OF", obj: "pottery class", from: "2023-07-02"}},
		{6, want{subj: "Melanie", pred: "VISITED", obj: "museum", from: "2023-07-05"}},
		{7, want{subj: "Caroline", pred: "ATTENDED", obj: "LGBTQ conference", from: "2023-07-10"}},
	}
	for _, c := range cases {
		s := locomoSessionByIndex(t, all, "conv-26", c.session)
		res, err := o.Extract(context.Background(), extract.Input{UserID: "eval", SessionID: "s", Events: s.events})
		if err != nil {
			t.Fatal(err)
		}
		checkWant(t, res, c.w)
		for _, e := range res.Entities {
			if e.IsUser {
				t.Errorf("session %d: a user entity appeared in a conversation between named speakers", c.session)
			}
		}
	}
}

// Every session of the sample: invariants hold, facts are about people
// (or their pets and events), and the summary of the session resolves the
// dates it keeps.
func TestLoCoMoAllSessions(t *testing.T) {
	all := loadLoCoMo(t)
	o := New(Config{})
	facts := 0
	for _, s := range all {
		in := extract.Input{UserID: "eval", Events: s.events}
		res, err := o.Extract(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, in, res)
		ents := map[string]extract.Entity{}
		for _, e := range res.Entities {
			ents[e.Key] = e
		}
		for _, f := range res.Facts {
			switch ents[f.Subject].Type {
			case ontology.Person, ontology.Animal, ontology.Occasion:
			default:
				t.Errorf("%s #%d: fact about a %s: %q", s.conv, s.index, ents[f.Subject].Type, f.Sentence)
			}
		}
		facts += len(res.Facts)
		sum, err := o.Summarize(context.Background(), extract.SummaryRequest{Style: extract.StyleSections, Events: s.events})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sum.Text, "yesterday") && !strings.Contains(sum.Text, "yesterday (") {
			t.Errorf("%s #%d: unresolved 'yesterday' in summary", s.conv, s.index)
		}
	}
	if facts < len(all) {
		t.Errorf("only %d facts over %d sessions", facts, len(all))
	}
	t.Logf("%d sessions, %d facts", len(all), facts)
}
