package knowledge

import (
	"slices"
	"time"
)

// Direct edits: a user, an agent or an operator adds, corrects or
// withdraws one fact, without an extraction pass. An added fact and a
// correction's new version are judged by Plan like any extracted fact;
// this file holds what only edits do: correcting a version and withdrawing
// a fact.

// Retracted is the status of a fact someone withdrew: it is wrong, or must
// no longer be used. It is never current again, and it is kept in history
// (unless purged) with who withdrew it and why.
const Retracted Status = "retracted"

// EditKind says what a direct edit did.
type EditKind string

// Edit kinds.
const (
	EditAdd     EditKind = "add"     // a new statement, judged by Plan
	EditCorrect EditKind = "correct" // a current fact replaced by a corrected version
	EditRetract EditKind = "retract" // a fact withdrawn, kept in history
	EditPurge   EditKind = "purge"   // a fact withdrawn and deleted; only the edit record stays
)

// Notes written on the open conflicts an edit decides.
const (
	NoteRetracted = "the other fact was retracted by a direct edit"
	NoteCorrected = "the other fact was replaced by a corrected version"
)

// Retract withdraws f. Its validity becomes empty (valid_to = valid_from):
// as far as the graph now believes it never held, so a question about the
// past (as_of) does not find it either, while its record time says when it
// was withdrawn.
func Retract(f *Fact, now time.Time) {
	vt := f.ValidFrom
	f.ValidTo, f.ExpiredAt = &vt, &now
	f.Status, f.SupersededBy = Retracted, ""
	f.Changed = !f.New
}

// Correct replaces the current fact old by its corrected version next:
// old is superseded by next with an empty validity (valid_to = its own
// valid_from), since a correction says the statement was wrong as made,
// not that it ended: a question about the past never finds it, and
// withdrawing next later brings nothing of it back.
func Correct(old, next *Fact, now time.Time) {
	closeAt(old, old.ValidFrom, next.ID, now)
}

// Withdrawal is what withdrawing a fact (a retraction, or the old version
// of a correction) changes beside the fact itself.
type Withdrawal struct {
	// Reopened are the facts the withdrawn one had superseded, current
	// again: the graph returns to what it believed before that statement.
	Reopened []*Fact
	// Settled are the open conflicts the withdrawn fact was part of,
	// decided for the other fact (Winner and Note set).
	Settled []*OpenConflict
}

// PlanRetract retracts f, one of st.Facts[f.Subject], and decides what
// follows:
//   - when f was current, each fact it had superseded (SupersededBy f) is
//     reopened, oldest first, unless a current fact of the subject, or one
//     reopened before it, contradicts it: the withdrawn statement's effect
//     is undone, and nothing that came later is;
//   - each open conflict f is part of is decided for the other fact.
func PlanRetract(st *State, f *Fact, now time.Time) Withdrawal {
	wasCurrent := f.IsCurrent()
	Retract(f, now)
	var w Withdrawal
	if wasCurrent {
		w.Reopened = reopenPredecessors(st.Facts[f.Subject], f, now)
	}
	w.Settled = settleWithdrawn(st, f.ID, NoteRetracted)
	return w
}

// PlanCorrect closes old by next (Correct), hands next the facts old had
// superseded (the corrected statement closed them, and now stands in
// next's words: withdrawing next later reopens them), and decides the open
// conflicts old was part of for the other fact. next must then be planned
// (Plan) as a new fact.
func PlanCorrect(st *State, old, next *Fact, now time.Time) Withdrawal {
	Correct(old, next, now)
	for _, m := range st.Facts[old.Subject] {
		if m != old && m.Status == Superseded && m.SupersededBy == old.ID {
			m.SupersededBy = next.ID
			m.Changed = !m.New
		}
	}
	return Withdrawal{Settled: settleWithdrawn(st, old.ID, NoteCorrected)}
}

// reopenPredecessors reopens the facts f had superseded, oldest first,
// skipping any that never held (an empty validity: a corrected version, a
// rejected newer fact) and any that a current fact contradicts.
func reopenPredecessors(facts []*Fact, f *Fact, now time.Time) []*Fact {
	var preds []*Fact
	for _, m := range facts {
		if m != f && m.Status == Superseded && m.SupersededBy == f.ID && (m.ValidTo == nil || m.ValidTo.After(m.ValidFrom)) {
			preds = append(preds, m)
		}
	}
	slices.SortStableFunc(preds, func(a, b *Fact) int { return a.ValidFrom.Compare(b.ValidFrom) })
	var out []*Fact
	for _, p := range preds {
		contradicted := slices.ContainsFunc(facts, func(m *Fact) bool {
			return m != p && m.IsCurrent() && (kindOf(m, p) != "" || kindOf(p, m) != "")
		})
		if contradicted {
			continue
		}
		Reopen(p, now)
		out = append(out, p)
	}
	return out
}

// settleWithdrawn decides the open conflicts that the withdrawn fact id is
// part of for the other fact.
func settleWithdrawn(st *State, id, note string) []*OpenConflict {
	var out []*OpenConflict
	for _, c := range st.Open {
		if c.Winner != "" {
			continue
		}
		switch id {
		case c.OldID:
			c.Winner = WinnerNew
		case c.NewID:
			c.Winner = WinnerOld
		default:
			continue
		}
		c.Note = note
		out = append(out, c)
	}
	return out
}
