// Package graphmem holds what belongs to the repository as a whole: the
// OpenAPI contract, embedded so the binary serves the exact file the tests
// check against.
//
// It must not import any of graphmem's packages: everything imports it.
package graphmem
