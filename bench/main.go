package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tiktoken-go/tokenizer"
)

type config struct {
	Addr, Out, LoCoMo, KU, KUOwn, KUChats, KUBlind, Paraphrase, Commit string
	GraphmemPID, Neo4jPID                                              int
	Servers, ServerPIDs                                                namedValues
	servers                                                            []serverSpec
	Phases                                                             string
	KUSets                                                             string
	LoCoMoConvs                                                        int
	LoCoMoNoScore                                                      bool
	ParaUsers, ParaMinDistractors                                      int
	ParaDistractor                                                     string
	Load                                                               loadConfig
	SingleLoad                                                         time.Duration
	EmbedWait                                                          time.Duration
	BudgetLimit, EvalWorkers                                           int
	BatchEvents, Batch                                                 int
	BatchClients                                                       int
	SingleEvents, SingleClients                                        int
	Scale                                                              bool
	ScaleCfg                                                           scaleConfig

	// LoCoMoReuse scores the conversations the server already holds from an
	// earlier run, without ingesting them again (a quick recall check).
	LoCoMoReuse bool
	// ParaReuse likewise scores the paraphrase users the server already
	// holds (same tenant, same -para-users).
	ParaReuse bool
}

// loadConfig is the closed-loop search load.
type loadConfig struct {
	Clients          int
	Warmup, Duration time.Duration
}

// allPhases are the phases -phases accepts, in the order they run.
//
// Latency runs before paraphrase so it searches the same database as it did
// before the paraphrase phase existed (LoCoMo and the knowledge updates):
// the servers share Neo4j's full-text index, whose size the paraphrase
// phase's ~20,000 turns would change.
var allPhases = []string{"locomo", "ku", "latency", "paraphrase", "ingest"}

func parseFlags(args []string, getenv func(string) string) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", "http://127.0.0.1:8080", "graphmem base URL (one server; -server replaces it)")
	fs.Var(&c.Servers, "server", "name=URL of a graphmem server to measure (repeatable, in report order, e.g. on=http://127.0.0.1:8081); its API key is read from BENCH_API_KEY_<NAME>")
	fs.Var(&c.ServerPIDs, "server-pid", "name=PID of a -server's process (CPU and peak RSS; repeatable)")
	fs.StringVar(&c.Out, "out", "bench/out", "output folder for results.json and results.md")
	fs.StringVar(&c.LoCoMo, "locomo", "../shared/datasets/locomo/locomo-visible.json", "LoCoMo file (read in place, never copied)")
	fs.StringVar(&c.KU, "ku", "../shared/datasets/knowledge-update/visible.jsonl", "visible knowledge-update scenarios")
	fs.StringVar(&c.KUOwn, "ku-own", "bench/data/ku-own.jsonl", "the project's own knowledge-update scenarios, split into dev and held-out (empty: skip)")
	fs.StringVar(&c.KUChats, "ku-chats", "bench/data/ku-chats-a.jsonl+bench/data/ku-chats-c.jsonl+bench/data/ku-chats-e.jsonl,bench/data/ku-chats-b.jsonl+bench/data/ku-chats-d.jsonl+bench/data/ku-chats-f.jsonl",
		"the assistant-chat knowledge-update scenarios: the dev files, then the held-out files, each list joined by + (empty: skip)")
	fs.StringVar(&c.KUBlind, "ku-blind", "bench/data/ku-chats-g.jsonl+bench/data/ku-chats-h.jsonl+bench/data/ku-chats-i.jsonl",
		"the blind assistant-chat scenarios, files joined by +, each split into dev and held-out by dataset.Half (empty: skip)")
	fs.StringVar(&c.KUSets, "ku-sets", strings.Join(kuSetNames, ","), "knowledge-update sets to run")
	fs.StringVar(&c.Paraphrase, "paraphrase", "bench/data/paraphrase.jsonl", "paraphrase questions (bench/data/README.md)")
	fs.StringVar(&c.ParaDistractor, "para-distractor", "", "LoCoMo sample_id whose turns hide each paraphrase user's (default: the first with -para-min-distractors turns)")
	fs.IntVar(&c.ParaMinDistractors, "para-min-distractors", 400, "distractor turns each paraphrase user needs at least")
	fs.IntVar(&c.ParaUsers, "para-users", 0, "paraphrase users to run (0: all)")
	fs.IntVar(&c.LoCoMoConvs, "locomo-convs", 0, "LoCoMo conversations to ingest and score (0: all)")
	fs.BoolVar(&c.ParaReuse, "para-reuse", false, "score the paraphrase users the server already holds (an earlier run ingested them, same tenant) without ingesting them again")
	fs.BoolVar(&c.LoCoMoReuse, "locomo-reuse", false, "score the LoCoMo conversations the server already holds (an earlier run ingested them, same tenant) without ingesting them again")
	fs.BoolVar(&c.LoCoMoNoScore, "locomo-ingest-only", false, "LoCoMo phase: ingest and report the pipeline's time and CPU, score nothing (pipeline A/B runs)")
	fs.StringVar(&c.Commit, "commit", "", "graphmem commit, for the report")
	fs.IntVar(&c.GraphmemPID, "graphmem-pid", 0, "pid of graphmem serve (with -addr)")
	fs.IntVar(&c.Neo4jPID, "neo4j-pid", 0, "pid of Neo4j (CPU and peak RSS)")
	fs.StringVar(&c.Phases, "phases", strings.Join(allPhases, ","), "phases to run (comma-separated)")
	fs.IntVar(&c.Load.Clients, "clients", 8, "concurrent search clients")
	fs.DurationVar(&c.Load.Warmup, "warmup", 5*time.Second, "search load warm-up")
	fs.DurationVar(&c.Load.Duration, "duration", 20*time.Second, "search load measurement")
	fs.DurationVar(&c.SingleLoad, "single-duration", 10*time.Second, "single-client search measurement (0: skip)")
	fs.DurationVar(&c.EmbedWait, "embed-wait", 10*time.Minute, "longest wait for the embedding backlog to empty after an ingest")
	fs.IntVar(&c.BudgetLimit, "budget-limit", 100, "results asked for (and BM25 turns kept) for recall at a token budget")
	fs.IntVar(&c.EvalWorkers, "eval-workers", 4, "concurrent searches while scoring LoCoMo")
	fs.IntVar(&c.BatchEvents, "batch-events", 20000, "events of the batched ingest measurement")
	fs.IntVar(&c.Batch, "batch", 500, "events per request, batched ingest")
	fs.IntVar(&c.BatchClients, "batch-clients", 2, "concurrent clients, batched ingest")
	fs.IntVar(&c.SingleEvents, "single-events", 2000, "events of the one-event-per-request measurement")
	fs.IntVar(&c.SingleClients, "single-clients", 4, "concurrent clients, one event per request")
	fs.BoolVar(&c.Scale, "scale", false, "add the 1M raw event scale run (on the first server)")
	fs.IntVar(&c.ScaleCfg.Events, "scale-events", 1_000_000, "scale run: raw events")
	fs.IntVar(&c.ScaleCfg.Users, "scale-users", 400, "scale run: users")
	fs.IntVar(&c.ScaleCfg.SessionSize, "scale-session", 250, "scale run: events per session (one request each)")
	fs.IntVar(&c.ScaleCfg.Clients, "scale-clients", 2, "scale run: concurrent ingest clients")
	fs.BoolVar(&c.ScaleCfg.Close, "scale-close", false, "scale run: close every session and wait for extraction (hours)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.Load.Clients < 1 || c.Batch < 1 || c.BatchClients < 1 || c.SingleClients < 1 || c.ScaleCfg.Users < 1 ||
		c.ScaleCfg.SessionSize < 1 || c.ScaleCfg.Clients < 1 || c.EvalWorkers < 1 {
		return c, errors.New("counts must be positive")
	}
	if c.LoCoMoConvs < 0 || c.ParaUsers < 0 || c.ParaMinDistractors < 0 {
		return c, errors.New("-locomo-convs, -para-users and -para-min-distractors must not be negative")
	}
	if c.BudgetLimit < topK || c.BudgetLimit > 100 {
		return c, fmt.Errorf("-budget-limit %d must be within %d-100 (the API's limit range)", c.BudgetLimit, topK)
	}
	for _, ph := range splitList(c.Phases) {
		if !slices.Contains(allPhases, ph) {
			return c, fmt.Errorf("-phases: unknown phase %q (phases: %s)", ph, strings.Join(allPhases, ", "))
		}
	}
	for _, set := range splitList(c.KUSets) {
		if !slices.Contains(kuSetNames, set) {
			return c, fmt.Errorf("-ku-sets: unknown set %q (sets: %s)", set, strings.Join(kuSetNames, ", "))
		}
	}
	c.Addr = strings.TrimRight(c.Addr, "/")
	servers, err := buildServers(c.Servers, c.ServerPIDs, c.Addr, c.GraphmemPID, getenv)
	if err != nil {
		return c, err
	}
	c.servers = servers
	return c, nil
}

// splitList splits a comma-separated flag, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// results is results.json.
type results struct {
	Meta    meta                  `json:"meta"`
	Servers []serverInfo          `json:"servers"`
	Runs    map[string]*serverRun `json:"by_server"`
	// Paired compares the first two servers question by question.
	Paired    *pairedReport      `json:"paired,omitempty"`
	Scale     *scaleReport       `json:"scale,omitempty"`
	Resources map[string]procMem `json:"resources,omitempty"`
	Targets   []target           `json:"targets"`
	Errors    []string           `json:"errors,omitempty"`
}

// serverInfo describes one measured server.
type serverInfo struct {
	Name            string `json:"name"`
	Addr            string `json:"addr"`
	PID             int    `json:"pid,omitempty"`
	Tenant          string `json:"tenant_key_env,omitempty"`
	Version         string `json:"graphmem_version"`
	SearchAvailable bool   `json:"search_available"`
	SearchProbe     string `json:"search_probe,omitempty"`
	// EmbeddingMetrics: /metrics exposes the embedding lane's backlog.
	EmbeddingMetrics bool `json:"embedding_metrics"`
	// VectorsSeen: some search result of this run carried a vector signal,
	// i.e. the server ranks with vectors (whatever it was configured as).
	VectorsSeen bool `json:"vectors_seen"`
}

// serverRun is everything measured on one server.
type serverRun struct {
	LoCoMoIngest    *locomoIngestReport      `json:"locomo_ingest,omitempty"`
	LoCoMoEmbedding *embedStats              `json:"locomo_embedding,omitempty"`
	Retrieval       *retrievalReport         `json:"locomo_retrieval,omitempty"`
	KU              map[string]*kuReport     `json:"knowledge_update,omitempty"`
	KUEmbedding     *embedStats              `json:"knowledge_update_embedding,omitempty"`
	Paraphrase      *paraReport              `json:"paraphrase,omitempty"`
	Latency         *latencyReport           `json:"search_latency,omitempty"`
	Ingest          *ingestReport            `json:"ingest_throughput,omitempty"`
	IngestEmbedding *embedStats              `json:"ingest_embedding,omitempty"`
	HTTP            map[string]endpointStats `json:"http_by_endpoint"`
	HTTP5xx         []string                 `json:"http_5xx_examples,omitempty"`
}

type meta struct {
	Started   string  `json:"started"`
	Seconds   float64 `json:"harness_seconds"`
	Commit    string  `json:"commit,omitempty"`
	CPUs      int     `json:"cpus"`
	GoVersion string  `json:"go_version"`
	// PhaseSeconds is the wall time of each phase, all servers together.
	PhaseSeconds map[string]float64 `json:"phase_seconds"`
	LoCoMo       string             `json:"locomo_file"`
	LoCoMoSHA256 string             `json:"locomo_sha256"`
	LoCoMoConvs  int                `json:"locomo_conversations,omitempty"`
	KU           string             `json:"ku_file"`
	KUSHA256     string             `json:"ku_sha256"`
	KUOwn        string             `json:"ku_own_file,omitempty"`
	KUOwnSHA256  string             `json:"ku_own_sha256,omitempty"`
	KUChats      []string           `json:"ku_chats_files,omitempty"`
	KUChatsSHA   []string           `json:"ku_chats_sha256,omitempty"`
	KUBlind      []string           `json:"ku_blind_files,omitempty"`
	KUBlindSHA   []string           `json:"ku_blind_sha256,omitempty"`
	Paraphrase   string             `json:"paraphrase_file,omitempty"`
	ParaSHA256   string             `json:"paraphrase_sha256,omitempty"`
	Phases       string             `json:"phases"`
	Scale        bool               `json:"scale"`
	// LoadAvg is /proc/loadavg at the start and the end: other work on a
	// shared 2-core box shows up here and in the latencies.
	LoadAvgStart string `json:"loadavg_start"`
	LoadAvgEnd   string `json:"loadavg_end"`
}

type latencyReport struct {
	Search loadStats `json:"search"`
	// Single is one client searching alone: latency without queueing.
	Single *loadStats `json:"search_single_client,omitempty"`
	// Health is the HTTP floor under the same load (/healthz).
	Health loadStats `json:"healthz_floor"`
	// BM25InProcess is the baseline's own query time, single-threaded in
	// this process over the same questions (no HTTP, no database).
	BM25InProcess latencySummary `json:"bm25_in_process_ms"`
	// QueryCacheHits is the share of the searches of each load (8 clients,
	// then 1) whose question vector came from graphmem's query embedding
	// cache; nil when the server does not report it. The loads cycle
	// through the LoCoMo questions, so a question comes back once every
	// question has been asked, and the single client's load follows the
	// 8 clients' with the cache warm: its CPU per search is mostly that of
	// a question asked before.
	QueryCacheHits []float64 `json:"query_cache_hit_share,omitempty"`
}

type ingestReport struct {
	Batched ingestStats `json:"batched"`
	Single  ingestStats `json:"single"`
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	os.Exit(run(cfg))
}

// chatFiles lists the files of a chat-set flag: lists joined by ","
// whose files are joined by "+".
func chatFiles(spec string) []string {
	var out []string
	for _, part := range splitList(spec) {
		for _, f := range strings.Split(part, "+") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

func sha256File(path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// srv is one server under measurement, with its client, CPU probe and
// progress lines prefixed by its name.
type srv struct {
	spec serverSpec
	info *serverInfo
	run  *serverRun
	c    *client
	cpu  cpuProbe
	p    *progress
}

func run(cfg config) int {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	p := newProgress(os.Stderr, 5*time.Second)
	start := time.Now()
	phases := splitList(cfg.Phases)
	want := func(ph string) bool { return slices.Contains(phases, ph) }
	res := &results{Meta: meta{Started: start.UTC().Format(time.RFC3339), Commit: cfg.Commit,
		CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), LoCoMo: cfg.LoCoMo, LoCoMoSHA256: sha256File(cfg.LoCoMo),
		KU: cfg.KU, KUSHA256: sha256File(cfg.KU), Phases: cfg.Phases, Scale: cfg.Scale, LoadAvgStart: loadAvg(),
		PhaseSeconds: map[string]float64{}},
		Runs: map[string]*serverRun{}, Resources: map[string]procMem{}}
	if cfg.KUOwn != "" && want("ku") {
		res.Meta.KUOwn, res.Meta.KUOwnSHA256 = cfg.KUOwn, sha256File(cfg.KUOwn)
	}
	if want("ku") {
		for _, f := range chatFiles(cfg.KUChats) {
			res.Meta.KUChats, res.Meta.KUChatsSHA = append(res.Meta.KUChats, f), append(res.Meta.KUChatsSHA, sha256File(f))
		}
		for _, f := range chatFiles(cfg.KUBlind) {
			res.Meta.KUBlind, res.Meta.KUBlindSHA = append(res.Meta.KUBlind, f), append(res.Meta.KUBlindSHA, sha256File(f))
		}
	}
	if want("paraphrase") {
		res.Meta.Paraphrase, res.Meta.ParaSHA256 = cfg.Paraphrase, sha256File(cfg.Paraphrase)
	}
	var servers []*srv
	for _, spec := range cfg.servers {
		s := &srv{spec: spec, info: &serverInfo{Name: spec.Name, Addr: spec.Addr, PID: spec.PID}, run: &serverRun{},
			c: newClient(spec.Addr, spec.Key, 15*time.Minute), cpu: cpuProbe{"graphmem": spec.PID, "neo4j": cfg.Neo4jPID}}
		if len(cfg.servers) > 1 {
			s.p = p.named(spec.Name)
		} else {
			s.p = p
		}
		if spec.Key != "" {
			s.info.Tenant = keyEnv(spec.Name)
		}
		servers = append(servers, s)
		res.Servers = append(res.Servers, serverInfo{})
		res.Runs[spec.Name] = s.run
	}
	fail := func(phase string, err error) {
		res.Errors = append(res.Errors, phase+": "+err.Error())
		p.Printf("ERROR %s: %v", phase, err)
	}
	finish := func() int {
		res.Meta.Seconds = round4(time.Since(start).Seconds())
		res.Meta.LoadAvgEnd = loadAvg()
		readResources(cfg, servers, res)
		for i, s := range servers {
			s.info.VectorsSeen = vectorsSeen(s.run)
			s.run.HTTP, s.run.HTTP5xx = s.c.snapshot()
			res.Servers[i] = *s.info
		}
		res.Paired = pairServers(servers)
		res.Targets = targets(res)
		if err := writeResults(cfg.Out, res); err != nil {
			fmt.Fprintln(os.Stderr, "bench: write results:", err)
			return 1
		}
		p.Printf("wrote %s and %s", filepath.Join(cfg.Out, "results.json"), filepath.Join(cfg.Out, "results.md"))
		if len(res.Errors) > 0 {
			return 1
		}
		return 0
	}
	phase := func(name string, f func()) {
		t0 := time.Now()
		f()
		res.Meta.PhaseSeconds[name] = round4(time.Since(t0).Seconds())
	}

	for _, s := range servers {
		readyCtx, readyCancel := context.WithTimeout(ctx, 2*time.Minute)
		err := s.c.waitReady(readyCtx)
		readyCancel()
		if err != nil {
			fail(s.spec.Name+" ready", err)
			return finish()
		}
		var health struct{ Version string }
		if _, err := s.c.call(ctx, "healthz", http.MethodGet, "/healthz", nil, &health); err == nil {
			s.info.Version = health.Version
		}
		s.info.SearchAvailable, s.info.SearchProbe = probeSearch(ctx, s.c)
		if r, err := readEmbedding(ctx, s.c); err == nil {
			s.info.EmbeddingMetrics = r.HasBacklog
		}
		s.p.Printf("graphmem %s at %s; /v1/search available: %v %s; embedding metrics: %v", s.info.Version, s.spec.Addr,
			s.info.SearchAvailable, s.info.SearchProbe, s.info.EmbeddingMetrics)
	}

	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		fail("tokenizer", err)
		return finish()
	}
	codec.SetErrorMode(tokenizer.ErrorModeReplace)

	var allConvs, convs []*conversation
	ingested := false
	if want("locomo") || want("latency") || want("paraphrase") || cfg.Scale {
		allConvs, err = loadLoCoMo(cfg.LoCoMo)
		if err != nil {
			fail("locomo load", err)
		}
		convs = allConvs
		if cfg.LoCoMoConvs > 0 && cfg.LoCoMoConvs < len(convs) {
			convs = convs[:cfg.LoCoMoConvs]
		}
		res.Meta.LoCoMoConvs = len(convs)
	}
	if want("locomo") && len(convs) > 0 {
		phase("locomo", func() {
			// Every server ingests before any is scored, so all are scored
			// against the same database (full-text statistics are shared).
			ok := true
			for _, s := range servers {
				if cfg.LoCoMoReuse {
					s.p.Printf("locomo: -locomo-reuse: scoring the %d conversations the server already holds", len(convs))
					continue
				}
				s.p.Printf("locomo: ingesting %d conversations (append each session, close with wait)", len(convs))
				w := watchEmbedding(ctx, s.c, time.Second)
				rep, err := ingestLoCoMo(ctx, s.c, convs, s.cpu, s.p)
				s.run.LoCoMoIngest = rep
				s.run.LoCoMoEmbedding = w.finish(ctx, time.Now(), cfg.EmbedWait)
				logEmbedding(s.p, "locomo", s.run.LoCoMoEmbedding)
				if err != nil {
					fail(s.spec.Name+" locomo ingest", err)
					ok = false
				}
			}
			if !ok || ctx.Err() != nil {
				return
			}
			ingested = true
			if cfg.LoCoMoNoScore {
				return
			}
			for _, s := range servers {
				s.p.Printf("locomo: scoring graphmem and the baselines on the same questions")
				s.run.Retrieval = evalRetrieval(ctx, s.c, convs, codec, s.info.SearchAvailable, cfg.BudgetLimit, cfg.EvalWorkers, s.p)
				logRetrieval(s.p, s.run.Retrieval)
			}
		})
	}
	if want("ku") && ctx.Err() == nil {
		phase("ku", func() {
			visible, err := loadKU(cfg.KU)
			if err != nil {
				fail("ku load", err)
				return
			}
			var own []kuScenario
			if cfg.KUOwn != "" {
				if own, err = loadKU(cfg.KUOwn); err != nil {
					fail("ku-own load", err)
					return
				}
			}
			sets := kuSets(visible, own, splitList(cfg.KUSets))
			if cfg.KUChats != "" {
				dev, held, err := loadChats(cfg.KUChats)
				if err != nil {
					fail("ku-chats", err)
					return
				}
				sets = append(sets, chatSets(dev, held, splitList(cfg.KUSets))...)
			}
			if cfg.KUBlind != "" {
				var blind []kuScenario
				for _, f := range chatFiles(cfg.KUBlind) {
					scen, err := loadKU(f)
					if err != nil {
						fail("ku-blind load", err)
						return
					}
					blind = append(blind, scen...)
				}
				sets = append(sets, blindSets(blind, splitList(cfg.KUSets))...)
			}
			for _, s := range servers {
				w := watchEmbedding(ctx, s.c, time.Second)
				reps, _, err := runKUSets(ctx, s.c, sets, s.info.SearchAvailable, s.p)
				s.run.KU = reps
				s.run.KUEmbedding = w.finish(ctx, time.Now(), cfg.EmbedWait)
				if err != nil {
					fail(s.spec.Name+" ku", err)
				}
			}
		})
	}
	if want("latency") && ctx.Err() == nil && len(convs) > 0 {
		phase("latency", func() {
			if !ingested {
				p.Printf("latency: LoCoMo was not ingested in this run; searching whatever the users hold")
			}
			qs := interleave(convs)
			for _, s := range servers {
				lr := &latencyReport{BM25InProcess: bm25Latency(convs)}
				if s.info.SearchAvailable {
					c0, ok0 := queryCacheCounts(ctx, s.c)
					lr.Search = runLoad(ctx, "search latency", cfg.Load.Clients, cfg.Load.Warmup, cfg.Load.Duration, searchOp(s.c, qs, cfg.Load.Clients), s.cpu, s.p)
					c1, ok1 := queryCacheCounts(ctx, s.c)
					if ok0 && ok1 {
						lr.QueryCacheHits = append(lr.QueryCacheHits, c1.shareSince(c0))
					}
					if cfg.SingleLoad > 0 {
						st := runLoad(ctx, "search latency, 1 client", 1, 2*time.Second, cfg.SingleLoad, searchOp(s.c, qs, 1), s.cpu, s.p)
						lr.Single = &st
						if c2, ok2 := queryCacheCounts(ctx, s.c); ok1 && ok2 {
							lr.QueryCacheHits = append(lr.QueryCacheHits, c2.shareSince(c1))
						}
					}
				}
				lr.Health = runLoad(ctx, "healthz floor", cfg.Load.Clients, time.Second, cfg.Load.Duration/2, healthOp(s.c), s.cpu, s.p)
				s.run.Latency = lr
			}
		})
	}
	if want("paraphrase") && ctx.Err() == nil {
		phase("paraphrase", func() {
			recs, err := loadParaphrase(cfg.Paraphrase)
			if err != nil {
				fail("paraphrase load", err)
				return
			}
			if cfg.ParaUsers > 0 && cfg.ParaUsers < len(recs) {
				recs = recs[:cfg.ParaUsers]
			}
			d, err := pickDistractor(allConvs, cfg.ParaDistractor, cfg.ParaMinDistractors)
			if err != nil {
				fail("paraphrase distractors", err)
				return
			}
			ok := true
			for _, s := range servers {
				if cfg.ParaReuse {
					s.p.Printf("paraphrase: -para-reuse: scoring the %d users the server already holds", len(recs))
					s.run.Paraphrase = &paraReport{}
					continue
				}
				s.p.Printf("paraphrase: %d users, each hidden among the %d turns of %s", len(recs), len(d.Turns), d.UserID)
				w := watchEmbedding(ctx, s.c, time.Second)
				secs, turns, lat, err := ingestParaphrase(ctx, s.c, recs, d, s.p)
				emb := w.finish(ctx, time.Now(), cfg.EmbedWait)
				logEmbedding(s.p, "paraphrase", emb)
				s.run.Paraphrase = &paraReport{IngestSeconds: secs, Turns: turns, Ingest: lat, Embedding: emb}
				if err != nil {
					fail(s.spec.Name+" paraphrase ingest", err)
					ok = false
				}
			}
			if !ok || ctx.Err() != nil {
				return
			}
			for _, s := range servers {
				if !s.info.SearchAvailable {
					continue
				}
				rep := evalParaphrase(ctx, s.c, recs, d)
				rep.IngestSeconds, rep.Turns, rep.Ingest, rep.Embedding = s.run.Paraphrase.IngestSeconds,
					s.run.Paraphrase.Turns, s.run.Paraphrase.Ingest, s.run.Paraphrase.Embedding
				s.run.Paraphrase = rep
				s.p.Printf("paraphrase: evidence in top 1/3/10 %d/%d/%d of %d (BM25 %d/%d/%d); %d empty result lists",
					rep.Graphmem.Hits1, rep.Graphmem.Hits3, rep.Graphmem.Hits10, rep.Questions,
					rep.BM25.Hits1, rep.BM25.Hits3, rep.BM25.Hits10, rep.EmptyResults)
			}
		})
	}
	if want("ingest") && ctx.Err() == nil {
		phase("ingest", func() {
			for _, s := range servers {
				run := time.Now().UTC().Format("150405")
				w := watchEmbedding(ctx, s.c, time.Second)
				s.run.Ingest = &ingestReport{
					Batched: ingestLoad(ctx, s.c, "ingest batched", "bench-batched-"+run, cfg.BatchEvents, cfg.Batch, cfg.BatchClients, 1, s.cpu, s.p),
					Single:  ingestLoad(ctx, s.c, "ingest single", "bench-single-"+run, cfg.SingleEvents, 1, cfg.SingleClients, 2, s.cpu, s.p),
				}
				// The raw events wait for their vectors: the drain is the
				// lane's throughput on a backlog, without extraction beside it.
				s.run.IngestEmbedding = w.finish(ctx, time.Now(), cfg.EmbedWait)
				logEmbedding(s.p, "ingest", s.run.IngestEmbedding)
				for _, st := range []ingestStats{s.run.Ingest.Batched, s.run.Ingest.Single} {
					if st.Errors > 0 {
						fail(s.spec.Name+" "+st.Name, fmt.Errorf("%d of %d requests failed: %s", st.Errors, st.Requests, st.FirstError))
					}
				}
			}
		})
	}
	readResources(cfg, servers, res) // memory before the scale run grows it
	if cfg.Scale && ctx.Err() == nil && len(servers) > 0 {
		s := servers[0]
		var qs []searchQuery
		if s.info.SearchAvailable && ingested {
			qs = interleave(convs)
		}
		if !s.info.SearchAvailable {
			fail("scale", errors.New("/v1/search is not available: the scale run measures search"))
		} else {
			rep, err := runScale(ctx, s.c, cfg.ScaleCfg, cfg.Load, qs, s.cpu, s.p)
			res.Scale = rep
			if err != nil {
				fail("scale", err)
			}
			if m, err := readProcMem(s.spec.PID); err == nil && s.spec.PID > 0 {
				res.Resources["graphmem_after_scale"] = m
			}
			if m, err := readProcMem(cfg.Neo4jPID); err == nil && cfg.Neo4jPID > 0 {
				res.Resources["neo4j_after_scale"] = m
			}
		}
	}
	if ctx.Err() != nil {
		fail("run", ctx.Err())
	}
	return finish()
}

// vectorsSeen reports whether any search of the run carried a vector signal.
func vectorsSeen(r *serverRun) bool {
	if r.Paraphrase != nil && r.Paraphrase.VectorSeen > 0 {
		return true
	}
	for _, k := range r.KU {
		if k.VectorSeen > 0 {
			return true
		}
	}
	return r.Retrieval != nil && r.Retrieval.Search != nil && r.Retrieval.Search.VectorSeen > 0
}

func logEmbedding(p *progress, phase string, e *embedStats) {
	if e == nil || !e.Available || e.Texts == nil {
		note := "n/a"
		if e != nil && e.Note != "" {
			note = e.Note
		}
		p.Printf("%s embedding: %s", phase, note)
		return
	}
	p.Printf("%s embedding: %.0f texts, %s texts/s over %s s, max backlog %s, tail %s s, drained %v",
		phase, *e.Texts, num(e.TextsPerSec), num(e.WindowSeconds), num(e.MaxBacklog), num(e.TailSeconds), e.Drained)
}

// loadAvg returns the 1, 5 and 15 minute load averages.
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// readResources records the memory of every server and Neo4j (peak so
// far), keyed "graphmem" (one server) or "graphmem:<name>".
func readResources(cfg config, servers []*srv, res *results) {
	pids := map[string]int{"neo4j": cfg.Neo4jPID}
	for _, s := range servers {
		key := "graphmem"
		if len(servers) > 1 {
			key += ":" + s.spec.Name
		}
		pids[key] = s.spec.PID
	}
	for name, pid := range pids {
		if pid <= 0 {
			continue
		}
		if m, err := readProcMem(pid); err == nil {
			if _, scaled := res.Resources[name+"_after_scale"]; !scaled {
				res.Resources[name] = m
			}
		}
	}
}

// probeSearch asks /v1/search once. "No such route" (404) or 405 means the
// endpoint is not there yet, and the run then scores only the baselines;
// any other answer (even an error) means it exists.
func probeSearch(ctx context.Context, c *client) (bool, string) {
	_, err := c.search(ctx, searchRequest{UserID: "bench-probe", Query: "probe", Limit: 1})
	if err == nil {
		return true, ""
	}
	var ae *apiError
	missing := errors.As(err, &ae) && (ae.Status == http.StatusMethodNotAllowed ||
		ae.Status == http.StatusNotFound && strings.Contains(ae.Detail, "route"))
	return !missing, err.Error()
}

// bm25Latency times the BM25 baseline per question, single-threaded.
func bm25Latency(convs []*conversation) latencySummary {
	var ms []float64
	for _, cv := range convs {
		var docs []string
		for _, t := range cv.Turns {
			docs = append(docs, t.indexText())
		}
		ix := newBM25(docs)
		for _, q := range cv.QA {
			t0 := time.Now()
			ix.rank(q.Text)
			ms = append(ms, msSince(t0))
		}
	}
	return summarize(ms)
}

func logRetrieval(p *progress, r *retrievalReport) {
	for _, sys := range []string{sysGraphmem, sysBM25, sysRecency, sysOracle} {
		m, ok := r.Systems[sys][groupHeadline]
		if !ok {
			continue
		}
		p.Printf("locomo %-8s cats 1-4 (n=%d): all@10 %.3f  any@10 %.3f  frac@10 %.3f  MRR %.3f  multi-hop all@10 %.3f",
			sys, m.N, m.AllAt10, m.AnyAt10, m.FracAt10, m.MRR, r.Systems[sys]["1"].AllAt10)
	}
}
