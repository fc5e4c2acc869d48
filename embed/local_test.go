//go:build cgo

package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
)

func newTestLocal(t testing.TB, mut func(*LocalConfig)) *Local {
	t.Helper()
	cfg := DefaultLocalConfig(modelDir(t))
	if mut != nil {
		mut(&cfg)
	}
	l, err := NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// TestEmbeddingsMatchReference: the int8 model run by ONNX Runtime on the Go
// tokenizer's ids gives vectors within cosine 0.99 of the fp32 reference
// model's on every reference sentence.
func TestEmbeddingsMatchReference(t *testing.T) {
	l := newTestLocal(t, nil)
	if l.Dimensions() != 384 {
		t.Fatalf("dimensions %d, want 384", l.Dimensions())
	}
	_, sents := loadReference(t)
	texts := make([]string, len(sents))
	for i, s := range sents {
		texts[i] = s.text
	}
	got, err := l.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	cos := make([]float64, len(sents))
	sum := 0.0
	for i, s := range sents {
		if n := vecNorm(got[i]); math.Abs(n-1) > 1e-4 {
			t.Errorf("%s: vector norm %.6f, want 1", s.Source, n)
		}
		cos[i] = Cosine(got[i], s.emb)
		sum += cos[i]
		if cos[i] < 0.99 {
			t.Errorf("%s %q: cosine %.4f to the reference, want >= 0.99", s.Source, clip(s.text, 80), cos[i])
		}
	}
	sorted := append([]float64(nil), cos...)
	sort.Float64s(sorted)
	below := sort.SearchFloat64s(sorted, 0.999)
	t.Logf("cosine to the fp32 reference over %d sentences: min %.4f, p1 %.4f, median %.4f, mean %.4f; %d below 0.999",
		len(cos), sorted[0], sorted[len(sorted)/100], sorted[len(sorted)/2], sum/float64(len(cos)), below)
}

func vecNorm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// TestEmbedIsIndependentOfBatching: a text's vector does not depend on the
// texts it is batched with (padding is masked out of attention and pooling),
// nor on the batch size, nor on the order of the input.
func TestEmbedIsIndependentOfBatching(t *testing.T) {
	texts := []string{
		"I teach maths at a secondary school.",
		"Where does the user live?",
		"The boxes are finally unpacked in our new flat in Marseille, after three weeks of living out of suitcases and eating takeaway on the floor.",
		"ok",
		"",
	}
	one := newTestLocal(t, func(c *LocalConfig) { c.BatchSize = 1 })
	many := newTestLocal(t, func(c *LocalConfig) { c.BatchSize = 4 })
	alone, err := one.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	reversed := make([]string, len(texts))
	for i, s := range texts {
		reversed[len(texts)-1-i] = s
	}
	batched, err := many.Embed(context.Background(), reversed)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		if c := Cosine(alone[i], batched[len(texts)-1-i]); c < 0.9999 {
			t.Errorf("%q: alone and batched vectors differ (cosine %.6f)", texts[i], c)
		}
	}
}

// TestEmbedMeaning: the vectors carry meaning, not shared words: each
// question is nearer its paraphrased answer than the other answers.
func TestEmbedMeaning(t *testing.T) {
	l := newTestLocal(t, nil)
	questions := []string{"Where does the user live?", "What does the user do for a living?", "What pet does the user have?"}
	answers := []string{
		"The boxes are finally unpacked in our new flat in Marseille.",
		"I teach maths at a secondary school.",
		"Our dog Biscuit chewed my slippers again this morning.",
	}
	v, err := l.Embed(context.Background(), append(append([]string{}, questions...), answers...))
	if err != nil {
		t.Fatal(err)
	}
	for q := range questions {
		best, bestCos := -1, -2.0
		for a := range answers {
			if c := Cosine(v[q], v[len(questions)+a]); c > bestCos {
				best, bestCos = a, c
			}
		}
		if best != q {
			t.Errorf("%q is nearest %q (cosine %.3f), want %q", questions[q], answers[best], bestCos, answers[q])
		}
	}
}

// TestEmbedConcurrent: concurrent callers get the same vectors as a lone one
// (run with -race).
func TestEmbedConcurrent(t *testing.T) {
	l := newTestLocal(t, func(c *LocalConfig) { c.BatchSize = 3 })
	texts := make([]string, 10)
	for i := range texts {
		texts[i] = fmt.Sprintf("Turn %d: we talked about %s.", i, strings.Repeat("the garden and the weather ", i%4+1))
	}
	want, err := l.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				got, err := l.Embed(context.Background(), texts[g:])
				if err != nil {
					errs <- err
					return
				}
				for i := range got {
					if c := Cosine(got[i], want[g+i]); c < 0.9999 {
						errs <- fmt.Errorf("goroutine %d, text %d: cosine %.6f to the lone call", g, g+i, c)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestEmbedCancelled: a cancelled context stops Embed with the context's
// error, and a closed embedder refuses work.
func TestEmbedCancelled(t *testing.T) {
	l := newTestLocal(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Embed(ctx, []string{"hello"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v, want context.Canceled", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Embed(context.Background(), []string{"hello"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: got %v, want ErrClosed", err)
	}
}

// TestNewLocalChecksTheModel: a configured dimension that the model does not
// give, and a second library path in one process, are refused.
func TestNewLocalChecksTheModel(t *testing.T) {
	dir := modelDir(t)
	cfg := DefaultLocalConfig(dir)
	cfg.Dimensions = 768
	if l, err := NewLocal(cfg); err == nil {
		l.Close()
		t.Fatal("a 768-dimension setting was accepted for a 384-dimension model")
	} else if !strings.Contains(err.Error(), "384") {
		t.Fatalf("error does not name the model's size: %v", err)
	}
	_ = newTestLocal(t, nil) // keeps the library loaded
	cfg = DefaultLocalConfig(dir)
	cfg.LibraryFile = cfg.TokenizerFile // any other existing file
	if l, err := NewLocal(cfg); err == nil {
		l.Close()
		t.Fatal("a second ONNX Runtime library was accepted in one process")
	}
}
