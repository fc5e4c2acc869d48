package retrieval

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/graphmem/graphmem/nlp"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// TopicReader says which ontology topic a sentence's embedding speaks of
// (knowledge.TopicReader).
type TopicReader interface {
	Prepare(ctx context.Context) error
	Read(vec []float32) knowledge.TopicReading
	Topic(name string) (ontology.Topic, bool)
	TopicOfPredicate(predicate string) string
	Affinity(vec []float32, topic string) float64
}

// historyWords mark a question about the past ("where did the user live
// before?"): the older value of a slot answers it, not the current one.
var historyWords = map[string]bool{"before": true, "previously": true, "used": true, "formerly": true, "originally": true,
	"earlier": true, "old": true, "former": true, "prior": true, "past": true, "first": true, "initially": true}

// currency is the stage that puts the current truth first for a question
// about the user, whatever the wording and whether or not a fact was
// extracted:
//
//  1. evidence priors: an assistant's turn, the user's own question and
//     chatter are not evidence of what holds for the user; they are
//     demoted, with the reason in explain;
//  2. slots by meaning: the query's topic (or, when the reader is unsure,
//     that of its best-matching statement) is read from its embedding;
//     the user's statements on that topic are one slot when the topic
//     holds one value. The newest statement is current; the older ones are
//     marked superseded (superseded_by the newest) and demoted, and the
//     newest inherits the best relevance of the slot, since it answers the
//     question the older one matched. A history question inverts the
//     preference;
//  3. summaries citing only superseded turns are demoted with them.
func (r *search) currency(ctx context.Context) error {
	if !r.q.AboutUser {
		return nil
	}
	r.evidencePriors()
	r.corrections()
	r.runningTotals()
	r.revisedStatements()
	r.replacedByFacts()
	if r.s.topics == nil || r.qvec == nil || r.s.vectors == nil {
		return nil
	}
	if err := r.s.topics.Prepare(ctx); err != nil {
		return nil // no topics this time: ranking without the slot stage
	}
	// A question that names a relation ("Which nursery does the user's
	// daughter attend?") or asks who ("Who lives with the user?") is
	// answered by the user's statements about them.
	relations := knowledge.AsksAboutOthers(r.in.Query)
	var stmts []*candidate
	for _, c := range r.set {
		if c.Kind == KindRaw && c.role == "user" && c.form == knowledge.FormStatement && !c.hypothetical && (!c.other || relations) && relevance(c, r.cfg) > 0 {
			stmts = append(stmts, c)
		}
	}
	reading := r.s.topics.Read(r.qvec)
	asked := reading.Topic
	if asked == ontology.TopicChatter {
		asked = ""
	}
	// The topic statements are weighed by: the sure reading, or the
	// closest topic when the question matches it well but another comes
	// close ("Is the user retired?": work, or health).
	weighBy := asked
	if weighBy == "" && reading.Best != ontology.TopicChatter && reading.Score >= r.cfg.TopicAffinity {
		weighBy = reading.Best
	}
	r.slotTopic = asked
	if len(stmts) == 0 {
		return nil
	}
	sort.Slice(stmts, func(i, j int) bool {
		if a, b := relevance(stmts[i], r.cfg), relevance(stmts[j], r.cfg); a != b {
			return a > b
		}
		return candidateKey(stmts[i]) < candidateKey(stmts[j]) // the same order on every run
	})
	stmts = stmts[:min(len(stmts), r.cfg.SlotCandidates)]
	// The meaning stage read the vectors of the turns it held; a turn
	// added since is read here.
	var refs []graph.VectorRef
	for _, c := range stmts {
		if !c.vecRead {
			refs = append(refs, graph.VectorRef{Kind: KindRaw, SessionID: c.SessionID, ID: c.ID})
		}
	}
	if len(refs) > 0 {
		vecs, err := r.s.vectors.Vectors(ctx, r.scope, refs)
		if err != nil {
			return err
		}
		for _, c := range stmts {
			if v := vecs[graph.VectorRef{Kind: KindRaw, SessionID: c.SessionID, ID: c.ID}]; v != nil {
				c.setVec(v)
			}
			c.vecRead = true
		}
	}
	// A turn's topic is read from its words. When they say none plainly,
	// the fact read from it that brought it here may: "I'm learning
	// Japanese on Duolingo" reads as no topic, "The user is learning
	// Japanese" as study (facts are phrased like the topics' prototypes).
	// That reading only lets the turn join the slot the question and the
	// other statements decide; it neither picks the slot nor weighs the
	// turn against the asked topic (a sound engineer's turn read as work
	// must not be pushed down when an unsure question leans to study).
	topicOf, factTopic := map[*candidate]string{}, map[*candidate]string{}
	for _, c := range stmts {
		if c.vec != nil && !c.terse {
			topicOf[c] = r.s.topics.Read(c.vec).Topic
			if topicOf[c] == "" && c.factVec != nil {
				factTopic[c] = r.s.topics.Read(c.factVec).Topic
			}
		}
	}
	r.runnerUpRevision(ctx, stmts, topicOf, asked)
	if weighBy != "" {
		r.topicAgreement(ctx, weighBy, weighBy == asked, stmts, topicOf)
	}
	r.revisedStatements() // again, now by meaning as well as by the question's words
	// One statement still makes a slot with the current facts of its topic
	// that are newer than it (slotFacts): "Week one at Quillmark Studio is
	// in the books" matched nothing of "Which company is the user employed
	// by?", but the fact read from it, "The user now works at Quillmark
	// Studio", replaces the older statement that did.
	// Each statement's closeness to the asked topic, read once.
	askedAffinity := map[*candidate]float64{}
	affinity := func(c *candidate) float64 {
		a, ok := askedAffinity[c]
		if !ok {
			a = r.s.topics.Affinity(c.vec, asked)
			askedAffinity[c] = a
		}
		return a
	}
	// Read once per statement: the slot's choice and its members ask alike.
	joins := map[*candidate]bool{}
	for _, c := range stmts {
		joins[c] = r.joinsAsked(c, asked, topicOf, affinity)
	}
	joinsAsked := func(c *candidate) bool { return joins[c] }
	slot := asked
	if slot == "" || !slices.ContainsFunc(stmts, func(c *candidate) bool { return topicOf[c] == slot || factTopic[c] == slot || joinsAsked(c) }) {
		slot = topicOf[stmts[0]] // the best-matching statement's topic
	}
	topic, ok := r.s.topics.Topic(slot)
	if slot == "" {
		// No topic read: only statements saying nearly the same thing
		// form a slot (below).
		topic, ok = ontology.Topic{Cardinality: ontology.One}, true
	}
	if ok && topic.Cardinality == ontology.Many && slot != ontology.TopicChatter {
		r.endedValues(stmts, topicOf)
		r.changedValues(stmts, topicOf)
		r.demoteStaleSummaries()
		return nil
	}
	if !ok || topic.Cardinality != ontology.One || slot == ontology.TopicChatter {
		return nil
	}
	r.slotTopic = slot
	// Saying nearly the same thing as the best-matching statement joins
	// only a slot both may speak of: when the question's topic is read, an
	// anchor far from it (a poetry reading matched "living" by a word, for
	// "What does the user do for a living?") makes no slot of its
	// look-alikes, and a look-alike far from it (a struggle with mental
	// health beside a search for counselling jobs) joins none.
	near := func(o *candidate) bool {
		return asked == "" || o.vec != nil && affinity(o) >= r.cfg.TopicAffinity*0.8
	}
	anchorNear := near(stmts[0])
	// A statement that gives a numbered label of the best-matching
	// statement another number ("Year 6 from September" after "I teach
	// Year 3") speaks of the same thing, whatever its topic reads as.
	labels := map[*candidate]map[string]string{}
	for _, c := range stmts {
		labels[c] = knowledge.NumberedLabels(knowledge.OwnSentences(c.Text))
	}
	relabels := func(c *candidate) bool {
		if c == stmts[0] {
			return slices.ContainsFunc(stmts[1:], func(o *candidate) bool { return knowledge.RelabelledOf(labels[c], labels[o]) })
		}
		return knowledge.RelabelledOf(labels[stmts[0]], labels[c])
	}
	var group []*candidate
	for _, c := range stmts {
		// One slot: the statements read as the slot's topic, and those
		// saying nearly the same thing as the best-matching statement
		// (a topic the reader was unsure of: "My resting heart rate is
		// 78" and later "...is 62 now").
		onTopic := slot != "" && (topicOf[c] == slot || factTopic[c] == slot || (slot == asked && c.vec != nil && !c.terse && affinity(c) >= r.cfg.TopicAffinity) ||
			r.updatesQueried(c))
		joined := !onTopic && slot == asked && joinsAsked(c)
		onTopic = onTopic || joined
		anchored := anchorNear && near(c)
		same := onTopic || anchored &&
			(c != stmts[0] && c.vec != nil && stmts[0].vec != nil && knowledge.Cosine(c.vec, stmts[0].vec) >= r.cfg.PairSlotSimilarity)
		if c == stmts[0] && !onTopic && anchored {
			same = slices.ContainsFunc(stmts[1:], func(o *candidate) bool {
				return o.vec != nil && c.vec != nil && knowledge.Cosine(o.vec, c.vec) >= r.cfg.PairSlotSimilarity
			})
		}
		relabelled := relabels(c)
		if relabelled {
			group = append(group, c)
			continue
		}
		if !same {
			continue
		}
		// A qualified slot (a favourite per category, a measure per
		// quantity) holds statements that speak of the query's qualifier:
		// they share its words or are close to it in meaning.
		// A statement the reader is sure speaks of the slot's topic needs
		// to come less near the question to speak of its qualifier, as an
		// update does: its topic is already known.
		bar := r.slotQueryBar(c)
		if topicOf[c] == slot {
			bar = r.cfg.SlotQuerySimilarity - r.cfg.ChangeSlotSlack
		}
		if topic.Qualified && c.Parts.FullText == 0 && knowledge.Cosine(c.vec, r.qvec) < bar && !(c.correction && onTopic) && !joined {
			// A correction on the slot's topic speaks of what it corrects,
			// qualifier or not ("Sorry, I meant Friday the 15th").
			continue
		}
		group = append(group, c)
	}
	group = r.sameMeasures(topic, group, stmts, topicOf)
	if len(group) == 0 {
		return nil
	}
	group = append(group, r.slotFacts(topic, slot, group)...)
	if len(group) < 2 {
		return nil
	}
	sort.SliceStable(group, func(i, j int) bool { return group[i].OccurredAt.After(group[j].OccurredAt) })
	// A turn that asks what a change it only supposes would bring ("if I
	// swapped to a Kia Niro, what would I save?") holds no newer value,
	// whatever else it says: the newest value is the newest turn that does
	// not, and a supposing turn after it is left as it is.
	// Where the slot's values are names or amounts ("I rent a studio in
	// Leipzig", "we signed for a two-bedroom in Dresden"), a later turn
	// that names none and reports no change elaborates on the value
	// before it ("Quieter, and there's a bakery on the corner"): it holds
	// no newer value either, and ranks below the value it elaborates on.
	named := slices.ContainsFunc(group, namesValue)
	first := slices.IndexFunc(group, func(c *candidate) bool { return !c.asksIf && (!named || holdsValue(c, slot == ontology.TopicMeasure)) })
	history := r.history
	if first > 0 && !history {
		for _, c := range group[:first] {
			if c.asksIf {
				c.demote(r.cfg.HypotheticalWeight, "supposes a change of the "+slotName(slot)+" it does not report")
			} else {
				c.demote(r.cfg.ElaborationWeight, "names no value of the "+slotName(slot)+"; the statement before it does")
			}
		}
	}
	if first < 0 || first == len(group)-1 {
		return nil
	}
	newest := group[first]
	best := 0.0
	for _, c := range group {
		best = max(best, relevance(c, r.cfg))
	}
	for _, c := range group[first+1:] {
		if !c.OccurredAt.Before(newest.OccurredAt) || c.Kind != KindRaw || c.Status == StatusSuperseded {
			continue // said at the same instant: no order to prefer; facts keep their own timeline
		}
		if newest.Kind == KindFact && slices.Contains(newest.SourceEventIDs, c.ID) {
			continue // the fact was read from this turn
		}
		c.Status = StatusSuperseded
		c.SupersededBy = newest.ID
		if history {
			c.lift = best / relevance(c, r.cfg)
			c.demote(1, "an earlier value of the "+slotName(slot)+", which a question about the past asks for")
		} else {
			c.demote(r.cfg.SupersededWeight, "superseded: the user said something newer about the "+slotName(slot))
		}
	}
	if history {
		newest.demote(r.cfg.SupersededWeight, "the current value of the "+slotName(slot)+"; the question asks about the past")
	} else if rel := relevance(newest, r.cfg); rel > 0 && best > rel {
		newest.lift = best / rel
		newest.reasons = append(newest.reasons, "the newest statement on the "+slotName(slot))
	}
	if !history {
		if err := r.outdatedFacts(ctx, group, slot); err != nil {
			return err
		}
	}
	r.demoteStaleSummaries()
	return nil
}

// runningTotals: a question for an amount ("How many marathons has the
// user run this year?", "How much rent does the user pay?") has one
// current answer, whatever the topic reader makes of it: among the user's
// statements that give a number and name what the question counts, the
// newest is current and the older ones are superseded by it ("my second
// marathon this year" by "that makes three marathons"). It needs no
// vectors, so it holds with the embedder off. A question about the past
// keeps the older values.
func (r *search) runningTotals() {
	asks := amountQuestion(r.in.Query)
	if asks == nil {
		if progressQuestion(r.in.Query) {
			r.countedTotals()
		}
		return
	}
	var group, rest []*candidate
	for _, c := range r.set {
		if c.Kind != KindRaw || c.role != "user" || c.form != knowledge.FormStatement || c.hypothetical || c.other ||
			c.Status == StatusSuperseded || relevance(c, r.cfg) <= 0 || !hasAmount(c.Text) {
			continue
		}
		if slices.ContainsFunc(contentTerms(c), func(t string) bool { return asks[t] }) {
			group = append(group, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(group) == 0 {
		r.supersedeAmounts(r.countedByMeaning(rest))
		return
	}
	// A later total need not repeat what is counted ("I've spent £240 on
	// the wedding flowers so far", then "with the cake we're at £610 so
	// far"): an amount said in nearly the same words and meaning as one
	// that names it counts the same thing.
	anchors := len(group)
	for _, c := range rest {
		if c.vec != nil && slices.ContainsFunc(group[:anchors], func(g *candidate) bool {
			return g.vec != nil && knowledge.Cosine(g.vec, c.vec) >= r.cfg.PairSlotSimilarity
		}) {
			group = append(group, c)
		}
	}
	r.supersedeAmounts(group)
}

// countedByMeaning is the running total of an amount question none of
// whose statements names what it counts: the user says it in other words
// ("How many chickens does the user keep?" of "we keep three hens", then
// "we're at four hens now"; children and kids; Scottish mountains and
// Munros). The amounts said near the question in meaning count it, and so
// do the amounts that count the same noun as one of them ("17 Munros done",
// too terse to sit near the question). They are one total when the newest
// says it is the present state (a change: "now", "so far") or counts the
// same noun as an older one; otherwise a newer amount near the question
// may count something else ("15 eggs a week") and nothing is superseded.
func (r *search) countedByMeaning(amounts []*candidate) []*candidate {
	var group []*candidate
	nouns := map[string]bool{}
	for _, c := range amounts {
		if c.vec != nil && !c.terse && c.cos >= r.cfg.SlotQuerySimilarity {
			group = append(group, c)
			for _, n := range countedNouns(c.Text) {
				nouns[n] = true
			}
		}
	}
	if len(group) == 0 {
		return nil
	}
	for _, c := range amounts {
		if !slices.Contains(group, c) && slices.ContainsFunc(countedNouns(c.Text), func(n string) bool { return nouns[n] }) {
			group = append(group, c)
		}
	}
	if len(group) < 2 {
		return nil
	}
	newest := slices.MaxFunc(group, func(a, b *candidate) int { return a.OccurredAt.Compare(b.OccurredAt) })
	counts := countedNouns(newest.Text)
	same := slices.ContainsFunc(group, func(c *candidate) bool {
		return c != newest && slices.ContainsFunc(countedNouns(c.Text), func(n string) bool { return slices.Contains(counts, n) })
	})
	if !newest.change && !same {
		return nil
	}
	return group
}

// countedTotals: a question for progress ("How far along is the user's
// manuscript?") names what progresses, not what is counted; the user's
// statements count it ("9 chapters so far", "that's 11 chapters now",
// "brings us to 14 chapters in total"). Statements that count the same
// thing (the noun after their numbers) are one running total when the
// newest says it is the present state; the newest is current.
func (r *search) countedTotals() {
	byNoun := map[string][]*candidate{}
	for _, c := range r.set {
		if c.Kind != KindRaw || c.role != "user" || c.form != knowledge.FormStatement || c.hypothetical || c.other ||
			c.Status == StatusSuperseded || relevance(c, r.cfg) <= 0 {
			continue
		}
		for _, n := range countedNouns(c.Text) {
			byNoun[n] = append(byNoun[n], c)
		}
	}
	var best []*candidate
	for _, n := range slices.Sorted(maps.Keys(byNoun)) {
		group := byNoun[n]
		if len(group) < 2 {
			continue
		}
		newest := slices.MaxFunc(group, func(a, b *candidate) int { return a.OccurredAt.Compare(b.OccurredAt) })
		if newest.change && len(group) > len(best) {
			best = group
		}
	}
	r.supersedeAmounts(best)
}

// countedNouns are the nouns a text counts: the word after each number
// ("14 chapters" → chapter, "three marathons" → marathon), singular,
// without units of time, which count no thing of their own.
func countedNouns(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != ',' })
	var out []string
	for i := 0; i+1 < len(words); i++ {
		w := strings.TrimRight(words[i], ".,")
		if w == "" || !(w[0] >= '0' && w[0] <= '9' || amountWords[w]) {
			continue
		}
		n := nlp.Singular(strings.Trim(words[i+1], ".,"))
		if n == "" || n[0] >= '0' && n[0] <= '9' || notCounted[n] || amountWords[n] {
			continue
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// notCounted follow a number without naming a thing counted.
var notCounted = map[string]bool{"a": true, "an": true, "the": true, "of": true, "and": true, "or": true, "to": true,
	"in": true, "on": true, "at": true, "for": true, "per": true, "more": true, "less": true, "time": true, "day": true,
	"week": true, "month": true, "year": true, "hour": true, "minute": true, "second": true, "am": true, "pm": true,
	"so": true, "now": true, "total": true, "is": true, "are": true, "was": true, "i": true, "we": true}

// progressQuestion reports whether a question asks how far something has
// got ("How far along is...", "How far through...", "How much progress...").
func progressQuestion(query string) bool {
	low := strings.ToLower(query)
	return strings.Contains(low, "how far along") || strings.Contains(low, "how far through") ||
		strings.Contains(low, "how far into") || strings.Contains(low, "how much progress") ||
		strings.Contains(low, "what progress")
}

// supersedeAmounts makes the newest of a group of amounts current and the
// older ones superseded by it (kept, first, for a question about the past).
func (r *search) supersedeAmounts(group []*candidate) {
	if len(group) < 2 {
		return
	}
	sort.SliceStable(group, func(i, j int) bool { return group[i].OccurredAt.After(group[j].OccurredAt) })
	newest := group[0]
	best := 0.0
	for _, c := range group {
		best = max(best, relevance(c, r.cfg))
	}
	for _, c := range group[1:] {
		if !c.OccurredAt.Before(newest.OccurredAt) || c.SessionID == newest.SessionID && c.correction {
			continue
		}
		c.Status = StatusSuperseded
		c.SupersededBy = newest.ID
		if r.history {
			c.reasons = append(c.reasons, "an earlier amount, which a question about the past asks for")
			continue
		}
		c.demote(r.cfg.SupersededWeight, "an earlier amount: the user gave a newer one")
	}
	if !r.history {
		if rel := relevance(newest, r.cfg); rel > 0 && best > rel {
			newest.lift = max(newest.lift, best/rel)
		}
		newest.reasons = append(newest.reasons, "the newest amount the user gave")
	} else {
		newest.demote(r.cfg.SupersededWeight, "the current amount; the question asks about the past")
	}
}

// revisedStatements: a newer statement of the user's that says it revises
// something ("standup got pushed to 10 o'clock", "the landlord put the
// rent up to 1,320", "Codenames has replaced everything else") and names
// what the question asks about, as an older statement of the user's does,
// supersedes that older statement for a question about now. Sharing the
// question's words is the evidence of one slot, so it holds without
// vectors; the revision word is what tells a replacement from a second
// value ("I've also taken up padel" revises nothing).
func (r *search) revisedStatements() {
	if r.history {
		return
	}
	asked := map[string]bool{}
	for _, t := range nlp.Terms(r.in.Query) {
		if !genericQueryTerms[t] {
			asked[t] = true
		}
	}
	if len(asked) == 0 {
		return
	}
	type stmt struct {
		c     *candidate
		terms map[string]bool
	}
	var stmts []stmt
	for _, c := range r.set {
		if c.Kind != KindRaw || c.role != "user" || c.form != knowledge.FormStatement || c.hypothetical || c.other || relevance(c, r.cfg) <= 0 {
			continue
		}
		terms := map[string]bool{}
		for _, t := range contentTerms(c) {
			if asked[t] {
				terms[t] = true
			}
		}
		if len(terms) > 0 || c.vec != nil {
			stmts = append(stmts, stmt{c, terms})
		}
	}
	sort.SliceStable(stmts, func(i, j int) bool { return stmts[i].c.OccurredAt.After(stmts[j].c.OccurredAt) })
	for i, e := range stmts {
		if e.c.Status == StatusSuperseded || e.c.asksIf || e.c.temporary || !knowledge.Revises(e.c.Text) || knowledge.Adds(e.c.Text) {
			continue // a supposed change ("if we moved to Porto, what would we pay?") revises nothing
		}
		amountOnly := knowledge.RevisesAmountOnly(e.c.Text)
		if amountOnly && !hasAmount(e.c.Text) && amountQuestion(r.in.Query) == nil && r.slotTopic != ontology.TopicMeasure {
			// "My gym membership has gone up again" names no new amount:
			// it revises a price, which only a question for an amount asks
			// about, not which gym.
			continue
		}
		for _, o := range stmts[i+1:] {
			if o.c.Status == StatusSuperseded || !o.c.OccurredAt.Before(e.c.OccurredAt) {
				continue
			}
			if amountOnly && !hasAmount(o.c.Text) {
				continue // a price that went up revises an amount, not "I use YNAB"
			}
			shared := false
			for t := range o.terms {
				shared = shared || e.terms[t]
			}
			// By meaning once the statements' vectors are known: "Dropped that
			// app; it's all Spanish classes now" revises "I'm learning
			// Japanese on Duolingo" without a word in common.
			// The older statement must answer the question, by its words or
			// its topic: two look-alike turns that the question does not ask
			// about revise nothing it needs ("it really pushed me" beside an
			// older turn on the same subject, for a question about pets).
			shared = shared || o.c.vec != nil && e.c.vec != nil && knowledge.Cosine(o.c.vec, e.c.vec) >= r.cfg.PairSlotSimilarity &&
				(len(o.terms) > 0 || r.slotTopic != "" && r.s.topics.Affinity(o.c.vec, r.slotTopic) >= r.cfg.TopicAffinity)
			if !shared {
				continue
			}
			r.replaceBy(o.c, e.c, "", "revised: the user said later that this changed", "revises what the user said before")
		}
	}
}

// runnerUpRevision: when the user's statement that matches the question
// second best is newer than the best one and says it replaces something
// ("I ditched the JetBrains stuff, everything goes through Neovim now"
// after "I write all my Python in PyCharm"; "the school moved me up to the
// intermediate group" after "I'm in the beginners' class"; a correction
// made days later, "Correction to yesterday: the reading was actually
// 138/85"; or a state begun recently, "Elsie's been at Hilltop Montessori
// since June" after "My daughter goes to Little Acorns nursery"), it
// replaces the best one. What links the two is the question:
// nothing in the newer turn's words or meaning matches the older statement
// (PyCharm is JetBrains' editor, the intermediate group follows the
// beginners'), and sentence vectors place such pairs as far apart as
// unrelated ones (cosine 0.01 to 0.15), so the pair tests of
// revisedStatements and the slot stage cannot join them. Being the user's
// two best answers to one question is the evidence of one slot; only the
// runner-up is read, so a turn that revises something else ranks behind
// the user's other statements on the subject and changes nothing. The
// runner-up must not add a value ("I've also taken up padel"), decline a
// change ("not moving"), move something to a new time for a question that
// does not ask when, hold only for a while ("staying in Oslo for two
// weeks"), say it replaced a thing the question does not ask about
// ("Switched banks to Starling" for the mobile network), nor read plainly
// as another topic than the one asked; the change must be said of the
// speaker (or of the relative a question names), and a change of an amount
// revises only an amount a question asks for.
func (r *search) runnerUpRevision(ctx context.Context, stmts []*candidate, topicOf map[*candidate]string, asked string) {
	if r.history || len(stmts) < 2 {
		return
	}
	best, next := stmts[0], stmts[1]
	if best.Status == StatusSuperseded || next.Status == StatusSuperseded || !next.OccurredAt.After(best.OccurredAt) {
		return
	}
	// The change must be the speaker's: "My sister's moved to Cardiff 😭
	// help me plan a weekend visiting her" changes no home of the user's.
	// For a question about a relative, the change is the relative's
	// ("Elsie's been at Hilltop since June").
	relations := knowledge.AsksAboutOthers(r.in.Query)
	own, ownClauses := ownText(next.Text, relations), knowledge.OwnClauses(next.Text)
	if relations {
		ownClauses = next.Text
	}
	if next.asksIf || next.temporary || knowledge.Adds(next.Text) ||
		!(knowledge.Revises(own) || knowledge.Turns(own) || knowledge.Began(ownClauses) || next.correction) {
		return
	}
	if knowledge.RevisesAmountOnly(next.Text) && (!hasAmount(best.Text) || amountQuestion(r.in.Query) == nil && asked != ontology.TopicMeasure) {
		return // a price that went up changes no choice ("my gym membership has gone up again")
	}
	if knowledge.Keeps(own) {
		return // a change declined: "Nah, not moving, the coaches are worth it; I'll cut back on takeaways instead"
	}
	if knowledge.Rescheduled(own) && !asksWhen(r.in.Query) && asked != ontology.TopicSchedule {
		return // a new time revises when something happens: "Moved my gym sessions to 6:15am" is no new train
	}
	if t := topicOf[next]; asked != "" && t != "" && t != asked && (next.vec == nil || r.s.topics.Affinity(next.vec, asked) < r.cfg.TopicAffinity*0.8) {
		return // a change of something else the question does not ask about
	}
	if thing := knowledge.RevisedThing(own); thing != "" && !r.mayBeAsked(ctx, thing, best) {
		return // "Switched banks to Starling" for a question about the mobile network
	}
	r.replaceBy(best, next, "what the user said before the change, which a question about the past asks for",
		"revised: the user's next best answer to the question is newer and says this changed", "the newer of the user's two best answers, which says it changed")
}

// asksWhen reports whether a question asks for a time, a day or how often.
func asksWhen(query string) bool {
	q := strings.ToLower(strings.TrimSpace(query))
	return strings.HasPrefix(q, "when ") || slices.ContainsFunc(whenPhrases, func(w string) bool { return strings.Contains(q, w) })
}

// whenPhrases ask for a time, a day or a frequency inside a question.
var whenPhrases = []string{"what time", "what day", "which day", "how often"}

// genericQueryTerms are stems of a question's wording that name no slot.
var genericQueryTerms = map[string]bool{"user": true, "now": true, "current": true, "currently": true, "day": true,
	"lik": true, "enjoy": true, "usual": true, "usually": true, "tim": true, "favourit": true, "favorit": true, "best": true,
	"going": true, "prefer": true, "lov": true}

// amountQuestion returns the terms of what a question for an amount
// counts ("how many marathons ..." → marathon, run, year), or nil when it
// asks for no amount.
func amountQuestion(query string) map[string]bool {
	low := strings.ToLower(query)
	if !strings.HasPrefix(low, "how many ") && !strings.HasPrefix(low, "how much ") {
		return nil
	}
	out := map[string]bool{}
	// "How many marathons", "how much rent": the word after is what is
	// counted; "how much has the user saved": the question's other terms.
	if next := strings.Fields(low[len("how many "):]); len(next) > 0 && !amountAux[next[0]] {
		if terms := nlp.Terms(next[0]); len(terms) == 1 {
			out[terms[0]] = true
			return out
		}
	}
	for _, t := range nlp.Terms(query) {
		if !amountQuestionNoise[t] {
			out[t] = true
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// amountQuestionNoise are stems of a question's wording that name nothing
// counted.
var amountQuestionNoise = map[string]bool{"user": true, "current": true, "now": true, "day": true, "year": true,
	"week": true, "month": true, "far": true, "total": true}

// amountAux are the words after "how much" that start the rest of the
// question rather than name what is counted.
var amountAux = map[string]bool{"does": true, "do": true, "did": true, "has": true, "have": true, "is": true, "are": true,
	"was": true, "were": true, "will": true, "would": true, "money": true, "time": true, "of": true}

// hasAmount reports whether text states a number: digits, a number word
// or an ordinal ("19 books", "three marathons", "my second").
func hasAmount(text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w[0] >= '0' && w[0] <= '9' || amountWords[w] {
			return true
		}
	}
	return false
}

var amountWords = map[string]bool{"one": true, "two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "fifteen": true, "twenty": true, "thirty": true,
	"forty": true, "fifty": true, "hundred": true, "thousand": true, "grand": true, "dozen": true, "first": true, "second": true,
	"third": true, "fourth": true, "fifth": true, "sixth": true, "seventh": true, "eighth": true, "ninth": true, "tenth": true,
	"half": true, "once": true, "twice": true}

// updatesQueried reports whether a statement marks itself as an update or
// a correction and speaks of what the query names, by its words and
// meaning ("Standup got pushed to 10 o'clock" for "What time is the
// user's daily standup?"): it belongs to the asked slot even when its
// topic reads otherwise.
func (r *search) updatesQueried(c *candidate) bool {
	return (c.change || c.correction) && c.Parts.FullText > 0 && c.vec != nil && knowledge.Cosine(c.vec, r.qvec) >= r.cfg.SlotQuerySimilarity
}

// replacedByFacts: a turn the graph marked stale (every fact read from it
// was superseded) names the turn the replacing fact was read from; when
// that turn is a candidate too, it answers the question the stale one
// matched ("It's been 100 days since my last cigarette" for "Does the user
// smoke?", after "I smoke about ten a day", which shares the question's
// word), so it inherits the stale turn's relevance, and the stale turn is
// marked superseded by it. A question about the past keeps the order.
func (r *search) replacedByFacts() {
	if r.history || r.in.IncludeHistory {
		return
	}
	for _, c := range r.set {
		if c.Kind != KindRaw || c.Status == StatusSuperseded {
			continue
		}
		partly := !c.stale && r.staleFor(c)
		if partly {
			// Stale for what is asked, though not for everything it says.
			c.stale = true
			c.reasons = append(c.reasons, "what it said about this was superseded")
		}
		if !c.stale || c.staleBy == "" {
			continue
		}
		e := r.set[KindRaw+":"+c.staleBy]
		if e == nil || e == c || e.stale {
			continue
		}
		c.Status = StatusSuperseded
		c.SupersededBy = e.ID
		if rel, best := relevance(e, r.cfg), relevance(c, r.cfg); rel > 0 && best > rel {
			e.lift = max(e.lift, best/rel)
			e.reasons = append(e.reasons, "the newer statement whose fact replaced what an older turn said")
		}
	}
}

// staleFor reports whether a turn only some of whose facts were
// superseded is stale for this question: the question asks for a fact type
// all of whose facts from the turn were superseded, and for none the turn
// still holds ("Who is the user dating?" of "My boyfriend Tom and I love
// port", after a break-up: the relationship is over, the taste is not).
func (r *search) staleFor(c *candidate) bool {
	asks := func(p string) bool { return r.q.Predicates[p] > 0 }
	return slices.ContainsFunc(c.stalePreds, asks) && !slices.ContainsFunc(c.currentPreds, asks)
}

// endedValues: in a slot that holds many values (pets, hobbies, tastes), a
// statement that something ended ("Miso passed away", "we sold the
// caravan") supersedes the user's older statements on the same topic that
// name the same thing; the other values of the slot stay current.
func (r *search) endedValues(stmts []*candidate, topicOf map[*candidate]string) {
	if !slices.ContainsFunc(stmts, func(c *candidate) bool { return c.ending }) {
		return // the common case: no ending, no terms to read
	}
	terms := make(map[*candidate][]string, len(stmts))
	for _, c := range stmts {
		terms[c] = contentTerms(c)
	}
	var ended []*candidate
	for _, e := range stmts {
		if !e.ending || e.vec == nil || e.Status == StatusSuperseded {
			continue
		}
		for _, c := range stmts {
			if c == e || c.ending || c.vec == nil || c.Status == StatusSuperseded || !c.OccurredAt.Before(e.OccurredAt) {
				continue
			}
			// A name both use is the same thing ("Our cat Biscuit is 14",
			// then "Biscuit passed away"), whatever their topics read;
			// otherwise they must speak of one topic and share a word.
			if !sharesName(c.Text, e.Text) {
				if topicOf[c] != topicOf[e] && knowledge.Cosine(c.vec, e.vec) < r.cfg.PairSlotSimilarity {
					continue
				}
				if !slices.ContainsFunc(terms[c], func(t string) bool { return slices.Contains(terms[e], t) }) {
					continue
				}
			}
			r.replaceBy(c, e, "what the user had before it ended, which a question about the past asks for",
				"ended: the user said later that it is over", "the latest word on what it ends")
			if !slices.Contains(ended, e) {
				ended = append(ended, e)
			}
		}
	}
	r.takenUpSince(ended, stmts, topicOf)
}

// takenUpSince: after an ending, what the user took up on the same topic is
// the latest word on it ("Biscuit died in his sleep", then "we've adopted
// a rescue lurcher called Moss", for "What is the name of the user's
// dog?"): a newer statement of the ending's topic that is itself no ending
// ranks at least as high as the ending, which inherited the relevance of
// what it ended. A question naming what ended ("Does the user still have
// Biscuit?") is answered by the ending, which keeps its place.
func (r *search) takenUpSince(ended, stmts []*candidate, topicOf map[*candidate]string) {
	if r.history {
		return
	}
	for _, e := range ended {
		if topicOf[e] == "" || sharesName(r.in.Query, e.Text) {
			continue
		}
		target := relevance(e, r.cfg) * max(e.lift, 1)
		for _, n := range stmts {
			if n == e || n.ending || n.vec == nil || n.Status == StatusSuperseded || !n.OccurredAt.After(e.OccurredAt) ||
				topicOf[n] != topicOf[e] {
				continue
			}
			if rel := relevance(n, r.cfg); rel > 0 && rel*max(n.lift, 1) < target {
				n.lift = target / rel
				n.reasons = append(n.reasons, "the latest word on the "+slotName(topicOf[e])+": taken up since the user said "+e.ID+" ended")
			}
		}
	}
}

// changedValues: in a slot of tastes or hobbies, which hold many values, a
// newer statement that says the speaker turned ("converted me, pale ales
// are my thing now", "I've gone off the food channels, these days it's
// woodworking videos") replaces the older statements on the same topic
// that say nearly the same kind of thing ("I was never a beer person"),
// unless it adds rather than replaces ("I've also fallen for Pixar
// shorts", "padel too"). Pets, family and health accumulate: a new puppy
// replaces no cat.
func (r *search) changedValues(stmts []*candidate, topicOf map[*candidate]string) {
	for _, e := range stmts {
		if !turnTopics[topicOf[e]] {
			continue
		}
		if !e.change || e.correction || e.vec == nil || e.Status == StatusSuperseded || !knowledge.Turns(e.Text) || knowledge.Adds(e.Text) {
			continue
		}
		for _, c := range stmts {
			if c == e || c.vec == nil || c.Status == StatusSuperseded || !c.OccurredAt.Before(e.OccurredAt) {
				continue
			}
			if topicOf[c] == "" || topicOf[c] != topicOf[e] || knowledge.Cosine(c.vec, e.vec) < r.cfg.PairSlotSimilarity {
				continue
			}
			r.replaceBy(c, e, "what the user said before the change, which a question about the past asks for",
				"changed: the user said later that this is different now", "the latest word on the "+slotName(topicOf[e]))
		}
	}
}

// turnTopics are the many-value topics a turn of taste changes.
var turnTopics = map[string]bool{"likes": true, "hobby": true}

// replaceBy marks the user's statement c superseded by the newer one e.
// For a question about the past c keeps its score with past as the
// reason; otherwise c is demoted (now) and e inherits c's relevance when
// c matched the question better (lift), since e answers what c matched.
func (r *search) replaceBy(c, e *candidate, past, now, lift string) {
	c.Status = StatusSuperseded
	c.SupersededBy = e.ID
	if r.history {
		c.reasons = append(c.reasons, past)
		return
	}
	c.demote(r.cfg.SupersededWeight, now)
	if rel, best := relevance(e, r.cfg), relevance(c, r.cfg); rel > 0 && best > rel {
		e.lift = max(e.lift, best/rel)
		e.reasons = append(e.reasons, lift)
	}
}

// setVec keeps a statement's stored vector and whether it is too terse to
// be read by meaning: the embedding of one content word ("I'm learning.",
// "Still there.") lands near whatever topic is asked, so such a turn
// neither takes a topic nor is raised for one.
func (c *candidate) setVec(v []float32) {
	c.vec, c.terse = v, len(contentTerms(c)) < 2
}

// contentTerms are a turn's search terms without the speaker's name.
func contentTerms(c *candidate) []string {
	text := c.Text
	if c.speaker != "" {
		text = strings.TrimPrefix(text, c.speaker+": ")
	}
	return nlp.Terms(text)
}

// namesValue reports whether a statement names a value: a name in the
// writer's own capitals or an amount.
func namesValue(c *candidate) bool {
	text := c.Text
	if c.speaker != "" {
		text = strings.TrimPrefix(text, c.speaker+": ")
	}
	return len(midSentenceNames(text)) > 0 || hasAmount(text)
}

// holdsValue reports whether a member of a slot can be the slot's newest
// value: a fact, a statement that names a value, or one that reports a
// change or a correction (which may give the new value in plain words: "we
// moved out to a village"). Off a measure slot, a rise or a fall is a
// change of something else ("the price of my budgeting app has gone up
// again" says nothing of which app).
func holdsValue(c *candidate, measure bool) bool {
	if c.temporary {
		return false // "staying at a friend's in Oslo for two weeks" is no new home
	}
	if c.Kind != KindRaw || namesValue(c) || c.correction || c.ending {
		return true
	}
	if !(c.change || knowledge.Revises(c.Text)) {
		return false
	}
	if measure {
		return true
	}
	rest := knowledge.WithoutAmountShifts(c.Text)
	return knowledge.ReadStatement(rest).Change || knowledge.Revises(rest)
}

// joinsAsked reports whether a statement the reader is unsure of still
// speaks of the asked topic, by what it says rather than its topic:
//   - an update that comes near the topic (affinity), reports a change of
//     the speaker's own and names the new value ("finally gave up and we're
//     with Community Fibre now" for "Who provides the user's home
//     internet?"): a new provider, product or place is often a name the
//     encoder knows nothing of, so its words read as no topic, or as the
//     topic of the rest of the turn;
//   - on a qualified topic, whose question names the qualifier ("monthly
//     housing cost"), a statement near the question that gives a value
//     ("the lease renewal came in, we'll be paying $2,075 starting
//     January").
func (r *search) joinsAsked(c *candidate, asked string, topicOf map[*candidate]string, affinity func(*candidate) float64) bool {
	if asked == "" || c.vec == nil || c.terse || topicOf[c] == asked || topicOf[c] == ontology.TopicChatter {
		return false
	}
	if reportsNewValue(c, r.s.statements.read) && affinity(c) >= r.cfg.UpdateAffinity {
		return true
	}
	topic, _ := r.s.topics.Topic(asked)
	return topic.Qualified && knowledge.Cosine(c.vec, r.qvec) >= r.cfg.SlotQuerySimilarity && namesValue(c)
}

// reportsNewValue reports whether one of a user statement's sentences says
// that something of the speaker's changed (a change or revision word; not
// a relative's news, a supposition or a hedge) and names a value: a name
// written with the writer's own capitals or an amount. A correction ("Actually
// ...") is not one: corrections take back the statement before them
// (corrections), whatever its topic.
// read is how a sentence is read: the service's memo of readings.
func reportsNewValue(c *candidate, read func(string) knowledge.Statement) bool {
	if !(c.change || knowledge.Revises(c.Text)) || c.asksIf || c.hypothetical {
		return false
	}
	for _, sent := range knowledge.Sentences(c.Text) {
		st := read(sent)
		if st.Form != knowledge.FormStatement || st.Other || st.Hypothetical || st.AsksIf || !(st.Change || knowledge.Revises(sent)) {
			continue
		}
		if len(midSentenceNames(sent)) > 0 || hasAmount(sent) {
			return true
		}
	}
	return false
}

// slotQueryBar is how close to the query a statement must be to speak of
// a qualified slot's qualifier without sharing a word with the query: a
// statement that marks itself as an update ("lately", "moved me to") needs
// less, since it revises something said before.
func (r *search) slotQueryBar(c *candidate) float64 {
	if c.change || c.correction {
		return r.cfg.SlotQuerySimilarity - r.cfg.ChangeSlotSlack
	}
	return r.cfg.SlotQuerySimilarity
}

// outdatedFacts demotes, on a one-value slot, a current fact older than a
// user statement of the slot that says it revises something ("moved",
// "switched", "instead", "sold"...: revises, not the weaker change words
// such as "now" or "recently", which a statement on the slot says in
// passing) or corrects itself and does not name the fact's value, or says
// that value ended ("Sold the car!" after "The user commutes by car"), and speaks
// of the same thing as the turn the fact was read from (cosine at least
// FactRevisionSimilarity: "we signed for a two-bedroom in Dresden and moved
// in" after "I live in Leipzig", not "it's definitely changed them" after
// "my girlfriend Amara is studying in Cardiff"). The newer statement
// carries a value no fact was read from, so the older fact is probably out
// of date. It stays current in the graph (no fact replaced it); only its
// rank says so. group is sorted newest first.
func (r *search) outdatedFacts(ctx context.Context, group []*candidate, slot string) error {
	revising := map[*candidate][]*candidate{} // fact → newer revising statements
	var refs []graph.VectorRef
	for _, f := range group {
		if f.Kind != KindFact || f.object == "" || f.Status != StatusCurrent {
			continue
		}
		for _, c := range group {
			if !c.OccurredAt.After(f.OccurredAt) {
				break
			}
			if c.Kind != KindRaw || c.vec == nil || c.temporary {
				continue // a temporary state ("staying in Oslo for two weeks") revises nothing
			}
			// A statement that says the fact's value ended ("Sold the
			// car!" after "The user commutes by car") names what it
			// speaks of: no closeness to the fact's turn is asked.
			if c.ending && !c.hypothetical && !c.asksIf && knowledge.EndsValue(c.Text, f.object) {
				f.demote(r.cfg.SupersededWeight, "probably out of date: the user said the "+f.object+" is over since ("+c.ID+")")
				delete(revising, f)
				break
			}
			// A revision says so, or gives another amount of the slot's
			// measure ("Got a raise, I'm on £44,500 now" after "earns
			// £38,000 a year").
			if (c.correction || knowledge.Revises(c.Text) || hasAmount(f.object) && hasAmount(c.Text)) &&
				!strings.Contains(strings.ToLower(c.Text), strings.ToLower(f.object)) {
				if revising[f] == nil {
					refs = append(refs, sourceRefs(f)...)
				}
				revising[f] = append(revising[f], c)
			}
		}
	}
	if len(revising) == 0 {
		return nil
	}
	sources, err := r.s.vectors.Vectors(ctx, r.scope, refs)
	if err != nil {
		return err
	}
	for f, turns := range revising {
	check:
		for _, c := range turns {
			for _, ref := range sourceRefs(f) {
				if v := sources[ref]; v != nil && knowledge.Cosine(v, c.vec) >= r.cfg.FactRevisionSimilarity {
					f.demote(r.cfg.SupersededWeight, "probably out of date: the user reported a change of the "+slotName(slot)+" since ("+c.ID+")")
					break check
				}
			}
		}
	}
	return nil
}

// sourceRefs names the turns a fact was read from (any of its sessions may
// hold a turn of that id).
func sourceRefs(f *candidate) []graph.VectorRef {
	var out []graph.VectorRef
	for _, s := range f.sessions {
		for _, id := range f.SourceEventIDs {
			out = append(out, graph.VectorRef{Kind: KindRaw, SessionID: s, ID: id})
		}
	}
	return out
}

// slotFacts are the current facts that hold a value of the slot: a newer
// fact supersedes an older statement on the slot even when the newer
// turn it was read from did not match the question ("I'm 87 kg now" inside
// a request for a training plan). For a qualified slot a fact must match
// the query's words or meaning, as the statements must.
func (r *search) slotFacts(topic ontology.Topic, slot string, group []*candidate) []*candidate {
	if slot == "" {
		return nil
	}
	var out []*candidate
	for _, c := range r.set {
		if c.Kind != KindFact || c.Status != StatusCurrent || c.Polarity == "negative" || slices.Contains(group, c) {
			continue
		}
		if r.s.topics.TopicOfPredicate(c.predicate) != slot || relevance(c, r.cfg) <= 0 {
			continue
		}
		if topic.Qualified && c.Parts.FullText == 0 && c.Parts.Vector < vectorSignal((1+r.cfg.SlotQuerySimilarity)/2, r.cfg) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// corrections supersede, for a question about the user, the statement a
// correction takes back: the user's statement right before it in the same
// session ("My blood type is A positive." ... "Just checked, it's actually
// O positive."). The correction inherits the relevance of what it
// corrects, which matched the question while the correction may share no
// word with it.
func (r *search) corrections() {
	for _, c := range r.set {
		if c.Kind != KindRaw || c.role != "user" || !c.correction || c.form != knowledge.FormStatement {
			continue
		}
		var prev *candidate
		for _, p := range r.set {
			if p.Kind == KindRaw && p.role == "user" && p.SessionID == c.SessionID && p.seq < c.seq &&
				c.seq-p.seq <= r.cfg.CorrectionReach && p.form == knowledge.FormStatement && (prev == nil || p.seq > prev.seq) {
				prev = p
			}
		}
		if prev == nil || prev.Status == StatusSuperseded {
			continue
		}
		prev.Status = StatusSuperseded
		prev.SupersededBy = c.ID
		if r.history {
			prev.lift = max(relevance(c, r.cfg), relevance(prev, r.cfg)) / max(relevance(prev, r.cfg), 1e-9)
			prev.reasons = append(prev.reasons, "the value the user corrected, which a question about the past asks for")
			c.demote(r.cfg.SupersededWeight, "a correction; the question asks about the past")
			continue
		}
		if rel, best := relevance(c, r.cfg), relevance(prev, r.cfg); rel > 0 && best > rel {
			c.lift = best / rel
		}
		c.reasons = append(c.reasons, "corrects the user's previous statement")
		prev.demote(r.cfg.SupersededWeight, "corrected by the user right after")
	}
}

// topicAgreement weighs the user's statements and facts by whether they
// speak of the topic the question asks about: a statement on that topic is
// evidence whatever words it uses ("What does the user do for a living?" —
// "I teach maths at a secondary school"), so its relevance is raised to a
// share of the best candidate's; one read as another topic (a move, for a
// question about work) is demoted, however many words it shares.
func (r *search) topicAgreement(ctx context.Context, asked string, sure bool, stmts []*candidate, topicOf map[*candidate]string) {
	topic, _ := r.s.topics.Topic(asked)
	best := 0.0
	for _, c := range r.set {
		best = max(best, relevance(c, r.cfg))
	}
	for _, c := range stmts {
		affinity := 0.0
		if c.vec != nil && !c.terse {
			affinity = r.s.topics.Affinity(c.vec, asked)
		}
		// A turn speaks of what was read from it too: "We're flying to
		// Cape Town to see my wife's family" reads as travel, and the fact
		// that found it ("The user has a wife") as partner.
		if c.factVec != nil {
			affinity = max(affinity, r.s.topics.Affinity(c.factVec, asked))
		}
		switch t := topicOf[c]; {
		case t == asked || affinity >= r.cfg.TopicAffinity:
			if c.temporary || c.declined {
				continue // the lasting or kept statement answers, not this one
			}
			// On a topic of one value per qualifier, a change of another
			// qualifier's thing is no answer: "Switched banks to Starling"
			// is a service, but not the mobile network asked about.
			if topic.Qualified {
				if thing := knowledge.RevisedThing(knowledge.OwnSentences(c.Text)); thing != "" && !r.mayBeAsked(ctx, thing, nil) {
					c.reasons = append(c.reasons, "says it changed its "+thing+", which the question does not ask about")
					continue
				}
			}
			// Raised to the share, plus the rest of the way in proportion to
			// its own relevance: the statements on the topic keep their order
			// among themselves instead of tying.
			if rel := relevance(c, r.cfg); rel > 0 && rel < r.cfg.TopicMatchShare*best {
				own := rel
				if r.cfg.TopicClarity > 0 {
					own = (rel + r.cfg.TopicMatchShare*best*min(affinity/r.cfg.TopicClarity, 1)) / 2
				}
				c.lift = (r.cfg.TopicMatchShare*best + (1-r.cfg.TopicMatchShare)*own) / rel
				c.reasons = append(c.reasons, "a statement about the user's "+asked+", which the question asks about")
			}
		case t != "" && t != ontology.TopicChatter && affinity < r.cfg.TopicAffinity*0.8:
			c.demote(r.cfg.OffTopicWeight, "speaks of "+t+"; the question asks about "+asked)
		}
	}
	if !sure {
		return // an unsure reading lifts what agrees but condemns no fact
	}
	for _, c := range r.set {
		if c.Kind != KindFact {
			continue
		}
		if t := r.s.topics.TopicOfPredicate(c.predicate); t != "" && t != asked {
			c.demote(r.cfg.OffTopicWeight, "a fact about "+t+"; the question asks about "+asked)
		}
	}
}

// evidencePriors demotes, for a question about the user, what is not the
// user's own statement: the assistant's turns, the user's questions and
// chatter.
func (r *search) evidencePriors() {
	relations := knowledge.AsksAboutOthers(r.in.Query)
	moment := momentQuestion(r.in.Query)
	for _, c := range r.set {
		own := ""
		if c.Kind == KindRaw && c.role == "user" {
			own = ownText(c.Text, relations)
		}
		// A fact whose subject is not the user ("Callum lives in Tromsø")
		// answers a question about the user only when the question names
		// a relation ("Where does the user's brother live?").
		if c.Kind == KindFact && r.text.User != nil && c.ends[0] != "" && c.ends[0] != r.text.User.ID && !relations {
			c.demote(r.cfg.OtherPersonWeight, "a fact about someone else, not the user")
			continue
		}
		if c.Kind != KindRaw {
			continue
		}
		// By role, whether or not turns carry the speakers' names: a
		// question about the user asks what the user said.
		switch {
		case c.form == knowledge.FormChatter:
			c.demote(r.cfg.ChatterWeight, "chatter: says nothing about the user")
		case c.role == "assistant":
			c.demote(r.cfg.AssistantWeight, "the assistant's turn, not the user's statement")
		case c.role == "user" && c.form == knowledge.FormQuestion:
			c.demote(r.cfg.OwnQuestionWeight, "the user's question, not a statement about them")
		case c.role == "user" && c.hypothetical:
			c.demote(r.cfg.HypotheticalWeight, "hedged: says what might be, not what is")
		case c.role == "user" && c.other && !relations:
			c.demote(r.cfg.OtherPersonWeight, "about someone else, not the user")
		case c.role == "user" && !r.history && knowledge.KeepsOnly(own):
			c.declined = true
			c.demote(r.cfg.DeclinedWeight, "declines a change without naming what it keeps; the statement it keeps answers")
		case c.role == "user" && !moment && knowledge.Temporary(own):
			c.temporary = true
			c.demote(r.cfg.TemporaryWeight, "holds only for a while, the user said; the lasting value answers the question")
		}
	}
	r.summaryPriors(relations, moment)
}

// summaryPriors weighs a summary as the user's turns it summarizes are
// weighed (evidencePriors): by the turns it cites when the search holds
// them all, else by the user lines it quotes. One whose user turns are all
// about someone else ("My brother Callum has just moved to Tromsø") does
// not answer a question about the user unless the question names a
// relation; one whose user turns only suppose or weigh a change ("I've
// been offered a job in Copenhagen and I'm torn") says nothing of what
// is; one whose user turns all hold only for a while does not answer a
// question about what lasts.
func (r *search) summaryPriors(relations, moment bool) {
	for _, c := range r.set {
		if c.Kind != KindEvent {
			continue
		}
		held, users, temporary, other, hedged := len(c.SourceEventIDs) > 0, 0, 0, 0, 0
		for _, id := range c.SourceEventIDs {
			t := r.set[KindRaw+":"+turnKey(c.SessionID, id)]
			if t == nil {
				held = false
				break
			}
			if t.role == "user" {
				users++
				if t.temporary {
					temporary++
				}
				if t.other {
					other++
				}
				if t.hypothetical || t.asksIf {
					hedged++
				}
			}
		}
		if !held {
			users, temporary, other, hedged = quotedUserLines(c.Text, r.s.statements.read)
		}
		switch {
		case users == 0:
		case !relations && other == users:
			c.demote(r.cfg.OtherPersonWeight, "summarizes what the user said about someone else, not about the user")
		case hedged == users:
			c.demote(r.cfg.HypotheticalWeight, "summarizes what the user only considers, not what is")
		case !moment && temporary == users:
			c.temporary = true
			c.demote(r.cfg.TemporaryWeight, "summarizes a state the user said holds only for a while")
		}
	}
}

// ownText is what of a user's turn speaks of the one a question asks
// about: the speaker's own sentences, or the whole turn when the question
// names a relation ("My brother's staying with us for two weeks" for the
// brother's home).
func ownText(text string, relations bool) string {
	if relations {
		return text
	}
	return knowledge.OwnSentences(text)
}

// momentQuestion reports whether a question asks about the moment rather
// than what lastingly holds ("Where is the user staying right now?"), so
// that a temporary state answers it.
func momentQuestion(query string) bool {
	q := " " + strings.ToLower(query) + " "
	return slices.ContainsFunc(momentWords, func(w string) bool { return strings.Contains(q, w) })
}

// momentWords ask about the moment.
var momentWords = []string{"right now", "at the moment", "this week", "this month", "staying", "visiting", "covering",
	"temporar", " currently in ", "at present"}

// quotedUserLines counts the user lines a summary quotes ("] User: "),
// those that hold only for a while, those about someone else and those
// that only suppose or consider. read is the service's memo of readings.
func quotedUserLines(text string, read func(string) knowledge.Statement) (users, temporary, other, hedged int) {
	for line := range strings.Lines(text) {
		_, said, ok := strings.Cut(line, "] User: ")
		if !ok {
			continue
		}
		users++
		if knowledge.Temporary(knowledge.OwnSentences(said)) {
			temporary++
		}
		st := read(said)
		if st.Other {
			other++
		}
		if st.Hypothetical || st.AsksIf {
			hedged++
		}
	}
	return users, temporary, other, hedged
}

// demoteStaleSummaries demotes summaries whose cited turns are all
// superseded statements.
func (r *search) demoteStaleSummaries() {
	superseded := map[string]bool{}
	for _, c := range r.set {
		if c.Kind == KindRaw && c.Status == StatusSuperseded {
			superseded[turnKey(c.SessionID, c.ID)] = true
		}
	}
	if len(superseded) == 0 {
		return
	}
	for _, c := range r.set {
		if c.Kind != KindEvent || len(c.SourceEventIDs) == 0 {
			continue
		}
		all := true
		for _, id := range c.SourceEventIDs {
			if !superseded[turnKey(c.SessionID, id)] {
				all = false
				break
			}
		}
		if all {
			c.demote(r.cfg.SupersededWeight, "cites only superseded statements")
		}
	}
}

// historyQuestion reports whether a query asks about the past. "Where is
// the user originally from?" does not: "originally" with "from" asks for
// an origin, which has no older value, unless another word of the past is
// there too ("where did the user live before?").
func historyQuestion(query string) bool {
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return r < 'a' || r > 'z' })
	origin := slices.Contains(words, "from")
	for _, w := range words {
		if historyWords[w] && !(origin && (w == "originally" || w == "initially")) {
			return true
		}
	}
	return false
}

// demote scales the candidate's score by factor and records why.
func (c *candidate) demote(factor float64, reason string) {
	if c.factor == 0 {
		c.factor = 1
	}
	c.factor *= factor
	c.reasons = append(c.reasons, reason)
}

// slotName names a slot in explanations.
func slotName(topic string) string {
	if topic == "" {
		return "same thing"
	}
	return topic + " slot"
}

// sameMeasures completes a measure slot: a statement that gives an amount
// in the same dimension as one of the slot's (kilograms beside kilograms,
// pounds sterling beside pounds sterling) and shares a word with it or
// reads as the slot's topic (topicOf, read once by the caller) speaks of
// the same quantity, even in words the
// question does not use ("I weigh 92 kg", then "Down to 84.5 kg this
// morning", for "How heavy is the user now?").
func (r *search) sameMeasures(topic ontology.Topic, group, stmts []*candidate, topicOf map[*candidate]string) []*candidate {
	if topic.Name != ontology.TopicMeasure || len(group) == 0 {
		return group
	}
	dims := map[*candidate]map[string]bool{}
	dimsOf := func(c *candidate) map[string]bool {
		d, ok := dims[c]
		if !ok {
			d = knowledge.MeasureDimensions(c.Text)
			dims[c] = d
		}
		return d
	}
	anchors := len(group)
	for _, c := range stmts {
		if slices.Contains(group, c) || len(dimsOf(c)) == 0 {
			continue
		}
		for _, g := range group[:anchors] {
			shared := false
			for d := range dimsOf(g) {
				shared = shared || dimsOf(c)[d]
			}
			if !shared {
				continue
			}
			gt := contentTerms(g)
			if slices.ContainsFunc(contentTerms(c), func(t string) bool { return slices.Contains(gt, t) && !measureNoise[t] }) ||
				topicOf[c] == topic.Name {
				group = append(group, c)
				break
			}
		}
	}
	return group
}

// measureNoise are terms two statements of amounts share without speaking
// of the same quantity.
var measureNoise = map[string]bool{"now": true, "week": true, "month": true, "year": true, "day": true, "today": true,
	"last": true, "still": true, "just": true, "get": true, "can": true, "help": true}

// sharesName reports whether two texts use one proper name: a word
// capitalized inside a sentence of one ("Our cat Biscuit is 14") that the
// other says too, in any case or place ("Biscuit passed away").
func sharesName(a, b string) bool {
	named := func(x, y string) bool {
		words := nlp.Words(y)
		return slices.ContainsFunc(midSentenceNames(x), func(n string) bool { return slices.Contains(words, n) })
	}
	return named(a, b) || named(b, a)
}

// midSentenceNames are the folded words of text written with a capital
// not at the start of a sentence (not "I"): names, by the writer's own
// capitals.
func midSentenceNames(text string) []string {
	var out []string
	for _, sp := range nlp.SplitSentences(text) {
		first := true
		for _, t := range nlp.Tokenize(sp.Text) {
			if t.Kind != nlp.Word {
				continue
			}
			if !first && t.IsCapitalized() && t.Text != "I" && !strings.HasPrefix(t.Text, "I'") && !strings.HasPrefix(t.Text, "I’") {
				out = append(out, t.Lower())
			}
			first = false
		}
	}
	return out
}

// mayBeAsked reports whether the thing a revision says it replaced
// ("banks", "keyboard", "gym membership") can be what the question asks
// about: it shares a word with the question or with the user's best answer
// to it (when there is one), or its meaning comes near either
// (RevisedThingSimilarity). A
// thing's embedding lands near the questions about it (0.26 to 0.85 on the
// probe pairs in docs/retrieval.md, "dentist" for the user's dentist) and
// away from the questions about other things of everyday life (mostly
// 0.08 to 0.22, "banks" for the mobile network 0.12), so only a thing
// plainly of another subject is refused. When the thing cannot be embedded
// the change may be of the asked thing.
func (r *search) mayBeAsked(ctx context.Context, thing string, best *candidate) bool {
	terms := nlp.Terms(thing)
	shared := func(t string) bool { return slices.Contains(terms, t) }
	if slices.ContainsFunc(nlp.Terms(r.in.Query), shared) || best != nil && slices.ContainsFunc(contentTerms(best), shared) {
		return true
	}
	if r.s.embedder == nil || r.qvec == nil {
		return true
	}
	vecs, err := r.s.embedder.Embed(ctx, []string{thing})
	if err != nil || len(vecs) != 1 {
		return true
	}
	sim := knowledge.Cosine(vecs[0], r.qvec)
	if best != nil && best.vec != nil {
		sim = max(sim, knowledge.Cosine(vecs[0], best.vec))
	}
	return sim >= r.cfg.RevisedThingSimilarity
}
