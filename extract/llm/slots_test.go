package llm

import (
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
)

// The LLM engine returns what the knowledge policy needs to judge its
// facts like the offline engine's: the slot a measure fills (from an alias
// when the model left the qualifier out), an ending as a valid_to at the
// time it was said, a correction with the slip it replaces.
func TestExtractSlotsEndingsCorrections(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_extract_slots.json"})
	l, logs := newTestEngine(t, f, nil)
	got, err := l.Extract(t.Context(), testInput())
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	keys := map[string]string{}
	for _, e := range got.Entities {
		keys[e.Name] = e.Key
	}
	byObj := map[string]extract.Fact{}
	for _, f := range got.Facts {
		byObj[f.Object] = f
	}
	salary := byObj[keys["58000 euros a year"]]
	if salary.Predicate != "HAS_MEASURE" || salary.Qualifier != "salary" || salary.Correction {
		t.Errorf("salary fact %+v: want HAS_MEASURE in the slot salary", salary)
	}
	wed := byObj[keys["Wednesday"]]
	if !wed.Correction || wed.Corrects != keys["Tuesday"] || wed.Corrects == "" {
		t.Errorf("correction %+v: want Correction naming Tuesday (%s)", wed, keys["Tuesday"])
	}
	sold := byObj[keys["Corolla"]]
	said := time.Date(2023, 5, 8, 13, 58, 0, 0, time.UTC) // e3, the event it was read from
	if sold.ValidTo == nil || !sold.ValidTo.Equal(said) {
		t.Errorf("ended fact's valid_to = %v, want %v", sold.ValidTo, said)
	}
	// A correction that names its own object as the slip is still a
	// correction, but names nothing: the model contradicted itself.
	porto := byObj[keys["Porto"]]
	if !porto.Correction || porto.Corrects != "" || porto.Subject != keys["sister"] {
		t.Errorf("sister's fact %+v", porto)
	}
	if !strings.Contains(logs.String(), "corrected value") {
		t.Errorf("a self-correcting fact should be noted; logs: %s", logs)
	}
}
