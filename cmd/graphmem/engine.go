package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/extract/llm"
	"github.com/graphmem/graphmem/extract/offline"
	"github.com/graphmem/graphmem/memory"
)

// newEngine picks the language engine: an OpenAI-compatible LLM when
// GRAPHMEM_LLM_BASE_URL is set, the offline rule-based engine otherwise
// (no network, no key).
func newEngine(cfg Config, log *slog.Logger) (memory.Engine, string, error) {
	if cfg.LLMBaseURL == "" {
		log.Info("language engine: offline (rule-based extraction, extractive summaries); set GRAPHMEM_LLM_BASE_URL to use an LLM")
		return offline.New(offline.Config{}), "offline", nil
	}
	llmCfg := llm.DefaultConfig()
	llmCfg.BaseURL = cfg.LLMBaseURL
	llmCfg.APIKey = cfg.llmAPIKey()
	llmCfg.Model = cfg.LLMModel
	llmCfg.Timeout = cfg.LLMTimeout
	llmCfg.UseJSONSchema = cfg.LLMJSONSchema
	llmCfg.EmbeddingModel = cfg.EmbedModel
	llmCfg.EmbeddingDimensions = cfg.EmbedDims
	eng, err := llm.New(llmCfg, log)
	if err != nil {
		return nil, "", fmt.Errorf("LLM engine: %w", err)
	}
	log.Info("language engine: LLM", "llm", llmCfg)
	return eng, "llm/" + cfg.LLMModel, nil
}

// newEmbedder returns the embedder when GRAPHMEM_EMBEDDING_MODEL is set: the
// LLM engine itself when it has the model, otherwise a client of the
// embedding server (which may be used with the offline engine).
func newEmbedder(cfg Config, engine memory.Engine, log *slog.Logger) (memory.Embedder, error) {
	if cfg.EmbedModel == "" {
		return nil, nil
	}
	if eng, ok := engine.(*llm.Engine); ok && cfg.EmbedBaseURL == "" {
		return eng, nil
	}
	ec := llm.DefaultConfig()
	ec.BaseURL = cfg.EmbedBaseURL
	if ec.BaseURL == "" {
		ec.BaseURL = cfg.LLMBaseURL
	}
	ec.APIKey = cfg.llmAPIKey()
	ec.Model = cfg.LLMModel // required by the client; unused for embeddings
	ec.Timeout = cfg.LLMTimeout
	ec.EmbeddingModel = cfg.EmbedModel
	ec.EmbeddingDimensions = cfg.EmbedDims
	emb, err := llm.New(ec, log)
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	log.Info("vector search on", "embedding_model", cfg.EmbedModel, "dimensions", cfg.EmbedDims)
	return emb, nil
}

// loadProfiles returns the built-in condenser profiles plus those of the
// optional JSON file ({"name": {config}, ...}); a file profile may replace
// a built-in one.
func loadProfiles(path string) (map[string]condenser.Config, error) {
	profiles := condenser.Profiles()
	if path == "" {
		return profiles, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var extra map[string]condenser.Config
	if err := json.Unmarshal(raw, &extra); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		if err := extra[name].Validate(); err != nil {
			return nil, fmt.Errorf("%s: profile %q: %w", path, name, err)
		}
		profiles[name] = extra[name]
	}
	return profiles, nil
}
