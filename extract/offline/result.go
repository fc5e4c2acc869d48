package offline

import (
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// userKey is the local key of the entity that stands for the session's user.
const userKey = "user"

// entity is the builder's mutable view of an extract.Entity.
type entity struct {
	key      string
	name     string
	typ      ontology.EntityType
	typeRank int // 0 guessed from a mention, 1 from a gazetteer, 2 from a fact's role
	aliases  []string
	isUser   bool
	owner    string // for unnamed relational entities ("the user's brother")
	role     string // their role word ("brother", "dog", "team meeting")
}

// fact is the builder's view of an extract.Fact before its sentence is rendered.
type fact struct {
	subj, pred, obj, qual string
	raw                   string
	pol                   ontology.Polarity
	conf, strength        float64
	validFrom, validTo    *time.Time
	events                []string
	tmpl                  string // sentence template, see render
	objArticle            string // "a"/"an" when the object was introduced with one
	date                  string // date phrase ("on 7 May 2023"), "" if none
	rank                  int    // preference among templates when facts merge
	correction            bool   // corrects the speaker's slip (rules_corrections.go)
	corrects              string // the slip's object key
	ended                 bool   // the fact ended (validTo set): a pet that died, a couple that split
}

// builder accumulates entities, facts and mentions for one extract.Result.
type builder struct {
	userName string
	ents     map[string]*entity
	order    []string
	facts    []*fact
	factIdx  map[string]*fact
	mentions map[string]map[string]bool
	mentionO []string          // event ids in first-seen order
	byName   map[string]string // folded name or alias → key, for mentions
}

func newBuilder(userName string) *builder {
	return &builder{
		userName: strings.TrimSpace(userName),
		ents:     make(map[string]*entity),
		factIdx:  make(map[string]*fact),
		mentions: make(map[string]map[string]bool),
		byName:   make(map[string]string),
	}
}

// entity returns the entity with key, creating it with name and type.
// A later call with a better-grounded type (higher rank) retypes it.
func (b *builder) entity(key, name string, typ ontology.EntityType, rank int) *entity {
	if e, ok := b.ents[key]; ok {
		if rank > e.typeRank && !e.isUser {
			e.typ, e.typeRank = typ, rank
		}
		if e.name == e.role && name != "" && name != e.name && e.owner == "" {
			e.name = name
		}
		return e
	}
	e := &entity{key: key, name: name, typ: typ, typeRank: rank}
	b.ents[key] = e
	b.order = append(b.order, key)
	if _, taken := b.byName[nlp.Fold(name)]; !taken && !strings.Contains(key, "/") {
		b.byName[nlp.Fold(name)] = key
	}
	return e
}

// user returns the key of the session's user entity, creating it.
func (b *builder) user() string {
	if _, ok := b.ents[userKey]; !ok {
		name := b.userName
		if name == "" {
			name = "User"
		}
		e := b.entity(userKey, name, ontology.Person, 3)
		e.isUser = true
	}
	return userKey
}

// named returns the key of a named entity, creating it.
func (b *builder) named(name string, typ ontology.EntityType, rank int) string {
	name = strings.TrimSpace(name)
	key := nlp.NormalizeName(name)
	if key == "" {
		return ""
	}
	if b.userName != "" && strings.EqualFold(name, b.userName) {
		return b.user()
	}
	e := b.entity(key, name, typ, rank)
	if nlp.Fold(e.name) != nlp.Fold(name) && name != "" {
		b.alias(e, name)
	}
	return key
}

// owned returns the key of an unnamed entity that is known by its role and
// owner ("the user's brother", "Melanie's kids", "the user's team meeting").
func (b *builder) owned(owner, role string, typ ontology.EntityType, rank int) string {
	key := owner + "/" + nlp.NormalizeName(role)
	e := b.entity(key, role, typ, rank)
	e.owner, e.role = owner, role
	return key
}

// rename gives an unnamed owned entity its name ("her name is Luna"),
// keeping the role as an alias. Facts keep pointing at the same key.
func (b *builder) rename(key, name string) {
	e, ok := b.ents[key]
	if !ok || name == "" {
		return
	}
	if e.role != "" {
		b.alias(e, e.role)
	}
	e.name = name
	e.owner = ""
	b.byName[nlp.Fold(name)] = key
}

func (b *builder) alias(e *entity, a string) {
	a = strings.TrimSpace(a)
	if a == "" || strings.EqualFold(a, e.name) {
		return
	}
	for _, x := range e.aliases {
		if strings.EqualFold(x, a) {
			return
		}
	}
	e.aliases = append(e.aliases, a)
	if _, taken := b.byName[nlp.Fold(a)]; !taken && e.owner == "" {
		b.byName[nlp.Fold(a)] = e.key
	}
}

// mention records that an event mentions an entity.
func (b *builder) mention(eventID, key string) {
	if eventID == "" || key == "" {
		return
	}
	m, ok := b.mentions[eventID]
	if !ok {
		m = make(map[string]bool)
		b.mentions[eventID] = m
		b.mentionO = append(b.mentionO, eventID)
	}
	m[key] = true
}

// add records a fact, merging it with an identical one (same subject,
// predicate, object, qualifier and polarity): confidence and strength take
// the maximum, sources are united, and the better-ranked sentence wins.
func (b *builder) add(f *fact, eventID string) {
	if f.subj == "" || f.obj == "" || f.subj == f.obj {
		return
	}
	if f.conf <= 0 {
		f.conf = 0.9
	}
	f.conf = clamp01(f.conf)
	f.strength = clamp01(f.strength)
	if eventID != "" {
		f.events = []string{eventID}
	}
	id := f.subj + "|" + f.pred + "|" + f.obj + "|" + f.qual + "|" + string(f.pol)
	if old, ok := b.factIdx[id]; ok {
		old.conf = max(old.conf, f.conf)
		old.strength = max(old.strength, f.strength)
		for _, e := range f.events {
			if !contains(old.events, e) {
				old.events = append(old.events, e)
			}
		}
		if f.ended && !old.ended {
			// An ending said with the mention that introduced the fact
			// ("our dog Rufus passed away") closes it.
			old.ended, old.validTo, old.tmpl, old.rank = true, f.validTo, f.tmpl, max(old.rank, f.rank)
			if old.validFrom != nil && f.validTo != nil && old.validFrom.After(*f.validTo) {
				old.validFrom = f.validTo
			}
		}
		if f.rank > old.rank || (f.rank == old.rank && f.date != "" && old.date == "") {
			old.tmpl, old.rank, old.objArticle, old.raw = f.tmpl, f.rank, f.objArticle, f.raw
			if f.date != "" {
				old.date, old.validFrom, old.validTo = f.date, f.validFrom, f.validTo
			}
		}
		return
	}
	b.factIdx[id] = f
	b.facts = append(b.facts, f)
	b.mention(eventID, f.subj)
	b.mention(eventID, f.obj)
}

// qualOf is the qualifier the window already gave subj's pred fact on obj
// ("girlfriend"), so an ending said later in the window closes that fact.
func (b *builder) qualOf(subj, pred, obj string) string {
	for _, f := range b.facts {
		if f.subj == subj && f.pred == pred && f.obj == obj && f.pol == ontology.Positive {
			return f.qual
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// display is how an entity is named in a sentence: "The user", "Emma",
// "the user's brother".
func (b *builder) display(key string, start bool) string {
	e, ok := b.ents[key]
	if !ok {
		return key
	}
	var s string
	switch {
	case e.isUser && b.userName != "":
		s = b.userName
	case e.isUser:
		s = "the user"
	case e.owner != "" && e.name == e.role:
		s = possessive(b.display(e.owner, false)) + " " + e.role
	default:
		s = e.name
	}
	if start {
		s = capitalize(s)
	}
	return s
}

func possessive(s string) string {
	if strings.HasSuffix(s, "'s") {
		return s
	}
	return s + "'s"
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// render writes a fact's sentence from its template. Placeholders: {S} and
// {S's} the subject (and its possessive), {O} the object, {aO} the object
// with the article the speaker used, {Q} the qualifier, {D} the date phrase
// with a leading space, {their} the subject's possessive pronoun.
func (b *builder) render(f *fact) string {
	t := f.tmpl
	if named, unnamed, ok := strings.Cut(t, "||"); ok {
		t = unnamed
		if b.isNamed(f.obj) {
			t = named
		}
	}
	atStart := strings.HasPrefix(t, "{S}") || strings.HasPrefix(t, "{S's}")
	subj := b.display(f.subj, atStart)
	obj := b.display(f.obj, strings.HasPrefix(t, "{O}") || strings.HasPrefix(t, "{aO}"))
	aObj := obj
	if f.objArticle != "" {
		art := strings.ReplaceAll(f.objArticle, "{their}", "their")
		if (art == "a" || art == "an") && !initialism(obj) {
			art = indefinite(obj) // the speaker's "a little electric Fiat" is "an electric Fiat" without "little"
		}
		aObj = art + " " + obj
		if strings.HasPrefix(t, "{aO}") {
			aObj = capitalize(aObj)
		}
	}
	date, since := "", ""
	if f.date != "" {
		date = " " + f.date
		since = " (since " + strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(f.date, "on "), "in "), "during ") + ")"
	}
	t = conditional(t, b.isNamed(f.obj), obj)
	r := strings.NewReplacer("{S's}", possessive(subj), "{S}", subj, "{aO}", aObj, "{O}", obj,
		"{Q}", f.qual, "{since D}", since, "{D}", date, "{their}", "their")
	s := strings.Join(strings.Fields(r.Replace(t)), " ")
	return capitalize(s)
}

// result converts the builder into an extract.Result with deterministic ordering.
func (b *builder) result() extract.Result {
	res := extract.Result{Model: ExtractModel, Mentions: make(map[string][]string)}
	used := make(map[string]bool)
	for _, f := range b.facts {
		used[f.subj], used[f.obj] = true, true
		if e, ok := b.ents[f.subj]; ok && e.owner != "" {
			used[e.owner] = true
		}
		if e, ok := b.ents[f.obj]; ok && e.owner != "" {
			used[e.owner] = true
		}
	}
	for _, id := range b.mentionO {
		keys := make([]string, 0, len(b.mentions[id]))
		for k := range b.mentions[id] {
			if _, ok := b.ents[k]; ok {
				keys = append(keys, k)
				used[k] = true
				if e := b.ents[k]; e.owner != "" {
					used[e.owner] = true
				}
			}
		}
		sort.Strings(keys)
		if len(keys) > 0 {
			res.Mentions[id] = keys
		}
	}
	for _, k := range b.order {
		if !used[k] {
			continue
		}
		e := b.ents[k]
		name := e.name
		if e.isUser {
			name = "User"
			if b.userName != "" {
				name = b.userName
			}
		}
		res.Entities = append(res.Entities, extract.Entity{Key: e.key, Name: name, Type: e.typ, Aliases: e.aliases,
			IsUser: e.isUser, Owner: e.owner})
	}
	for _, f := range b.facts {
		// Rules name canonical predicates; Resolve keeps any slip safe.
		p, _ := ontology.Resolve(f.pred)
		pred, raw := p.Name, ""
		if pred == ontology.Fallback {
			raw = f.raw
		}
		res.Facts = append(res.Facts, extract.Fact{Subject: f.subj, Predicate: pred, RawPredicate: raw, Object: f.obj,
			Qualifier: f.qual, Sentence: b.render(f), Polarity: f.pol, Confidence: round2(f.conf),
			Strength: round2(f.strength), ValidFrom: f.validFrom, ValidTo: f.validTo, SourceEventIDs: f.events,
			Correction: f.correction, Corrects: f.corrects})
	}
	return res
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// isNamed reports whether an entity has a name of its own (not "the
// user's dog").
func (b *builder) isNamed(key string) bool {
	e, ok := b.ents[key]
	return ok && !(e.owner != "" && e.name == e.role)
}

// conditional expands "{? named O}" to " named Rex" when the object is
// named, and to nothing otherwise.
func conditional(t string, named bool, obj string) string {
	var b strings.Builder
	for {
		i := strings.Index(t, "{?")
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		j := strings.Index(t[i:], "}")
		if j < 0 {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		if named {
			// The object's name is written, never re-scanned: a name that
			// itself contains "{?" cannot loop.
			b.WriteString(strings.TrimSuffix(t[i+2:i+j], "O"))
			b.WriteString(obj)
		}
		t = t[i+j+1:]
	}
}

// indefinite is the indefinite article for a phrase: "an" before a vowel
// sound as spelled (not "a electric Fiat"), "a" otherwise. The common
// exceptions of spelling ("a university", "an hour") are kept.
func indefinite(phrase string) string {
	w := strings.ToLower(phrase)
	for _, p := range []string{"uni", "use", "usu", "one", "eu", "ewe"} {
		if strings.HasPrefix(w, p) {
			return "a"
		}
	}
	for _, p := range []string{"hour", "honest", "honour", "honor", "heir"} {
		if strings.HasPrefix(w, p) {
			return "an"
		}
	}
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// initialism reports whether a phrase opens with letters said one by one
// ("LGBTQ+", "MBA", "NHS"), whose article follows their sound, not their
// spelling: the speaker's own article is kept.
func initialism(phrase string) bool {
	w, _, _ := strings.Cut(phrase, " ")
	w = strings.TrimRight(w, "+'s")
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
