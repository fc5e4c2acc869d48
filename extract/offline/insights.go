package offline

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Offline insights are patterns that only show across many events:
//   - repetition: the same activity, place or liking in two or more sessions
//     ("Caroline regularly attends LGBTQ support groups");
//   - collections: several facts of one kind ("The user has several pets:
//     Rex (dog), Luna (cat)");
//   - changes: a preference that flipped ("The user's taste in sushi
//     changed ...").
// Each insight cites the facts and events it rests on. Sessions are the
// facts' SessionIDs; for raw events (which carry no session) a calendar
// day stands for a session.

// ifact is a fact as insight derivation sees it.
type ifact struct {
	id       string
	subj     string
	pred     string
	obj      string
	sentence string
	sessions []string
	events   []string
	when     time.Time
	negative bool
}

// Insights derives offline insights from a user's facts and events.
func (o *Engine) Insights(ctx context.Context, in extract.InsightInput) ([]extract.Insight, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("offline insights: %w", err)
	}
	given := make([]ifact, 0, len(in.Facts))
	for _, f := range in.Facts {
		x := ifact{id: f.ID, subj: f.Subject, pred: strings.ToUpper(f.Predicate), obj: f.Object, sentence: f.Sentence,
			sessions: f.SessionIDs, events: f.SourceEventIDs, negative: negativeSentence(f.Sentence)}
		if f.ValidFrom != nil {
			x.when = *f.ValidFrom
		}
		given = append(given, x)
	}
	derived, err := o.factsFromEvents(ctx, in)
	if err != nil {
		return nil, err
	}
	pool := given
	if len(pool) == 0 {
		pool = derived
	}
	var out []extract.Insight
	out = append(out, repeated(pool, in.UserID)...)
	out = append(out, collections(pool, in.UserID)...)
	out = append(out, changes(append(append([]ifact{}, derived...), given...), in.UserID)...)
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Confidence != out[b].Confidence {
			return out[a].Confidence > out[b].Confidence
		}
		return out[a].Text < out[b].Text
	})
	seen := make(map[string]bool)
	uniq := out[:0]
	for _, ins := range out {
		if !seen[ins.Text] {
			seen[ins.Text] = true
			uniq = append(uniq, ins)
		}
	}
	return uniq, nil
}

// factsFromEvents extracts the events day by day (a day stands for a
// session) into insight facts.
func (o *Engine) factsFromEvents(ctx context.Context, in extract.InsightInput) ([]ifact, error) {
	if len(in.Events) == 0 {
		return nil, nil
	}
	var days []string
	groups := make(map[string][]extract.Event)
	for _, ev := range in.Events {
		d := "day:" + ev.OccurredAt.UTC().Format(time.DateOnly)
		if _, ok := groups[d]; !ok {
			days = append(days, d)
		}
		groups[d] = append(groups[d], ev)
	}
	var out []ifact
	for _, d := range days {
		res, err := o.Extract(ctx, extract.Input{UserID: in.UserID, Events: groups[d]})
		if err != nil {
			return nil, fmt.Errorf("offline insights: %w", err)
		}
		names := make(map[string]string)
		for _, e := range res.Entities {
			names[e.Key] = e.Name
			if e.IsUser {
				names[e.Key] = "User"
			} else if e.Owner != "" && e.Name != "" {
				names[e.Key] = e.Name
			}
		}
		for _, f := range res.Facts {
			x := ifact{subj: names[f.Subject], pred: f.Predicate, obj: names[f.Object], sentence: f.Sentence,
				sessions: []string{d}, events: f.SourceEventIDs, negative: f.Polarity == ontology.Negative}
			if f.ValidFrom != nil {
				x.when = *f.ValidFrom
			}
			if ev := eventByID(groups[d], firstOf(f.SourceEventIDs)); ev != nil {
				x.when = ev.OccurredAt
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// negativeSentence guesses the polarity of a stored fact from its sentence
// (extract.InsightFact carries no polarity).
func negativeSentence(s string) bool {
	l := strings.ToLower(s)
	for _, m := range []string{"anymore", "no longer", "used to", "doesn't", "does not", "don't", "gave up", "stopped", "not a fan", " quit ", " left ", " sold "} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// insightSubjectKey is the subject part of an insight's Key: stable
// across regenerations, so a new insight on the same topic supersedes the
// old one.
func insightSubjectKey(subj, userID string) string {
	if subjectName(subj, userID) == "The user" {
		return "user"
	}
	return nlp.NormalizeName(subj)
}

// subjectName writes a fact's subject for an insight sentence.
func subjectName(subj, userID string) string {
	if subj == "" || strings.EqualFold(subj, "user") || subj == userID || subj == userKey {
		return "The user"
	}
	return subj
}

// repeatable predicates say what someone does, again and again.
var repeatable = map[string]string{
	"ATTENDED": "regularly attends", "VISITED": "often goes to", "PRACTICES": "regularly practices",
	"LIKES": "consistently enjoys", "CREATED": "often makes", "MEMBER_OF": "is actively involved with",
	"READ": "reads a lot, including", "WATCHED": "often watches",
}

// patternKey folds an object name so that "LGBTQ support group" and
// "support group" count as the same pattern (the last two words).
func patternKey(obj string) string {
	f := strings.Fields(nlp.NormalizeName(obj))
	if len(f) > 2 {
		f = f[len(f)-2:]
	}
	return strings.Join(f, " ")
}

// repeated finds the same activity, place or liking in two or more sessions.
func repeated(facts []ifact, userID string) []extract.Insight {
	type group struct {
		subj, pred, obj string
		sessions        map[string]bool
		ids, events     []string
	}
	var order []string
	groups := make(map[string]*group)
	for _, f := range facts {
		if _, ok := repeatable[f.pred]; !ok || f.negative || f.obj == "" {
			continue
		}
		k := strings.ToLower(f.subj) + "|" + f.pred + "|" + patternKey(f.obj)
		g, ok := groups[k]
		if !ok {
			g = &group{subj: f.subj, pred: f.pred, obj: f.obj, sessions: make(map[string]bool)}
			groups[k] = g
			order = append(order, k)
		}
		if len(f.obj) > len(g.obj) {
			g.obj = f.obj // the most specific name ("LGBTQ support group")
		}
		sess := f.sessions
		if len(sess) == 0 && !f.when.IsZero() {
			sess = []string{"day:" + f.when.UTC().Format(time.DateOnly)}
		}
		for _, s := range sess {
			g.sessions[s] = true
		}
		if f.id != "" {
			g.ids = appendNew(g.ids, f.id)
		}
		for _, e := range f.events {
			g.events = appendNew(g.events, e)
		}
	}
	var out []extract.Insight
	for _, k := range order {
		g := groups[k]
		n := len(g.sessions)
		if n < 2 {
			continue
		}
		obj := g.obj
		switch g.pred {
		case "ATTENDED", "CREATED":
			obj = pluralPhrase(obj)
		case "VISITED":
			if strings.ToLower(obj) == obj {
				obj = "the " + obj
			}
		}
		verb := repeatable[g.pred]
		if g.pred == "PRACTICES" && goVerbs[firstWord(strings.ToLower(obj))] {
			verb = "regularly goes"
		}
		text := fmt.Sprintf("%s %s %s (mentioned in %d sessions)", subjectName(g.subj, userID), verb, obj, n)
		out = append(out, extract.Insight{Key: insightSubjectKey(g.subj, userID) + " " + strings.ToLower(g.pred) + " " + patternKey(g.obj), Text: text, Confidence: min(0.9, 0.5+0.1*float64(n)), SourceEventIDs: g.events,
			EntityNames: []string{displayEntity(g.subj), g.obj}, FactIDs: g.ids})
	}
	return out
}

func appendNew(xs []string, x string) []string {
	if contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

func displayEntity(subj string) string {
	if subj == "" {
		return "User"
	}
	return subj
}

// pluralPhrase pluralizes the last word of a phrase ("support group" →
// "support groups").
func pluralPhrase(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return s
	}
	last := f[len(f)-1]
	if nlp.Singular(strings.ToLower(last)) == strings.ToLower(last) {
		f[len(f)-1] = pluralize(last)
	}
	return strings.Join(f, " ")
}

// collectionLabels phrase "several X" insights per predicate.
var collectionLabels = map[string]struct {
	min          int
	label, topic string
}{
	"HAS_PET": {2, "has several pets", "pets"}, "ALLERGIC_TO": {2, "has several allergies", "allergies"},
	"LIKES": {3, "likes many things", "likes"}, "PARENT_OF": {2, "has several children", "children"},
	"LEARNING": {2, "is learning several things", "learning"}, "VISITED": {3, "has been to several places", "travel"},
	"ATTENDED": {3, "goes to many events", "events"}, "SUPPORTS": {2, "supports several teams", "teams"},
	"PRACTICES": {3, "has many hobbies", "hobbies"},
}

var speciesRe = regexp.MustCompile(`has an? ([a-z]+(?: [a-z]+)?) named `)

// collections finds several current facts of one kind for one subject.
func collections(facts []ifact, userID string) []extract.Insight {
	type group struct {
		subj, pred  string
		items       []string
		seen        map[string]bool
		ids, events []string
	}
	var order []string
	groups := make(map[string]*group)
	for _, f := range facts {
		if _, ok := collectionLabels[f.pred]; !ok || f.negative || f.obj == "" {
			continue
		}
		k := strings.ToLower(f.subj) + "|" + f.pred
		g, ok := groups[k]
		if !ok {
			g = &group{subj: f.subj, pred: f.pred, seen: make(map[string]bool)}
			groups[k] = g
			order = append(order, k)
		}
		key := patternKey(f.obj)
		if f.id != "" {
			g.ids = appendNew(g.ids, f.id)
		}
		for _, e := range f.events {
			g.events = appendNew(g.events, e)
		}
		if g.seen[key] {
			continue
		}
		g.seen[key] = true
		item := f.obj
		if f.pred == "HAS_PET" {
			if m := speciesRe.FindStringSubmatch(strings.ToLower(f.sentence)); m != nil && !strings.EqualFold(m[1], f.obj) {
				item += " (" + m[1] + ")"
			}
		}
		g.items = append(g.items, item)
	}
	var out []extract.Insight
	for _, k := range order {
		g := groups[k]
		spec := collectionLabels[g.pred]
		if len(g.items) < spec.min {
			continue
		}
		items := g.items
		if len(items) > 6 {
			items = append(items[:6:6], "…")
		}
		text := fmt.Sprintf("%s %s: %s", subjectName(g.subj, userID), spec.label, strings.Join(items, ", "))
		out = append(out, extract.Insight{Key: insightSubjectKey(g.subj, userID) + " " + spec.topic, Text: text, Confidence: 0.8, SourceEventIDs: g.events,
			EntityNames: append([]string{displayEntity(g.subj)}, g.items...), FactIDs: g.ids})
	}
	return out
}

// preferenceSign is +1 for a liking, -1 for its absence or an aversion,
// 0 for other predicates.
func preferenceSign(f ifact) int {
	switch f.pred {
	case "LIKES", "PREFERS", "HAS_FAVORITE", "HAS_DIET", "PRACTICES", "LEARNING":
		if f.negative {
			return -1
		}
		return 1
	case "DISLIKES":
		if f.negative {
			return 1
		}
		return -1
	}
	return 0
}

// changes finds preferences that flipped over time.
func changes(facts []ifact, userID string) []extract.Insight {
	type track struct {
		subj, obj   string
		first, last ifact
		flipped     bool
		ids, events []string
	}
	var order []string
	tracks := make(map[string]*track)
	sorted := append([]ifact(nil), facts...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].when.Before(sorted[b].when) })
	for _, f := range sorted {
		sign := preferenceSign(f)
		if sign == 0 || f.obj == "" || f.when.IsZero() {
			continue
		}
		k := strings.ToLower(f.subj) + "|" + nlp.NormalizeName(f.obj)
		t, ok := tracks[k]
		if !ok {
			tracks[k] = &track{subj: f.subj, obj: f.obj, first: f, last: f}
			order = append(order, k)
			t = tracks[k]
		} else {
			if preferenceSign(t.last) != sign {
				t.flipped = true
			}
			t.last = f
		}
		if f.id != "" {
			t.ids = appendNew(t.ids, f.id)
		}
		for _, e := range f.events {
			t.events = appendNew(t.events, e)
		}
	}
	var out []extract.Insight
	for _, k := range order {
		t := tracks[k]
		if !t.flipped {
			continue
		}
		subj := subjectName(t.subj, userID)
		what := "taste in " + t.obj
		switch t.first.pred {
		case "HAS_DIET":
			what = "diet"
		case "PRACTICES", "LEARNING":
			what = "interest in " + t.obj
		}
		text := fmt.Sprintf("%s's %s changed: earlier \"%s\" (%s), later \"%s\" (%s)", subj, what,
			t.first.sentence, nlp.FormatDay(t.first.when), t.last.sentence, nlp.FormatDay(t.last.when))
		out = append(out, extract.Insight{Key: insightSubjectKey(t.subj, userID) + " change " + nlp.NormalizeName(t.obj), Text: text, Confidence: 0.75, SourceEventIDs: t.events,
			EntityNames: []string{displayEntity(t.subj), t.obj}, FactIDs: t.ids})
	}
	return out
}
