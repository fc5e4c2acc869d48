package offline

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
)

func TestSelectEvents(t *testing.T) {
	at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	evs := []extract.Event{
		{ID: "sys", Role: "system", Content: "You are a travel assistant.", OccurredAt: at},
		{ID: "u1", Role: "user", Content: "I live in Oslo and I'm allergic to peanuts.", OccurredAt: at},
	}
	for i := 0; i < 10; i++ {
		evs = append(evs, extract.Event{ID: fmt.Sprintf("chat%d", i), Role: "assistant", Content: "Sure, happy to help with that.", OccurredAt: at})
	}
	evs = append(evs,
		extract.Event{ID: "call", Role: "assistant", Kind: "tool_call", Content: "search(flights)", OccurredAt: at},
		extract.Event{ID: "result", Role: "tool", Kind: "tool_result", Content: "3 flights found", OccurredAt: at},
		extract.Event{ID: "last", Role: "user", Content: "Thanks!", OccurredAt: at},
	)
	o := New(Config{})
	ids, err := o.SelectEvents(context.Background(), extract.AttentionRequest{Events: evs, MaxKeep: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) > 5 {
		t.Fatalf("kept %d > 5: %v", len(ids), ids)
	}
	kept := map[string]bool{}
	pos := map[string]int{}
	for i, ev := range evs {
		pos[ev.ID] = i
	}
	for i, id := range ids {
		kept[id] = true
		if i > 0 && pos[ids[i-1]] >= pos[id] {
			t.Errorf("ids out of order: %v", ids)
		}
	}
	for _, must := range []string{"u1", "last", "sys"} {
		if !kept[must] {
			t.Errorf("%s not kept: %v", must, ids)
		}
	}
	if kept["call"] != kept["result"] {
		t.Errorf("tool pair split: %v", ids)
	}
	again, _ := o.SelectEvents(context.Background(), extract.AttentionRequest{Events: evs, MaxKeep: 5})
	if !reflect.DeepEqual(ids, again) {
		t.Errorf("not deterministic: %v vs %v", ids, again)
	}
	if none, _ := o.SelectEvents(context.Background(), extract.AttentionRequest{Events: evs, MaxKeep: 0}); len(none) != 0 {
		t.Errorf("MaxKeep 0 kept %v", none)
	}
	all, _ := o.SelectEvents(context.Background(), extract.AttentionRequest{Events: evs, MaxKeep: 100})
	if len(all) != len(evs) {
		t.Errorf("MaxKeep above size kept %d of %d", len(all), len(evs))
	}
}
