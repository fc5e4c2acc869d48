// Package graphtest connects tests to the real Neo4j that `make test` starts
// (never a mock). Each test gets its own tenant, so tests run in parallel on
// one database without seeing each other's data.
//
// Only tests import it (the import rule allows it there); it follows
// graph's rule.
package graphtest
