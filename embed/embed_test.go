package embed

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNewLocalNamesTheMakeTargetWhenFilesAreMissing(t *testing.T) {
	dir := t.TempDir()
	_, err := NewLocal(DefaultLocalConfig(dir))
	if !errors.Is(err, ErrModelMissing) {
		t.Fatalf("got %v, want ErrModelMissing", err)
	}
	for _, want := range []string{"make model", "graphmem model fetch", filepath.Join(dir, "all-MiniLM-L6-v2", "model-int8.onnx")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q: %v", want, err)
		}
	}
}

func TestLocalConfigDefaultsAndLimits(t *testing.T) {
	c, err := LocalConfig{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxTokens != 128 || c.Threads != 1 || c.BatchSize != 32 || c.Pooling != "mean" {
		t.Errorf("defaults: %+v", c)
	}
	for _, bad := range []LocalConfig{{MaxTokens: 2}, {MaxTokens: 513}, {Threads: -1}, {BatchSize: -3}, {Pooling: "max"}, {Dimensions: -1}} {
		if _, err := bad.withDefaults(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestMakeBatchesGroupsSimilarLengths(t *testing.T) {
	ids := [][]int32{make([]int32, 40), make([]int32, 5), make([]int32, 39), make([]int32, 6), make([]int32, 7)}
	bs := makeBatches(ids, 2)
	var widths []int
	var order []int
	for _, b := range bs {
		widths = append(widths, b.width)
		order = append(order, b.index...)
		if len(b.ids) > 2 {
			t.Errorf("batch of %d rows, limit 2", len(b.ids))
		}
	}
	if !slices.Equal(widths, []int{6, 7, 40}) {
		t.Errorf("batch widths %v, want [6 7 40]: short texts must not be padded to long ones", widths)
	}
	slices.Sort(order)
	if !slices.Equal(order, []int{0, 1, 2, 3, 4}) {
		t.Errorf("rows %v: every text must be in exactly one batch", order)
	}
}

// A claim of the embedding lane: many turns and a summary of the longest
// length. The summary must not widen the turns' batch, however far the
// batch is from full.
func TestMakeBatchesKeepsLongTextsApart(t *testing.T) {
	var ids [][]int32
	for n := range 30 {
		ids = append(ids, make([]int32, 20+n%15))
	}
	ids = append(ids, make([]int32, 128), make([]int32, 127))
	bs := makeBatches(ids, 32)
	rows, padded, real := 0, 0, 0
	for _, b := range bs {
		rows += len(b.ids)
		padded += len(b.ids) * b.width
		for _, r := range b.ids {
			real += len(r)
			if b.width >= 127 && len(r) < 100 {
				t.Errorf("a text of %d word pieces is batched with one of %d", len(r), b.width)
			}
		}
	}
	if rows != 32 {
		t.Errorf("%d rows in batches, want 32", rows)
	}
	if float64(padded) > 1.25*float64(real) {
		t.Errorf("batches pad %d word pieces to %d: more than a quarter of padding", real, padded)
	}
	if len(bs) > 6 {
		t.Errorf("%d batches for 32 texts: texts of similar length must share a batch", len(bs))
	}
}

func TestMeanPoolIgnoresPadding(t *testing.T) {
	// Two rows of width 3 and 2 dims; the second row has one real token
	// and a padded position holding a huge value that must not count.
	hidden := []float32{
		1, 0, 3, 0, 2, 0, // row 0: mean (2, 0)
		0, 2, 1000, 1000, 1000, 1000, // row 1: only (0, 2)
	}
	got := meanPool(hidden, 2, 3, 2, []int{3, 1})
	want := [][]float32{{1, 0}, {0, 1}}
	for r := range want {
		for d := range want[r] {
			if math.Abs(float64(got[r][d]-want[r][d])) > 1e-6 {
				t.Errorf("row %d: %v, want %v", r, got[r], want[r])
			}
		}
	}
	cls := clsPool(hidden, 2, 3, 2)
	if cls[0][0] != 1 || cls[1][1] != 1 {
		t.Errorf("cls pooling: %v", cls)
	}
}

func TestCosine(t *testing.T) {
	if c := Cosine([]float32{1, 0}, []float32{0, 1}); c != 0 {
		t.Errorf("orthogonal: %v", c)
	}
	if c := Cosine([]float32{1, 1}, []float32{2, 2}); math.Abs(c-1) > 1e-12 {
		t.Errorf("parallel: %v", c)
	}
	if c := Cosine([]float32{0, 0}, []float32{1, 1}); c != 0 {
		t.Errorf("zero vector: %v", c)
	}
}

func TestVerifyNamesWhatIsMissing(t *testing.T) {
	arts, err := Artifacts("linux", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "all-MiniLM-L6-v2"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = Verify(dir, arts)
	if !errors.Is(err, ErrModelMissing) {
		t.Fatalf("got %v, want ErrModelMissing", err)
	}
	for _, a := range arts {
		if !strings.Contains(err.Error(), a.Name) {
			t.Errorf("error does not name %s: %v", a.Name, err)
		}
	}
}
