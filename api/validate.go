package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"
)

// identPattern is what ids (sessions, users, agents, events) may look like:
// printable, no spaces, bounded. It keeps ids safe in URLs and logs.
var identPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$`)

// identMessage explains identPattern, in body fields and path parameters alike.
const identMessage = "must start with a letter or digit and contain only letters, digits and _.:@- (at most 128 characters)"

// newValidator returns a validator/v10 instance that reports JSON (or
// query) field names and knows graphmem's own rules. Each server has its
// own: gin's shared validator is process-global, and configuring it from
// several servers (tests build many) would race.
func newValidator() (*validator.Validate, error) {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.SetTagName("binding")
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		for _, tag := range []string{"json", "form", "uri"} {
			name, _, _ := strings.Cut(f.Tag.Get(tag), ",")
			if name == "-" {
				return ""
			}
			if name != "" {
				return name
			}
		}
		return f.Name
	})
	if err := v.RegisterValidation("ident", func(fl validator.FieldLevel) bool {
		return identPattern.MatchString(fl.Field().String())
	}); err != nil {
		return nil, err
	}
	return v, nil
}

// ruleMessages turns validator tags into sentences a developer can act on.
func ruleMessage(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "ident":
		return identMessage
	case "oneof":
		return "must be one of: " + strings.ReplaceAll(fe.Param(), " ", ", ")
	case "min":
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.String {
			return fmt.Sprintf("must have at least %s items/characters", fe.Param())
		}
		return "must be at least " + fe.Param()
	case "max":
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.String {
			return fmt.Sprintf("must have at most %s items/characters", fe.Param())
		}
		return "must be at most " + fe.Param()
	case "gte":
		return "must be at least " + fe.Param()
	case "lte":
		return "must be at most " + fe.Param()
	case "gt":
		return "must be greater than " + fe.Param()
	case "dive":
		return "has an invalid item"
	case "required_without":
		return "is required when " + fe.Param() + " is absent"
	default:
		return "breaks the rule " + fe.Tag()
	}
}

// wireName turns a validator namespace into the field's name on the wire:
// it drops the top-level struct name and embedded structs' names (camel
// case, where wire names are snake case), so "appendRequest.events[3].kind"
// becomes "events[3].kind" and "factsQuery.historyQuery.limit" "limit".
func wireName(namespace string) string {
	parts := strings.Split(namespace, ".")[1:]
	kept := parts[:0]
	for _, p := range parts {
		if strings.ToLower(p) != p {
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, ".")
}

// fieldIssues converts validator errors to field issues named as on the wire.
func fieldIssues(verrs validator.ValidationErrors) []FieldIssue {
	out := make([]FieldIssue, 0, len(verrs))
	for _, fe := range verrs {
		field := wireName(fe.Namespace())
		out = append(out, FieldIssue{Field: field, Rule: fe.Tag(), Message: ruleMessage(fe)})
	}
	return out
}

// bindJSON decodes and validates a JSON body. Unknown fields are rejected,
// so a typo such as "max_token" fails loudly instead of being ignored. An
// empty body is treated as {} so endpoints whose fields are all optional
// accept no body.
func (s *server) bindJSON(c *gin.Context, dst any) error {
	if ct := c.ContentType(); ct != "" && ct != "application/json" {
		return &httpError{status: http.StatusUnsupportedMediaType, slug: "unsupported-media-type", title: "Unsupported media type",
			detail: fmt.Sprintf("send the body as application/json, not %s", ct)}
	}
	if c.Request.Body != nil && c.Request.ContentLength != 0 {
		// Read whole (MaxBytesReader bounds it) so a null can be looked
		// for before the typed decode, which would silently skip it.
		raw, err := io.ReadAll(c.Request.Body)
		if err != nil {
			if slow := bodyTimeout(err); slow != nil {
				return slow
			}
			return err
		}
		raw, err = normalizeJSON(raw)
		if err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(dst); err != nil && !errors.Is(err, io.EOF) {
			if slow := bodyTimeout(err); slow != nil {
				return slow
			}
			// encoding/json has no typed error for unknown fields.
			if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
				name = strings.Trim(name, `"`)
				return invalidField(name, "unknown", "is not a known field; check the spelling against /openapi.yaml")
			}
			return err
		}
		// Only whitespace may follow the value. dec.More() would let a
		// stray "}" or "]" through; the next token must be the end.
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return err
			}
			return fmt.Errorf("%w: trailing data after the JSON value", errBadJSON)
		}
	}
	return s.validate.Struct(dst)
}

// bindQuery decodes and validates query parameters.
func (s *server) bindQuery(c *gin.Context, dst any) error {
	// URL.Query drops what it cannot parse (a ';' drops the whole pair),
	// which would silently widen a filter: say so instead.
	values, err := url.ParseQuery(c.Request.URL.RawQuery)
	if err != nil {
		return &httpError{status: http.StatusBadRequest, slug: "malformed-query", title: "Malformed query string",
			detail: "the query string cannot be parsed (" + err.Error() + "); separate parameters with '&' and percent-encode ';' as %3B",
			issues: []FieldIssue{{Field: "query", Rule: "syntax", Message: err.Error()}}}
	}
	if err := binding.MapFormWithTag(dst, values, "form"); err != nil {
		return queryParamError(reflect.TypeOf(dst).Elem(), values)
	}
	return s.validate.Struct(dst)
}

// queryParamError names the parameter gin could not map. gin fails with
// strconv's error, which carries the value but not the parameter, so each
// parameter is mapped again on its own until one fails; gin stays the only
// parser of query values.
func queryParamError(t reflect.Type, values url.Values) error {
	for _, name := range slices.Sorted(maps.Keys(values)) {
		probe := reflect.New(t).Interface()
		if binding.MapFormWithTag(probe, url.Values{name: values[name]}, "form") == nil {
			continue
		}
		msg := "has the wrong type"
		switch formFieldKind(t, name) {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			msg = "must be an integer"
		case reflect.Bool:
			msg = "must be true or false"
		case reflect.Float32, reflect.Float64:
			msg = "must be a number"
		}
		return invalidField(name, "type", msg)
	}
	return invalidField("query", "type", "a query parameter has the wrong type")
}

// formFieldKind is the kind of the field whose form tag is name, looking
// into embedded structs as gin's mapping does; Invalid when none is.
func formFieldKind(t reflect.Type, name string) reflect.Kind {
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("form"), ","); tag == name {
			return f.Type.Kind()
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if k := formFieldKind(f.Type, name); k != reflect.Invalid {
				return k
			}
		}
	}
	return reflect.Invalid
}

// pathAndQuery reads an identifier path parameter and binds the query
// string; on a problem it answers the request and reports false, so every
// handler starts the same way in one line.
func pathAndQuery[Q any](s *server, c *gin.Context, param string) (string, Q, bool) {
	var q Q
	id, err := pathIdent(c, param)
	if err == nil {
		err = s.bindQuery(c, &q)
	}
	if err != nil {
		s.fail(c, err)
		return "", q, false
	}
	return id, q, true
}

// pathAndBody reads an identifier path parameter and binds the JSON body.
func pathAndBody[B any](s *server, c *gin.Context, param string) (string, B, bool) {
	var b B
	id, err := pathIdent(c, param)
	if err == nil {
		err = s.bindJSON(c, &b)
	}
	if err != nil {
		s.fail(c, err)
		return "", b, false
	}
	return id, b, true
}

// bodyTimeout is the 408 problem of a body that did not arrive within the
// server's read timeout (a client too slow, or one holding the connection
// open on purpose): the client's doing, not a server error.
func bodyTimeout(err error) error {
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		return nil
	}
	return &httpError{status: http.StatusRequestTimeout, slug: "body-timeout", title: "Request body too slow",
		detail: "the request body did not arrive within the server's read timeout; send it at once", cause: err}
}

// normalizeJSON refuses null members and writes integral numbers as
// integers, before the typed decode. encoding/json would take a null as
// the zero value (absent), while openapi.yaml types the field; and it
// refuses 5.0 for an int, which JSON Schema calls an integer. Free-form
// metadata keeps its nulls. A body that is not JSON is returned as is, for
// the typed decode to report.
func normalizeJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return raw, nil
	}
	if doc == nil {
		return nil, invalidField("body", "type", "must be a JSON object, not null")
	}
	changed := false
	var walk func(v any, path string) (any, error)
	walk = func(v any, path string) (any, error) {
		switch x := v.(type) {
		case nil:
			return nil, invalidField(path, "type", "must not be null; leave the field out for its default")
		case json.Number:
			if s := string(x); strings.ContainsAny(s, ".eE") {
				if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
					changed = true
					return json.Number(strconv.FormatInt(int64(f), 10)), nil
				}
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if k == "metadata" && x[k] != nil {
					continue
				}
				e, err := walk(x[k], p)
				if err != nil {
					return nil, err
				}
				x[k] = e
			}
		case []any:
			for i := range x {
				e, err := walk(x[i], fmt.Sprintf("%s[%d]", path, i))
				if err != nil {
					return nil, err
				}
				x[i] = e
			}
		}
		return v, nil
	}
	if _, err := walk(doc, ""); err != nil {
		return nil, err
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(doc)
}
