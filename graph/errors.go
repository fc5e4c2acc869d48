package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/errs"
)

// The error categories of package errs, named here so that graph's code
// reads as one package; callers outside graph match errs.ErrNotFound and
// its siblings. What a client should read travels in errs.NotFound,
// errs.Conflict and errs.Invalid errors, which match the same categories.
var (
	// ErrNotFound means the thing asked for does not exist for this tenant.
	ErrNotFound = errs.ErrNotFound
	// ErrConflict means the write clashes with stored state (a uniqueness
	// constraint, a session owned by another user, a stale version).
	ErrConflict = errs.ErrConflict
	// ErrUnavailable means Neo4j could not be reached or timed out; it
	// matches errs.ErrUnavailable and says which backing service failed.
	ErrUnavailable = fmt.Errorf("graph database %w", errs.ErrUnavailable)
	// ErrInvalid means the request cannot be stored as given (an identifier
	// outside the allow-list, a malformed value).
	ErrInvalid = errs.ErrInvalid
)

// mapError wraps a driver error with the operation name and the sentinel
// that describes it, keeping the driver error in the chain for logs.
func mapError(op string, err error) error {
	if err == nil {
		return nil
	}
	var neoErr *neo4j.Neo4jError
	switch {
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrConflict), errors.Is(err, ErrInvalid), errors.Is(err, ErrUnavailable):
		return fmt.Errorf("%s: %w", op, err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return fmt.Errorf("%s: %w: %w", op, ErrUnavailable, err)
	case neo4j.IsConnectivityError(err), neo4j.IsTransactionExecutionLimit(err):
		return fmt.Errorf("%s: %w: %w", op, ErrUnavailable, err)
	case errors.As(err, &neoErr):
		switch {
		case neoErr.Code == "Neo.ClientError.Schema.ConstraintValidationFailed":
			return fmt.Errorf("%s: %w: %w", op, ErrConflict, err)
		case strings.HasPrefix(neoErr.Code, "Neo.TransientError."),
			neoErr.Code == "Neo.ClientError.Transaction.TransactionTimedOut",
			neoErr.Code == "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration":
			return fmt.Errorf("%s: %w: %w", op, ErrUnavailable, err)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}
