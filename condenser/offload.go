package condenser

import (
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// Offload defaults (AgentScope's largePayloadThreshold and
// offloadSinglePreview).
const (
	DefaultOffloadThreshold = 5120
	DefaultOffloadPreview   = 200
)

// OffloadOptions tunes Offload; zero or negative values take the defaults.
type OffloadOptions struct {
	Threshold    int `json:"threshold"`     // characters above which content is offloaded
	PreviewChars int `json:"preview_chars"` // characters kept inline
}

// OffloadRecord keeps an offloaded event whole, under the id its marker
// names, so it can be stored and reloaded later.
type OffloadRecord struct {
	ID    string `json:"id"`
	Event Event  `json:"event"`
}

// offloadMarker matches the reference left in offloaded content.
func offloadMarker() *regexp.Regexp {
	return regexp.MustCompile(`<!-- CONTEXT_OFFLOAD: id=([^ ]+) -->`)
}

// OffloadID is the deterministic offload id of an event, so offloading the
// same event twice yields the same record (idempotent writes).
func OffloadID(e Event) string {
	if e.ID != "" {
		return "offload-" + e.ID
	}
	return "offload-seq-" + strconv.FormatInt(e.Seq, 10)
}

// Offload replaces large payloads with a short preview and a reference
// marker, as AgentScope's S2 strategy does without any LLM. It returns the
// new events (a copy; the input is untouched) and one record per offloaded
// event. Tool calls, summaries, system messages, condensation events, the
// first user message and already offloaded content are left alone.
func Offload(events []Event, opts OffloadOptions) ([]Event, []OffloadRecord) {
	threshold, preview := opts.Threshold, opts.PreviewChars
	if threshold <= 0 {
		threshold = DefaultOffloadThreshold
	}
	if preview <= 0 {
		preview = DefaultOffloadPreview
	}
	marker := offloadMarker()
	user := firstUserIndex(events)
	out := make([]Event, len(events))
	var records []OffloadRecord
	for i, e := range events {
		out[i] = e
		switch {
		case e.Kind == KindToolCall, e.Kind == KindSummary, e.Kind == KindCondensation,
			e.Kind == KindCondensationRequest, e.IsSystemMessage(), i == user:
			continue
		case utf8.RuneCountInString(e.Content) <= threshold, marker.MatchString(e.Content):
			continue
		}
		id := OffloadID(e)
		r := []rune(e.Content)
		out[i] = e.withContent(fmt.Sprintf("%s\n<!-- CONTEXT_OFFLOAD: id=%s -->", string(r[:min(preview, len(r))]), id))
		records = append(records, OffloadRecord{ID: id, Event: e})
	}
	return out, records
}

// OffloadRefs returns the offload ids referenced in content, so the caller
// can fetch just those records.
func OffloadRefs(content string) []string {
	var ids []string
	for _, m := range offloadMarker().FindAllStringSubmatch(content, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// Reload puts offloaded events back: every event whose content references
// a known record is replaced by the record's original event. Events whose
// record is missing keep their preview.
func Reload(events []Event, records []OffloadRecord) []Event {
	byID := make(map[string]Event, len(records))
	for _, r := range records {
		byID[r.ID] = r.Event
	}
	out := make([]Event, len(events))
	for i, e := range events {
		out[i] = e
		for _, id := range OffloadRefs(e.Content) {
			if orig, ok := byID[id]; ok {
				out[i] = orig
				break
			}
		}
	}
	return out
}
