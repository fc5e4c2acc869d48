package offline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
)

func summarize(t *testing.T, o *Engine, req extract.SummaryRequest) extract.Summary {
	t.Helper()
	s, err := o.Summarize(context.Background(), req)
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	if s.Model != SummaryModel || s.PromptTokens <= 0 || s.CompletionTokens <= 0 {
		t.Fatalf("summary figures: model %q, tokens %d/%d", s.Model, s.PromptTokens, s.CompletionTokens)
	}
	return s
}

var may8 = time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)

func locomoLikeWindow() []extract.Event {
	return []extract.Event{
		{ID: "D1:1", Role: "user", Name: "Caroline", Content: "Hey Mel! Good to see you! How have you been?", OccurredAt: may8},
		{ID: "D1:2", Role: "user", Name: "Melanie", Content: "Hey Caroline! I'm swamped with the kids & work. What's up with you?", OccurredAt: may8.Add(time.Second)},
		{ID: "D1:3", Role: "user", Name: "Caroline", Content: "I went to a LGBTQ support group yesterday and it was so powerful.", OccurredAt: may8.Add(2 * time.Second)},
		{ID: "D1:4", Role: "user", Name: "Melanie", Content: "Wow, that's cool, Caroline!", OccurredAt: may8.Add(3 * time.Second)},
		{ID: "D1:5", Role: "user", Name: "Melanie", Content: "Yeah, I painted that lake sunrise last year! It's special to me.", OccurredAt: may8.Add(4 * time.Second)},
	}
}

func TestSummaryKeepsWhoWhatWhen(t *testing.T) {
	o := New(Config{})
	s := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, Events: locomoLikeWindow()})
	for _, want := range []string{
		"USER_CONTEXT:", "COMPLETED:", "PENDING:", "CURRENT_STATE:",
		"[8 May 2023] Caroline: I went to a LGBTQ support group yesterday (7 May 2023)",
		"[8 May 2023] Melanie: Yeah, I painted that lake sunrise last year (2022)!",
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("summary lacks %q:\n%s", want, s.Text)
		}
	}
	// Pleasantries are not kept.
	if strings.Contains(s.Text, "Wow, that's cool") {
		t.Errorf("summary kept chit-chat:\n%s", s.Text)
	}
}

func TestSummaryFoldsPreviousAndSupersedesContext(t *testing.T) {
	o := New(Config{})
	first := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, Events: []extract.Event{
		{ID: "1", Role: "user", Content: "Hi! I live in Paris and work as a nurse.", OccurredAt: time.Date(2024, 2, 3, 10, 0, 0, 0, time.UTC)},
		{ID: "2", Role: "user", Content: "I love sushi, it's my favourite food.", OccurredAt: time.Date(2024, 2, 3, 10, 1, 0, 0, time.UTC)},
	}})
	second := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, PreviousSummary: first.Text, Events: []extract.Event{
		{ID: "3", Role: "user", Content: "Big news: I moved to Berlin last month.", OccurredAt: time.Date(2024, 9, 14, 18, 30, 0, 0, time.UTC)},
		{ID: "4", Role: "user", Content: "Actually I don't like sushi anymore.", OccurredAt: time.Date(2024, 9, 14, 18, 31, 0, 0, time.UTC)},
	}})
	ctx := section(second.Text, "USER_CONTEXT:", "COMPLETED:")
	for _, want := range []string{"lives in Berlin", "works as a nurse", "doesn't like sushi anymore"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("context lacks %q:\n%s", want, ctx)
		}
	}
	for _, stale := range []string{"lives in Paris", "loves sushi"} {
		if strings.Contains(ctx, stale) {
			t.Errorf("context still has superseded %q:\n%s", stale, ctx)
		}
	}
	log := section(second.Text, "COMPLETED:", "PENDING:")
	for _, want := range []string{"I live in Paris", "I moved to Berlin last month (August 2024)"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q (cumulative):\n%s", want, log)
		}
	}
	// Folding the same window again adds nothing and annotates nothing twice.
	third := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, PreviousSummary: second.Text, Events: nil})
	if strings.Count(third.Text, "I moved to Berlin") != 1 || strings.Contains(third.Text, "(August 2024) (") {
		t.Errorf("refold duplicated or re-annotated:\n%s", third.Text)
	}
}

func section(text, from, to string) string {
	i := strings.Index(text, from)
	if i < 0 {
		return ""
	}
	rest := text[i+len(from):]
	if j := strings.Index(rest, to); j >= 0 {
		return rest[:j]
	}
	return rest
}

func TestSummaryIsBoundedAndKeepsStatedFacts(t *testing.T) {
	o := New(Config{SummaryMaxChars: 1200})
	var evs []extract.Event
	at := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	evs = append(evs, extract.Event{ID: "f1", Role: "user", Content: "I'm allergic to peanuts.", OccurredAt: at})
	for i := 0; i < 60; i++ {
		evs = append(evs, extract.Event{ID: "c" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Role: "user",
			Content: "Yesterday I walked around the old town with Maria and we talked about the weather for hours.", OccurredAt: at.Add(time.Duration(i) * time.Minute)})
	}
	evs = append(evs, extract.Event{ID: "f2", Role: "user", Content: "My favourite drink is green tea.", OccurredAt: at.Add(2 * time.Hour)})
	s := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, Events: evs})
	if len(s.Text) > 1200+200 {
		t.Errorf("summary is %d chars, budget 1200:\n%s", len(s.Text), s.Text)
	}
	for _, want := range []string{"allergic to peanuts", "favourite drink is green tea"} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("bounded summary dropped a stated fact %q:\n%s", want, s.Text)
		}
	}
}

func TestSummaryIsDeterministic(t *testing.T) {
	o := New(Config{})
	req := extract.SummaryRequest{Style: extract.StyleSections, Events: locomoLikeWindow(), PreviousSummary: "USER_CONTEXT:\n- [1 May 2023] Caroline is a transgender woman"}
	a := summarize(t, o, req)
	for i := 0; i < 5; i++ {
		if b := summarize(t, o, req); b.Text != a.Text {
			t.Fatalf("run %d differs:\n%s\n---\n%s", i, a.Text, b.Text)
		}
	}
}

func TestSummaryStyles(t *testing.T) {
	o := New(Config{})
	evs := locomoLikeWindow()
	structured := summarize(t, o, extract.SummaryRequest{Style: extract.StyleStructured, Events: evs})
	for _, h := range []string{"## User Context", "## Completed Tasks", "## Pending Tasks", "## Current State"} {
		if !strings.Contains(structured.Text, h) {
			t.Errorf("structured lacks %q:\n%s", h, structured.Text)
		}
	}
	for _, f := range []string{"user_context", "completed_tasks", "pending_tasks", "current_state"} {
		if _, ok := structured.Fields[f]; !ok {
			t.Errorf("structured Fields lacks %q: %v", f, structured.Fields)
		}
	}
	if !strings.Contains(structured.Fields["completed_tasks"], "yesterday (7 May 2023)") {
		t.Errorf("completed_tasks = %q", structured.Fields["completed_tasks"])
	}
	mem1 := summarize(t, o, extract.SummaryRequest{Style: extract.StyleMem1, Events: evs})
	if !strings.HasPrefix(mem1.Text, "<think>") || !strings.HasSuffix(mem1.Text, "</think>") || strings.Count(mem1.Text, "<think>") != 1 {
		t.Errorf("mem1 is not one think block:\n%s", mem1.Text)
	}
	// Each style folds a previous summary of any style.
	for _, prev := range []string{structured.Text, mem1.Text} {
		s := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, PreviousSummary: prev, Events: []extract.Event{
			{ID: "x", Role: "user", Name: "Melanie", Content: "I signed up for a pottery class yesterday.", OccurredAt: may8.AddDate(0, 2, 0)}}})
		if !strings.Contains(s.Text, "LGBTQ support group yesterday (7 May 2023)") || !strings.Contains(s.Text, "pottery class yesterday (7 July 2023)") {
			t.Errorf("fold of another style lost lines:\n%s", s.Text)
		}
	}
}

func TestSummaryToolsAndTruncation(t *testing.T) {
	o := New(Config{})
	big := strings.Repeat("row 42: ok\n", 500)
	s := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, MaxEventLength: 2000, Events: []extract.Event{
		{ID: "1", Role: "user", Content: "Please check the weather in Oslo for my trip next week.", OccurredAt: may8},
		{ID: "2", Role: "assistant", Kind: "tool_call", Content: "weather.get(city=\"Oslo\", days=7)", OccurredAt: may8},
		{ID: "3", Role: "tool", Kind: "tool_result", Content: big, OccurredAt: may8},
	}})
	if !strings.Contains(s.Text, "Tool call: weather.get(city=\"Oslo\", days=7)") {
		t.Errorf("tool call not summarized:\n%s", s.Text)
	}
	line := ""
	for _, l := range strings.Split(s.Text, "\n") {
		if strings.Contains(l, "Tool result") {
			line = l
		}
	}
	if line == "" || len(line) > 260 || !strings.Contains(line, "chars)") {
		t.Errorf("tool result line %q", line)
	}
	if !strings.Contains(s.Text, "next week (the week after 8 May 2023)") {
		t.Errorf("user request date not resolved:\n%s", s.Text)
	}
}

func TestTruncateMiddle(t *testing.T) {
	s := strings.Repeat("é", 100) // 200 bytes
	out := truncateMiddle(s, 50)
	if !strings.Contains(out, "truncated due to length") || len(out) > 50+60 {
		t.Errorf("truncateMiddle = %q", out)
	}
	if truncateMiddle("short", 0) != "short" || truncateMiddle("short", 100) != "short" {
		t.Error("no-op truncation changed text")
	}
}

// TestSummaryRespectsMaxChars: a condensation's bound holds even
// when the speakers' stated facts alone exceed it (the oldest go first),
// and without a bound those facts are all kept.
func TestSummaryRespectsMaxChars(t *testing.T) {
	o := New(Config{})
	var events []extract.Event
	for i, city := range []string{"Paris", "Rome", "Oslo", "Lima", "Kyoto", "Cairo", "Quito", "Perth"} {
		events = append(events, extract.Event{ID: fmt.Sprintf("e%d", i), Role: "user", Name: "Ana", OccurredAt: may8.Add(time.Duration(i) * time.Minute),
			Content: fmt.Sprintf("My friend number %d lives in %s and works as a teacher at the big school there. I love %s food.", i, city, city)})
	}
	free := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, Events: events})
	const limit = 250
	if len(free.Text) <= limit {
		t.Fatalf("the window is too small to test a bound (%d chars)", len(free.Text))
	}
	bounded := summarize(t, o, extract.SummaryRequest{Style: extract.StyleSections, Events: events, MaxChars: limit})
	if len(bounded.Text) > limit {
		t.Fatalf("summary has %d chars, bound %d:\n%s", len(bounded.Text), limit, bounded.Text)
	}
	if !strings.Contains(bounded.Text, "Perth") || strings.Contains(bounded.Text, "Paris") {
		t.Errorf("the newest facts should survive the bound, the oldest go:\n%s", bounded.Text)
	}
}
