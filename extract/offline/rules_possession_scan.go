package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

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
			if !alt("the|a|an|our|my|this|that|these|those", t[start].w) {
				continue
			}
			np := takeNP(t, start)
			if alt("this|that|these|those", np.det) {
				np.det = "" // "these figurines I bought": the relative clause says which, and that they are the speaker's
			}
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

// passiveScan reads a possession's loss or purchase said in the passive,
// whatever verb the clause is parsed around: "The Trek was nicked from
// outside the station", "my phone got stolen", "our van has been written
// off", "the car's been sold" end what the speaker owned (a thing of theirs: my, our, the);
// "a Canyon Grizl was bought to replace it" is a thing the speaker bought,
// unless an agent is named ("by the council"). A loss that nearly
// happened or may yet happen is not one.
func (r *possessionRules) passiveScan(c *clause) {
	if c.said.speaker == "" || c.hedge {
		return
	}
	t := c.toks
	for k := 1; k < len(t); k++ {
		how := ""
		switch {
		case lossParticiples[t[k].w], t[k].w == "written" && c.at(k+1) == "off":
			how = "lost"
		case alt("sold|scrapped", t[k].w):
			how = t[k].w // "the bakkie's been sold", "our old van got scrapped"
		case alt("bought|purchased", t[k].w) && c.at(k+1) != "by":
			how = "bought"
		default:
			continue
		}
		aux := k - 1
		if !alt("was|were|got|been|gets|is|are", t[aux].w) {
			continue
		}
		if t[aux].w == "been" && aux > 0 && alt("has|have|had", t[aux-1].w) {
			aux--
		}
		for _, w := range t[:k] {
			if alt("might|may|could|will|'ll|would|if|not|never|nearly|almost|whether", w.w) {
				return
			}
		}
		dets := "my|our|the"
		if how == "bought" {
			dets = "my|our|the|a|an"
		}
		for start := max(aux-6, 0); start < aux; start++ {
			if !alt(dets, t[start].w) {
				continue
			}
			np := takeNP(t, start)
			if np.next != aux || !usableObject(np) || !isProduct(np) && !np.hasName {
				continue
			}
			subj := c.subj
			c.subj = c.said.speaker
			if how != "bought" {
				r.parted(c, np, how)
			} else {
				r.possess(c, np, false, how)
			}
			c.subj = subj
			return
		}
	}
}

// lossParticiples say a thing was taken from its owner or destroyed.
// Grows by a word.
var lossParticiples = wordSet(`stolen,nicked,pinched,nabbed,swiped,totalled,totaled,wrecked,destroyed`)

// deadThingScan reads a thing of the speaker's that stopped working for
// good: "My old MacBook finally died", "our washing machine packed in",
// "my phone gave up the ghost". The thing is no longer owned, as a sold one
// is not. A person's or a pet's death is kin's; "my phone died" (its
// battery), "my car died on the motorway" (a breakdown) and "my phone
// broke" (it may be mended) are left.
func (r *possessionRules) deadThingScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge || len(t) < 3 || !alt("my|our", t[0].w) {
		return
	}
	np := takeNP(t, 0)
	i := np.next
	for len(np.toks) > 1 && lyAdverb(np.toks[len(np.toks)-1].w) {
		np.toks = np.toks[:len(np.toks)-1] // "our washing machine finally died": the adverb is the verb's
		i--
	}
	np.next = i
	if !usableObject(np) || !isProduct(np) {
		return
	}
	final := false // "my phone died" may be its battery, "my car died" a breakdown
	for i < len(t) && alt("finally|just|completely|totally|has|have|'s", t[i].w) {
		final = final || alt("finally|completely|totally", t[i].w)
		i++
	}
	switch {
	case alt("died|conked", c.at(i)) && (final || c.seq(i+1, "for", "good") || c.seq(i+1, "on", "me") && final):
	case c.seq(i, "packed", "in"), c.seq(i, "gave", "up", "the", "ghost"), c.seq(i, "kicked", "the", "bucket"):
	default:
		return
	}
	subj := c.subj
	c.subj = c.said.speaker
	r.parted(c, np, "died")
	c.subj = subj
}

// presupposed reads, in a question of the speaker's, a named product the
// speaker calls theirs: "What's the best way to store my Mazda MX-5 over
// winter?", "Can my Kindle Paperwhite read PDFs?". A question states
// nothing, but "my" with a product's name presupposes that the speaker has
// it (and drives it, for a vehicle), as a request presupposes the
// relatives it names. A product without a name ("my car", "my phone")
// says too little to keep, and "if I sold my Golf" supposes.
func (r *possessionRules) presupposed(c *clause) {
	if c.said.speaker == "" {
		return
	}
	t := c.toks
	for i := 0; i+1 < len(t); i++ {
		if alt("if|whether", t[i].w) {
			return
		}
		if !alt("my|our", t[i].w) {
			continue
		}
		np := takeNP(t, i)
		// The name ends at its first lower-case word: in a question the
		// verb follows it ("Can my Kindle Paperwhite open PDFs?").
		for k, tk := range np.toks {
			if tk.kind == nlp.Word && !tk.cap {
				np.toks = np.toks[:k]
				break
			}
		}
		if !np.hasName || !isProduct(np) || !usableObject(np) {
			continue
		}
		subj := c.subj
		c.subj = c.said.speaker
		r.possess(c, np, false, "have")
		c.subj = subj
		i = max(i, np.next-1)
	}
}
