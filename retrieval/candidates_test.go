package retrieval

import (
	"testing"

	"github.com/graphmem/graphmem/knowledge"
)

// TestStatementMemo: the memo reads a text as knowledge.ReadStatement does,
// whether it is remembered or not, and never holds more than its size.
func TestStatementMemo(t *testing.T) {
	texts := []string{"I moved to Oslo last week.", "Maybe I will try sushi?", "My dad retired.", "lol", "Where do you live?"}
	m := newStatementMemo(3)
	for round := range 2 {
		for _, text := range texts {
			if got, want := m.read(text), knowledge.ReadStatement(text); got != want {
				t.Fatalf("round %d, %q: memo read %+v, ReadStatement %+v", round, text, got, want)
			}
			if len(m.m) > 3 {
				t.Fatalf("memo holds %d readings, bound 3", len(m.m))
			}
		}
	}
	if len(m.m) == 0 {
		t.Fatal("memo remembers nothing")
	}
}
