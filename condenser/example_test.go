package condenser_test

import (
	"context"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/condenser"
)

// staticSummarizer stands in for the LLM-backed summarizer.
type staticSummarizer struct{}

func (staticSummarizer) Summarize(_ context.Context, req condenser.SummaryRequest) (condenser.SummaryResponse, error) {
	return condenser.SummaryResponse{Text: fmt.Sprintf("%d events summarized", len(req.Events)), Model: "static"}, nil
}

// The orchestration loop: fold the stored log into a view, condense, store
// any record, and rebuild the view from storage without an LLM call.
func Example() {
	cfg, _ := condenser.Profile(condenser.ProfileSDK)
	*cfg.MaxSize = 10 // small, to condense quickly
	c, err := condenser.New(cfg, condenser.Deps{Summarizer: staticSummarizer{}})
	if err != nil {
		panic(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	log := []condenser.Event{{ID: "u0", Seq: 0, Time: at, Kind: condenser.KindMessage, Role: condenser.RoleUser, Content: "plan my trip"}}
	for i := 1; i <= 10; i++ {
		log = append(log, condenser.Event{ID: fmt.Sprintf("a%d", i), Seq: int64(i), Time: at, Kind: condenser.KindMessage, Role: condenser.RoleAssistant, Content: "step"})
	}

	view := condenser.BuildView(log, condenser.ModeSDK)
	res, err := c.Condense(context.Background(), view)
	if err != nil {
		panic(err)
	}
	if res.Condensed() {
		rec := *res.Condensation
		fmt.Println("forgets", rec.ExpandForgotten(log), "because", rec.Reasons, rec.Requirement)
		log = append(log, condenser.CondensationEvent(rec, "c11", 11, at))
	}
	for _, e := range condenser.BuildView(log, condenser.ModeSDK).Events {
		fmt.Println(e.ID, e.Content)
	}
	// Output:
	// forgets [a2 a3 a4 a5 a6 a7 a8] because [events] soft
	// u0 plan my trip
	// a1 step
	// c11-summary 7 events summarized
	// a9 step
	// a10 step
}
