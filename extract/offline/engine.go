package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Model names the offline engine records as provenance.
const (
	ExtractModel = "offline/rules-v1"
	SummaryModel = "offline/extractive-v1"
)

// Config configures the offline engine. The zero value is usable.
type Config struct {
	// SummaryMaxChars bounds the length of a summary (the previous summary
	// folded in included). When a summary would be longer, the least
	// informative lines go first; the user's stated facts and preferences
	// are never dropped. <=0 means 6000.
	SummaryMaxChars int
	// TokenEncoding names the BPE encoding used for the token figures of a
	// extract.Summary ("cl100k_base" when empty, "o200k_base" supported).
	TokenEncoding string
}

// Engine is the built-in engine: deterministic rule-based extraction,
// extractive summaries, attention and insights, with no network and no key.
// It is what the service runs when no LLM is configured, and what tests and
// benchmarks exercise. An *Engine is safe for concurrent use.
//
// Conventions of its output (the graph relies on them):
//   - The session's user is one entity with Key "user", IsUser true, named
//     extract.Input.UserName or "User"; sentences call them by that name, or "The
//     user" when the name is unknown. A message with a speaker Name other
//     than the user's is that Person's statement; an assistant, tool or
//     system message without a Name never yields facts, only mentions.
//   - Preferences: "I like/love/enjoy X" is LIKES positive; "I don't like
//     X (anymore)", "I no longer like X", "I gave up X", "I switched from X"
//     are LIKES with negative polarity (a cessation of liking, which the
//     graph stores as the flip of LIKES); active aversion ("I hate X", "I
//     can't stand X") is DISLIKES positive. Strength grades the verb: love
//     0.9, like 0.7, eat/drink habitually 0.5.
//   - Cessation of any state ("I left Acme", "I'm not vegetarian anymore",
//     "I gave up Spanish", "I sold the Corolla") is the same predicate with
//     negative polarity, valid from the moment it was said (or the date the
//     speaker gave).
//   - Qualifiers name the slot of exclusive predicates: the family role
//     ("sister"), the category of a favourite ("programming language"), the
//     purpose of a budget ("trip"), the kind of thing preferred ("seat"),
//     the species of a pet ("dog").
//   - Relatives without a name are entities owned by the speaker ("the
//     user's brother": Owner "user", Name "brother"); their own facts are
//     theirs, never the speaker's ("My brother supports Chelsea" is the
//     brother's SUPPORTS).
//   - Hedged statements ("I think I might", "maybe") get confidence 0.45;
//     questions, conditionals and wishes produce no facts.
//   - ValidFrom is the date the text gives ("last month" → that month's
//     first day), else the event's time.
type Engine struct {
	cfg    Config
	tokens *nlp.TokenCounter
	// Caches for the summarizer's repeated work (see memo).
	slots  *memo[string]
	counts *memo[int]
}

// New returns an offline engine.
func New(cfg Config) *Engine {
	if cfg.SummaryMaxChars <= 0 {
		cfg.SummaryMaxChars = 6000
	}
	o := &Engine{cfg: cfg, slots: newMemo[string](4096), counts: newMemo[int](256)}
	if tc, err := nlp.NewTokenCounter(cfg.TokenEncoding); err == nil {
		o.tokens = tc
	}
	return o
}

// Extract reads entities and facts from a window of conversation. It works
// on the raw events when there are any (so every fact cites its events) and
// falls back to the window's summary otherwise. It never fails on content;
// the only error is a cancelled context.
func (o *Engine) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return extract.Result{}, fmt.Errorf("offline extract: %w", err)
	}
	x := newExtractor(in)
	events := in.Events
	if len(events) == 0 && strings.TrimSpace(in.Summary) != "" {
		events = summaryEvents(in.Summary)
		for _, ev := range events {
			if ev.Name != "" {
				x.people[nlp.NormalizeName(ev.Name)] = true
			}
		}
	}
	for i, ev := range events {
		if i%64 == 63 {
			if err := ctx.Err(); err != nil {
				return extract.Result{}, fmt.Errorf("offline extract: %w", err)
			}
		}
		x.event(ev)
	}
	return x.b.result(), nil
}

// extractor holds the state of one Extract call.
type extractor struct {
	in     extract.Input
	b      *builder
	people map[string]bool // keys of people named in the window (speakers, relatives)
	talk   map[string]*discourse
}

// discourse is what a speaker's pronouns can refer to, carried across the
// events of a window.
type discourse struct {
	lastPerson  string // "she lives in Rome"
	lastObject  string // "it's my favourite food"
	lastUnnamed string // "her name is Luna" names the cat adopted just before
	lastGroup   string // "they" after "my kids"
}

func newExtractor(in extract.Input) *extractor {
	x := &extractor{in: in, b: newBuilder(in.UserName), people: make(map[string]bool), talk: make(map[string]*discourse)}
	for _, ev := range in.Events {
		if n := strings.TrimSpace(ev.Name); n != "" {
			x.people[nlp.NormalizeName(n)] = true
		}
	}
	return x
}

// speakerOf returns the entity key of the author of a message, or "" when
// its statements are not facts about anyone (assistant, tool, system).
func (x *extractor) speakerOf(ev extract.Event) string {
	name := strings.TrimSpace(ev.Name)
	role := strings.ToLower(ev.Role)
	if role == "tool" || role == "system" {
		return ""
	}
	switch {
	case name == "" && role == "user":
		return x.b.user()
	case name == "":
		return ""
	case strings.EqualFold(name, x.in.UserName), strings.EqualFold(name, "user") && role == "user":
		return x.b.user()
	}
	key := x.b.named(name, ontology.Person, 3)
	x.people[key] = true
	return key
}

// event extracts one event.
func (x *extractor) event(ev extract.Event) {
	kind := strings.ToLower(ev.Kind)
	speaker := ""
	if kind == "" || kind == "message" || kind == "summary" {
		speaker = x.speakerOf(ev)
	}
	if speaker != "" {
		x.b.mention(ev.ID, speaker)
	}
	d := x.talk[speaker]
	if d == nil {
		d = &discourse{}
		x.talk[speaker] = d
	}
	for _, s := range sentences(ev.Content, ev.OccurredAt) {
		if speaker != "" && !s.question {
			e := &eventCtx{x: x, ev: ev, speaker: speaker, d: d, sent: s}
			prev := ""
			for _, c := range clauses(s.toks) {
				prev = e.clause(c, prev)
				if e.hypothetical {
					break
				}
			}
		}
		x.mentionNames(ev.ID, s.toks)
	}
}

// eventCtx is the context of one sentence of one event.
type eventCtx struct {
	x            *extractor
	ev           extract.Event
	speaker      string
	d            *discourse
	sent         sentence
	hypothetical bool
}

// mentionNames records the proper names of a sentence as mentions, typed
// from the gazetteers. Sentence-initial capitals count only for known names.
func (x *extractor) mentionNames(eventID string, toks []tok) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.cap || t.kind != nlp.Word || t.w == "i" || nameStop[t.w] || isCalendarWord(t.w) {
			continue
		}
		j := i
		for j+1 < len(toks) && j-i < 3 && (toks[j+1].cap && toks[j+1].kind == nlp.Word && !nameStop[toks[j+1].w] ||
			toks[j+1].kind == nlp.Number && !strings.ContainsAny(toks[j+1].w, ",.:/")) {
			j++
		}
		np := nounPhrase{toks: toks[i : j+1], hasName: true}
		name := np.surface()
		if k, ok := x.b.byName[nlp.Fold(name)]; ok {
			x.b.mention(eventID, k)
			i = j
			continue
		}
		key := np.key()
		known := x.b.ents[key] != nil || x.people[key]
		typ, typed := classify(np)
		if t.first && j == i && !known && !(typed && typ != ontology.Concept && typ != ontology.Activity) {
			i = j
			continue
		}
		if typ == ontology.Concept && firstNames[key] {
			typ = ontology.Person
		}
		if x.people[key] {
			typ, typed = ontology.Person, true
		}
		rank := 0
		if typed {
			rank = 1
		}
		if k := x.b.named(name, typ, rank); k != "" {
			x.b.mention(eventID, k)
		}
		i = j
	}
}

// isCalendarWord reports whether w names a weekday or month ("Mondays").
func isCalendarWord(w string) bool {
	if _, ok := nlp.ParseWeekday(w); ok {
		return true
	}
	_, ok := nlp.ParseMonth(w)
	return ok
}

// nameStop are capitalized words that are not names.
var nameStop = wordSet(`i,the,a,an,my,our,your,his,her,their,its,this,that,these,those,hey,hi,hello,wow,oh,
yeah,yes,no,ok,okay,thanks,thank,sure,well,so,and,but,or,if,when,what,where,why,how,who,which,just,also,
omg,lol,haha,hmm,um,dear,mr,mrs,ms,dr,great,good,nice,cool,awesome,congrats,congratulations,sorry,please,
monday,tuesday,wednesday,thursday,friday,saturday,sunday,january,february,march,april,may,june,july,
august,september,october,november,december,today,tomorrow,yesterday,tonight,it's,i'm,don't,can't,user,
lgbtq,lgbt,lgbtq+,he,she,we,they,you,me,there,here,not,never,maybe,love,thx,btw,anyway,actually,really,
totally,definitely,absolutely,speaking,guess,big,update,news,note,fun,fact,also,plus,oops,aww,yay,ah,
woohoo,hooray,bravo,cheers,alright,hope,let's,gonna,wanna,ps,p.s,it,is,am,are,was,were`)

// summaryEvents turns an extractive summary back into pseudo-events so the
// rules can read it when a window arrives without its raw events. Lines
// written as "[8 May 2023] Caroline: text" keep their speaker and date.
func summaryEvents(summary string) []extract.Event {
	var out []extract.Event
	for _, line := range strings.Split(summary, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*•"))
		if line == "" || strings.HasSuffix(line, ":") && !strings.Contains(line, " ") {
			continue
		}
		ev := extract.Event{Role: "user", Kind: "summary", Content: line}
		if strings.HasPrefix(line, "[") {
			if k := strings.IndexByte(line, ']'); k > 0 {
				if t, err := nlp.ParseTimestamp(line[1:k]); err == nil {
					ev.OccurredAt = t
				}
				line = strings.TrimSpace(line[k+1:])
				ev.Content = line
			}
		}
		if k := strings.Index(line, ": "); k > 0 && k < 40 && !strings.Contains(line[:k], " ") {
			who := line[:k]
			switch strings.ToLower(who) {
			case "assistant", "tool", "system":
				ev.Role = strings.ToLower(who)
			case "user":
			default:
				ev.Name = who
			}
			ev.Content = line[k+2:]
		}
		out = append(out, ev)
	}
	return out
}
