package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// budgetRules recognise budgets and the sums they are set to ("my budget for
// the trip is 2000 euros", "I raised my budget to 3000 euros", "our trip
// budget went up to 4000 dollars").
type budgetRules struct{}

// ruleBudgetChange: "I raised my budget to 3000 euros".
func (r *budgetRules) ruleBudgetChange(c *clause) {
	owner, i := c.possessor(c.verbAt + 1)
	if owner == "" {
		return
	}
	qual, j := r.budgetSlot(c, i)
	if j >= 0 && c.at(j) == "from" {
		j = fromTo(c.toks, j) - 1 // "cut our grocery budget from 180 to 130"
	}
	if j < 0 || c.at(j) != "to" {
		return
	}
	if amt := budgetAmount(c.toks, j+1); amt != "" {
		r.budget(c, owner, qual, amt, true)
	}
}

// canSpend: "I can spend up to £400 on a wedding present" sets a budget
// for the present.
func (r *budgetRules) canSpend(c *clause) bool {
	if c.neg || !alt("can|could", c.modal) || c.subj != c.said.speaker || c.subj == "" {
		return false
	}
	amt, j := readAmount(c.toks, c.verbAt+1)
	if amt == "" || c.at(j) != "on" {
		return false
	}
	q := takeNP(c.toks, j+1)
	if q.empty() {
		return false
	}
	r.budget(c, c.subj, q.head(), amt, false)
	return true
}

// fromTo skips "from <value> to" at i, so a change said with its old value
// ("from 180 to 130", "from £1,200 to £1,350") reads the new one; i when
// the words at i are not that.
func fromTo(t []tok, i int) int {
	if i >= len(t) || t[i].w != "from" {
		return i
	}
	for k := i + 1; k < len(t) && k <= i+5; k++ {
		switch {
		case t[k].w == "to" && k > i+1:
			return k + 1
		case t[k].kind == nlp.Number || t[k].kind == nlp.Symbol || currencies[t[k].w] || amountMultipliers[t[k].w] ||
			measureUnits[t[k].w] || amountHedges[t[k].w] && t[k].w != "to":
		default:
			return i
		}
	}
	return i
}

// budgetAmount reads the sum a budget is set to: a sum of money, or a bare
// number, which the word "budget" already makes money ("our grocery budget
// is 130 now").
func budgetAmount(t []tok, i int) string {
	if amt, _ := readAmount(t, i); amt != "" {
		return amt
	}
	for i < len(t) && amountHedges[t[i].w] {
		i++
	}
	if i < len(t) && t[i].kind == nlp.Number && !isOrdinal(t[i].w) {
		if i+1 < len(t) && amountMultipliers[t[i+1].w] {
			return t[i].orig + " " + t[i+1].orig
		}
		return t[i].orig
	}
	return ""
}

// budgetFrame: "my budget for the trip is 2000 euros", "our trip budget is
// now 3000 euros", "the budget for the trip is 500 dollars".
func (r *budgetRules) budgetFrame(c *clause) bool {
	owner, i := c.possessor(0)
	if owner == "" && c.at(0) == "the" {
		owner, i = c.said.speaker, 1
	}
	if owner == "" && len(c.toks) > 0 && c.toks[0].first {
		owner = c.said.speaker // "budget for the new laptop is about 1200 bucks": chat drops the "my"
	}
	if owner == "" {
		return false
	}
	qual, j := r.budgetSlot(c, i)
	if j < 0 {
		return false
	}
	n, ok, neg, now := c.copulaAt(j)
	if !ok && budgetChangeVerbs[c.at(j)] {
		// "my trip budget went up to 4000 dollars"
		n, ok, now = j+1, true, true
		for alt("up|down|to|now", c.at(n)) {
			n++
		}
		n = fromTo(c.toks, n)
	}
	if !ok || neg {
		return false
	}
	amt := budgetAmount(c.toks, n)
	if amt == "" {
		return false
	}
	c.subj = owner
	r.budget(c, owner, qual, amt, now)
	return true
}

// budgetSlot reads "trip budget", "budget for the trip", "budget" at i and
// returns the qualifier and the index after; -1 when there is no budget.
func (r *budgetRules) budgetSlot(c *clause, i int) (string, int) {
	t := c.toks
	start := i
	for i < len(t) && c.at(i) != "budget" && i-start < 3 && t[i].kind == nlp.Word {
		i++
	}
	if c.at(i) != "budget" {
		return "", -1
	}
	qual := nlp.Singular(words(t[start:i]))
	i++
	if alt("for|on", c.at(i)) {
		q := takeNP(t, i+1)
		if !q.empty() {
			qual = q.head()
			if len(q.toks) > 1 && !q.hasName {
				qual = nlp.NormalizeName(q.lower())
			}
			i = q.next
		}
	}
	return qual, i
}

// budget emits HAS_BUDGET.
func (r *budgetRules) budget(c *clause, owner, qual, amount string, now bool) {
	tmpl := "{S's} budget is {O}"
	if qual != "" {
		tmpl = "{S's} budget for the {Q} is {O}"
	}
	if now || c.now {
		tmpl = strings.Replace(tmpl, " is {O}", " is now {O}", 1)
	}
	c.emit(fx{subj: owner, pred: "HAS_BUDGET", obj: c.value(amount), qual: qual, tmpl: tmpl, noDate: true})
}

// readAmount reads a sum of money at i: "2000 euros", "$2,000", "€3k",
// "3000 EUR", "about 500 dollars".
func readAmount(t []tok, i int) (string, int) {
	for i < len(t) && amountHedges[t[i].w] {
		i++
	}
	if i >= len(t) {
		return "", i
	}
	if t[i].kind == nlp.Symbol && strings.ContainsAny(t[i].orig, "$€£¥₹") && i+1 < len(t) && t[i+1].kind == nlp.Number {
		s := t[i].orig + t[i+1].orig
		j := i + 2
		if j < len(t) && amountMultipliers[t[j].w] {
			s += " " + t[j].orig
			j++
		}
		return s, j
	}
	if t[i].kind == nlp.Number {
		s := t[i].orig
		j := i + 1
		if j < len(t) && amountMultipliers[t[j].w] {
			s += " " + t[j].orig
			j++
		}
		if j < len(t) && currencies[t[j].w] {
			return s + " " + t[j].orig, j + 1
		}
		if j < len(t) && t[j].kind == nlp.Symbol && strings.ContainsAny(t[j].orig, "$€£¥₹") {
			return s + t[j].orig, j + 1
		}
	}
	return "", i
}

// budgetOf reads "a budget of 2000 euros (for the trip)" from the amount
// at i.
func (r *budgetRules) budgetOf(c *clause, i int) {
	if amt, n := readAmount(c.toks, i); amt != "" {
		qual := ""
		if alt("for|on", c.at(n)) {
			q := takeNP(c.toks, n+1)
			qual = q.head()
		}
		r.budget(c, c.subj, qual, amt, false)
	}
}

// setAside: "I've got about 2 grand to spend on a used car", "we can
// afford up to 1,800 a month in rent", "I have £300 for the trip": a sum
// the speaker has for a thing, or can afford for it, is its budget. A sum
// one has with no thing it is for ("I have £500 in savings") is none.
func (r *budgetRules) setAside(c *clause) bool {
	if c.neg || c.subj == "" || c.subj != c.said.speaker || c.future || c.would || c.past && !c.perfect {
		return false
	}
	if c.verb == "afford" && !alt("can|could", c.modal) || c.verb == "have" && c.modal != "" {
		return false
	}
	t := c.toks
	i := c.verbAt + 1
	amt := budgetAmount(t, i)
	if amt == "" {
		return false
	}
	j := i
	for j < len(t) && (amountHedges[t[j].w] && (t[j].w != "to" || c.at(j-1) == "up") || t[j].kind == nlp.Number ||
		t[j].kind == nlp.Symbol || amountMultipliers[t[j].w] || currencies[t[j].w]) {
		j++
	}
	if c.seq(j, "a|per", "month|week|year|night") {
		amt += " " + c.at(j) + " " + c.at(j+1)
		j += 2
	}
	switch {
	case c.seq(j, "to", "spend", "on|for"):
		j += 3
	case c.verb == "afford" && alt("on|for|in", c.at(j)):
		j++
	case c.verb == "have" && c.at(j) == "for" && !alt("me|us|you|him|her|them", c.at(j+1)):
		j++
	default:
		return false
	}
	np := takeNP(t, j)
	if !usableObject(np) || np.hasName && !isPlaceLike(np) {
		return false
	}
	qual := np.head()
	if np.hasName {
		qual = "trip to " + np.surface()
	}
	r.budget(c, c.subj, qual, amt, false)
	return true
}
