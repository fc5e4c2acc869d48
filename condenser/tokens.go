package condenser

import "unicode/utf8"

// TokenCounter counts the tokens of a text. The real implementation
// (tiktoken) lives elsewhere; tests use fakes.
type TokenCounter interface {
	Count(text string) int
}

// CharCounter is a tokenizer-free estimate: one token per CharsPerToken
// characters, rounded up (4 when CharsPerToken <= 0). It is good enough for
// triggers when no real tokenizer is wired.
type CharCounter struct{ CharsPerToken int }

// Count implements TokenCounter.
func (c CharCounter) Count(text string) int {
	per := c.CharsPerToken
	if per <= 0 {
		per = 4
	}
	n := utf8.RuneCountInString(text)
	return (n + per - 1) / per
}

// EventTokens returns the event's token count: its Tokens when known (> 0),
// the counter's count of its content otherwise, 0 without a counter.
func EventTokens(e Event, counter TokenCounter) int {
	if e.Tokens > 0 {
		return e.Tokens
	}
	if counter == nil {
		return 0
	}
	return counter.Count(e.Content)
}

func countTokens(events []Event, counter TokenCounter) int {
	total := 0
	for _, e := range events {
		total += EventTokens(e, counter)
	}
	return total
}

// tokenSuffix is the SDK's TOKENS rule: how many events at the end of
// events[keepFirst:] can stay while at least reduction tokens go. The
// shortest prefix whose tokens exceed reduction is forgotten; the rest is
// the suffix. Token counts are additive here, so a running sum finds the
// same prefix the SDK's binary search finds.
func tokenSuffix(events []Event, keepFirst, reduction int, counter TokenCounter) int {
	if keepFirst >= len(events) {
		return 0
	}
	rest := events[keepFirst:]
	if reduction <= 0 {
		return len(rest)
	}
	sum := 0
	for i, e := range rest {
		sum += EventTokens(e, counter)
		if sum > reduction {
			return len(rest) - (i + 1)
		}
	}
	return 0
}
