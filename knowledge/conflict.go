package knowledge

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// ConflictKind says how a newer fact contradicts an older one.
type ConflictKind string

// Conflict kinds.
const (
	// Exclusive: a second object for a one-value predicate (a new home).
	Exclusive ConflictKind = "exclusive"
	// PolarityFlip: the opposite polarity or predicate on the same object
	// (likes sushi, then dislikes it).
	PolarityFlip ConflictKind = "polarity"
	// Negation: a denial of a current fact ("I no longer work at Acme").
	Negation ConflictKind = "negation"
	// Stale: the new fact is older news than the current one; it is
	// stored superseded and closes nothing.
	Stale ConflictKind = "stale"
	// Correction: the new fact corrects a slip; the slip is closed with an
	// empty validity (it never held), history keeps both.
	Correction ConflictKind = "correction"
)

// ConflictStatus says whether a conflict waits for review.
type ConflictStatus string

// Conflict statuses.
const (
	Open     ConflictStatus = "open"
	Resolved ConflictStatus = "resolved"
)

// Resolution says who resolved a conflict.
type Resolution string

// Resolutions.
const (
	Auto   Resolution = "auto"
	Manual Resolution = "manual"
)

// Winner names the fact of a conflict that is current after resolution.
type Winner string

// Winners.
const (
	WinnerNone Winner = ""
	WinnerNew  Winner = "new"
	WinnerOld  Winner = "old"
)

// ParseWinner accepts "new" or "old".
func ParseWinner(s string) (Winner, bool) {
	switch Winner(s) {
	case WinnerNew, WinnerOld:
		return Winner(s), true
	}
	return WinnerNone, false
}

// Conflict is a contradiction a plan found between a stored fact (Old)
// and a new one (New).
type Conflict struct {
	Kind   ConflictKind
	Status ConflictStatus
	Winner Winner // "" while open
	Old    *Fact
	New    *Fact
}

// detect finds the subject's current facts the new fact n contradicts and
// applies the rules:
//  1. exclusive: a positive fact of a one-value type closes the subject's
//     current positive facts of that type and qualifier with another object;
//  2. polarity: the same object with the opposite polarity or the opposite
//     predicate (LIKES/DISLIKES; a negative preference also against the
//     other positive preferences on that object, and back); and a taste
//     turned on a kind of thing (kindTurn): "I've gone off podcasts"
//     closes "likes true crime podcasts", "history podcasts grew on me"
//     closes "dislikes podcasts";
//  3. negation: a negative fact closes the positive one on the same object,
//     and those on a sort of it (kindDenied: "no longer a teacher" closes
//     "science teacher");
//  4. stale: when n started before a contradicted fact (and is not simply
//     later news about an earlier start), or was said before it and gives
//     no start (a window extracted late), n is stored superseded by it and
//     nothing is closed;
//  5. weak: when n's confidence is below the threshold nothing is closed
//     and each conflict stays open for review;
//  6. correction: when n corrects a slip, what it contradicts (or, in a
//     many-value slot, the value it names or the slot's latest value of
//     the same session) is closed by Correct, never judged stale.
func detect(facts []*Fact, n *Fact, now time.Time, p Policy) []Conflict {
	if !n.IsCurrent() {
		return nil
	}
	type hit struct {
		m    *Fact
		kind ConflictKind
	}
	var hits []hit
	for _, m := range facts {
		if m == n || !m.IsCurrent() {
			continue
		}
		kind := kindOf(m, n)
		if kind == Exclusive && !n.Correction && sameTurn(m, n) {
			// One turn gives one value of a one-value slot, not two in
			// turn: "I live in Porto and rent a flat in Bonfim" names a
			// city and a district in it, both current. A slip taken back
			// in the same turn is a correction, and a taste turned in one
			// breath still closes the old one.
			continue
		}
		if kind != "" {
			if n.Correction {
				kind = Correction
			}
			hits = append(hits, hit{m, kind})
		}
	}
	if n.Correction && len(hits) == 0 {
		if slip := slipOf(facts, n); slip != nil {
			hits = append(hits, hit{slip, Correction})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	var winner *Fact
	for _, h := range hits {
		if !n.Correction && isStale(n, h.m) && (winner == nil || h.m.ValidFrom.Before(winner.ValidFrom)) {
			winner = h.m
		}
	}
	if winner != nil {
		Close(n, winner, now)
		return []Conflict{{Kind: Stale, Status: Resolved, Winner: WinnerOld, Old: winner, New: n}}
	}
	out := make([]Conflict, 0, len(hits))
	for _, h := range hits {
		if n.Confidence < p.threshold() {
			out = append(out, Conflict{Kind: h.kind, Status: Open, Old: h.m, New: n})
			continue
		}
		if h.kind == Correction {
			Correct(h.m, n, now)
		} else {
			Close(h.m, n, now)
		}
		out = append(out, Conflict{Kind: h.kind, Status: Resolved, Winner: WinnerNew, Old: h.m, New: n})
	}
	return out
}

// sameTurn reports whether two facts were read from one turn alone: the
// same single source event in the same session.
func sameTurn(m, n *Fact) bool {
	return len(m.Sources) == 1 && len(n.Sources) == 1 && m.Sources[0] == n.Sources[0] &&
		len(m.Sessions) == 1 && len(n.Sessions) == 1 && m.Sessions[0] == n.Sessions[0]
}

// slipOf finds what a correction in a many-value slot replaces: the
// current fact of its slot whose object the speaker named (Corrects), or
// else the slot's latest fact said in one of the correction's sessions
// ("I'm allergic to walnuts, sorry, pecans"). Nil when there is none: a
// correction of something never recorded is a plain statement.
func slipOf(facts []*Fact, n *Fact) *Fact {
	var slip *Fact
	for _, m := range facts {
		if m == n || !m.IsCurrent() || m.Slot() != n.Slot() || m.Polarity != n.Polarity || m.Object == n.Object {
			continue
		}
		if n.Corrects != "" {
			if m.Object == n.Corrects {
				return m
			}
			continue
		}
		if sharesAny(m.Sessions, n.Sessions) && (slip == nil || !m.ObservedAt.Before(slip.ObservedAt)) {
			slip = m
		}
	}
	return slip
}

func sharesAny(a, b []string) bool {
	for _, v := range a {
		if v != "" && slices.Contains(b, v) {
			return true
		}
	}
	return false
}

// kindOf says how the new fact n contradicts the current fact m, or ""
// when they coexist.
func kindOf(m, n *Fact) ConflictKind {
	qualOK := n.Qualifier == "" || n.Qualifier == m.Qualifier
	if m.Object == n.Object {
		switch {
		case m.Predicate.Name == n.Predicate.Name:
			if qualOK && m.Polarity != n.Polarity {
				if n.Polarity == ontology.Negative {
					return Negation
				}
				return PolarityFlip
			}
		case m.Predicate.Name == n.Predicate.Opposite && qualOK:
			return PolarityFlip
		case m.Predicate.Preference && n.Predicate.Preference && qualOK &&
			((n.Predicate.Polarity() == ontology.Negative && m.Polarity == ontology.Positive) ||
				(m.Predicate.Polarity() == ontology.Negative && n.Polarity == ontology.Positive)):
			return PolarityFlip
		}
		return ""
	}
	if n.Predicate.Exclusive() && n.Polarity == ontology.Positive && m.Polarity == ontology.Positive && m.Slot() == n.Slot() {
		return Exclusive
	}
	if kindTurn(m, n) {
		return PolarityFlip
	}
	if kindDenied(m, n) {
		return Negation
	}
	if n.Correction && n.Corrects == m.Object && m.Slot() == n.Slot() && m.Polarity == n.Polarity {
		return Correction
	}
	return ""
}

// isStale: n was said before m with no start of its own, or n started
// before m, unless m's start is only when it was said and n was said later
// (then n is later news about an earlier start).
func isStale(n, m *Fact) bool {
	// Arriving late (a window extracted after a later one): a statement
	// dated only by when it was said yields to anything said after it.
	if !n.ObservedAt.IsZero() && n.ValidFrom.Equal(n.ObservedAt) && m.ObservedAt.After(n.ObservedAt) {
		return true
	}
	if !n.ValidFrom.Before(m.ValidFrom) {
		return false
	}
	if !m.ObservedAt.IsZero() && m.ValidFrom.Equal(m.ObservedAt) && n.ObservedAt.After(m.ObservedAt) {
		return false
	}
	return true
}

// OpenConflict is a stored conflict still waiting for review, about a
// subject the write touches. Plan sets Winner and Note when it settles it.
type OpenConflict struct {
	ID, Subject, OldID, NewID string
	Winner                    Winner
	Note                      string
}

// Notes the policy writes on conflicts it settles by itself.
const (
	NoteConfirmed      = "confirmed by later evidence"
	NoteBothSuperseded = "both facts superseded by later evidence"
)

// confirm settles the open conflicts of a fact that strong evidence just
// reinforced: it wins, and the other fact, if still current, is closed by
// it. It returns the ids of the facts it closed.
func confirm(st *State, m *Fact, now time.Time) []string {
	var closed []string
	for _, c := range st.Open {
		if c.Winner != "" || c.Subject != m.Subject || (c.OldID != m.ID && c.NewID != m.ID) {
			continue
		}
		otherID, winner := c.NewID, WinnerOld
		if c.NewID == m.ID {
			otherID, winner = c.OldID, WinnerNew
		}
		for _, o := range st.Facts[m.Subject] {
			if o.ID == otherID && o.IsCurrent() {
				Close(o, m, now)
				closed = append(closed, o.ID)
			}
		}
		c.Winner, c.Note = winner, NoteConfirmed
	}
	return closed
}

// settle returns the open conflicts the plan decided: those a
// reinforcement confirmed, and those whose two facts are both superseded
// now (a third fact replaced both, nothing is left to review).
func settle(st *State) []*OpenConflict {
	var out []*OpenConflict
	for _, c := range st.Open {
		if c.Winner == "" {
			var oldF, newF *Fact
			for _, m := range st.Facts[c.Subject] {
				switch m.ID {
				case c.OldID:
					oldF = m
				case c.NewID:
					newF = m
				}
			}
			if oldF == nil || newF == nil || oldF.IsCurrent() || newF.IsCurrent() {
				continue
			}
			c.Note = NoteBothSuperseded
		}
		out = append(out, c)
	}
	return out
}

// ErrBadWinner is returned by Decide for a winner other than new or old.
var ErrBadWinner = errors.New("winner must be new or old")

// ReviewedConflict is a stored conflict as a reviewer's decision sees it.
type ReviewedConflict struct {
	Status ConflictStatus
	Winner Winner // the current winner ("" while open)
}

// Decide applies a reviewer's decision to a conflict's two facts, in
// place, and reports whether the conflict's resolution changes (false
// when the same winner is chosen again: only a note changes).
//
// For an open conflict the losing fact, if still current, is closed by
// the winner (Close: it held until the later of the two starts, so a
// rejected newer fact gets an empty interval — it never held). For a
// resolved conflict, choosing the other winner undoes the resolution: the
// fact this conflict superseded is reopened, provided the other fact of
// this conflict (and not a third one) superseded it, and the former winner
// is closed if still current. Facts outside the pair are never touched.
func Decide(c ReviewedConflict, oldF, newF *Fact, w Winner, now time.Time) (bool, error) {
	if w != WinnerNew && w != WinnerOld {
		return false, fmt.Errorf("%w: %q", ErrBadWinner, w)
	}
	winner, loser := newF, oldF
	if w == WinnerOld {
		winner, loser = oldF, newF
	}
	reversing := c.Status == Resolved && c.Winner != "" && c.Winner != w
	if reversing && winner.Status == Superseded && winner.SupersededBy == loser.ID {
		Reopen(winner, now)
	}
	if loser.IsCurrent() && (c.Status == Open || c.Winner != w) {
		Close(loser, winner, now)
	}
	return !(c.Status == Resolved && c.Winner == w), nil
}

// kindTurn reports whether the new preference n turns the stored one m
// around across a kind and its sub-kind, told by head noun ("true crime
// podcasts" is a kind of "podcasts"): a newer aversion to the general
// kind covers every liked sub-kind ("I've gone off podcasts" after "I
// love true crime podcasts"), and a newer liking of a sub-kind takes back
// an aversion to the general kind ("history podcasts grew on me" after
// "podcasts bore me"). The other two pairs coexist: liking podcasts and
// hating horror podcasts is one taste, not a change. Both must be
// many-value preferences (likes, dislikes) with names known.
func kindTurn(m, n *Fact) bool {
	// A favourite (one value per category) is taken back by an aversion to
	// its kind ("can't do horror anymore" after "horror films are my
	// favourite"); otherwise one-value slots follow their own rule.
	aversionToFavourite := m.Predicate.Exclusive() && !n.Predicate.Exclusive() && n.Polarity == ontology.Negative
	if !m.Predicate.Preference || !n.Predicate.Preference || m.Predicate.Exclusive() && !aversionToFavourite || n.Predicate.Exclusive() ||
		m.Polarity == n.Polarity || m.ObjectName == "" || n.ObjectName == "" {
		return false
	}
	switch {
	case n.Polarity == ontology.Negative && (KindOf(m.ObjectName, n.ObjectName) || ActivityOf(m.ObjectName, n.ObjectName) ||
		ActivityWith(m.ObjectName, n.ObjectName)):
		// n denies the general kind m's liking is a sort of, the thing of m's
		// activity, or the activity m liked in one form
		return true
	case n.Polarity == ontology.Positive && m.Polarity == ontology.Negative && KindOf(n.ObjectName, m.ObjectName):
		return true // n likes a sort of the kind m disliked
	case SameKind(m.ObjectName, n.ObjectName):
		return true // "gone off horror films" after "loves horror movies"
	case GenreOf(m.ObjectName, n.ObjectName) || GenreOf(n.ObjectName, m.ObjectName):
		return true // "can't do horror anymore" after "loves horror films"
	}
	return false
}

// GenreOf reports whether the name medium is the name genre said with the
// medium it comes in ("horror films", "horror"; "jazz music", "jazz";
// "sci-fi novels", "sci-fi"): a taste for the one is a taste for the
// other. The medium is a head of headKinds or one of mediaHeads; "chocolate
// cake" is no medium of "chocolate".
func GenreOf(medium, genre string) bool {
	m, g := kindWords(medium), kindWords(genre)
	if len(g) == 0 || len(m) != len(g)+1 {
		return false
	}
	head := m[len(m)-1]
	if hk := headKinds[head]; hk == "" || hk == "food" || hk == "sweet" || hk == "biscuit" || hk == "chips" || hk == "flat" || hk == "holiday" {
		if !mediaHeads[head] {
			return false
		}
	}
	for i := range g {
		if nlp.Singular(m[i]) != nlp.Singular(g[i]) {
			return false
		}
	}
	return true
}

// mediaHeads are the media a genre comes in besides headKinds' ("jazz
// music", "true crime podcasts").
var mediaHeads = map[string]bool{"music": true, "podcast": true, "album": true, "record": true, "documentary": true,
	"comic": true, "manga": true, "anime": true, "audiobook": true, "story": true}

// SameKind reports whether two names speak of one kind of thing in other
// words: the same modifiers and head nouns that name the same thing
// ("horror movies", "horror films"; "spicy dishes", "spicy food"). Plurals
// and case are ignored; a name equal to the other is not "other words".
func SameKind(a, b string) bool {
	x, y := kindWords(a), kindWords(b)
	if len(x) == 0 || len(x) != len(y) {
		return false
	}
	last := len(x) - 1
	for i := range last {
		if nlp.Singular(x[i]) != nlp.Singular(y[i]) {
			return false
		}
	}
	gx, gy := headKinds[x[last]], headKinds[y[last]]
	return x[last] != y[last] && gx != "" && gx == gy
}

// headKinds names the group of head nouns that name one kind of thing;
// the list grows by a word.
var headKinds = map[string]string{
	"film": "film", "movie": "film", "flick": "film",
	"dish": "food", "food": "food", "cuisine": "food", "meal": "food",
	"novel": "book", "book": "book",
	"show": "show", "series": "show", "programme": "show", "program": "show",
	"song": "song", "tune": "song", "track": "song",
	"game": "game", "videogame": "game",
	"holiday": "holiday", "vacation": "holiday", "trip": "holiday",
	"sweet": "sweet", "candy": "sweet",
	"cookie": "biscuit", "biscuit": "biscuit",
	"fries": "chips", "chip": "chips",
	"apartment": "flat", "flat": "flat",
}

// ActivityOf reports whether the name act is an activity done with the
// thing named thing: thing's words followed by one -ing word ("sourdough
// baking", "sourdough"; "wine tasting", "wine"; "bird watching", "birds").
// "I'm done with sourdough" takes back "obsessed with sourdough baking".
func ActivityOf(act, thing string) bool {
	a, t := kindWords(act), kindWords(thing)
	if len(t) == 0 || len(a) != len(t)+1 || !strings.HasSuffix(a[len(a)-1], "ing") || len(a[len(a)-1]) < 5 {
		return false
	}
	for i := range t {
		if nlp.Singular(a[i]) != nlp.Singular(t[i]) {
			return false
		}
	}
	return true
}

// ActivityWith reports whether the name spec is the activity gen (one -ing
// word) with what it is done to or when ("cooking elaborate meals on
// weekends", "cooking"; "running on a treadmill", "running"): "cooking
// feels like a chore now" takes back "I enjoy cooking elaborate meals on
// weekends". Plurals and case are ignored.
func ActivityWith(spec, gen string) bool {
	s, g := kindWords(spec), kindWords(gen)
	if len(g) != 1 || len(s) < 2 || !strings.HasSuffix(g[0], "ing") || len(g[0]) < 5 {
		return false
	}
	return s[0] == g[0]
}

// kindDenied reports whether the new denial n covers the current fact m
// as a sort of what n denies: "no longer works as a teacher" closes "works
// as a secondary school science teacher"; "no longer lives in the
// countryside" says nothing of "lives in Devon" (names differ by head).
func kindDenied(m, n *Fact) bool {
	return n.Polarity == ontology.Negative && m.Polarity == ontology.Positive && m.Predicate.Name == n.Predicate.Name &&
		!m.Predicate.Preference && m.ObjectName != "" && n.ObjectName != "" && KindOf(m.ObjectName, n.ObjectName) &&
		(n.Qualifier == "" || n.Qualifier == m.Qualifier)
}

// KindOf reports whether the name spec is a sub-kind of the name gen by
// head noun: spec ends with all of gen's words and has more ("true crime
// podcasts", "podcast"; "psychological thrillers", "thrillers"). Plurals
// and case are ignored.
func KindOf(spec, gen string) bool {
	s, g := kindWords(spec), kindWords(gen)
	if len(g) == 0 || len(s) <= len(g) {
		return false
	}
	return slices.Equal(s[len(s)-len(g):], g)
}

func kindWords(name string) []string {
	w := NameTerms(strings.ToLower(name))
	if len(w) > 0 {
		w[len(w)-1] = nlp.Singular(w[len(w)-1])
	}
	return w
}
