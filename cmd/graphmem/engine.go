package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/embed"
	"github.com/graphmem/graphmem/extract/llm"
	"github.com/graphmem/graphmem/extract/offline"
	"github.com/graphmem/graphmem/memory"
	"github.com/graphmem/graphmem/telemetry"
)

// newEngine picks the language engine: an OpenAI-compatible LLM when
// GRAPHMEM_LLM_BASE_URL is set, the offline rule-based engine otherwise
// (no network, no key).
func newEngine(cfg Config, obs llmObservers, log *slog.Logger) (memory.Engine, string, error) {
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
	llmCfg.Tracer, llmCfg.OnUsage = obs.tracer, obs.onUsage
	eng, err := llm.New(llmCfg, log)
	if err != nil {
		return nil, "", fmt.Errorf("LLM engine: %w", err)
	}
	log.Info("language engine: LLM", "llm", llmCfg)
	return eng, "llm/" + cfg.LLMModel, nil
}

// llmObservers are what every OpenAI-compatible client reports to: the
// tracer of its call spans and the usage counter of /metrics.
type llmObservers struct {
	tracer  trace.TracerProvider
	onUsage func(ctx context.Context, op string, u telemetry.Usage)
}

// vectorEmbedder is the sentence embedder behind vector search and the
// embedding lane, with the model its vectors belong to and their size.
type vectorEmbedder interface {
	memory.Embedder
	Dimensions() int
	Model() string
}

// openAIEmbedder adapts the OpenAI-compatible client to vectorEmbedder.
type openAIEmbedder struct {
	memory.Embedder
	model string
	dims  int
}

func (o openAIEmbedder) Dimensions() int { return o.dims }
func (o openAIEmbedder) Model() string   { return o.model }

// embedders are the two ends of vector search. stored embeds what is kept
// (the embedding lane, entity vectors); query embeds a search's question,
// once per search while the caller waits. They are one embedder except for
// the local one, whose query side runs the same model on ONNX Runtime's int8
// kernels (GRAPHMEM_EMBEDDING_QUERY_COMPUTE): the question's vector is
// compared with stored fp32-computed vectors of the same model, so both
// carry the same model name.
type embedders struct {
	stored, query vectorEmbedder
}

// newEmbedder builds the embedder GRAPHMEM_EMBEDDER names: the in-process
// local one (the default), an OpenAI-compatible server, or none (off: nil,
// and search is lexical and graph only). The local embedder's files missing
// is an error naming `make model`, never a silent fall-back: a user who did
// not ask for vectors off would otherwise lose recall without knowing. The
// returned close frees the local model.
func newEmbedder(cfg Config, engine memory.Engine, obs llmObservers, log *slog.Logger) (embedders, func(), error) {
	switch cfg.embedder() {
	case embedderOff:
		log.Warn("vector search off (GRAPHMEM_EMBEDDER=off): search uses full text, the graph and recency only")
		return embedders{}, func() {}, nil
	case embedderOpenAI:
		if eng, ok := engine.(*llm.Engine); ok && cfg.EmbedBaseURL == "" {
			log.Info("vector search on", "embedder", "openai", "embedding_model", cfg.EmbedModel, "dimensions", cfg.EmbedDims)
			e := openAIEmbedder{eng, cfg.EmbedModel, cfg.EmbedDims}
			return embedders{e, e}, func() {}, nil
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
		ec.Tracer, ec.OnUsage = obs.tracer, obs.onUsage
		emb, err := llm.New(ec, log)
		if err != nil {
			return embedders{}, nil, fmt.Errorf("embedder: %w", err)
		}
		log.Info("vector search on", "embedder", "openai", "embedding_model", cfg.EmbedModel, "dimensions", cfg.EmbedDims)
		e := openAIEmbedder{emb, cfg.EmbedModel, cfg.EmbedDims}
		return embedders{e, e}, func() {}, nil
	}
	lc := embed.DefaultLocalConfig(cfg.ModelDir)
	if cfg.ModelFile != "" {
		lc.ModelFile, lc.TokenizerFile = cfg.ModelFile, cfg.TokenizerFile
		lc.ModelName = strings.TrimSuffix(filepath.Base(cfg.ModelFile), filepath.Ext(cfg.ModelFile))
	}
	if cfg.ORTLibrary != "" {
		lc.LibraryFile = cfg.ORTLibrary
	}
	lc.Pooling, lc.Threads = cfg.EmbedPooling, cfg.EmbedThreads
	local, err := embed.NewLocal(lc)
	if err != nil {
		return embedders{}, nil, fmt.Errorf("local embedder: %w (run `make model` to install its files, or set GRAPHMEM_EMBEDDER=off for search without vectors)", err)
	}
	log.Info("vector search on", "embedder", "local", "model", local.Model(), "dimensions", local.Dimensions(), "threads", lc.Threads)
	out, closers := embedders{local, local}, []func(){func() { _ = local.Close() }}
	if cfg.QueryCompute == embed.ComputeInt8 {
		qc := lc
		qc.Compute, qc.ModelName = embed.ComputeInt8, local.Model()
		if q, err := embed.NewLocal(qc); err != nil {
			// Another model may store its weights otherwise: its questions
			// are embedded as its memories are, which costs CPU, not recall.
			log.Warn("query embedding stays in fp32: the model cannot run on the int8 kernels", "model", local.Model(), "error", err)
		} else {
			out.query = q
			closers = append(closers, func() { _ = q.Close() })
			log.Info("query embedding on the int8 kernels", "model", q.Model())
		}
	}
	return out, func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}, nil
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
