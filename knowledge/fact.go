package knowledge

import (
	"slices"
	"time"

	"github.com/graphmem/graphmem/ontology"
)

// Status is where a fact stands in record time.
type Status string

// Fact statuses. A superseded fact is closed, never deleted: it keeps its
// validity interval and says what replaced it.
const (
	Current    Status = "current"
	Superseded Status = "superseded"
)

// Fact is one fact of a subject as the policy sees it: a stored fact, or a
// new one the write may create. Times are UTC; a nil ValidTo or ExpiredAt
// is open.
type Fact struct {
	ID        string
	Subject   string // entity id
	Object    string // entity id
	Predicate ontology.Predicate
	// RawPredicate is the verb phrase kept for the fallback type.
	RawPredicate string
	// Qualifier narrows the predicate to a slot ("programming language"
	// for a favourite).
	Qualifier  string
	Polarity   ontology.Polarity
	Status     Status
	Sentence   string
	Confidence float64
	Strength   float64
	// ValidFrom/ValidTo are event time: when it held in the world.
	ValidFrom time.Time
	ValidTo   *time.Time
	// ObservedAt is when it was said; RecordedAt and ExpiredAt are record
	// time: when the graph learned it and when it was closed.
	ObservedAt time.Time
	RecordedAt time.Time
	ExpiredAt  *time.Time
	// ReopenedAt is set when a reviewer reversed the fact's closing.
	ReopenedAt   *time.Time
	LastSeen     time.Time
	Mentions     int64
	Sources      []string // raw event ids
	Sessions     []string
	Events       []string // event-tier node ids
	SupersededBy string
	ExtractedBy  string

	// New marks a fact the write creates; Changed a stored fact the plan
	// changed. Together they are what the caller must write.
	New     bool
	Changed bool
}

// IsCurrent reports whether the fact is current.
func (f *Fact) IsCurrent() bool { return f.Status == Current }

// sameKey: the same statement (subject, type, object, qualifier and
// polarity), whatever its provenance.
func (f *Fact) sameKey(n *Fact) bool {
	return f.Subject == n.Subject && f.Predicate.Name == n.Predicate.Name && f.Object == n.Object &&
		f.Qualifier == n.Qualifier && f.Polarity == n.Polarity
}

// Close supersedes loser by winner. It is the one closing rule of
// graphmem, for the write path and for a reviewer's decision alike.
func Close(loser, winner *Fact, now time.Time) {
	closeAt(loser, winner.ValidFrom, winner.ID, now)
}

// End closes a fact that the speaker said is over, with no successor:
// it held until `until`.
func End(f *Fact, until, now time.Time) {
	closeAt(f, until, "", now)
}

// closeAt closes f: it held until the given instant, but never ends
// before it began (a later statement about an earlier start does not give
// the closed fact a negative interval), and the graph stopped believing
// it now.
func closeAt(f *Fact, until time.Time, by string, now time.Time) {
	vt := maxTime(f.ValidFrom, until)
	f.ValidTo, f.ExpiredAt = &vt, &now
	f.Status, f.SupersededBy = Superseded, by
	f.Changed = !f.New
}

// Reopen makes a closed fact current again (a reviewer reversed the
// decision that closed it).
func Reopen(f *Fact, now time.Time) {
	f.Status, f.ValidTo, f.ExpiredAt, f.SupersededBy = Current, nil, nil, ""
	f.ReopenedAt = &now
	f.Changed = !f.New
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// union appends the values of add missing from base, keeping order and
// dropping empty ones.
func union(base, add []string) []string {
	out := make([]string, 0, len(base)+len(add))
	seen := make(map[string]bool, len(base)+len(add))
	for _, v := range append(slices.Clone(base), add...) {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

// containsAll reports whether every value of sub is in set.
func containsAll(set, sub []string) bool {
	for _, v := range sub {
		if !slices.Contains(set, v) {
			return false
		}
	}
	return true
}
