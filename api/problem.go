package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/go-playground/validator/v10"

	"github.com/graphmem/graphmem/errs"
)

// Problem is an RFC 9457 problem details body. Every error response of the
// API, including unknown routes and wrong methods, is one of these.
type Problem struct {
	Type      string       `json:"type"`
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail,omitempty"`
	Instance  string       `json:"instance,omitempty"`
	RequestID string       `json:"request_id,omitempty"`
	Errors    []FieldIssue `json:"errors,omitempty"`
}

// FieldIssue names one field and the rule it broke.
type FieldIssue struct {
	Field   string `json:"field"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

const problemContentType = "application/problem+json"

// statusClientClosedRequest is nginx's non-standard 499: the client went
// away, so no one reads the answer and the server is not at fault.
const statusClientClosedRequest = 499

// problemType returns the type URI of a problem kind; each is documented on
// the /docs page under that anchor.
func problemType(slug string) string { return "/docs#problem-" + slug }

// Errors the handlers and middleware raise themselves; everything else comes
// from the layers below and is mapped by its errs category.
var (
	errUnauthorized  = errors.New("missing or unknown API key")
	errRouteNotFound = errors.New("no such route")
	errMethod        = errors.New("method not allowed")
	errBadJSON       = errors.New("malformed request body")
)

// httpError is an error that already knows its status and problem slug.
// cause, when set, is logged (and matched by errors.Is) but never sent.
type httpError struct {
	status int
	slug   string
	title  string
	detail string
	issues []FieldIssue
	cause  error
}

func (e *httpError) Error() string {
	if e.cause != nil {
		return e.detail + ": " + e.cause.Error()
	}
	return e.detail
}

func (e *httpError) Unwrap() error { return e.cause }

// invalidField is the 422 problem of one field a handler or binder checked
// itself; its detail reads like the validator's ("field: message"). The
// validator's and the lower layers' typed errors are mapped by type in
// toProblem instead.
func invalidField(field, rule, message string) *httpError {
	return &httpError{status: http.StatusUnprocessableEntity, slug: "validation", title: "Validation failed",
		detail: field + ": " + message, issues: []FieldIssue{{Field: field, Rule: rule, Message: message}}}
}

// toProblem is the single mapping from errors to HTTP. 5xx problems carry a
// generic detail: internals are logged with the request id, never sent; a
// 4xx detail comes from a typed error (errs.NotFoundError, ConflictError,
// ValidationError), never from the text of a wrapped error.
func toProblem(err error) Problem {
	var (
		herr     *httpError
		verrs    validator.ValidationErrors
		valErr   *errs.ValidationError
		notFound *errs.NotFoundError
		conflict *errs.ConflictError
		maxBytes *http.MaxBytesError
		syntax   *json.SyntaxError
		typeErr  *json.UnmarshalTypeError
	)
	switch {
	// First: a disconnect surfaces from any layer, often wrapped in that
	// layer's own error (unavailable, internal), and is not a server fault.
	case errors.Is(err, context.Canceled):
		return Problem{Type: problemType("client-closed-request"), Title: "Client closed request", Status: statusClientClosedRequest,
			Detail: "the client closed the connection before the response was ready"}
	case errors.As(err, &herr):
		return Problem{Type: problemType(herr.slug), Title: herr.title, Status: herr.status, Detail: herr.detail, Errors: herr.issues}
	case errors.As(err, &maxBytes):
		return Problem{Type: problemType("body-too-large"), Title: "Request body too large", Status: http.StatusRequestEntityTooLarge,
			Detail: fmt.Sprintf("the request body exceeds %d bytes; send smaller batches", maxBytes.Limit)}
	case errors.As(err, &verrs):
		return validationProblem(fieldIssues(verrs))
	case errors.As(err, &valErr):
		issues := make([]FieldIssue, len(valErr.Fields))
		for i, f := range valErr.Fields {
			issues[i] = FieldIssue{Field: f.Field, Rule: f.Rule, Message: f.Message}
		}
		return validationProblem(issues)
	case errors.As(err, &typeErr):
		want := jsonKind(typeErr.Type.Kind().String())
		msg := fmt.Sprintf("must be a JSON %s, not %s", want, typeErr.Value)
		if num, ok := strings.CutPrefix(typeErr.Value, "number "); ok && want == "number" {
			msg = "must be an integer, not " + num // a fraction or out of range
		}
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return validationProblem([]FieldIssue{{Field: field, Rule: "type", Message: msg}})
	case errors.As(err, &syntax), errors.Is(err, errBadJSON), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		detail := strings.TrimPrefix(strings.TrimPrefix(err.Error(), errBadJSON.Error()+": "), "json: ")
		return Problem{Type: problemType("malformed-body"), Title: "Malformed request body", Status: http.StatusBadRequest,
			Detail: "the body is not valid JSON: " + detail}
	case errors.As(err, new(*rateLimitedError)):
		return Problem{Type: problemType("rate-limited"), Title: "Too many requests", Status: http.StatusTooManyRequests,
			Detail: "this API key is over its rate limit (GRAPHMEM_RATE_LIMIT); retry after the Retry-After delay"}
	case errors.Is(err, errForbidden):
		return Problem{Type: problemType("forbidden"), Title: "Forbidden", Status: http.StatusForbidden,
			Detail: "this API key is read-only: it may read and search, not write"}
	case errors.Is(err, errUnauthorized):
		return Problem{Type: problemType("unauthorized"), Title: "Unauthorized", Status: http.StatusUnauthorized,
			Detail: "send a valid API key as `Authorization: Bearer <key>` or `X-API-Key: <key>`"}
	case errors.Is(err, errRouteNotFound):
		return Problem{Type: problemType("not-found"), Title: "Not found", Status: http.StatusNotFound,
			Detail: "no such route; the API is described at /openapi.yaml and /docs"}
	case errors.Is(err, errMethod):
		return Problem{Type: problemType("method-not-allowed"), Title: "Method not allowed", Status: http.StatusMethodNotAllowed,
			Detail: "this route does not accept that method; see the Allow header"}
	// The client-facing text of a 404 or 409 travels in a typed error; an
	// error that matches only the category (a constraint violation, say)
	// says what kind of problem it is, never its internals.
	case errors.As(err, &notFound):
		return Problem{Type: problemType("not-found"), Title: "Not found", Status: http.StatusNotFound, Detail: notFound.What}
	case errors.As(err, &conflict):
		return Problem{Type: problemType("conflict"), Title: "Conflict", Status: http.StatusConflict, Detail: conflict.Detail}
	case errors.Is(err, errs.ErrInvalid):
		return validationProblem([]FieldIssue{{Field: "body", Rule: "invalid", Message: "the request cannot be stored as given"}})
	case errors.Is(err, errs.ErrNotFound):
		return Problem{Type: problemType("not-found"), Title: "Not found", Status: http.StatusNotFound,
			Detail: "the resource does not exist for this tenant"}
	case errors.Is(err, errs.ErrConflict):
		return Problem{Type: problemType("conflict"), Title: "Conflict", Status: http.StatusConflict,
			Detail: "the request clashes with the stored state; read it again and retry"}
	case errors.Is(err, context.DeadlineExceeded):
		return Problem{Type: problemType("timeout"), Title: "Request timed out", Status: http.StatusGatewayTimeout,
			Detail: "the request did not finish within the server's deadline; retry, or ask for less (smaller limit or batch)"}
	case errors.Is(err, errs.ErrUnavailable):
		return Problem{Type: problemType("unavailable"), Title: "Service unavailable", Status: http.StatusServiceUnavailable,
			Detail: "a backing service (Neo4j or the LLM) is unavailable; retry later"}
	default:
		return Problem{Type: problemType("internal"), Title: "Internal server error", Status: http.StatusInternalServerError,
			Detail: "an unexpected error occurred; report the request_id to the operator"}
	}
}

func validationProblem(issues []FieldIssue) Problem {
	detail := "the request is invalid"
	if len(issues) > 0 {
		detail = fmt.Sprintf("%s: %s", issues[0].Field, issues[0].Message)
		if len(issues) > 1 {
			detail += fmt.Sprintf(" (and %d more)", len(issues)-1)
		}
	}
	return Problem{Type: problemType("validation"), Title: "Validation failed", Status: http.StatusUnprocessableEntity,
		Detail: detail, Errors: issues}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "int", "int64", "int32", "float64", "float32", "uint", "uint64":
		return "number"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	default:
		return "object"
	}
}

// abortWithProblem maps err, logs it once (at the edge, with the request
// id), and writes the problem.
func abortWithProblem(c *gin.Context, log *slog.Logger, err error) {
	p := toProblem(err)
	p.Instance = c.Request.URL.Path
	p.RequestID = requestIDFrom(c)
	// A 503 is a dependency being down (Neo4j, the LLM) and is repeated on
	// every request and probe of an outage: a warning, not an error each.
	level := slog.LevelInfo
	switch {
	case p.Status == http.StatusServiceUnavailable:
		level = slog.LevelWarn
	case p.Status >= 500:
		level = slog.LevelError
	}
	log.LogAttrs(c.Request.Context(), level, "request failed",
		slog.String("request_id", p.RequestID), slog.String("route", c.FullPath()),
		slog.Int("status", p.Status), slog.String("error", err.Error()))
	if p.Status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer realm="graphmem"`)
	}
	if p.Status == http.StatusServiceUnavailable {
		c.Header("Retry-After", "5")
	}
	setRetryAfter(c, err)
	c.Header("Content-Type", problemContentType)
	c.AbortWithStatusJSON(p.Status, p)
}
