package offline

import "github.com/graphmem/graphmem/ontology"

// boughtScan reads, in any clause of the speaker's, a possession named
// with a relative clause of buying: "the first long trip in the electric
// Renault we bought in August", "the flat bike I got last spring". What
// the speaker (or "we") bought is theirs, whatever the main clause says.
// The clause's own rules run after it.
func (r *possessionRules) boughtScan(c *clause) {
	if c.said.speaker == "" || c.hedge {
		return
	}
	t := c.toks
	for j := 2; j+1 < len(t); j++ {
		if !alt("i|we", t[j].w) || !alt("bought|got|purchased|leased|ordered", t[j+1].w) {
			continue
		}
		end := j // the phrase ends before the subject, or before "that/which"
		if alt("that|which", t[j-1].w) {
			end = j - 1
		}
		for start := end - 1; start >= 0 && start >= end-5; start-- {
			if !alt("the|a|an|our|my|this|that", t[start].w) {
				continue
			}
			np := takeNP(t, start)
			if np.next != end || !usableObject(np) {
				break
			}
			subj := c.subj
			c.subj = c.said.speaker
			r.possess(c, np, false, "bought")
			c.subj = subj
			return
		}
	}
}

// providerWith reads "I'm with Vodafone on a two-year contract", "we're
// with Octopus for energy": a named provider of a service the clause names
// (providerNouns) is one the speaker uses. "I'm with Tom" (a person) and
// "I'm with you" say nothing of the kind. It reports whether it read the
// clause.
func (r *possessionRules) providerWith(c *clause, i int, neg bool) bool {
	np := takeNP(c.toks, i)
	if !usableObject(np) || !np.hasName {
		return false
	}
	if typ, _ := classify(np); typ == ontology.Person || typ == ontology.Place {
		return false
	}
	service := false
	for j := np.next; j < len(c.toks); j++ {
		service = service || providerNouns[c.toks[j].w]
	}
	if !service {
		return false
	}
	k, _ := c.object(np, ontology.Organization, 2)
	if k == "" {
		return false
	}
	c.emit(fx{pred: "USES", obj: k, neg: neg, tmpl: pick(neg, "{S} is with {O}", "{S} is no longer with {O}"), noDate: true})
	return true
}

// providerNouns name a service one is "with" a provider for. Grows by a word.
var providerNouns = wordSet(`contract,plan,tariff,deal,sim,account,accounts,broadband,mortgage,insurance,energy,
electricity,gas,network,phone,mobile,bank,banking,policy,subscription,provider,fibre,internet,pension,isp`)
