package knowledge

import (
	"context"
	"testing"
)

// batchRecorder embeds every text as a fixed vector and records how many
// texts each call carried.
type batchRecorder struct{ sizes []int }

func (b *batchRecorder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	b.sizes = append(b.sizes, len(texts))
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

// TestPrepareEmbedsEachExampleAlone: the topic examples are embedded one
// per call, as a question is at search time, so no example's vector
// depends on its batch-mates (the query side quantizes per batch), and
// Prepare embeds them once.
func TestPrepareEmbedsEachExampleAlone(t *testing.T) {
	t.Parallel()
	rec := &batchRecorder{}
	tr := NewTopicReader(rec)
	if err := tr.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, tp := range tr.topics {
		want += len(tp.Statements) + len(tp.Questions)
	}
	if len(rec.sizes) != want {
		t.Fatalf("%d embedding calls for %d examples", len(rec.sizes), want)
	}
	for i, n := range rec.sizes {
		if n != 1 {
			t.Fatalf("call %d embedded %d texts, want 1", i, n)
		}
	}
	if err := tr.Prepare(t.Context()); err != nil || len(rec.sizes) != want {
		t.Fatalf("a second Prepare embedded again (%d calls, err %v)", len(rec.sizes), err)
	}
}
