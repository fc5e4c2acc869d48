// Package apitest drives an HTTP handler in-process and checks every
// exchange against openapi.yaml: a documented route must answer with a
// documented status and a body matching its schema, and every error must
// be an RFC 9457 problem. API unit tests and end-to-end tests share it.
package apitest
