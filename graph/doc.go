// Package graph is the only package that speaks to Neo4j. It owns the
// schema, the tiers (Raw, Event, Insight), entities and facts, conflicts,
// durable jobs and the retrieval queries.
//
// It stores knowledge but does not decide it: what a new fact does to the
// facts a subject already has (supersede, end, reinforce, conflict) and
// which stored entity a mention is are the policy of package knowledge. A
// knowledge write loads what it touches, calls knowledge.Plan, and flushes
// the decision. graph must not import memory, retrieval, extract or api.
//
// Rules every method follows:
//   - Every node and relationship it writes carries `tenant`; every method
//     takes the tenant and every query filters on it, so no call can read or
//     change another tenant's data.
//   - Values are always $parameters. Labels and relationship types cannot be
//     parameters, so they come only from the ontology's allow-list after
//     ontology.ValidLabel / ValidRelType; caller input never reaches Cypher.
//   - Errors are wrapped with the operation and unwrap to the categories of
//     package errs (ErrNotFound, ErrConflict, ErrUnavailable, ErrInvalid),
//     which the API maps to HTTP in one place; what a client may read is an
//     errs.NotFound, errs.Conflict or errs.Invalid error.
//   - Single statements use neo4j.ExecuteQuery; multi-statement units use
//     ExecuteWrite with idempotent work functions, because the driver retries
//     them on transient errors.
package graph
