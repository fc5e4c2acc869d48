package offline

import "sync"

// memo is a small bounded cache, safe for concurrent use. The summarizer
// folds its own previous output back in on every condensation, so the same
// lines are re-read and the same texts re-counted again and again; a memo
// turns that repeated work into lookups. When full, the oldest entries go.
type memo[V any] struct {
	mu    sync.Mutex
	max   int
	items map[string]V
	order []string
}

func newMemo[V any](max int) *memo[V] {
	return &memo[V]{max: max, items: make(map[string]V, max)}
}

// get returns the cached value for key, computing and storing it on a miss.
func (m *memo[V]) get(key string, compute func() V) V {
	m.mu.Lock()
	if v, ok := m.items[key]; ok {
		m.mu.Unlock()
		return v
	}
	m.mu.Unlock()
	v := compute()
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.items[key]; !ok {
		if len(m.order) >= m.max {
			drop := m.order[:m.max/4]
			for _, k := range drop {
				delete(m.items, k)
			}
			m.order = append(m.order[:0], m.order[m.max/4:]...)
		}
		m.items[key] = v
		m.order = append(m.order, key)
	}
	return v
}
