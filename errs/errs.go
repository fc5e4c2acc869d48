package errs

import (
	"errors"
	"fmt"
)

// The categories. Callers branch on them with errors.Is; the API maps each
// to one status (404, 409, 422, 503).
var (
	// ErrNotFound means the thing asked for does not exist for this tenant.
	ErrNotFound = errors.New("not found")
	// ErrConflict means the request clashes with stored state (a session
	// owned by another user, a client id reused with other content, a
	// stale version).
	ErrConflict = errors.New("conflict")
	// ErrInvalid means the request cannot be served as given (an identifier
	// outside the allow-list, a malformed value); retrying cannot help.
	ErrInvalid = errors.New("invalid")
	// ErrUnavailable means a backing service (Neo4j, the LLM) could not be
	// reached or timed out; retrying later can help.
	ErrUnavailable = errors.New("unavailable")
)

// NotFoundError names what was not found, for the client: `session "s1"`.
type NotFoundError struct {
	What string
}

func (e *NotFoundError) Error() string { return e.What + ": " + ErrNotFound.Error() }

// Unwrap makes a NotFoundError match ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// NotFound returns a NotFoundError whose What is the formatted text.
func NotFound(format string, args ...any) error {
	return &NotFoundError{What: fmt.Sprintf(format, args...)}
}

// ConflictError says, for the client, how the request clashes with what is
// stored: `session "s1" belongs to another user`.
type ConflictError struct {
	Detail string
}

func (e *ConflictError) Error() string { return ErrConflict.Error() + ": " + e.Detail }

// Unwrap makes a ConflictError match ErrConflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// Conflict returns a ConflictError whose Detail is the formatted text.
func Conflict(format string, args ...any) error {
	return &ConflictError{Detail: fmt.Sprintf(format, args...)}
}

// FieldError says which request field broke which rule; the API renders a
// list of them in the problem's errors[].
type FieldError struct {
	Field   string // JSON name, dotted for nesting: "events[3].kind"
	Rule    string // the rule: "required", "oneof", "max"...
	Message string // a sentence a developer can act on
}

// ValidationError carries field errors found beyond what struct tags can
// express (cross-field rules, references to stored state, values only the
// store can judge).
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	if len(e.Fields) == 0 {
		return "validation failed"
	}
	return fmt.Sprintf("validation failed: %s: %s", e.Fields[0].Field, e.Fields[0].Message)
}

// Unwrap makes a ValidationError match ErrInvalid.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// Invalid returns a ValidationError for one field.
func Invalid(field, rule, format string, args ...any) error {
	return &ValidationError{Fields: []FieldError{{Field: field, Rule: rule, Message: fmt.Sprintf(format, args...)}}}
}
