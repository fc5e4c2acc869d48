//go:build cgo

package embed

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The benchmarks behind docs/embedding.md. Run them with the model installed:
//
//	make model && go test ./embed -run '^$' -bench . -benchtime 400x
//
// Besides ns/op (wall time) they report cpu-ms/op, the process's CPU time
// per call (what the query-embedding target counts), and texts/s.

const (
	benchQuestion = "Which city does the user live in these days?"                                                                                // 10 word pieces + [CLS], [SEP]
	benchTurn     = "The boxes are finally unpacked in our new flat in Marseille, and the kids already love the bakery downstairs on the corner." // 26 word pieces + [CLS], [SEP]
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs f b.N times and reports CPU per call and texts per second.
func measure(b *testing.B, textsPerCall int, f func()) {
	b.Helper()
	f() // warm-up: the first run plans the graph and allocates
	b.ResetTimer()
	c0, w0 := cpuTime(), time.Now()
	for range b.N {
		f()
	}
	cpu, wall := cpuTime()-c0, time.Since(w0)
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(b.N*textsPerCall)/wall.Seconds(), "texts/s")
}

func BenchmarkEmbedQuestion(b *testing.B) {
	for _, v := range []struct {
		threads int
		compute string
	}{{1, ComputeFP32}, {2, ComputeFP32}, {1, ComputeInt8}} {
		b.Run(fmt.Sprintf("threads=%d/compute=%s", v.threads, v.compute), func(b *testing.B) {
			l := newTestLocal(b, func(c *LocalConfig) { c.Threads, c.Compute = v.threads, v.compute })
			if n := len(l.Tokenizer().Encode(benchQuestion, 0)); n != 12 {
				b.Fatalf("question has %d ids, want 12", n)
			}
			measure(b, 1, func() { mustEmbed(b, l, []string{benchQuestion}) })
		})
	}
}

func BenchmarkEmbedTurn(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			l := newTestLocal(b, func(c *LocalConfig) { c.Threads = threads })
			if n := len(l.Tokenizer().Encode(benchTurn, 0)); n != 28 {
				b.Fatalf("turn has %d ids, want 28", n)
			}
			measure(b, 1, func() { mustEmbed(b, l, []string{benchTurn}) })
		})
	}
}

// BenchmarkEmbedTurnsBatched embeds conversational turns (LoCoMo's, read in
// place from ../shared: median 29 word pieces) the way the embedding lane
// will: a call with many turns, batched by length. callers>1 runs that many
// calls at once on one embedder, each on its own thread.
func BenchmarkEmbedTurnsBatched(b *testing.B) {
	turns := benchTurns(b, 256)
	for _, c := range []struct{ threads, callers, batch int }{
		{1, 1, 1}, {1, 1, 8}, {1, 1, 32}, {1, 1, 64}, {2, 1, 32}, {1, 2, 32},
	} {
		b.Run(fmt.Sprintf("threads=%d/callers=%d/batch=%d", c.threads, c.callers, c.batch), func(b *testing.B) {
			l := newTestLocal(b, func(cfg *LocalConfig) { cfg.Threads, cfg.BatchSize = c.threads, c.batch })
			measure(b, len(turns), func() {
				var wg sync.WaitGroup
				per := len(turns) / c.callers
				for k := range c.callers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						mustEmbed(b, l, turns[k*per:(k+1)*per])
					}()
				}
				wg.Wait()
			})
		})
	}
}

// BenchmarkTokenizeTurn is the Go tokenizer's share of a turn's cost.
func BenchmarkTokenizeTurn(b *testing.B) {
	l := newTestLocal(b, nil)
	tok := l.Tokenizer()
	b.ReportAllocs()
	for b.Loop() {
		tok.Encode(benchTurn, DefaultMaxTokens)
	}
}

func mustEmbed(b *testing.B, l *Local, texts []string) {
	if _, err := l.Embed(context.Background(), texts); err != nil {
		b.Error(err)
	}
}

// benchTurns returns n LoCoMo turns, in conversation order.
func benchTurns(b *testing.B, n int) []string {
	b.Helper()
	idx := datasetTexts(b, sharedDir(b))
	var turns []string
	for _, conv := range []string{"conv-26", "conv-41", "conv-43"} {
		for s := 1; s <= 40 && len(turns) < n; s++ {
			for t := 1; t <= 60 && len(turns) < n; t++ {
				if text, ok := idx[fmt.Sprintf("locomo-turn:%s:D%d:%d", conv, s, t)]; ok {
					turns = append(turns, text)
				}
			}
		}
	}
	if len(turns) < n {
		b.Fatalf("found %d LoCoMo turns, want %d", len(turns), n)
	}
	return turns
}

// BenchmarkEmbedLaneClaim embeds what one claim of the embedding lane holds
// after sessions close: 30 turns and the 2 summaries written beside them
// (a summary fills the 128 word pieces). The summaries must not make the
// turns pay for their length.
func BenchmarkEmbedLaneClaim(b *testing.B) {
	texts := benchTurns(b, 30)
	summary := strings.Repeat(benchTurn+" ", 8)
	texts = append(texts, summary, summary)
	l := newTestLocal(b, nil)
	measure(b, len(texts), func() { mustEmbed(b, l, texts) })
}
