package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
)

// Model names the offline engine records as provenance.
const (
	ExtractModel = "offline/rules-v1"
	SummaryModel = "offline/extractive-v1"
)

// Config configures the offline engine. The zero value is usable.
type Config struct {
	// SummaryMaxChars bounds the length of a summary (the previous summary
	// folded in included). When a summary would be longer, the least
	// informative lines go first; the user's stated facts and preferences
	// are never dropped. <=0 means 6000.
	SummaryMaxChars int
	// TokenEncoding names the BPE encoding used for the token figures of a
	// extract.Summary ("cl100k_base" when empty, "o200k_base" supported).
	TokenEncoding string
}

// Engine is the built-in engine: deterministic rule-based extraction,
// extractive summaries, attention and insights, with no network and no key.
// It is what the service runs when no LLM is configured, and what tests and
// benchmarks exercise. An *Engine is safe for concurrent use.
//
// Conventions of its output (the graph relies on them):
//   - The session's user is one entity with Key "user", IsUser true, named
//     extract.Input.UserName or "User"; sentences call them by that name, or "The
//     user" when the name is unknown. A message with a speaker Name other
//     than the user's is that Person's statement; an assistant, tool or
//     system message without a Name never yields facts, only mentions.
//   - Preferences: "I like/love/enjoy X" is LIKES positive; "I don't like
//     X (anymore)", "I no longer like X", "I gave up X", "I switched from X"
//     are LIKES with negative polarity (a cessation of liking, which the
//     graph stores as the flip of LIKES); active aversion ("I hate X", "I
//     can't stand X") is DISLIKES positive. Strength grades the verb: love
//     0.9, like 0.7, eat/drink habitually 0.5.
//   - Cessation of any state ("I left Acme", "I'm not vegetarian anymore",
//     "I gave up Spanish", "I sold the Corolla") is the same predicate with
//     negative polarity, valid from the moment it was said (or the date the
//     speaker gave).
//   - Qualifiers name the slot of exclusive predicates: the family role
//     ("sister"), the category of a favourite ("programming language"), the
//     purpose of a budget ("trip"), the kind of thing preferred ("seat"),
//     the species of a pet ("dog").
//   - Relatives without a name are entities owned by the speaker ("the
//     user's brother": Owner "user", Name "brother"); their own facts are
//     theirs, never the speaker's ("My brother supports Chelsea" is the
//     brother's SUPPORTS).
//   - Hedged statements ("I think I might", "maybe") get confidence 0.45;
//     questions, conditionals and wishes produce no facts.
//   - ValidFrom is the date the text gives ("last month" → that month's
//     first day), else the event's time.
type Engine struct {
	cfg    Config
	rules  *recognizers
	tokens *nlp.TokenCounter
	// Caches for the summarizer's repeated work (see memo).
	slots  *memo[string]
	counts *memo[int]
}

// New returns an offline engine.
func New(cfg Config) *Engine {
	if cfg.SummaryMaxChars <= 0 {
		cfg.SummaryMaxChars = 6000
	}
	o := &Engine{cfg: cfg, rules: newRecognizers(), slots: newMemo[string](4096), counts: newMemo[int](256)}
	if tc, err := nlp.NewTokenCounter(cfg.TokenEncoding); err == nil {
		o.tokens = tc
	}
	return o
}

// Extract reads entities and facts from a window of conversation. It works
// on the raw events when there are any (so every fact cites its events) and
// falls back to the window's summary otherwise. It never fails on content;
// the only error is a cancelled context.
func (o *Engine) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return extract.Result{}, fmt.Errorf("offline extract: %w", err)
	}
	w := newWindow(in, o.rules)
	events := in.Events
	if len(events) == 0 && strings.TrimSpace(in.Summary) != "" {
		events = summaryEvents(in.Summary)
		for _, ev := range events {
			if ev.Name != "" {
				w.people[nlp.NormalizeName(ev.Name)] = true
			}
		}
	}
	for i, ev := range events {
		if i%64 == 63 {
			if err := ctx.Err(); err != nil {
				return extract.Result{}, fmt.Errorf("offline extract: %w", err)
			}
		}
		w.read(ev)
	}
	return w.out.result(), nil
}

// summaryEvents turns an extractive summary back into pseudo-events so the
// rules can read it when a window arrives without its raw events. Lines
// written as "[8 May 2023] Caroline: text" keep their speaker and date.
func summaryEvents(summary string) []extract.Event {
	var out []extract.Event
	for _, line := range strings.Split(summary, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*•"))
		if line == "" || strings.HasSuffix(line, ":") && !strings.Contains(line, " ") {
			continue
		}
		ev := extract.Event{Role: "user", Kind: "summary", Content: line}
		if strings.HasPrefix(line, "[") {
			if k := strings.IndexByte(line, ']'); k > 0 {
				if t, err := nlp.ParseTimestamp(line[1:k]); err == nil {
					ev.OccurredAt = t
				}
				line = strings.TrimSpace(line[k+1:])
				ev.Content = line
			}
		}
		if k := strings.Index(line, ": "); k > 0 && k < 40 && !strings.Contains(line[:k], " ") {
			who := line[:k]
			switch strings.ToLower(who) {
			case "assistant", "tool", "system":
				ev.Role = strings.ToLower(who)
			case "user":
			default:
				ev.Name = who
			}
			ev.Content = line[k+2:]
		}
		out = append(out, ev)
	}
	return out
}
