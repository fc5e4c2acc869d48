package nlp

import (
	"errors"
	"fmt"

	"github.com/tiktoken-go/tokenizer"
)

// DefaultEncoding is the BPE encoding used when none is named: cl100k_base
// (GPT-4 and GPT-3.5 family). Budgets are estimates for other model
// families anyway; a shared default keeps counts comparable across packages.
const DefaultEncoding = "cl100k_base"

// ErrUnknownEncoding is returned for an encoding tiktoken does not know.
var ErrUnknownEncoding = errors.New("unknown token encoding")

// TokenCounter counts tokens with a real BPE tokenizer. The BPE tables are
// compiled into the binary by tiktoken-go/tokenizer, so nothing is fetched
// at run time (air-gapped hosts included). A TokenCounter is safe for
// concurrent use: the codec is read-only after construction.
type TokenCounter struct {
	codec    tokenizer.Codec
	encoding string
}

// NewTokenCounter returns a counter for encoding ("cl100k_base",
// "o200k_base", "p50k_base", "r50k_base"); "" means DefaultEncoding.
func NewTokenCounter(encoding string) (*TokenCounter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	codec, err := tokenizer.Get(tokenizer.Encoding(encoding))
	if err != nil {
		return nil, fmt.Errorf("token counter %q: %w", encoding, ErrUnknownEncoding)
	}
	// Replace invalid UTF-8 instead of failing: a count must always be
	// available, even for a tool output that was cut mid-character.
	codec.SetErrorMode(tokenizer.ErrorModeReplace)
	return &TokenCounter{codec: codec, encoding: encoding}, nil
}

// Encoding names the counter's encoding.
func (c *TokenCounter) Encoding() string { return c.encoding }

// Count returns the number of tokens of s. Should the tokenizer ever fail,
// it falls back to EstimateTokens rather than returning 0, because callers
// use counts to stay under budgets.
func (c *TokenCounter) Count(s string) int {
	if s == "" {
		return 0
	}
	n, err := c.codec.Count(s)
	if err != nil {
		return EstimateTokens(s)
	}
	return n
}

// EstimateTokens is a fast approximation (about four bytes per token for
// English) for hot paths where an exact count is not worth the cost.
func EstimateTokens(s string) int {
	if s == "" {
		return 0
	}
	return (len(s) + 3) / 4
}
