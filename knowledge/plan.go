package knowledge

import (
	"slices"
	"strings"
	"time"

	"github.com/graphmem/graphmem/nlp"
)

// Outcome is what one incoming statement did.
type Outcome string

// Outcomes of Plan, one per incoming fact.
const (
	// Created: a new fact (possibly closing others, or stored already
	// superseded when newer evidence was known).
	Created Outcome = "created"
	// Reinforced: the same statement is current; provenance is appended,
	// the mention count and confidence go up a little.
	Reinforced Outcome = "reinforced"
	// Unchanged: a fact already carries all of this statement's
	// provenance (a replayed write); nothing changes.
	Unchanged Outcome = "unchanged"
	// Ended: the statement says a current fact is over (a valid_to no
	// later than when it was said); that fact is closed.
	Ended Outcome = "ended"
	// Skipped: subject and object are one entity; a fact about itself
	// says nothing.
	Skipped Outcome = "skipped"
)

// DefaultConflictThreshold is the confidence below which a contradicting
// fact closes nothing automatically: it is stored as current and the
// conflict stays open for review.
const DefaultConflictThreshold = 0.5

// reinforceGain is the share of the remaining doubt a repetition removes:
// said twice, a 0.8 fact becomes 0.84; said often, it tends to 1 but never
// jumps there on one repetition.
const reinforceGain = 0.2

// Policy holds the policy's tunables.
type Policy struct {
	// ConflictThreshold: below it a contradiction is left open for review
	// (0 means DefaultConflictThreshold).
	ConflictThreshold float64
}

func (p Policy) threshold() float64 {
	if p.ConflictThreshold <= 0 {
		return DefaultConflictThreshold
	}
	return p.ConflictThreshold
}

// State is what the graph holds about the subjects a write touches.
type State struct {
	// Facts per subject entity id: the subject's current facts of the
	// types the write's facts can conflict with, and its superseded facts
	// to the write's objects (so a replay is recognized). Plan appends the
	// facts it creates.
	Facts map[string][]*Fact
	// Open are the open conflicts about those subjects.
	Open []*OpenConflict
}

// Action is the decision on one incoming fact.
type Action struct {
	Outcome Outcome
	// Fact is what the statement became or fed: the new fact, or the
	// stored one it repeated, reinforced or ended (nil when Skipped).
	Fact *Fact
	// Closed are the facts this statement closed: the ended fact, the
	// facts it superseded, the new fact itself when it was stale, and
	// those a reinforcement settled by confirming an open conflict.
	Closed []string
	// Conflicts are the contradictions found, resolved or open.
	Conflicts []Conflict
}

// Decision is what a write must do.
type Decision struct {
	// Actions holds one action per incoming fact, in order.
	Actions []Action
	// Conflicts lists every detected conflict, in order.
	Conflicts []Conflict
	// Settled are the open conflicts this write decided (Winner and Note
	// set): confirmed by a reinforcement, or both facts superseded.
	Settled []*OpenConflict
}

// Writes returns the facts to write: new ones and changed stored ones.
func (s *State) Writes() []*Fact {
	var out []*Fact
	for _, facts := range s.Facts {
		for _, f := range facts {
			if f.New || f.Changed {
				out = append(out, f)
			}
		}
	}
	return out
}

// Plan applies the incoming facts, in order, to the state: each is judged
// against its subject's facts (including those created by earlier incoming
// facts), and the state's facts are changed in place. Incoming facts must
// carry an id, New set, Status Current (Plan closes those that already
// ended) and their observation time. now is the record time of the write.
func Plan(st *State, incoming []*Fact, now time.Time, p Policy) Decision {
	if st.Facts == nil {
		st.Facts = map[string][]*Fact{}
	}
	var d Decision
	for _, n := range incoming {
		if n.Subject == n.Object {
			d.Actions = append(d.Actions, Action{Outcome: Skipped})
			continue
		}
		a := planOne(st, n, now, p)
		d.Actions = append(d.Actions, a)
		d.Conflicts = append(d.Conflicts, a.Conflicts...)
	}
	d.Settled = settle(st)
	return d
}

// planOne decides one incoming fact.
func planOne(st *State, n *Fact, now time.Time, p Policy) Action {
	facts := st.Facts[n.Subject]
	var same []*Fact
	for _, m := range facts {
		if m.sameKey(n) {
			same = append(same, m)
		}
	}
	// Current ones first: a repetition feeds the live fact, not history.
	slices.SortStableFunc(same, func(a, b *Fact) int {
		if a.IsCurrent() != b.IsCurrent() {
			if a.IsCurrent() {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, m := range same {
		if containsAll(m.Sources, n.Sources) && containsAll(m.Sessions, n.Sessions) && containsAll(m.Events, n.Events) {
			return Action{Outcome: Unchanged, Fact: m}
		}
	}
	ended := n.ValidTo != nil && !n.ValidTo.After(n.ObservedAt)
	if ended && n.Qualifier == "" && !slices.ContainsFunc(same, (*Fact).IsCurrent) {
		// An ending that names no qualifier ends the current fact whatever
		// its note: "Tom and I went our separate ways" ends "in a
		// relationship with Tom (boyfriend)".
		for _, m := range facts {
			if m.IsCurrent() && m.Subject == n.Subject && m.Predicate.Name == n.Predicate.Name && m.Object == n.Object && m.Polarity == n.Polarity {
				same = append(same, m)
			}
		}
		if len(same) == 0 {
			var replayed *Fact
			if same, replayed = endedByShortName(facts, n); replayed != nil {
				return Action{Outcome: Unchanged, Fact: replayed} // a retried window: the ending is already on it
			}
		}
	}
	if ended && len(same) == 0 && n.Predicate.Name == "HAS_PET" && n.Qualifier != "" && strings.EqualFold(n.ObjectName, n.Qualifier) {
		// An animal ended by its kind, not its name.
		var replayed *Fact
		if same, replayed = endedBySpecies(facts, n); replayed != nil {
			return Action{Outcome: Unchanged, Fact: replayed}
		}
	}
	for _, m := range same {
		if !m.IsCurrent() {
			continue
		}
		reinforce(m, n)
		if ended {
			End(m, *n.ValidTo, now)
			return Action{Outcome: Ended, Fact: m, Closed: []string{m.ID}}
		}
		a := Action{Outcome: Reinforced, Fact: m}
		if n.Confidence >= p.threshold() {
			a.Closed = confirm(st, m, now)
		}
		return a
	}
	if ended {
		// A fact that already ended when it was said is history from the
		// start: stored superseded, it closes nothing.
		n.Status = Superseded
	}
	st.Facts[n.Subject] = append(st.Facts[n.Subject], n)
	a := Action{Outcome: Created, Fact: n}
	a.Conflicts = detect(st.Facts[n.Subject], n, now, p)
	for _, c := range a.Conflicts {
		switch {
		case c.Kind == Stale:
			a.Closed = append(a.Closed, n.ID)
		case c.Status == Open:
		default:
			a.Closed = append(a.Closed, c.Old.ID)
		}
	}
	return a
}

// reinforce adds the evidence of n to the stored fact m.
func reinforce(m, n *Fact) {
	m.Sources = union(m.Sources, n.Sources)
	m.Sessions = union(m.Sessions, n.Sessions)
	m.Events = union(m.Events, n.Events)
	m.Mentions++
	m.Confidence = max(m.Confidence, n.Confidence)
	m.Confidence += (1 - m.Confidence) * reinforceGain
	if n.Strength > 0 {
		m.Strength = n.Strength
	}
	if n.ObservedAt.After(m.LastSeen) {
		m.LastSeen = n.ObservedAt
	}
	m.Changed = !m.New
}

// shortNameOf reports whether short is the whole words at the start or
// the end of long, ignoring case.
func shortNameOf(short, long string) bool {
	short, long = strings.ToLower(strings.TrimSpace(short)), strings.ToLower(long)
	return short != "" && (strings.HasPrefix(long, short+" ") || strings.HasSuffix(long, " "+short))
}

// endedByShortName finds the current fact an ending names by part of its
// object's name: "The Trek was nicked" ends "rides a Trek Domane", "we
// sold the Skoda" ends "drives a Skoda Octavia estate". The short name
// must be the whole words at the start or the end of exactly one current
// object of the same subject and predicate; two candidates ("the Trek"
// of a Trek Domane and a Trek Marlin) are ambiguous and end nothing.
// When the same window is written again (a retried job), replayed is the
// fact it already ended: the one whose evidence holds the ending's.
func endedByShortName(facts []*Fact, n *Fact) (current []*Fact, replayed *Fact) {
	return endedBy(facts, n, func(m *Fact) bool { return shortNameOf(n.ObjectName, m.ObjectName) })
}

// endedBySpecies finds the current animal an ending that names only a
// kind of animal means: "we lost our little bird" ends "a budgie named
// Pip", "the dog died" ends "a beagle named Nova". The ending's kind must
// be the species of exactly one current fact of the same subject and
// predicate, as said (its qualifier) or as its class (speciesClass).
func endedBySpecies(facts []*Fact, n *Fact) (current []*Fact, replayed *Fact) {
	kind := nlp.Singular(strings.ToLower(n.Qualifier))
	return endedBy(facts, n, func(m *Fact) bool {
		q := nlp.Singular(strings.ToLower(m.Qualifier))
		return q != "" && (q == kind || speciesClass[q] == kind)
	})
}

// speciesClass names the everyday word for an animal said by breed or
// variety, so that an ending by the everyday word finds it; the list grows
// by a word.
var speciesClass = map[string]string{
	"budgie": "bird", "budgerigar": "bird", "parakeet": "bird", "cockatiel": "bird", "parrot": "bird", "canary": "bird",
	"finch": "bird", "lovebird": "bird", "african grey": "bird", "macaw": "bird", "hen": "bird", "chicken": "bird",
	"puppy": "dog", "labrador": "dog", "beagle": "dog", "poodle": "dog", "dachshund": "dog", "greyhound": "dog",
	"whippet": "dog", "lurcher": "dog", "retriever": "dog", "golden retriever": "dog", "spaniel": "dog",
	"cocker spaniel": "dog", "terrier": "dog", "collie": "dog", "border collie": "dog", "bulldog": "dog",
	"french bulldog": "dog", "pug": "dog", "husky": "dog", "corgi": "dog", "schnauzer": "dog", "shih tzu": "dog",
	"chihuahua": "dog", "cockapoo": "dog", "labradoodle": "dog", "sheepdog": "dog", "german shepherd": "dog",
	"kitten": "cat", "tabby": "cat", "siamese": "cat", "maine coon": "cat", "ragdoll": "cat", "bengal": "cat",
	"bunny": "rabbit", "pony": "horse", "goldfish": "fish", "betta": "fish", "guppy": "fish", "gecko": "lizard",
	"bearded dragon": "lizard", "python": "snake", "corn snake": "snake", "hamster": "rodent", "gerbil": "rodent",
	"guinea pig": "rodent", "rat": "rodent", "mouse": "rodent", "terrapin": "turtle", "staffie": "dog", "cavapoo": "dog",
	"springer": "dog", "rottweiler": "dog", "doberman": "dog", "great dane": "dog", "dalmatian": "dog", "pup": "dog",
	"moggy": "cat", "kitty": "cat", "sphynx": "cat", "persian cat": "cat", "cockatoo": "bird", "koi": "fish",
}

// endedBy finds the one current fact of n's subject, predicate and
// polarity, other than n's object, that match says an ending means; two
// candidates are ambiguous and end nothing. When the same window is
// written again, replayed is the fact it already ended.
func endedBy(facts []*Fact, n *Fact, match func(m *Fact) bool) (current []*Fact, replayed *Fact) {
	for _, m := range facts {
		if m.Subject != n.Subject || m.Predicate.Name != n.Predicate.Name || m.Polarity != n.Polarity || m.Object == n.Object ||
			!match(m) {
			continue
		}
		switch {
		case m.IsCurrent():
			current = append(current, m)
		case containsAll(m.Sources, n.Sources) && containsAll(m.Sessions, n.Sessions) && containsAll(m.Events, n.Events):
			replayed = m
		}
	}
	if len(current) != 1 {
		return nil, replayed
	}
	return current, nil
}
