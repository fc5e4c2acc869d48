package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// event is what a client sent and the service acknowledged.
type event struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ledger records every acknowledged event and every acknowledged close.
// Only a 200/201 (append) or 200/202 (close) counts: an event whose request
// failed may or may not be stored, and is re-sent until acknowledged.
type ledger struct {
	mu       sync.Mutex
	sessions map[string]*sessionLog
	order    []string
}

type sessionLog struct {
	ID     string
	User   string
	Events []event
	Closed bool
}

func newLedger() *ledger { return &ledger{sessions: map[string]*sessionLog{}} }

func (l *ledger) acked(session, user string, evs []event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.sessions[session]
	if !ok {
		s = &sessionLog{ID: session, User: user}
		l.sessions[session] = s
		l.order = append(l.order, session)
	}
	s.Events = append(s.Events, evs...)
}

func (l *ledger) closed(session string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sessions[session].Closed = true
}

func (l *ledger) all() []*sessionLog {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]*sessionLog, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, l.sessions[id])
	}
	return out
}

// statusCounts counts the answers clients got, by status (0: no answer).
type statusCounts struct {
	mu sync.Mutex
	m  map[int]int
}

func (s *statusCounts) add(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[int]int{}
	}
	s.m[code]++
}

func (s *statusCounts) snapshot() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.m {
		name := strconv.Itoa(k)
		if k == 0 {
			name = "no_answer"
		}
		out[name] = v
	}
	return out
}

// api is a plain HTTP client of the service (bench packages import none of
// the server's).
type api struct {
	http   *http.Client
	counts *statusCounts
}

// do sends one request and returns the status (0 when no answer came), the
// body and the response headers.
func (a *api) do(ctx context.Context, method, url string, body any) (int, []byte, http.Header) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.http.Do(req)
	if err != nil {
		if a.counts != nil {
			a.counts.add(0)
		}
		return 0, nil, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if a.counts != nil {
		a.counts.add(resp.StatusCode)
	}
	return resp.StatusCode, raw, resp.Header
}

// untilAcked repeats a request until one of ok answers it; what the
// service may answer while crashing or while Neo4j is down (no answer,
// 5xx, 429) is retried, honouring Retry-After (capped). Any other status is
// a bug the suite reports.
func (a *api) untilAcked(ctx context.Context, method, url string, body any, ok ...int) (int, []byte, error) {
	delay := 100 * time.Millisecond
	for {
		code, raw, hdr := a.do(ctx, method, url, body)
		for _, want := range ok {
			if code == want {
				return code, raw, nil
			}
		}
		if code != 0 && code < 500 && code != http.StatusTooManyRequests && code != 499 {
			return code, raw, fmt.Errorf("%s %s: unexpected %d: %s", method, url, code, raw)
		}
		wait := delay
		if s, err := strconv.Atoi(hdr.Get("Retry-After")); err == nil && s > 0 {
			wait = min(time.Duration(s)*time.Second, 2*time.Second)
		}
		select {
		case <-ctx.Done():
			return code, raw, ctx.Err()
		case <-time.After(wait):
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// sentences give the offline engine facts to extract, so the pipeline's
// jobs write real results whose duplicates the suite can count.
var sentences = []string{
	"I live in %s now.",
	"I work at %s as an engineer.",
	"My favourite food is %s.",
	"I love %s, honestly.",
	"My sister %s visits next week.",
	"We adopted a dog called %s.",
}

var words = []string{"Oslo", "Lisbon", "Fjordline", "Acme", "ramen", "tacos", "hiking", "chess", "Marta", "Jonas", "Biscuit", "Pepper"}

// workload drives clients that append batches and close sessions until
// stop is closed; each finishes the session it is in first.
type workload struct {
	base     func(client int) string
	run      string
	clients  int
	batches  int // per session
	batch    int // events per batch
	pause    time.Duration
	ledger   *ledger
	api      *api
	errMu    sync.Mutex
	errors   []string
	appended atomic.Int64
}

func (w *workload) fail(err error) {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	if len(w.errors) < 50 {
		w.errors = append(w.errors, err.Error())
	}
}

// runClients runs the clients until stop is closed, or until each did
// maxSessions sessions (0: no limit).
func (w *workload) runClients(ctx context.Context, stop <-chan struct{}, maxSessions int) {
	var wg sync.WaitGroup
	for c := range w.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), uint64(len(w.run))))
			user := fmt.Sprintf("%s-u%d", w.run, c)
			for s := 0; maxSessions == 0 || s < maxSessions; s++ {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				default:
				}
				w.session(ctx, c, user, fmt.Sprintf("%s-c%d-s%d", w.run, c, s), rng)
			}
		}()
	}
	wg.Wait()
}

func (w *workload) session(ctx context.Context, client int, user, session string, rng *rand.Rand) {
	for b := range w.batches {
		evs := make([]event, w.batch)
		for k := range evs {
			role := "user"
			text := fmt.Sprintf(sentences[rng.IntN(len(sentences))], words[rng.IntN(len(words))])
			if k%2 == 1 {
				role, text = "assistant", "Noted: "+strings.ToLower(text)
			}
			evs[k] = event{ID: fmt.Sprintf("b%d-e%d", b, k), Kind: "message", Role: role,
				Content: fmt.Sprintf("%s (%s #%d.%d)", text, session, b, k)}
		}
		_, _, err := w.api.untilAcked(ctx, http.MethodPost, w.base(client)+"/v1/sessions/"+session+"/events",
			map[string]any{"user_id": user, "events": evs}, http.StatusCreated, http.StatusOK)
		if err != nil {
			if ctx.Err() == nil {
				w.fail(err)
			}
			return
		}
		w.ledger.acked(session, user, evs)
		w.appended.Add(int64(len(evs)))
		time.Sleep(w.pause)
	}
	if _, _, err := w.api.untilAcked(ctx, http.MethodPost, w.base(client)+"/v1/sessions/"+session+"/close", nil,
		http.StatusOK, http.StatusAccepted); err != nil {
		if ctx.Err() == nil {
			w.fail(err)
		}
		return
	}
	w.ledger.closed(session)
}
