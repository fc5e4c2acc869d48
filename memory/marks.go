package memory

import (
	"context"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// MarkStore is what pins and importance need of the graph.
type MarkStore interface {
	MarkMemory(ctx context.Context, tenant, kind, id string, m graph.Marks) (graph.Marked, error)
}

// Memory kinds that can be pinned or given an importance.
const (
	MarkFact    = graph.MarkFact
	MarkInsight = graph.MarkInsight
	MarkSummary = graph.MarkSummary
)

// Importances lists the importance levels, lowest first.
func Importances() []string { return append([]string(nil), graph.Importances...) }

// MarkInput changes a memory's marks; nil leaves one as it is.
type MarkInput struct {
	Pinned     *bool
	Importance *string
	Actor      string
}

// Marked is a memory's marks after a change.
type Marked struct {
	Kind       string
	ID         string
	UserID     string
	Pinned     bool
	Importance string
	MarkedAt   time.Time
	MarkedBy   string
}

// Mark pins, unpins or sets the importance of one fact, insight or
// summary. Pinned and critical memories open every context's user section
// and are exempt from retention.
func (l *Lifecycle) Mark(ctx context.Context, tenant, kind, id string, in MarkInput) (Marked, error) {
	m, err := l.store.MarkMemory(ctx, tenant, kind, id, graph.Marks{Pinned: in.Pinned, Importance: in.Importance, Actor: in.Actor})
	if err != nil {
		return Marked{}, err
	}
	return Marked(m), nil
}
