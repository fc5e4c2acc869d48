// Package ontology is graphmem's shared vocabulary: the entity types that
// become Neo4j labels, the fact predicates that become relationship types,
// and the rules that keep both safe to place in Cypher.
//
// It exists as its own leaf package because three others must agree on it:
// extract produces facts in this vocabulary, graph turns it into labels,
// relationship types, indexes and conflict rules, and memory checks one
// against the other. Nothing here does I/O. Labels and relationship types
// cannot be Cypher parameters, so every identifier that reaches a query is
// first checked by ValidLabel or ValidRelType; input never reaches Cypher raw.
package ontology
