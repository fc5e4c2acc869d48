package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// Commutes: how the speaker travels to work or school, one current way per
// route ("I take the 38 bus to work", "I walk to the office now", "I cycle
// to uni", "I commute by train"). The words are in lexicon_commute.go.

// commuteFrame reads "I <verb> (the <means>) to|into <destination>" and
// "I commute by <means>". A plan or a one-off ("I took a taxi to work
// yesterday") is not the commute.
func (r *possessionRules) commuteFrame(c *clause) bool {
	sp := c.said.speaker
	if sp == "" || !alt("i|we", c.at(0)) {
		return false
	}
	i := 1
	for alt("usually|always|normally|now|mostly|just|generally|still|typically|tend|to|'ve|have|started|start|begun|began|been|am|are|currently", c.at(i)) {
		i++
	}
	w := c.at(i)
	lemma, form, ok := verbOf(w)
	if !ok {
		return false
	}
	if form == formPast && c.date != nil || form == formIng && c.date != nil && !c.now && !c.perfect {
		// "I took a taxi to work yesterday", "I'm driving to work
		// tomorrow": once. "I'm cycling to work for now", "I've been
		// cycling to work since March": the way one goes these days.
		return false
	}
	means := ""
	j := i + 1
	switch {
	case lemma == "commute":
		place, dest := "", ""
		if alt("to|into", c.at(j)) && commuteDestinations[c.at(j+1)] != "" && alt("by|on", c.at(j+2)) {
			dest, j = commuteDestinations[c.at(j+1)], j+2 // "I commute to work by bus"
		} else if alt("to|into", c.at(j)) && commuteDestinations[c.at(j+1)] == "" {
			// "I commute into Manchester by tram": the town worked in
			if np := takeNP(c.toks, j+1); np.hasName && isPlaceLike(np) && alt("by|on", c.at(np.next)) {
				place, j = c.at(j)+" "+np.surface(), np.next
			}
		}
		if c.at(j) == "by" || c.at(j) == "on" {
			if m, ok := transports[c.at(j+1)]; ok {
				means, j = m, j+2
				if dest != "" {
					c.subj = sp
					c.emit(fx{pred: "COMMUTES_BY", obj: c.value(means), qual: dest, conf: 0.8,
						tmpl: "{S} commutes to " + dest + " by {O}", rank: 2})
					return true
				}
				if place != "" {
					c.subj = sp
					c.emit(fx{pred: "COMMUTES_BY", obj: c.value(means), qual: "work", conf: 0.8,
						tmpl: "{S} commutes " + place + " by {O}", rank: 2})
					return true
				}
			}
		} else if commuteDestinations[c.at(j+1)] != "" || c.at(j) == "to" {
			return false
		}
	case commuteVerbs[lemma] != "":
		means = commuteVerbs[lemma]
		if lemma == "ride" || lemma == "drive" {
			break
		}
	case rideVerbs[lemma]:
		np := takeNP(c.toks, j)
		if np.empty() || len(np.toks) > 3 {
			return false
		}
		head := np.toks[len(np.toks)-1].w
		m, ok := transports[head]
		if !ok {
			return false
		}
		// "the 38 bus": the route's number is part of the means
		for k := j; k < np.next; k++ {
			if c.toks[k].kind == nlp.Number {
				m = c.toks[k].orig + " " + m
				break
			}
		}
		means, j = m, np.next
	}
	if means == "" {
		return false
	}
	route := "work"
	if lemma != "commute" {
		if !alt("to|into", c.at(j)) {
			return false
		}
		k := j + 1
		for alt("the|my|our|work|'s", c.at(k)) && commuteDestinations[c.at(k)] == "" {
			k++
		}
		if commuteDestinations[c.at(k)] == "" {
			return false
		}
		route = commuteDestinations[c.at(k)]
	}
	c.subj = sp
	obj := c.value(means)
	verb := "commutes by {O}"
	if means == "on foot" {
		verb = "walks to " + route
	} else if lemma == "cycle" || lemma == "bike" {
		verb = "cycles to " + route
	}
	tmpl := "{S} " + verb
	if !strings.Contains(verb, "{O}") {
		tmpl = "{S} " + verb + " ({O})"
	}
	if c.now {
		tmpl += " now"
	}
	c.emit(fx{pred: "COMMUTES_BY", obj: obj, qual: route, conf: 0.8, tmpl: tmpl, rank: 2})
	return true
}
