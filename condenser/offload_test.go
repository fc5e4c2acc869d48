package condenser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOffload(t *testing.T) {
	big := strings.Repeat("z", 6000)
	events := []Event{
		userMsg(0, big), // the task: never offloaded
		call(1, "a", ""),
		result(2, "a"),
		obs(3),
		sysMsg(4),
	}
	events[1].Content = big // tool calls are never offloaded
	events[2].Content = big
	events[2].Tokens = 1500
	events[3].Content = strings.Repeat("w", 5120) // at the threshold: stays
	events[4].Content = big

	got, records := Offload(events, OffloadOptions{})
	if len(records) != 1 || records[0].ID != "offload-2" {
		t.Fatalf("records %+v, want one for event 2", records)
	}
	want := strings.Repeat("z", 200) + "\n<!-- CONTEXT_OFFLOAD: id=offload-2 -->"
	if got[2].Content != want || got[2].ToolCallID != "a" || got[2].Name != "run" || got[2].Tokens != 0 {
		t.Errorf("offloaded event %+v", got[2])
	}
	for _, i := range []int{0, 1, 3, 4} {
		if got[i].Content != events[i].Content {
			t.Errorf("event %d changed", i)
		}
	}
	if events[2].Content != big || records[0].Event.Content != big || records[0].Event.Tokens != 1500 {
		t.Error("the input or the record lost the original")
	}
	if diff := cmp.Diff([]string{"offload-2"}, OffloadRefs(got[2].Content)); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}

	t.Run("idempotent", func(t *testing.T) {
		again, more := Offload(got, OffloadOptions{})
		if len(more) != 0 || again[2].Content != got[2].Content {
			t.Errorf("offloading twice changed the events: %d records", len(more))
		}
	})
	t.Run("reload", func(t *testing.T) {
		back := Reload(got, records)
		if diff := cmp.Diff(events, back); diff != "" {
			t.Errorf("reload (-want +got):\n%s", diff)
		}
		if still := Reload(got, nil); still[2].Content != got[2].Content {
			t.Error("a missing record must leave the preview")
		}
	})
	t.Run("options", func(t *testing.T) {
		small := []Event{msg(0), msg(1)}
		small[1].Content = "0123456789"
		out, recs := Offload(small, OffloadOptions{Threshold: 5, PreviewChars: 3})
		if len(recs) != 2 || !strings.HasPrefix(out[1].Content, "012\n<!-- CONTEXT_OFFLOAD: id=offload-1 -->") {
			t.Errorf("out %q, %d records", out[1].Content, len(recs))
		}
		noID := Event{Seq: 9, Kind: KindObservation, Content: strings.Repeat("q", 10)}
		if _, recs := Offload([]Event{noID}, OffloadOptions{Threshold: 5}); recs[0].ID != "offload-seq-9" {
			t.Errorf("id without an event id = %q", recs[0].ID)
		}
	})
}
