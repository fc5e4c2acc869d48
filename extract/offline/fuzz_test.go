package offline

import (
	"context"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
)

// FuzzExtract feeds arbitrary text to every offline method: they must never
// panic, and extraction must keep its invariants.
func FuzzExtract(f *testing.F) {
	for _, s := range loadKUTexts(f) {
		f.Add(s, "", "user")
	}
	for _, s := range []string{
		"My sister, Emma, lives in Rome.", "her name is", "my favourite is", "I have a dog named", "I'm",
		"I moved from to", "my budget for the is €", "The the the", "'s 's 's", "I I I I love love",
		"Our team meeting is on", "I sold the and bought a", "I'm not not not vegetarian anymore anymore",
		"(yesterday) (last week (", "I went to a \"", "“Quoted", "I – — - ; : , .", "😀 I love 🍣 sushi",
		"I live in \xff\xfe Berlin", "MY NAME IS SAM", "i'm a", "If", "Sam and I", "my my my sister sister",
		"I'd rather", "I'd rather order in", "I'd rather have the as a", "give me over", "give me the over any day",
		"I always book", "I avoid", "I steer clear of", "it is a real", "my favourite part of the of the is",
		"weirdly", "Hiking in the is my thing", "I've always found it", "suits me",
		"keep your answers", "keep the replies short and and", "I'd like , , explanations", "give me short", "I prefer answers of", "is how I want my", "Rare is how I", "Work is how I met my", "could you keep your answers", "can you reply in from now on",
	} {
		f.Add(s, "Caroline", "user")
		f.Add(s, "", "assistant")
	}
	o := New(Config{SummaryMaxChars: 500})
	f.Fuzz(func(t *testing.T, text, name, role string) {
		at := time.Date(2024, 2, 29, 23, 59, 0, 0, time.UTC)
		in := extract.Input{UserID: "u", UserName: "Sam", Events: []extract.Event{
			{ID: "1", Role: role, Name: name, Content: text, OccurredAt: at},
			{ID: "2", Role: "user", Content: text, OccurredAt: at.Add(time.Hour)},
		}, Summary: text}
		res, err := o.Extract(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, in, res)
		if _, err := o.Extract(context.Background(), extract.Input{Summary: text}); err != nil {
			t.Fatal(err)
		}
		for _, style := range []extract.SummaryStyle{extract.StyleSections, extract.StyleStructured, extract.StyleMem1} {
			s, err := o.Summarize(context.Background(), extract.SummaryRequest{Style: style, PreviousSummary: text, Events: in.Events, MaxEventLength: 64})
			if err != nil || s.Text == "" {
				t.Fatalf("summarize %s: %v %q", style, err, s.Text)
			}
		}
		if _, err := o.SelectEvents(context.Background(), extract.AttentionRequest{Events: in.Events, MaxKeep: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := o.Insights(context.Background(), extract.InsightInput{UserID: "u", Events: in.Events,
			Facts: []extract.InsightFact{{ID: "f", Subject: name, Predicate: role, Object: text, Sentence: text}}}); err != nil {
			t.Fatal(err)
		}
	})
}

func loadKUTexts(tb testing.TB) []string {
	var out []string
	t, ok := tb.(*testing.T)
	if !ok {
		return []string{"I moved to Berlin last month.", "I don't like sushi anymore."}
	}
	for _, s := range loadKU(t) {
		for _, sess := range s.Sessions {
			for _, e := range sess.Events {
				out = append(out, e.Content)
			}
		}
	}
	return out
}

// benchmarkCorpus is the LoCoMo sample when present, else the KU scenarios
// repeated to a similar size, so the benchmark always runs.
func benchmarkCorpus(b *testing.B) ([][]extract.Event, int) {
	b.Helper()
	var sessions [][]extract.Event
	if raw := loadLoCoMoForBench(b); raw != nil {
		for _, s := range raw {
			sessions = append(sessions, s.events)
		}
	} else {
		texts := []string{"I moved to Berlin last month.", "My sister Emma lives in Rome.", "I love sushi, it's my favourite food.",
			"We went camping last weekend with the kids, it was great!", "Thanks, that's so sweet of you!"}
		at := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
		for s := 0; s < 150; s++ {
			var evs []extract.Event
			for i := 0; i < 20; i++ {
				evs = append(evs, extract.Event{ID: "x" + string(rune('a'+i)), Role: "user", Name: []string{"Ann", "Bob"}[i%2],
					Content: texts[(s+i)%len(texts)], OccurredAt: at})
			}
			sessions = append(sessions, evs)
		}
	}
	turns := 0
	for _, s := range sessions {
		turns += len(s)
	}
	return sessions, turns
}

// loadLoCoMoForBench returns the LoCoMo sessions, or nil without the file.
func loadLoCoMoForBench(b *testing.B) []locomoSession { return loadLoCoMoNoSkip(b) }

// BenchmarkExtract runs every session of the corpus (LoCoMo: ~3k turns)
// through Extract. The reported turns/s is the figure the brief asks for.
func BenchmarkExtract(b *testing.B) {
	sessions, turns := benchmarkCorpus(b)
	o := New(Config{})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, evs := range sessions {
			if _, err := o.Extract(ctx, extract.Input{UserID: "bench", Events: evs}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(turns*b.N)/b.Elapsed().Seconds(), "turns/s")
	b.ReportMetric(float64(turns), "turns/op")
}

// BenchmarkExtractSummarize is the whole offline condensation path per
// session: a cumulative summary folded over the sessions, then extraction.
func BenchmarkExtractSummarize(b *testing.B) {
	sessions, turns := benchmarkCorpus(b)
	o := New(Config{})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		prev := ""
		for _, evs := range sessions {
			s, err := o.Summarize(ctx, extract.SummaryRequest{Style: extract.StyleSections, PreviousSummary: prev, Events: evs})
			if err != nil {
				b.Fatal(err)
			}
			prev = s.Text
			if _, err := o.Extract(ctx, extract.Input{UserID: "bench", Events: evs}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(turns*b.N)/b.Elapsed().Seconds(), "turns/s")
}

// A name that looks like a template placeholder must render as text.
func TestTemplateInjection(t *testing.T) {
	res := extractUser(t, "I have a dog named {?x O}. I love {S} and {O}.", defaultAt)
	for _, f := range res.Facts {
		if f.Sentence == "" {
			t.Errorf("empty sentence for %+v", f)
		}
	}
	if got := conditional("a{? named O}b", true, "{? evil O}"); got != "a named {? evil O}b" {
		t.Errorf("conditional = %q", got)
	}
}
