package offline

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// The offline summary keeps who, what and when. It has four parts, named
// after the sections of condenser-spec §3:
//   - context (USER_CONTEXT): the stable facts the speakers stated about
//     themselves, one sentence each, newest version only;
//   - log (COMPLETED): every fact-bearing sentence of the window, quoted with
//     its speaker and date, relative dates resolved ("yesterday (7 May
//     2023)"), in order, after the lines of the previous summary;
//   - pending (PENDING): plans and goals not yet done;
//   - state (CURRENT_STATE): where the conversation stands now.
// Lines are written so the offline extractor can read them back:
// "[8 May 2023] Caroline: I went to ..." keeps its speaker and date.

// summary sections, in rendering order.
const (
	secContext = iota
	secLog
	secPending
	secState
	secCount
)

var sectionNames = [secCount]string{"USER_CONTEXT", "COMPLETED", "PENDING", "CURRENT_STATE"}
var structuredNames = [secCount]string{"User Context", "Completed Tasks", "Pending Tasks", "Current State"}
var mem1Names = [secCount]string{"Facts", "Events", "Pending", "Now"}

// summaryLine is one line of a summary with what the budget needs to know.
type summaryLine struct {
	text  string
	score int  // informativeness; low scores are dropped first
	order int  // position, for "oldest first"
	keep  bool // never dropped (the speakers' stated facts)
	key   string
}

// Summarize writes a deterministic extractive summary of a window in the
// requested style, folding the previous summary in. The same input always
// gives the same text.
func (o *Engine) Summarize(ctx context.Context, req extract.SummaryRequest) (extract.Summary, error) {
	if err := ctx.Err(); err != nil {
		return extract.Summary{}, fmt.Errorf("offline summarize: %w", err)
	}
	secs := o.parseSummary(req.PreviousSummary)
	order := 0
	for s := range secs {
		for i := range secs[s] {
			secs[s][i].order = order
			order++
		}
	}
	events := make([]extract.Event, len(req.Events))
	for i, ev := range req.Events {
		ev.Content = truncateMiddle(ev.Content, req.MaxEventLength)
		events[i] = ev
	}
	res, _ := o.Extract(ctx, extract.Input{Events: events})
	factsByEvent := make(map[string][]extract.Fact)
	for _, f := range res.Facts {
		for _, id := range f.SourceEventIDs {
			factsByEvent[id] = append(factsByEvent[id], f)
		}
	}
	names := make(map[string]string, len(res.Entities))
	for _, e := range res.Entities {
		names[e.Key] = e.Name
	}

	// Context: stable facts, newest version of each slot.
	for _, f := range res.Facts {
		if eventPredicates[f.Predicate] || f.Confidence < 0.6 || isEventSentence(f) {
			continue
		}
		if f.Predicate == "PLANS" || f.Predicate == "HAS_GOAL" {
			continue
		}
		when := ""
		if ev := eventByID(events, firstOf(f.SourceEventIDs)); ev != nil && !ev.OccurredAt.IsZero() {
			when = "[" + nlp.FormatDay(ev.OccurredAt) + "] "
		}
		line := summaryLine{text: when + f.Sentence, keep: true, order: order, key: slotKey(f)}
		order++
		secs[secContext] = supersede(secs[secContext], line)
	}
	// Pending: plans and goals.
	for _, f := range res.Facts {
		if f.Predicate != "PLANS" && f.Predicate != "HAS_GOAL" {
			continue
		}
		secs[secPending] = appendUnique(secs[secPending], summaryLine{text: f.Sentence, score: 2, order: order})
		order++
	}
	// Log: the fact-bearing sentences of every event.
	var last summaryLine
	for _, ev := range events {
		line, ok := logLine(ev, factsByEvent[ev.ID], names)
		if !ok {
			continue
		}
		line.order = order
		order++
		secs[secLog] = appendUnique(secs[secLog], line)
		last = line
	}
	// State: rebuilt from this window only.
	secs[secState] = stateLines(events, last)

	limit := o.cfg.SummaryMaxChars
	if req.MaxChars > 0 && req.MaxChars < limit {
		limit = req.MaxChars
	}
	o.bound(&secs, limit, req.MaxChars > 0)
	text := render(req.Style, secs)
	promptTokens := o.count(req.PreviousSummary)
	for _, ev := range req.Events {
		promptTokens += o.count(ev.Content) + 1
	}
	out := extract.Summary{Text: text, Model: SummaryModel, PromptTokens: promptTokens, CompletionTokens: o.count(text)}
	if req.Style == extract.StyleStructured {
		out.Fields = make(map[string]string, secCount)
		for sec, name := range structuredFieldNames {
			var b strings.Builder
			writeLines(&b, secs[sec])
			out.Fields[name] = strings.TrimRight(b.String(), "\n")
		}
	}
	return out, nil
}

// structuredFieldNames are the create_state_summary arguments the four
// parts fill, by section.
var structuredFieldNames = [secCount]string{"user_context", "completed_tasks", "pending_tasks", "current_state"}

// eventPredicates are one-off happenings: they belong in the log with
// their date, not in the standing context.
var eventPredicates = map[string]bool{
	"ATTENDED": true, "VISITED": true, "CREATED": true, "READ": true, "WATCHED": true,
}

// isEventSentence reports whether a fact was phrased as a one-off
// happening ("went camping on ...", "played games") rather than a state.
func isEventSentence(f extract.Fact) bool {
	if f.Predicate != "PRACTICES" {
		return false
	}
	for _, v := range []string{" went ", " did some ", " played ", " started "} {
		if strings.Contains(f.Sentence, v) {
			return true
		}
	}
	return false
}

func firstOf(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

func eventByID(evs []extract.Event, id string) *extract.Event {
	for i := range evs {
		if evs[i].ID == id && id != "" {
			return &evs[i]
		}
	}
	return nil
}

// count returns the token count of s with the engine's tokenizer.
func (o *Engine) count(s string) int {
	if o.tokens == nil {
		return nlp.EstimateTokens(s)
	}
	if len(s) < 512 {
		return o.tokens.Count(s)
	}
	return o.counts.get(s, func() int { return o.tokens.Count(s) })
}

// slotKey identifies what a context line is about, so a newer statement
// replaces an older one: the slot of an exclusive predicate, the object of
// a preference (LIKES and DISLIKES share it), or the fact itself.
func slotKey(f extract.Fact) string {
	p, _ := ontology.Lookup(f.Predicate)
	subj := f.Subject
	switch {
	case p.Preference && !p.Exclusive():
		return subj + "|pref|" + f.Object
	case p.Exclusive():
		return subj + "|" + f.Predicate + "|" + f.Qualifier
	}
	return subj + "|" + f.Predicate + "|" + f.Object
}

// supersede adds line to the context, replacing the lines it supersedes:
// the same key, or an old line whose re-read fact has the same key.
func supersede(lines []summaryLine, line summaryLine) []summaryLine {
	out := lines[:0]
	for _, l := range lines {
		if l.key != "" && l.key == line.key || l.text == line.text {
			continue
		}
		out = append(out, l)
	}
	return append(out, line)
}

// contextKey re-reads a context line of an earlier summary to find its slot.
func (o *Engine) contextKey(text string) string {
	evs := summaryEvents(text)
	if len(evs) == 0 {
		return ""
	}
	w := newWindow(extract.Input{Events: evs}, o.rules)
	for _, ev := range evs {
		w.read(ev)
	}
	res := w.out.result()
	if len(res.Facts) == 0 {
		return "-" // unreadable: kept, never matched
	}
	return slotKey(res.Facts[0])
}

func appendUnique(lines []summaryLine, line summaryLine) []summaryLine {
	for _, l := range lines {
		if l.text == line.text {
			return lines
		}
	}
	return append(lines, line)
}

// logLine turns an event into its log line, keeping the sentences that
// carry facts, dates, names or numbers. It reports false when nothing in
// the event is worth keeping.
func logLine(ev extract.Event, facts []extract.Fact, names map[string]string) (summaryLine, bool) {
	who := speakerLabel(ev)
	when := ""
	if !ev.OccurredAt.IsZero() {
		when = "[" + nlp.FormatDay(ev.OccurredAt) + "] "
	}
	kind := strings.ToLower(ev.Kind)
	switch kind {
	case "tool_call":
		return summaryLine{text: when + "Tool call: " + clip(firstLine(ev.Content), 120), score: 1}, true
	case "tool_result", "observation":
		c := strings.TrimSpace(ev.Content)
		label := "Tool result"
		if kind == "observation" {
			label = "Observation"
		}
		t := when + label + ": " + clip(firstLine(c), 160)
		if utf8.RuneCountInString(c) > 160 {
			t += " (" + strconv.Itoa(utf8.RuneCountInString(c)) + " chars)"
		}
		return summaryLine{text: t, score: 1}, true
	}
	text, spans := nlp.ResolveDates(ev.Content, ev.OccurredAt)
	_ = spans
	objects := make([]string, 0, len(facts))
	for _, f := range facts {
		if n := names[f.Object]; n != "" {
			objects = append(objects, strings.ToLower(n))
		}
	}
	var kept []string
	score := 0
	for _, s := range nlp.SplitSentences(text) {
		sc := sentenceScore(s.Text, objects, ev.Role)
		if sc >= 2 {
			kept = append(kept, s.Text)
			score += sc
		}
	}
	if len(kept) == 0 {
		return summaryLine{}, false
	}
	return summaryLine{text: when + who + ": " + strings.Join(kept, " "), score: score}, true
}

// speakerLabel names the author of an event in the log.
func speakerLabel(ev extract.Event) string {
	if n := strings.TrimSpace(ev.Name); n != "" && !strings.ContainsAny(n, ":\n[]") {
		return n
	}
	switch strings.ToLower(ev.Role) {
	case "user":
		return "User"
	case "assistant":
		return "Assistant"
	case "tool":
		return "Tool"
	case "system":
		return "System"
	}
	return "Unknown"
}

// sentenceScore grades how much a sentence tells: facts read from it, a
// date, names, numbers and first-person statements count; questions and
// short pleasantries do not.
func sentenceScore(s string, objects []string, role string) int {
	low := strings.ToLower(s)
	score := 0
	for _, o := range objects {
		if o != "" && strings.Contains(low, o) {
			score += 3
			break
		}
	}
	toks := nlp.Tokenize(s)
	words, names, numbers, firstPerson := 0, 0, 0, false
	for i, t := range toks {
		switch t.Kind {
		case nlp.Word:
			words++
			w := t.Lower()
			if w == "i" || w == "my" || w == "we" || w == "our" || w == "i'm" || w == "i've" || w == "we're" {
				firstPerson = true
			}
			if i > 0 && t.IsCapitalized() && w != "i" && !strings.HasPrefix(w, "i'") && !nameStop[w] {
				names++
			}
		case nlp.Number:
			numbers++
		}
	}
	if len(nlp.FindDates(s, zeroTime)) > 0 {
		score += 2
	}
	score += min(names, 2)
	if numbers > 0 {
		score++
	}
	if firstPerson && words >= 6 {
		score += 2 // a statement about oneself is what later extraction needs
	}
	if words < 4 {
		score -= 2
	}
	if strings.HasSuffix(strings.TrimSpace(s), "?") {
		score -= 2
	}
	if strings.EqualFold(role, "assistant") && score < 3 {
		score--
	}
	return score
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// truncateMiddle applies the per-event limit the way condenser-spec §3
// describes: the first and last halves around a marker.
func truncateMiddle(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	half := limit / 2
	head, tail := s[:half], s[len(s)-half:]
	for !utf8.ValidString(head) && len(head) > 0 {
		head = head[:len(head)-1]
	}
	for !utf8.ValidString(tail) && len(tail) > 0 {
		tail = tail[1:]
	}
	return head + "\n[... Observation truncated due to length ...]\n" + tail
}

// stateLines describe where the window ends: its span, who spoke, and the
// last thing of substance said.
func stateLines(evs []extract.Event, last summaryLine) []summaryLine {
	if len(evs) == 0 {
		return nil
	}
	var speakers []string
	seen := map[string]bool{}
	for _, ev := range evs {
		if l := speakerLabel(ev); !seen[l] && l != "Tool" && l != "System" {
			seen[l] = true
			speakers = append(speakers, l)
		}
	}
	first, lastEv := evs[0].OccurredAt, evs[len(evs)-1].OccurredAt
	span := strconv.Itoa(len(evs)) + " events"
	if !first.IsZero() {
		span += " from " + nlp.FormatDay(first)
		if nlp.FormatDay(lastEv) != nlp.FormatDay(first) {
			span += " to " + nlp.FormatDay(lastEv)
		}
	}
	out := []summaryLine{{text: "Window: " + span + " between " + strings.Join(speakers, ", ")}}
	if last.text != "" {
		out = append(out, summaryLine{text: "Latest: " + last.text})
	}
	return out
}

// bound drops the least informative lines until the summary fits limit
// characters: chit-chat first, then old pending items, then log lines by
// ascending score (oldest first). Context lines (the speakers' stated
// facts) go only when strict, oldest first, after everything else: a
// condensation's summary must not outgrow what it replaces.
func (o *Engine) bound(secs *[secCount][]summaryLine, limit int, strict bool) {
	size := func() int {
		n := 0
		for _, lines := range secs {
			for _, l := range lines {
				n += len(l.text) + 3
			}
		}
		return n + 80
	}
	if size() <= limit {
		return
	}
	type ref struct{ sec, idx int }
	var cands []ref
	for _, s := range []int{secLog, secPending, secState} {
		for i, l := range secs[s] {
			if !l.keep {
				cands = append(cands, ref{s, i})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		la, lb := secs[cands[a].sec][cands[a].idx], secs[cands[b].sec][cands[b].idx]
		pa, pb := dropPriority(cands[a].sec, la), dropPriority(cands[b].sec, lb)
		if pa != pb {
			return pa < pb
		}
		return la.order < lb.order
	})
	if strict {
		var context []ref
		for i := range secs[secContext] {
			context = append(context, ref{secContext, i})
		}
		sort.SliceStable(context, func(a, b int) bool {
			return secs[secContext][context[a].idx].order < secs[secContext][context[b].idx].order
		})
		cands = append(cands, context...)
	}
	drop := map[ref]bool{}
	excess := size() - limit
	for _, r := range cands {
		if excess <= 0 {
			break
		}
		drop[r] = true
		excess -= len(secs[r.sec][r.idx].text) + 3
	}
	for s := range secs {
		kept := secs[s][:0]
		for i, l := range secs[s] {
			if !drop[ref{s, i}] {
				kept = append(kept, l)
			}
		}
		secs[s] = kept
	}
}

// dropPriority orders lines for dropping: lower goes first.
func dropPriority(sec int, l summaryLine) int {
	switch {
	case sec == secState:
		return 100 // the current state is small and always useful
	case sec == secPending:
		return 4
	}
	return l.score
}

// render writes the sections in the requested style.
func render(style extract.SummaryStyle, secs [secCount][]summaryLine) string {
	var b strings.Builder
	switch style {
	case extract.StyleStructured:
		for s := 0; s < secCount; s++ {
			b.WriteString("## " + structuredNames[s] + "\n")
			writeLines(&b, secs[s])
			if s < secCount-1 {
				b.WriteByte('\n')
			}
		}
	case extract.StyleMem1:
		b.WriteString("<think>\n")
		for s := 0; s < secCount; s++ {
			b.WriteString(mem1Names[s] + ":\n")
			writeLines(&b, secs[s])
		}
		b.WriteString("</think>")
	default:
		for s := 0; s < secCount; s++ {
			b.WriteString(sectionNames[s] + ":\n")
			writeLines(&b, secs[s])
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeLines(b *strings.Builder, lines []summaryLine) {
	if len(lines) == 0 {
		b.WriteString("- (none)\n")
		return
	}
	for _, l := range lines {
		b.WriteString("- ")
		b.WriteString(strings.ReplaceAll(l.text, "\n", " "))
		b.WriteByte('\n')
	}
}

// parseSummary reads a previous summary in any of the three styles (or
// free text) back into sections. Lines it cannot place go to the log.
func (o *Engine) parseSummary(text string) [secCount][]summaryLine {
	var secs [secCount][]summaryLine
	text = strings.TrimSpace(text)
	text = strings.TrimPrefix(text, "<think>")
	text = strings.TrimSuffix(text, "</think>")
	cur := secLog
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if s, ok := headingOf(line); ok {
			cur = s
			continue
		}
		line = strings.TrimSpace(strings.TrimLeft(line, "-*• "))
		if line == "" || line == "(none)" || line == "No events summarized" {
			continue
		}
		if cur == secState {
			continue // the state is rebuilt from the newest window
		}
		l := summaryLine{text: line, keep: cur == secContext}
		if cur == secContext {
			l.key = o.slots.get(line, func() string { return o.contextKey(line) })
		}
		if cur == secLog {
			l.score = sentenceScore(line, nil, "")
		}
		secs[cur] = append(secs[cur], l)
	}
	return secs
}

// headingOf recognizes a section heading of any style.
func headingOf(line string) (int, bool) {
	h := strings.TrimSpace(strings.TrimLeft(line, "#"))
	h = strings.TrimSuffix(strings.TrimSuffix(h, ":"), "**")
	h = strings.TrimPrefix(h, "**")
	for s := 0; s < secCount; s++ {
		if strings.EqualFold(h, sectionNames[s]) || strings.EqualFold(h, structuredNames[s]) || strings.EqualFold(h, mem1Names[s]) {
			return s, true
		}
	}
	switch strings.ToUpper(h) {
	case "TASK_TRACKING", "USER CONTEXT", "COMPLETED TASKS":
		if strings.ToUpper(h) == "USER CONTEXT" {
			return secContext, true
		}
		return secLog, true
	case "PENDING TASKS":
		return secPending, true
	}
	return 0, false
}

// zeroTime anchors date detection where only the presence of a date
// matters, not its value.
var zeroTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
