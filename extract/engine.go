package extract

import "context"

// The method sets both engines satisfy (extract/offline and extract/llm).
// Callers declare what they use on their own side (house rule 2); these
// name the shared contract once, so each engine's tests can assert it and
// a signature cannot drift in one engine only.

// Summarizer writes the summary of a condensation window.
type Summarizer interface {
	Summarize(ctx context.Context, req SummaryRequest) (Summary, error)
}

// EventSelector picks the events worth keeping (LLMAttention).
type EventSelector interface {
	SelectEvents(ctx context.Context, req AttentionRequest) ([]string, error)
}

// Extractor reads entities and facts from a window of conversation.
type Extractor interface {
	Extract(ctx context.Context, in Input) (Result, error)
}

// Insighter derives higher-level insights from many events and facts.
type Insighter interface {
	Insights(ctx context.Context, in InsightInput) ([]Insight, error)
}

// Engine is every language step the service runs: what the offline and the
// LLM engine each provide in full.
type Engine interface {
	Summarizer
	EventSelector
	Extractor
	Insighter
}
