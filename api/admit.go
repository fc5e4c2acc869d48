package api

import (
	"context"
	"crypto/sha256"
	"errors"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/time/rate"
)

// Errors of admission: a key over its rate, a read-only key writing.
var (
	errForbidden = errors.New("this API key is read-only")
)

// rateLimitedError is a request refused by its key's token bucket; it
// carries how long until a token is free (the Retry-After).
type rateLimitedError struct{ retryAfter time.Duration }

func (e *rateLimitedError) Error() string { return "rate limit exceeded" }

// retryAfterSeconds is Retry-After's whole seconds, at least 1 (0 would
// tell a client to retry at once, into the same empty bucket).
func (e *rateLimitedError) retryAfterSeconds() int {
	return max(1, int(math.Ceil(e.retryAfter.Seconds())))
}

// rateLimiter keeps one token bucket per API key. Buckets are keyed by the
// key's hash, so a key reload (SIGHUP) keeps the state of the keys that
// stay. Only authenticated keys get a bucket, so the map is bounded by the
// keys ever configured; with auth off every request shares one bucket.
// The limit is per replica: N replicas admit N times the rate.
type rateLimiter struct {
	limit rate.Limit
	burst int

	mu      sync.Mutex
	buckets map[[sha256.Size]byte]*rate.Limiter
}

// newRateLimiter returns nil (no limit) when perSecond is 0. A burst of 0
// is one second's worth of requests, at least 1.
func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	if perSecond <= 0 {
		return nil
	}
	if burst <= 0 {
		burst = max(1, int(math.Ceil(perSecond)))
	}
	return &rateLimiter{limit: rate.Limit(perSecond), burst: burst, buckets: map[[sha256.Size]byte]*rate.Limiter{}}
}

// allow takes a token from the key's bucket, or says how long until one
// is free.
func (l *rateLimiter) allow(key [sha256.Size]byte, now time.Time) error {
	l.mu.Lock()
	b, ok := l.buckets[key]
	if !ok {
		b = rate.NewLimiter(l.limit, l.burst)
		l.buckets[key] = b
	}
	l.mu.Unlock()
	if b.AllowN(now, 1) {
		return nil
	}
	r := b.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	r.CancelAt(now) // a refused request must not consume the next token
	return &rateLimitedError{retryAfter: wait}
}

// admittedKey marks a request context whose key has been charged and
// checked already: the in-process /v1 calls an MCP request makes (api/mcp)
// carry its context, so one MCP request costs one token, not one per tool
// call. A context value cannot be set from outside the process.
type admittedKey struct{}

// admit applies the key's rate limit and its read-only flag; it runs after
// authenticate.
func admit(limiter *rateLimiter, fail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		key, _ := c.Get(ctxKey)
		entry, _ := key.(keyEntry)
		if limiter != nil && ctx.Value(admittedKey{}) == nil {
			if err := limiter.allow(entry.hash, time.Now()); err != nil {
				fail(c, err)
				return
			}
		}
		if entry.readOnly && isWrite(c.Request.Method, c.FullPath()) {
			fail(c, errForbidden)
			return
		}
		if c.FullPath() == "/mcp" {
			// The tools' own /v1 calls are checked for writes (the inner
			// route is known there) but not charged again.
			c.Request = c.Request.WithContext(context.WithValue(ctx, admittedKey{}, true))
		}
		c.Next()
	}
}

// readPosts are the POST routes that only read: a search or a context
// names what to read in a body. The context routes may condense the
// session first, which stores only what graphmem derives, nothing the
// client sent.
var readPosts = map[string]bool{
	"/v1/search":                       true,
	"/v1/context":                      true,
	"/v1/sessions/:session_id/context": true,
	"/mcp":                             true, // its tools' /v1 calls are checked one by one
}

// isWrite reports whether a route changes stored state, the routes a
// read-only key may not call.
func isWrite(method, route string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	case http.MethodPost:
		return !readPosts[route]
	default:
		return true
	}
}

// setRetryAfter sets the Retry-After of a rate-limited answer.
func setRetryAfter(c *gin.Context, err error) {
	var rl *rateLimitedError
	if errors.As(err, &rl) {
		c.Header("Retry-After", strconv.Itoa(rl.retryAfterSeconds()))
	}
}
