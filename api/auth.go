package api

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"

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
// nor response timing reveal a key. Its entries can be replaced while it
// serves (Replace, on SIGHUP): a request reads them once, when it is
// authenticated, so one in flight finishes under the keys it started with.
type KeyRing struct {
	entries atomic.Pointer[[]keyEntry]
}

type keyEntry struct {
	tenant string
	hash   [sha256.Size]byte
	// readOnly keys may read and search but not write (see isWrite).
	readOnly bool
}

// readOnlySuffix marks a read-only key in a keys source: "tenant:key:ro",
// "tenant:sha256:<hex>:ro". A suffix, not a prefix, because a prefix could
// be read as a tenant name.
const readOnlySuffix = ":ro"

// ParseKeys reads "tenant:key" pairs separated by commas or newlines; a
// pair may give the key's hash instead, as "tenant:sha256:<64 hex>", so a
// keys file need not hold secrets, and either may end in ":ro" to make the
// key read-only. Blank lines and # comments are ignored. An empty source
// yields a nil ring (auth off). A key given twice, in clear or as its
// hash, is an error: for two tenants it would be ambiguous which one a
// request belongs to.
func ParseKeys(src string) (*KeyRing, error) {
	var entries []keyEntry
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
		key, e.readOnly = strings.CutSuffix(key, readOnlySuffix)
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
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	ring := &KeyRing{}
	ring.entries.Store(&entries)
	return ring, nil
}

// Len is the number of keys.
func (r *KeyRing) Len() int {
	if r == nil {
		return 0
	}
	return len(*r.entries.Load())
}

// ReadOnly is the number of read-only keys.
func (r *KeyRing) ReadOnly() int {
	n := 0
	if r != nil {
		for _, e := range *r.entries.Load() {
			if e.readOnly {
				n++
			}
		}
	}
	return n
}

// Replace serves next's keys from now on; requests already authenticated
// keep the tenant they got. next must hold at least one key: a reload
// never turns auth off (an emptied or truncated file would otherwise open
// the service to anyone).
func (r *KeyRing) Replace(next *KeyRing) error {
	if r == nil {
		return errors.New("auth is off (no keys at start): restart to turn it on")
	}
	if next.Len() == 0 {
		return errors.New("no keys: a reload cannot turn auth off")
	}
	r.entries.Store(next.entries.Load())
	return nil
}

// lookup returns the entry of a key. Every entry is compared, match or
// not, so the time taken does not depend on which entry matched.
func (r *KeyRing) lookup(key string) (keyEntry, bool) {
	h := sha256.Sum256([]byte(key))
	var found keyEntry
	for _, e := range *r.entries.Load() {
		if subtle.ConstantTimeCompare(h[:], e.hash[:]) == 1 {
			found = e
		}
	}
	return found, found.tenant != ""
}

// tenantFor returns the tenant of a key.
func (r *KeyRing) tenantFor(key string) (string, bool) {
	e, ok := r.lookup(key)
	return e.tenant, ok
}

const (
	ctxTenant = "graphmem.tenant"
	// ctxKey is the keyEntry of the request (zero when auth is off): its
	// hash names the rate-limit bucket, readOnly guards writes.
	ctxKey = "graphmem.key"
)

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
		entry, ok := ring.lookup(key)
		if key == "" || !ok {
			onFail(c, errUnauthorized)
			return
		}
		c.Set(ctxTenant, entry.tenant)
		c.Set(ctxKey, entry)
		c.Next()
	}
}

// tenantOf returns the authenticated tenant of the request.
func tenantOf(c *gin.Context) string {
	return c.GetString(ctxTenant)
}
