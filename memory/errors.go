package memory

import (
	"fmt"

	"github.com/graphmem/graphmem/graph"
)

// Error categories the API maps to HTTP statuses. The graph sentinels are
// re-exported rather than translated, so errors.Is works across both layers
// without a second wrapping step.
var (
	ErrNotFound    = graph.ErrNotFound
	ErrConflict    = graph.ErrConflict
	ErrUnavailable = graph.ErrUnavailable
	ErrInvalid     = graph.ErrInvalid
)

// FieldError says which request field broke which rule; the API renders a
// list of them in the problem's errors[].
type FieldError struct {
	Field   string // JSON name, dotted for nesting: "events[3].kind"
	Rule    string // the rule: "required", "oneof", "max"...
	Message string // a sentence a developer can act on
}

// ValidationError carries field errors found beyond what struct tags can
// express (cross-field rules, references to stored state).
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

// invalid builds a ValidationError for one field.
func invalid(field, rule, format string, args ...any) error {
	return &ValidationError{Fields: []FieldError{{Field: field, Rule: rule, Message: fmt.Sprintf(format, args...)}}}
}
