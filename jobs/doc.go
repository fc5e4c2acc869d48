// Package jobs is graphmem's generic background worker: it claims jobs
// from a durable queue under a lease it renews while the handler runs,
// retries failures with backoff, fails them for good after their last
// attempt (or at once when a handler marks the error Permanent), and
// drains in-flight handlers at shutdown.
//
// Jobs run at least once. A worker that crashes, hangs past its lease or is
// stopped before a handler finishes leaves the job "running" with a lease
// that expires, and then any replica claims it again (attempts+1). A
// handler can therefore run more than once for one job and must be
// idempotent: MERGE rather than CREATE, "already done" checks on the
// target, deterministic ids.
//
// The package knows nothing of what the jobs do or where the queue lives:
// it declares the Store it needs and the Job it hands to handlers, and
// imports no graphmem package. memory registers the handlers and adapts the
// graph's job table to Store; cmd/graphmem starts the worker.
package jobs
