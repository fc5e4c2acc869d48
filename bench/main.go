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
	Addr, Out, LoCoMo, KU, Commit string
	GraphmemPID, Neo4jPID         int
	Phases                        string
	Load                          loadConfig
	BudgetLimit, EvalWorkers      int
	BatchEvents, Batch            int
	BatchClients                  int
	SingleEvents, SingleClients   int
	Scale                         bool
	ScaleCfg                      scaleConfig
}

// loadConfig is the closed-loop search load.
type loadConfig struct {
	Clients          int
	Warmup, Duration time.Duration
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", "http://127.0.0.1:8080", "graphmem base URL")
	fs.StringVar(&c.Out, "out", "bench/out", "output folder for results.json and results.md")
	fs.StringVar(&c.LoCoMo, "locomo", "../shared/datasets/locomo/locomo-visible.json", "LoCoMo file (read in place, never copied)")
	fs.StringVar(&c.KU, "ku", "../shared/datasets/knowledge-update/visible.jsonl", "knowledge-update scenarios")
	fs.StringVar(&c.Commit, "commit", "", "graphmem commit, for the report")
	fs.IntVar(&c.GraphmemPID, "graphmem-pid", 0, "pid of graphmem serve (peak RSS)")
	fs.IntVar(&c.Neo4jPID, "neo4j-pid", 0, "pid of Neo4j (peak RSS)")
	fs.StringVar(&c.Phases, "phases", "locomo,ku,latency,ingest", "phases to run (comma-separated)")
	fs.IntVar(&c.Load.Clients, "clients", 8, "concurrent search clients")
	fs.DurationVar(&c.Load.Warmup, "warmup", 5*time.Second, "search load warm-up")
	fs.DurationVar(&c.Load.Duration, "duration", 20*time.Second, "search load measurement")
	fs.IntVar(&c.BudgetLimit, "budget-limit", 100, "results asked for (and BM25 turns kept) for recall at a token budget")
	fs.IntVar(&c.EvalWorkers, "eval-workers", 4, "concurrent searches while scoring LoCoMo")
	fs.IntVar(&c.BatchEvents, "batch-events", 20000, "events of the batched ingest measurement")
	fs.IntVar(&c.Batch, "batch", 500, "events per request, batched ingest")
	fs.IntVar(&c.BatchClients, "batch-clients", 2, "concurrent clients, batched ingest")
	fs.IntVar(&c.SingleEvents, "single-events", 2000, "events of the one-event-per-request measurement")
	fs.IntVar(&c.SingleClients, "single-clients", 4, "concurrent clients, one event per request")
	fs.BoolVar(&c.Scale, "scale", false, "add the 1M raw event scale run")
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
	if c.BudgetLimit < topK || c.BudgetLimit > 100 {
		return c, fmt.Errorf("-budget-limit %d must be within %d-100 (the API's limit range)", c.BudgetLimit, topK)
	}
	c.Addr = strings.TrimRight(c.Addr, "/")
	return c, nil
}

// results is results.json.
type results struct {
	Meta         meta                     `json:"meta"`
	LoCoMoIngest *locomoIngestReport      `json:"locomo_ingest,omitempty"`
	Retrieval    *retrievalReport         `json:"locomo_retrieval,omitempty"`
	KU           *kuReport                `json:"knowledge_update,omitempty"`
	Latency      *latencyReport           `json:"search_latency,omitempty"`
	Ingest       *ingestReport            `json:"ingest_throughput,omitempty"`
	Scale        *scaleReport             `json:"scale,omitempty"`
	Resources    map[string]procMem       `json:"resources,omitempty"`
	Targets      []target                 `json:"targets"`
	HTTP         map[string]endpointStats `json:"http_by_endpoint"`
	HTTP5xx      []string                 `json:"http_5xx_examples,omitempty"`
	Errors       []string                 `json:"errors,omitempty"`
}

type meta struct {
	Started         string  `json:"started"`
	Seconds         float64 `json:"harness_seconds"`
	Addr            string  `json:"addr"`
	GraphmemVersion string  `json:"graphmem_version"`
	Commit          string  `json:"commit,omitempty"`
	CPUs            int     `json:"cpus"`
	GoVersion       string  `json:"go_version"`
	LoCoMo          string  `json:"locomo_file"`
	LoCoMoSHA256    string  `json:"locomo_sha256"`
	KU              string  `json:"ku_file"`
	KUSHA256        string  `json:"ku_sha256"`
	SearchAvailable bool    `json:"search_available"`
	SearchProbe     string  `json:"search_probe,omitempty"`
	Phases          string  `json:"phases"`
	Scale           bool    `json:"scale"`
	// LoadAvg is /proc/loadavg at the start and the end: other work on a
	// shared 2-core box shows up here and in the latencies.
	LoadAvgStart string `json:"loadavg_start"`
	LoadAvgEnd   string `json:"loadavg_end"`
}

type latencyReport struct {
	Search loadStats `json:"search"`
	// Health is the HTTP floor under the same load (/healthz).
	Health loadStats `json:"healthz_floor"`
	// BM25InProcess is the baseline's own query time, single-threaded in
	// this process over the same questions (no HTTP, no database).
	BM25InProcess latencySummary `json:"bm25_in_process_ms"`
}

type ingestReport struct {
	Batched ingestStats `json:"batched"`
	Single  ingestStats `json:"single"`
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	os.Exit(run(cfg))
}

func sha256File(path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

func run(cfg config) int {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	p := newProgress(os.Stderr, 5*time.Second)
	c := newClient(cfg.Addr, 15*time.Minute)
	start := time.Now()
	phases := strings.Split(cfg.Phases, ",")
	want := func(ph string) bool { return slices.Contains(phases, ph) }
	res := &results{Meta: meta{Started: start.UTC().Format(time.RFC3339), Addr: cfg.Addr, Commit: cfg.Commit,
		CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), LoCoMo: cfg.LoCoMo, LoCoMoSHA256: sha256File(cfg.LoCoMo),
		KU: cfg.KU, KUSHA256: sha256File(cfg.KU), Phases: cfg.Phases, Scale: cfg.Scale, LoadAvgStart: loadAvg()},
		Resources: map[string]procMem{}}
	fail := func(phase string, err error) {
		res.Errors = append(res.Errors, phase+": "+err.Error())
		p.Printf("ERROR %s: %v", phase, err)
	}
	finish := func() int {
		res.Meta.Seconds = round4(time.Since(start).Seconds())
		res.Meta.LoadAvgEnd = loadAvg()
		readResources(cfg, res)
		res.Targets = targets(res)
		res.HTTP, res.HTTP5xx = c.snapshot()
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

	readyCtx, readyCancel := context.WithTimeout(ctx, 2*time.Minute)
	err := c.waitReady(readyCtx)
	readyCancel()
	if err != nil {
		fail("ready", err)
		return finish()
	}
	var health struct{ Version string }
	if _, err := c.call(ctx, "healthz", http.MethodGet, "/healthz", nil, &health); err == nil {
		res.Meta.GraphmemVersion = health.Version
	}
	res.Meta.SearchAvailable, res.Meta.SearchProbe = probeSearch(ctx, c)
	p.Printf("graphmem %s at %s; /v1/search available: %v %s", health.Version, cfg.Addr, res.Meta.SearchAvailable, res.Meta.SearchProbe)

	cpu := cpuProbe{"graphmem": cfg.GraphmemPID, "neo4j": cfg.Neo4jPID}
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		fail("tokenizer", err)
		return finish()
	}
	codec.SetErrorMode(tokenizer.ErrorModeReplace)

	var convs []*conversation
	ingested := false
	if want("locomo") || want("latency") || cfg.Scale {
		convs, err = loadLoCoMo(cfg.LoCoMo)
		if err != nil {
			fail("locomo load", err)
		}
	}
	if want("locomo") && len(convs) > 0 {
		p.Printf("locomo: ingesting %d conversations (append each session, close with wait)", len(convs))
		rep, err := ingestLoCoMo(ctx, c, convs, p)
		res.LoCoMoIngest = rep
		if err != nil {
			fail("locomo ingest", err)
		} else {
			ingested = true
			p.Printf("locomo: scoring graphmem and the baselines on the same questions")
			res.Retrieval = evalRetrieval(ctx, c, convs, codec, res.Meta.SearchAvailable, cfg.BudgetLimit, cfg.EvalWorkers, p)
			logRetrieval(p, res.Retrieval)
		}
	}
	if want("ku") && ctx.Err() == nil {
		scen, err := loadKU(cfg.KU)
		if err != nil {
			fail("ku load", err)
		} else {
			rep, err := runKU(ctx, c, scen, res.Meta.SearchAvailable, p)
			res.KU = rep
			if err != nil {
				fail("ku", err)
			}
		}
	}
	if want("latency") && ctx.Err() == nil && len(convs) > 0 {
		if !ingested {
			p.Printf("latency: LoCoMo was not ingested in this run; searching whatever the users hold")
		}
		qs := interleave(convs)
		lr := &latencyReport{BM25InProcess: bm25Latency(convs)}
		if res.Meta.SearchAvailable {
			lr.Search = runLoad(ctx, "search latency", cfg.Load.Clients, cfg.Load.Warmup, cfg.Load.Duration, searchOp(c, qs, cfg.Load.Clients), cpu, p)
		}
		lr.Health = runLoad(ctx, "healthz floor", cfg.Load.Clients, time.Second, cfg.Load.Duration/2, healthOp(c), cpu, p)
		res.Latency = lr
	}
	if want("ingest") && ctx.Err() == nil {
		run := time.Now().UTC().Format("150405")
		res.Ingest = &ingestReport{
			Batched: ingestLoad(ctx, c, "ingest batched", "bench-batched-"+run, cfg.BatchEvents, cfg.Batch, cfg.BatchClients, 1, cpu, p),
			Single:  ingestLoad(ctx, c, "ingest single", "bench-single-"+run, cfg.SingleEvents, 1, cfg.SingleClients, 2, cpu, p),
		}
		for _, st := range []ingestStats{res.Ingest.Batched, res.Ingest.Single} {
			if st.Errors > 0 {
				fail(st.Name, fmt.Errorf("%d of %d requests failed: %s", st.Errors, st.Requests, st.FirstError))
			}
		}
	}
	readResources(cfg, res) // memory before the scale run grows it
	if cfg.Scale && ctx.Err() == nil {
		var qs []searchQuery
		if res.Meta.SearchAvailable && ingested {
			qs = interleave(convs)
		}
		if !res.Meta.SearchAvailable {
			fail("scale", errors.New("/v1/search is not available: the scale run measures search"))
		} else {
			rep, err := runScale(ctx, c, cfg.ScaleCfg, cfg.Load, qs, cpu, p)
			res.Scale = rep
			if err != nil {
				fail("scale", err)
			}
			if m, err := readProcMem(cfg.GraphmemPID); err == nil && cfg.GraphmemPID > 0 {
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

// readResources records the memory of graphmem and Neo4j (peak so far).
func readResources(cfg config, res *results) {
	for name, pid := range map[string]int{"graphmem": cfg.GraphmemPID, "neo4j": cfg.Neo4jPID} {
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
