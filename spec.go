package graphmem

import _ "embed"

// OpenAPI is openapi.yaml, the hand-written, authoritative API contract.
//
//go:embed openapi.yaml
var OpenAPI []byte
