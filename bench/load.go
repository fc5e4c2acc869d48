package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Closed-loop load: N clients each send a request, wait for the answer and
// send the next. Latency is client-side wall time on loopback, recorded
// only for requests started after the warm-up.

type loadStats struct {
	Name    string  `json:"name"`
	Clients int     `json:"clients"`
	Seconds float64 `json:"seconds"`
	// Requests measured (started after the warm-up, before the end).
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	QPS      float64 `json:"qps"`
	P50      float64 `json:"p50_ms"`
	P95      float64 `json:"p95_ms"`
	P99      float64 `json:"p99_ms"`
	Mean     float64 `json:"mean_ms"`
	Max      float64 `json:"max_ms"`
	// ServerP95 is the p95 of the took_ms graphmem reports, when it does.
	ServerP95 *float64 `json:"server_took_p95_ms,omitempty"`
	// CPUms is the CPU time per request of graphmem and of Neo4j over the
	// measured span (warm-up excluded).
	CPUms      map[string]float64 `json:"cpu_ms_per_request,omitempty"`
	FirstError string             `json:"first_error,omitempty"`
}

// loadOp performs request i of worker w and returns the server-reported
// time in ms (negative when there is none).
type loadOp func(ctx context.Context, w, i int) (float64, error)

func runLoad(ctx context.Context, name string, clients int, warmup, dur time.Duration, op loadOp, cpu cpuProbe, p *progress) loadStats {
	start := time.Now()
	measureFrom := start.Add(warmup)
	end := measureFrom.Add(dur)
	cpuStart := make(chan cpuMark, 1)
	go func() {
		select {
		case <-time.After(time.Until(measureFrom)):
		case <-ctx.Done():
		}
		cpuStart <- cpu.mark()
	}()
	var mu sync.Mutex
	var lat, server []float64
	errs := 0
	firstErr := ""
	var measured atomic.Int64
	stop := p.every(name, func() string {
		if time.Now().Before(measureFrom) {
			return "warming up"
		}
		return fmt.Sprintf("%d requests measured, %.0fs left", measured.Load(), max(0, time.Until(end).Seconds()))
	})
	defer stop()
	var wg sync.WaitGroup
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var myLat, myServer []float64
			myErrs := 0
			myFirst := ""
			for i := 0; ctx.Err() == nil; i++ {
				t0 := time.Now()
				if !t0.Before(end) {
					break
				}
				srv, err := op(ctx, w, i)
				ms := msSince(t0)
				if t0.Before(measureFrom) {
					continue
				}
				measured.Add(1)
				if err != nil {
					myErrs++
					if myFirst == "" {
						myFirst = err.Error()
					}
					continue
				}
				myLat = append(myLat, ms)
				if srv >= 0 {
					myServer = append(myServer, srv)
				}
			}
			mu.Lock()
			lat = append(lat, myLat...)
			server = append(server, myServer...)
			errs += myErrs
			if firstErr == "" {
				firstErr = myFirst
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	span := time.Since(measureFrom).Seconds()
	cpuMS := cpu.perUnit(<-cpuStart, len(lat)+errs)
	ps := percentiles(lat, 50, 95, 99, 100)
	st := loadStats{Name: name, Clients: clients, Seconds: round4(span), Requests: len(lat) + errs, Errors: errs,
		P50: round4(ps[0]), P95: round4(ps[1]), P99: round4(ps[2]), Max: round4(ps[3]), FirstError: firstErr, CPUms: cpuMS}
	if span > 0 {
		st.QPS = round4(float64(len(lat)) / span)
	}
	sum := 0.0
	for _, v := range lat {
		sum += v
	}
	if len(lat) > 0 {
		st.Mean = round4(sum / float64(len(lat)))
	}
	if len(server) > 0 {
		v := round4(percentiles(server, 95)[0])
		st.ServerP95 = &v
	}
	p.Printf("%s: %d clients, %.0f req/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, %d errors; CPU ms/request %v",
		name, clients, st.QPS, st.P50, st.P95, st.P99, st.Errors, st.CPUms)
	return st
}

// searchQuery is one (user, question) pair of the latency mix.
type searchQuery struct{ UserID, Text string }

// interleave lists the questions of all users round-robin, so each client
// of the load cycles through every user's memory.
func interleave(convs []*conversation) []searchQuery {
	var out []searchQuery
	for i := 0; ; i++ {
		added := false
		for _, cv := range convs {
			if i < len(cv.QA) {
				out = append(out, searchQuery{UserID: cv.UserID, Text: cv.QA[i].Text})
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

// searchOp cycles each worker through qs from its own offset.
func searchOp(c *client, qs []searchQuery, clients int) loadOp {
	return func(ctx context.Context, w, i int) (float64, error) {
		q := qs[(w*len(qs)/clients+i)%len(qs)]
		res, err := c.search(ctx, searchRequest{UserID: q.UserID, Query: q.Text, Limit: topK})
		if err != nil {
			return -1, err
		}
		return res.TookMS, nil
	}
}

// healthOp is the HTTP floor: the same load against /healthz, which does
// no work, shows what loopback, HTTP and the scheduler cost on this box.
func healthOp(c *client) loadOp {
	return func(ctx context.Context, _, _ int) (float64, error) {
		_, err := c.call(ctx, "healthz", "GET", "/healthz", nil, nil)
		return -1, err
	}
}

// ingestStats is one ingest throughput measurement.
type ingestStats struct {
	Name         string         `json:"name"`
	Clients      int            `json:"clients"`
	BatchSize    int            `json:"batch_size"`
	Events       int            `json:"events"`
	Requests     int            `json:"requests"`
	Seconds      float64        `json:"seconds"`
	EventsPerSec float64        `json:"events_per_second"`
	RequestMS    latencySummary `json:"request_ms"`
	Errors       int            `json:"errors"`
	FirstError   string         `json:"first_error,omitempty"`
	// CPUms is the CPU time per 1,000 stored events of graphmem and Neo4j.
	CPUms map[string]float64 `json:"cpu_ms_per_1000_events,omitempty"`
}

// ingestLoad appends total synthetic events for a fresh user, batch events
// per request, from clients concurrent clients each on its own session.
// Events are generated before the clock starts.
func ingestLoad(ctx context.Context, c *client, name, userID string, total, batch, clients int, seed uint64, cpu cpuProbe, p *progress) ingestStats {
	gen := newSynth(seed)
	per := total / clients
	type req struct {
		session string
		events  []eventIn
	}
	work := make([][]req, clients)
	base := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	for w := range clients {
		sess := fmt.Sprintf("%s-c%d", userID, w)
		for n := 0; n < per; n += batch {
			size := min(batch, per-n)
			evs := gen.session(fmt.Sprintf("c%d-", w), n, size, base.Add(time.Duration(w)*time.Hour))
			work[w] = append(work[w], req{session: sess, events: evs})
		}
	}
	// One untimed request per client first, so connection set-up and the
	// first writes of a new user are not part of the rate.
	for w := range clients {
		warm := gen.session(fmt.Sprintf("w%d-", w), 0, batch, base)
		if err := c.appendEvents(ctx, userID, fmt.Sprintf("%s-warm%d", userID, w), warm); err != nil {
			p.Printf("%s: warm-up append failed: %v", name, err)
		}
	}
	st := ingestStats{Name: name, Clients: clients, BatchSize: batch}
	var done atomic.Int64
	stop := p.every(name, func() string { return fmt.Sprintf("%d/%d events", done.Load(), per*clients) })
	defer stop()
	var mu sync.Mutex
	var lat []float64
	start := time.Now()
	cpuStart := cpu.mark()
	var wg sync.WaitGroup
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, r := range work[w] {
				if ctx.Err() != nil {
					return
				}
				t0 := time.Now()
				err := c.appendEvents(ctx, userID, r.session, r.events)
				ms := msSince(t0)
				mu.Lock()
				st.Requests++
				if err != nil {
					st.Errors++
					if st.FirstError == "" {
						st.FirstError = err.Error()
					}
				} else {
					st.Events += len(r.events)
					lat = append(lat, ms)
				}
				mu.Unlock()
				done.Add(int64(len(r.events)))
			}
		}()
	}
	wg.Wait()
	st.Seconds = round4(time.Since(start).Seconds())
	st.EventsPerSec = round4(float64(st.Events) / st.Seconds)
	st.RequestMS = summarize(lat)
	st.CPUms = perThousand(cpu.perUnit(cpuStart, st.Events))
	p.Printf("%s: %d events in %.1fs = %.0f events/s (%d clients, %d per request, p95 %.1f ms/request, %d errors)",
		name, st.Events, st.Seconds, st.EventsPerSec, clients, batch, st.RequestMS.P95, st.Errors)
	return st
}

func perThousand(m map[string]float64) map[string]float64 {
	for k, v := range m {
		m[k] = round4(v * 1000)
	}
	return m
}
