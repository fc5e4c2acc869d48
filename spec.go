// Package graphmem holds what belongs to the repository as a whole: the
// OpenAPI contract, embedded so the binary serves the exact file the tests
// check against.
package graphmem

import _ "embed"

// OpenAPI is openapi.yaml, the hand-written, authoritative API contract.
//
//go:embed openapi.yaml
var OpenAPI []byte
