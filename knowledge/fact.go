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
	ID      string
	Subject string // entity id
	Object  string // entity id
	// ObjectName is the object's name, when the caller knows it: the
	// policy compares kinds of things by it ("true crime podcasts" is a
	// kind of "podcasts"). Empty means unknown, and no such rule applies.
	ObjectName string
	Predicate  ontology.Predicate
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

	// Correction marks a statement that corrects a slip ("sorry, I meant
	// Wednesday, not Tuesday"): what it contradicts was wrong as said, not
	// over, so Plan closes it with an empty validity (Correct). Corrects is
	// the object id of the value it replaces when the speaker named it; a
	// many-value slot needs it, or takes the slot's latest value said in
	// the same session.
	Correction bool
	Corrects   string

	// New marks a fact the write creates; Changed a stored fact the plan
	// changed. Together they are what the caller must write.
	New     bool
	Changed bool
}

// Slot is what a fact fills: a subject's predicate, narrowed by the
// qualifier when the predicate is qualified (a favourite per category, a
// measure per name). A one-value predicate holds one current fact per
// slot; a relative's fact has the relative as subject, so it never shares
// a slot with the user's.
type Slot struct {
	Subject   string
	Predicate string
	Qualifier string
}

// String renders the slot for logs and explanations: "user|HAS_MEASURE|salary".
func (s Slot) String() string { return s.Subject + "|" + s.Predicate + "|" + s.Qualifier }

// Slot returns the slot the fact fills. A qualifier of a predicate that is
// not qualified (a pet's species, a relative's role) is a note, not part
// of the slot.
func (f *Fact) Slot() Slot {
	s := Slot{Subject: f.Subject, Predicate: f.Predicate.Name}
	if f.Predicate.Qualified {
		s.Qualifier = f.Qualifier
	}
	return s
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
