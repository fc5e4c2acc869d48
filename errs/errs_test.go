package errs

import (
	"errors"
	"fmt"
	"testing"
)

func TestTypedErrorsMatchTheirCategoryAndKeepTheirText(t *testing.T) {
	cases := []struct {
		err      error
		category error
		text     string
	}{
		{NotFound("session %q", "s1"), ErrNotFound, `session "s1": not found`},
		{Conflict("session %q belongs to another user", "s1"), ErrConflict, `conflict: session "s1" belongs to another user`},
		{Invalid("events[0].kind", "oneof", "must be one of: %s", "message"), ErrInvalid, "validation failed: events[0].kind: must be one of: message"},
	}
	for _, c := range cases {
		wrapped := fmt.Errorf("raw.append: %w", c.err)
		if !errors.Is(wrapped, c.category) {
			t.Errorf("%v does not match %v", c.err, c.category)
		}
		if c.err.Error() != c.text {
			t.Errorf("Error() = %q, want %q", c.err.Error(), c.text)
		}
		for _, other := range []error{ErrNotFound, ErrConflict, ErrInvalid, ErrUnavailable} {
			if other != c.category && errors.Is(c.err, other) {
				t.Errorf("%v also matches %v", c.err, other)
			}
		}
	}
	if nf, ok := errors.AsType[*NotFoundError](fmt.Errorf("op: %w", NotFound("entity %q", "e1"))); !ok || nf.What != `entity "e1"` {
		t.Errorf("the client text does not survive wrapping: %+v", nf)
	}
}
