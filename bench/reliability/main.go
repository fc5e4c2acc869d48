// Command reliability is the driver of `make reliability`
// (scripts/reliability.sh starts a throwaway Neo4j and runs it).
//
// The crash phase runs graphmem (offline engine, embedder off) while
// clients append events in batches with client ids and close sessions,
// keeping a ledger of every acknowledged event; meanwhile it kill -9s
// graphmem at random moments (restarting it each time) and restarts Neo4j
// under traffic (every other restart a SIGKILL of the JVM, so the store
// recovers too). During each Neo4j outage it probes the API and records
// whether every answer was a 503 problem+json with Retry-After, and after
// Neo4j is back, how long the service takes to accept writes again by
// itself. Then it reads everything back: every acknowledged event exactly
// once with its content, every closed session's jobs done, no job's
// results written twice (a second summary of the same events, a fact
// stated twice).
//
// The replicas phase runs the same workload on one graphmem and then on
// two behind the same Neo4j, and reports the throughput of each and that
// every job was done once, on its first attempt.
//
// It prints the figures and writes them as JSON (-out); it exits non-zero
// when an acknowledged event is lost or duplicated, a job is left undone or
// done twice, or an outage answer was not a 503 problem.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

type report struct {
	Phase    string `json:"phase"`
	Run      string `json:"run"`
	Kills    int    `json:"kills"`
	Restarts int    `json:"neo4j_restarts"`
	verdict
	OutageProbes     int            `json:"outage_probes"`
	OutageProblem503 int            `json:"outage_503_problem_retry_after"`
	OutageOK         int            `json:"outage_2xx_after_neo4j_answered"`
	OutageOther      int            `json:"outage_other_answers"`
	OutageMaxSeconds float64        `json:"outage_slowest_answer_seconds"`
	RecoverySeconds  []float64      `json:"recovery_seconds"` // Neo4j ready → first accepted write, per restart
	ReadySeconds     []float64      `json:"graphmem_ready_seconds"`
	ClientAnswers    map[string]int `json:"client_answers"`
	ClientErrors     []string       `json:"client_errors,omitempty"`
	Problems         []string       `json:"problems,omitempty"`
	WallSeconds      float64        `json:"wall_seconds"`
	Replicas         []replicaRun   `json:"replicas,omitempty"`
	Passed           bool           `json:"passed"`
}

// replicaRun is one measurement of the replicas phase.
type replicaRun struct {
	Replicas        int     `json:"replicas"`
	Sessions        int     `json:"sessions"`
	Events          int     `json:"events"`
	IngestSeconds   float64 `json:"ingest_seconds"`
	EventsPerSecond float64 `json:"events_per_second"`
	// PipelineSeconds runs from the first append to the last job done.
	PipelineSeconds   float64 `json:"pipeline_seconds"`
	SessionsPerSecond float64 `json:"sessions_per_second"`
	JobsDone          int     `json:"jobs_done"`
	JobsNotFirstTry   int     `json:"jobs_not_on_first_attempt"`
	JobsDoneTwice     int     `json:"jobs_done_twice"`
	DuplicateFacts    int     `json:"duplicate_facts"`
	Lost              int     `json:"lost"`
}

func main() {
	var (
		bin        = flag.String("bin", "bin/graphmem", "graphmem binary")
		neo4jURI   = flag.String("neo4j-uri", os.Getenv("NEO4J_THROWAWAY_URI"), "Bolt URI of the throwaway Neo4j")
		neo4jHome  = flag.String("neo4j-home", os.Getenv("GRAPHMEM_NEO4J_HOME"), "its home (for the pid file of a crash restart)")
		phase      = flag.String("phase", "crash", "crash or replicas")
		kills      = flag.Int("kills", 20, "kill -9s of graphmem (crash phase)")
		restarts   = flag.Int("restarts", 5, "Neo4j restarts under traffic (crash phase)")
		clients    = flag.Int("clients", 3, "concurrent clients")
		gap        = flag.Duration("gap", 3*time.Second, "mean time between two faults, once the service is back")
		sessions   = flag.Int("sessions", 12, "sessions per client (replicas phase)")
		out        = flag.String("out", "reliability.json", "JSON report")
		logDir     = flag.String("logs", os.TempDir(), "folder for graphmem's logs")
		jobTimeout = flag.Duration("job-timeout", 5*time.Minute, "how long the queue may take to drain at the end")
	)
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if *neo4jURI == "" {
		fmt.Fprintln(os.Stderr, "reliability: -neo4j-uri (or NEO4J_THROWAWAY_URI) is required; run it through scripts/reliability.sh")
		os.Exit(2)
	}
	began := time.Now()
	run := fmt.Sprintf("rel%d", began.Unix()%1_000_000)
	var (
		rep report
		err error
	)
	switch *phase {
	case "crash":
		rep, err = crashPhase(ctx, crashConfig{bin: *bin, uri: *neo4jURI, home: *neo4jHome, run: run, kills: *kills, restarts: *restarts,
			clients: *clients, gap: *gap, logDir: *logDir, jobTimeout: *jobTimeout})
	case "replicas":
		rep, err = replicasPhase(ctx, *bin, *neo4jURI, run, *clients, *sessions, *logDir, *jobTimeout)
	default:
		err = fmt.Errorf("unknown -phase %q: crash or replicas", *phase)
	}
	if rep.WallSeconds == 0 {
		rep.WallSeconds = round(time.Since(began).Seconds())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "reliability:", err)
		rep.Problems = append(rep.Problems, err.Error())
		rep.Passed = false
	}
	if b, jerr := json.MarshalIndent(rep, "", "  "); jerr == nil {
		_ = os.WriteFile(*out, append(b, '\n'), 0o644)
	}
	printReport(rep)
	if !rep.Passed {
		os.Exit(1)
	}
}

func printReport(r report) {
	fmt.Printf("== reliability %s phase (run %s, %.0fs)\n", r.Phase, r.Run, r.WallSeconds)
	if r.Phase == "crash" {
		fmt.Printf("kills %d  neo4j restarts %d  sessions %d (closed %d)\n", r.Kills, r.Restarts, r.Sessions, r.SessionsClosed)
		fmt.Printf("acknowledged %d  found %d  lost %d  duplicates %d  content mismatches %d\n",
			r.Acknowledged, r.Found, r.Lost, r.Duplicates, r.ContentMismatches)
		fmt.Printf("jobs done %d (retried after a crash %d)  failed %d  unfinished %d  done twice %d  duplicate facts %d  sessions with all jobs done %d/%d\n",
			r.JobsDone, r.JobsRetried, r.JobsFailed, r.JobsUnfinished, r.JobsDoneTwice, r.DuplicateFacts, r.SessionsJobsDone, r.SessionsClosed)
		fmt.Printf("outage probes %d: 503 problem+json with Retry-After %d, 2xx once Neo4j answered %d, other %d, slowest answer %.1fs; recovery after Neo4j is back (s) %v\n",
			r.OutageProbes, r.OutageProblem503, r.OutageOK, r.OutageOther, r.OutageMaxSeconds, r.RecoverySeconds)
		fmt.Printf("graphmem ready after a kill (s) %v\n", r.ReadySeconds)
		fmt.Printf("client answers %v\n", r.ClientAnswers)
	}
	for _, x := range r.Replicas {
		fmt.Printf("replicas %d: %d sessions, %d events; ingest %.1f events/s; pipeline %.2f sessions/s (%.1fs); jobs done %d, not on first attempt %d, done twice %d, duplicate facts %d, lost %d\n",
			x.Replicas, x.Sessions, x.Events, x.EventsPerSecond, x.SessionsPerSecond, x.PipelineSeconds, x.JobsDone, x.JobsNotFirstTry, x.JobsDoneTwice, x.DuplicateFacts, x.Lost)
	}
	for _, p := range r.ClientErrors {
		fmt.Println("client error:", p)
	}
	for _, p := range r.Problems {
		fmt.Println("problem:", p)
	}
	fmt.Printf("passed: %v\n", r.Passed)
}

// outageProbes are the requests sent while Neo4j is down: a write, the
// queue, a knowledge read (RUN is the run's id).
var outageProbes = []struct{ method, path string }{
	{http.MethodPost, "/v1/sessions/RUN-probe/events"},
	{http.MethodGet, "/v1/jobs"},
	{http.MethodGet, "/v1/users/RUN-u0/facts"},
}

type crashConfig struct {
	bin, uri, home, run, logDir string
	kills, restarts, clients    int
	gap, jobTimeout             time.Duration
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func crashPhase(ctx context.Context, c crashConfig) (report, error) {
	started := time.Now()
	rep := report{Phase: "crash", Run: c.run}
	addr, err := freeAddr()
	if err != nil {
		return rep, err
	}
	g := newReplica(c.bin, addr, c.uri, filepath.Join(c.logDir, "graphmem-"+c.run+".log"))
	defer g.stop()
	if err := g.start(); err != nil {
		return rep, err
	}
	if _, err := g.waitReady(ctx, 5*time.Minute); err != nil {
		return rep, err
	}
	counts := &statusCounts{}
	cl := &api{http: &http.Client{Timeout: 30 * time.Second}, counts: counts}
	w := &workload{base: func(int) string { return g.base() }, run: c.run, clients: c.clients, batches: 3, batch: 4,
		pause: 50 * time.Millisecond, ledger: newLedger(), api: cl}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.runClients(ctx, stop, 0)
	}()

	// The faults, shuffled: kills and Neo4j restarts interleave.
	faults := make([]bool, 0, c.kills+c.restarts) // true: Neo4j restart
	for range c.kills {
		faults = append(faults, false)
	}
	for range c.restarts {
		faults = append(faults, true)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 14))
	rng.Shuffle(len(faults), func(i, j int) { faults[i], faults[j] = faults[j], faults[i] })
	n4 := neo4j{bin: c.bin, home: c.home}
	probe := &api{http: &http.Client{Timeout: 90 * time.Second}}
	for i, restart := range faults {
		// A random moment: anywhere from right after recovery to twice the
		// mean gap, so some kills land mid-request, mid-job, mid-start.
		wait := time.Duration(rng.Int64N(int64(2*c.gap) + 1))
		select {
		case <-ctx.Done():
			return rep, ctx.Err()
		case <-time.After(wait):
		}
		if !restart {
			g.kill9()
			rep.Kills++
			fmt.Printf("fault %d/%d: kill -9 graphmem after %s (acknowledged so far %d)\n", i+1, len(faults), wait.Round(time.Millisecond), w.appended.Load())
			if err := g.start(); err != nil {
				return rep, err
			}
			took, err := g.waitReady(ctx, 5*time.Minute)
			if err != nil {
				return rep, err
			}
			rep.ReadySeconds = append(rep.ReadySeconds, round(took.Seconds()))
			continue
		}
		crash := rep.Restarts%2 == 1
		fmt.Printf("fault %d/%d: restart Neo4j (%s) after %s\n", i+1, len(faults), map[bool]string{true: "SIGKILL", false: "clean stop"}[crash], wait.Round(time.Millisecond))
		if err := n4.stop(crash); err != nil {
			return rep, err
		}
		rep.Restarts++
		// Through the outage, Neo4j's start included: every answer must be a
		// 503 problem with Retry-After, or a success once the database
		// answers again, and none may hang. The clients keep retrying
		// meanwhile; graphmem is never restarted for this.
		startErr := make(chan error, 1)
		time.AfterFunc(2*time.Second, func() { startErr <- n4.start() })
		var back time.Time
		for k := 0; ; k++ {
			p := outageProbes[k%len(outageProbes)]
			var body any
			if p.method == http.MethodPost {
				body = map[string]any{"user_id": c.run + "-probe", "events": []event{{ID: "p1", Kind: "message", Role: "user", Content: "probe"}}}
			}
			t0 := time.Now()
			code, _, hdr := probe.do(ctx, p.method, g.base()+strings.ReplaceAll(p.path, "RUN", c.run), body)
			took := time.Since(t0)
			rep.OutageProbes++
			rep.OutageMaxSeconds = max(rep.OutageMaxSeconds, round(took.Seconds()))
			switch {
			case code == http.StatusServiceUnavailable && strings.HasPrefix(hdr.Get("Content-Type"), "application/problem+json") && hdr.Get("Retry-After") != "":
				rep.OutageProblem503++
			case code >= 200 && code < 300:
				rep.OutageOK++
			default:
				rep.OutageOther++
				rep.Problems = append(rep.Problems, fmt.Sprintf("during the Neo4j outage %s %s answered %d after %s (Content-Type %q, Retry-After %q)",
					p.method, p.path, code, took.Round(time.Millisecond), hdr.Get("Content-Type"), hdr.Get("Retry-After")))
			}
			if back.IsZero() {
				select {
				case err := <-startErr:
					if err != nil {
						return rep, err
					}
					back = time.Now()
				default:
				}
			}
			if !back.IsZero() && p.method == http.MethodPost && (code == http.StatusOK || code == http.StatusCreated) {
				break
			}
			if !back.IsZero() && (time.Since(back) > 2*time.Minute || !g.alive()) {
				return rep, fmt.Errorf("graphmem did not recover within 2 minutes of Neo4j coming back (alive %v, last answer %d)", g.alive(), code)
			}
			time.Sleep(250 * time.Millisecond)
		}
		rep.RecoverySeconds = append(rep.RecoverySeconds, round(time.Since(back).Seconds()))
	}
	close(stop)
	wg.Wait()
	fmt.Println("faults done; waiting for the job queue to drain")
	drained, err := waitJobsIdle(ctx, cl, g.base(), w.ledger, c.jobTimeout)
	if err != nil {
		rep.Problems = append(rep.Problems, err.Error())
	}
	v, problems := verify(ctx, cl, g.base(), w.ledger)
	v.JobsDrainedSeconds = round(drained.Seconds())
	rep.verdict = v
	rep.Problems = append(rep.Problems, problems...)
	rep.ClientAnswers = counts.snapshot()
	rep.ClientErrors = w.errors
	rep.WallSeconds = round(time.Since(started).Seconds())
	rep.Passed = v.Lost == 0 && v.Duplicates == 0 && v.ContentMismatches == 0 && v.JobsDoneTwice == 0 && v.DuplicateFacts == 0 &&
		v.JobsFailed == 0 && v.JobsUnfinished == 0 && v.SessionsJobsDone == v.SessionsClosed && v.ReadErrors == 0 &&
		rep.OutageOther == 0 && len(w.errors) == 0 && v.Acknowledged > 0 && err == nil
	return rep, nil
}

// replicasPhase measures one graphmem, then two behind the same Neo4j, on
// the same workload (new sessions each time), with no faults.
func replicasPhase(ctx context.Context, bin, uri, run string, clients, sessions int, logDir string, jobTimeout time.Duration) (report, error) {
	started := time.Now()
	rep := report{Phase: "replicas", Run: run, Passed: true}
	var reps []*replica
	defer func() {
		for _, r := range reps {
			r.stop()
		}
	}()
	for n := 1; n <= 2; n++ {
		addr, err := freeAddr()
		if err != nil {
			return rep, err
		}
		r := newReplica(bin, addr, uri, filepath.Join(logDir, fmt.Sprintf("graphmem-%s-r%d.log", run, n)))
		reps = append(reps, r)
		if err := r.start(); err != nil {
			return rep, err
		}
		if _, err := r.waitReady(ctx, 5*time.Minute); err != nil {
			return rep, err
		}
		cl := &api{http: &http.Client{Timeout: 30 * time.Second}}
		live := reps
		w := &workload{base: func(c int) string { return live[c%len(live)].base() }, run: fmt.Sprintf("%s-n%d", run, n),
			clients: clients * n, batches: 3, batch: 4, ledger: newLedger(), api: cl}
		// Twice the clients on two replicas: each replica gets the load one
		// replica got alone, so the figure is what a second box adds.
		t0 := time.Now()
		w.runClients(ctx, nil, sessions)
		ingest := time.Since(t0)
		if _, err := waitJobsIdle(ctx, cl, reps[0].base(), w.ledger, jobTimeout); err != nil {
			return rep, err
		}
		pipeline := time.Since(t0)
		v, problems := verify(ctx, cl, reps[0].base(), w.ledger)
		notFirst := 0
		for _, s := range w.ledger.all() {
			page, err := getJSON[struct{ Jobs []jobView }](ctx, cl, reps[0].base()+"/v1/jobs?limit=1000&session_id="+s.ID)
			if err != nil {
				return rep, err
			}
			for _, j := range page.Jobs {
				if j.Attempts != 1 {
					notFirst++
				}
			}
		}
		x := replicaRun{Replicas: n, Sessions: v.Sessions, Events: v.Acknowledged, IngestSeconds: round(ingest.Seconds()),
			EventsPerSecond: round(float64(v.Acknowledged) / ingest.Seconds()), PipelineSeconds: round(pipeline.Seconds()),
			SessionsPerSecond: round(float64(v.SessionsJobsDone) / pipeline.Seconds()), JobsDone: v.JobsDone,
			JobsNotFirstTry: notFirst, JobsDoneTwice: v.JobsDoneTwice, DuplicateFacts: v.DuplicateFacts, Lost: v.Lost}
		rep.Replicas = append(rep.Replicas, x)
		rep.Problems = append(rep.Problems, problems...)
		rep.ClientErrors = append(rep.ClientErrors, w.errors...)
		if v.Lost > 0 || v.Duplicates > 0 || v.JobsDoneTwice > 0 || v.DuplicateFacts > 0 || notFirst > 0 ||
			v.SessionsJobsDone != v.SessionsClosed || len(w.errors) > 0 {
			rep.Passed = false
		}
	}
	rep.WallSeconds = round(time.Since(started).Seconds())
	return rep, nil
}

func round(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
