package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/telemetry"
)

// Embed returns one vector per text through the embeddings API, in input
// order. Texts are sent in batches of EmbeddingBatchSize, each one logical
// call with its own retries. Every vector is checked: one per input, none
// empty, all of EmbeddingDimensions (or, when that is 0, of one size), so a
// model swap that changes the size fails here rather than in the vector
// index. Empty texts are rejected up front because OpenAI refuses them with
// a 400 for the whole batch. Without an EmbeddingModel it returns an error
// wrapping errors.ErrUnsupported.
func (l *Engine) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if l.cfg.EmbeddingModel == "" {
		return nil, fmt.Errorf("embed: no embedding model configured: %w", errors.ErrUnsupported)
	}
	if len(texts) == 0 {
		return nil, nil
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("embed: %w: text %d is empty", extract.ErrInvalidOutput, i)
		}
	}
	out := make([][]float32, 0, len(texts))
	dims := l.cfg.EmbeddingDimensions
	for start := 0; start < len(texts); start += l.cfg.EmbeddingBatchSize {
		batch := texts[start:min(start+l.cfg.EmbeddingBatchSize, len(texts))]
		vecs, err := l.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		for i, v := range vecs {
			if dims == 0 {
				dims = len(v)
			}
			if len(v) != dims {
				return nil, fmt.Errorf("embed: %w: vector %d has %d dimensions, want %d", extract.ErrInvalidOutput, start+i, len(v), dims)
			}
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// embedBatch sends one embeddings request and puts the vectors back in
// input order (the API returns an index per vector; servers are not
// obliged to keep the order).
func (l *Engine) embedBatch(ctx context.Context, batch []string) (_ [][]float32, err error) {
	l.embedCalls.Add(1)
	var resp openai.EmbeddingResponse
	ctx, done := l.observeCall(ctx, "embed", "embeddings")
	defer func() {
		done(telemetry.Usage{EmbedCalls: 1, PromptTokens: int64(resp.Usage.PromptTokens)}, string(resp.Model), err)
	}()
	req := openai.EmbeddingRequest{Input: batch, Model: openai.EmbeddingModel(l.cfg.EmbeddingModel)}
	if l.cfg.RequestEmbeddingDimensions {
		req.Dimensions = l.cfg.EmbeddingDimensions
	}
	err = l.retry(ctx, "embed", func(actx context.Context) error {
		r, err := l.client.CreateEmbeddings(actx, req)
		if err != nil {
			return err
		}
		resp = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	l.promptTokens.Add(int64(resp.Usage.PromptTokens))
	if len(resp.Data) != len(batch) {
		return nil, fmt.Errorf("embed: %w: %d vectors for %d texts", extract.ErrInvalidOutput, len(resp.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(batch) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("embed: %w: bad or repeated vector index %d", extract.ErrInvalidOutput, d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embed: %w: empty vector at index %d", extract.ErrInvalidOutput, d.Index)
		}
		vecs[d.Index] = d.Embedding
	}
	return vecs, nil
}
