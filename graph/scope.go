package graph

import (
	"crypto/sha256"
	"encoding/hex"
)

// scopeToken is a single lower-case alphanumeric token that identifies a
// (tenant, user) pair. It is stored on searchable nodes and relationships and
// indexed with their text, so full-text queries filter by tenant and user
// inside Lucene ("+scope:s…") instead of fetching other tenants' hits and
// dropping them afterwards. Hashing keeps it one token whatever characters
// the ids contain.
func scopeToken(tenant, userID string) string {
	sum := sha256.Sum256([]byte(tenant + "\x00" + userID))
	return "s" + hex.EncodeToString(sum[:12])
}
