// Package api is graphmem's HTTP interface: gin routes, request and
// response DTOs, validation, RFC 9457 problems, API keys → tenants, and
// metrics.
//
// It owns the wire format and nothing else: every handler decodes and
// validates, calls one method of a service interface it declares
// (SessionService, KnowledgeService, JobService, the retrieval searcher),
// and converts the result to a DTO. problem.go is the only place that
// turns errors into HTTP statuses.
//
// It may import memory, retrieval, ontology and errs; never graph, the
// Neo4j driver or an engine.
package api
