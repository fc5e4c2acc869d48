package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// The scale run (BENCH_SCALE=1): about 1M synthetic raw events over many
// users, ingested batched (one request per session), then search latency
// with 8 clients at that size, for synthetic users and for the LoCoMo users
// who now share the database with them. Sessions are left open by default:
// the target is about raw events, and extracting 1M events would take hours
// and keep the workers busy during the latency run. -scale-close closes
// them and waits for the queue instead.

type scaleConfig struct {
	Events, Users, SessionSize, Clients int
	Close                               bool
}

type scaleReport struct {
	Config       scaleConfig `json:"config"`
	Ingest       ingestStats `json:"ingest"`
	DrainSeconds float64     `json:"close_and_drain_seconds,omitempty"`
	// DrainCPUms is the CPU time per event of graphmem and Neo4j from the
	// first close to the empty queue (-scale-close).
	DrainCPUms map[string]float64 `json:"close_and_drain_cpu_ms_per_event,omitempty"`
	// Search at size: synthetic users, and the LoCoMo questions.
	SearchSynthetic loadStats  `json:"search_synthetic_users"`
	SearchLoCoMo    *loadStats `json:"search_locomo_users,omitempty"`
	Health          loadStats  `json:"healthz_floor"`
}

func runScale(ctx context.Context, c *client, sc scaleConfig, lc loadConfig, locomoQs []searchQuery, cpu cpuProbe, p *progress) (*scaleReport, error) {
	rep := &scaleReport{Config: sc}
	perUser := sc.Events / sc.Users
	sessionsPerUser := (perUser + sc.SessionSize - 1) / sc.SessionSize
	type job struct {
		user, session string
		n             int
		start         time.Time
		seed          uint64
	}
	jobs := make(chan job, 64)
	go func() {
		defer close(jobs)
		base := time.Date(2023, 1, 1, 8, 0, 0, 0, time.UTC)
		// Round-robin over users so every user grows through the run.
		for s := range sessionsPerUser {
			for u := range sc.Users {
				n := min(sc.SessionSize, perUser-s*sc.SessionSize)
				if n <= 0 {
					continue
				}
				select {
				case jobs <- job{user: fmt.Sprintf("scale-u%04d", u), session: fmt.Sprintf("scale-u%04d-s%03d", u, s), n: n,
					start: base.Add(time.Duration(s*24+u%24) * time.Hour), seed: uint64(u*10000 + s)}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	st := ingestStats{Name: "scale ingest", Clients: sc.Clients, BatchSize: sc.SessionSize}
	var done atomic.Int64
	total := perUser * sc.Users
	start := time.Now()
	cpuStart := cpu.mark()
	stop := p.every("scale ingest", func() string {
		d := done.Load()
		rate := float64(d) / time.Since(start).Seconds()
		eta := "?"
		if rate > 0 {
			eta = (time.Duration(float64(int64(total)-d)/rate) * time.Second).Round(time.Second).String()
		}
		return fmt.Sprintf("%d/%d events, %.0f events/s, ETA %s", d, total, rate, eta)
	})
	var mu sync.Mutex
	var lat []float64
	var appended []string
	var wg sync.WaitGroup
	for range sc.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				evs := newSynth(j.seed).session("e", 0, j.n, j.start)
				t0 := time.Now()
				err := c.appendEvents(ctx, j.user, j.session, evs)
				ms := msSince(t0)
				mu.Lock()
				st.Requests++
				if err != nil {
					st.Errors++
					if st.FirstError == "" {
						st.FirstError = err.Error()
					}
				} else {
					st.Events += j.n
					lat = append(lat, ms)
					appended = append(appended, j.session)
				}
				mu.Unlock()
				done.Add(int64(j.n))
			}
		}()
	}
	wg.Wait()
	stop()
	st.Seconds = round4(time.Since(start).Seconds())
	st.EventsPerSec = round4(float64(st.Events) / st.Seconds)
	st.RequestMS = summarize(lat)
	st.CPUms = perThousand(cpu.perUnit(cpuStart, st.Events))
	rep.Ingest = st
	p.Printf("scale ingest: %d events in %.0fs = %.0f events/s (%d errors)", st.Events, st.Seconds, st.EventsPerSec, st.Errors)
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}
	if sc.Close {
		t0, cpu0 := time.Now(), cpu.mark()
		for i, s := range appended {
			if _, err := c.call(ctx, "close", "POST", "/v1/sessions/"+s+"/close", nil, nil); err != nil {
				return rep, err
			}
			if i%1000 == 0 {
				p.Printf("scale: closed %d/%d sessions", i, len(appended))
			}
		}
		p.Printf("scale: waiting for condensation and extraction of %d sessions", len(appended))
		if err := c.drain(ctx, 2*time.Second); err != nil {
			return rep, err
		}
		rep.DrainSeconds = round4(time.Since(t0).Seconds())
		rep.DrainCPUms = cpu.perUnit(cpu0, st.Events)
		p.Printf("scale: %d events closed, condensed, extracted and written in %.0fs = %.0f turns/s; CPU ms per event %v",
			st.Events, rep.DrainSeconds, float64(st.Events)/rep.DrainSeconds, rep.DrainCPUms)
	}

	gen := newSynth(42)
	var qs []searchQuery
	for i := range 2000 {
		qs = append(qs, searchQuery{UserID: fmt.Sprintf("scale-u%04d", (i*7919)%sc.Users), Text: gen.query()})
	}
	rep.SearchSynthetic = runLoad(ctx, "scale search (synthetic users)", lc.Clients, lc.Warmup, lc.Duration, searchOp(c, qs, lc.Clients), cpu, p)
	if len(locomoQs) > 0 {
		l := runLoad(ctx, "scale search (LoCoMo users)", lc.Clients, lc.Warmup, lc.Duration, searchOp(c, locomoQs, lc.Clients), cpu, p)
		rep.SearchLoCoMo = &l
	}
	rep.Health = runLoad(ctx, "scale healthz floor", lc.Clients, time.Second, lc.Duration/4, healthOp(c), cpu, p)
	return rep, nil
}
