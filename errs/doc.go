// Package errs holds graphmem's error categories and the typed errors that
// carry client-facing text.
//
// Every layer reports failures in one of four categories (ErrNotFound,
// ErrConflict, ErrInvalid, ErrUnavailable), matched with errors.Is, and the
// API maps each category to one HTTP status in one place (api/problem.go).
// What a client reads travels in a typed error (NotFoundError,
// ConflictError, ValidationError) that unwraps to its category, so the API
// never cuts text out of an error string, and operation names added by
// wrapping stay in the log.
//
// It is a leaf: it imports no graphmem package, so graph, memory,
// retrieval and api can all depend on it.
package errs
