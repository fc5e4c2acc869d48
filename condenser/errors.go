package condenser

import (
	"errors"
	"fmt"
)

// Sentinel errors. Callers branch on them with errors.Is; the package wraps
// them with the operation or field that failed.
var (
	// ErrInvalidConfig means a Config (or a profile) cannot build a
	// condenser. The wrapping FieldError names the offending JSON field.
	ErrInvalidConfig = errors.New("invalid condenser config")
	// ErrMissingDependency means New was asked for a condenser whose
	// summarizer, attender or token counter was not supplied in Deps, or
	// whose dependency lacks a capability it needs (function calling,
	// response schema).
	ErrMissingDependency = errors.New("missing condenser dependency")
	// ErrInvalidCondensation means a Condensation breaks the record's rules:
	// exactly one forgetting form, summary and offset set together.
	ErrInvalidCondensation = errors.New("invalid condensation")
	// ErrNoCondensation means a condensation was required but none could be
	// produced: an empty or too small forget range, or a failed LLM call.
	// A SOFT requirement swallows it (Result.Deferred); a HARD one surfaces
	// it when no hard context reset is possible.
	ErrNoCondensation = errors.New("no condensation available")
	// ErrUnknownProfile means Profile was asked for a name it does not know.
	ErrUnknownProfile = errors.New("unknown condenser profile")
)

// FieldError reports one problem with one field. Field is the JSON path
// (for example "condensers[2].keep_first"), so the API layer can key its
// problem+json errors[] by it. It unwraps to its sentinel.
type FieldError struct {
	Field   string
	Problem string
	Err     error // ErrInvalidConfig, ErrMissingDependency or ErrInvalidCondensation
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%v: %s: %s", e.Err, e.Field, e.Problem)
}

func (e *FieldError) Unwrap() error { return e.Err }

func fieldErr(sentinel error, field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...), Err: sentinel}
}
