package api

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"
)

// DefaultTenant is the tenant of every request when auth is off (no keys
// configured, loopback listen address only).
const DefaultTenant = "default"

var tenantPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// ValidTenant reports whether s can name a tenant, so settings that name
// tenants (GRAPHMEM_WORKER_TENANTS) are checked by the same rule as keys.
func ValidTenant(s string) bool { return tenantPattern.MatchString(s) }

// KeyRing maps API keys to tenants. Keys are kept only as SHA-256 hashes and
// compared in constant time against every entry, so neither memory dumps
// nor response timing reveal a key.
type KeyRing struct {
	entries []keyEntry
}

type keyEntry struct {
	tenant string
	hash   [sha256.Size]byte
}

// ParseKeys reads "tenant:key" pairs separated by commas or newlines; a
// pair may give the key's hash instead, as "tenant:sha256:<64 hex>", so a
// keys file need not hold secrets. Blank lines and # comments are ignored.
// An empty source yields a nil ring (auth off). A key given twice, in
// clear or as its hash, is an error: for two tenants it would be ambiguous
// which one a request belongs to.
func ParseKeys(src string) (*KeyRing, error) {
	ring := &KeyRing{}
	seen := map[[sha256.Size]byte]int{} // key hash → entry that gave it
	sc := bufio.NewScanner(strings.NewReader(strings.ReplaceAll(src, ",", "\n")))
	line := 0
	for sc.Scan() {
		line++
		item := strings.TrimSpace(sc.Text())
		if item == "" || strings.HasPrefix(item, "#") {
			continue
		}
		tenant, key, ok := strings.Cut(item, ":")
		if !ok || key == "" {
			return nil, fmt.Errorf("entry %d: want tenant:key", line)
		}
		if !tenantPattern.MatchString(tenant) {
			return nil, fmt.Errorf("entry %d: tenant %q must match %s", line, tenant, tenantPattern)
		}
		var e keyEntry
		e.tenant = tenant
		if hexHash, isHash := strings.CutPrefix(key, "sha256:"); isHash {
			raw, err := hex.DecodeString(hexHash)
			if err != nil || len(raw) != sha256.Size {
				return nil, fmt.Errorf("entry %d: sha256 hash must be 64 hex characters", line)
			}
			copy(e.hash[:], raw)
		} else {
			if len(key) < 16 {
				return nil, fmt.Errorf("entry %d: key for tenant %q is shorter than 16 characters", line, tenant)
			}
			e.hash = sha256.Sum256([]byte(key))
		}
		if first, dup := seen[e.hash]; dup {
			return nil, fmt.Errorf("entry %d: the same key as entry %d; every key must be unique (one key, one tenant)", line, first)
		}
		seen[e.hash] = line
		ring.entries = append(ring.entries, e)
	}
	if len(ring.entries) == 0 {
		return nil, nil
	}
	return ring, nil
}

// Len is the number of keys.
func (r *KeyRing) Len() int {
	if r == nil {
		return 0
	}
	return len(r.entries)
}

// tenantFor returns the tenant of a key. Every entry is compared, match or
// not, so the time taken does not depend on which entry matched.
func (r *KeyRing) tenantFor(key string) (string, bool) {
	h := sha256.Sum256([]byte(key))
	found := ""
	for _, e := range r.entries {
		if subtle.ConstantTimeCompare(h[:], e.hash[:]) == 1 {
			found = e.tenant
		}
	}
	return found, found != ""
}

const ctxTenant = "graphmem.tenant"

// authenticate resolves the request's tenant: from its API key when keys
// are configured, otherwise the default tenant.
func authenticate(ring *KeyRing, onFail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		if ring == nil {
			c.Set(ctxTenant, DefaultTenant)
			c.Next()
			return
		}
		// Every credential sent must agree: with two different keys there
		// is no telling which tenant the client meant.
		keys := c.Request.Header.Values("X-API-Key")
		for _, h := range c.Request.Header.Values("Authorization") {
			// Auth schemes are case-insensitive (RFC 9110 §11.1): "bearer"
			// counts; other schemes carry no key of ours.
			if scheme, token, ok := strings.Cut(strings.TrimSpace(h), " "); ok && strings.EqualFold(scheme, "Bearer") {
				keys = append(keys, strings.TrimSpace(token))
			}
		}
		key := ""
		for _, k := range keys {
			if key != "" && k != "" && k != key {
				onFail(c, errUnauthorized)
				return
			}
			key = cmp.Or(key, k)
		}
		tenant, ok := ring.tenantFor(key)
		if key == "" || !ok {
			onFail(c, errUnauthorized)
			return
		}
		c.Set(ctxTenant, tenant)
		c.Next()
	}
}

// tenantOf returns the authenticated tenant of the request.
func tenantOf(c *gin.Context) string {
	return c.GetString(ctxTenant)
}
