package offline

import "github.com/graphmem/graphmem/ontology"

// Devices and vehicles named in passing: what the speaker's computer runs
// ("my laptop runs Fedora", "I'm staying on Fedora"), which car is theirs
// ("our car is a Renault Clio", "we're taking the new Volvo XC40").

// bikeNouns are the speaker's cycles, owned and ridden ("my road bike is a
// Trek Domane").
var bikeNouns = wordSet(`bike,bicycle,e-bike,ebike,tandem,trike,unicycle`)

// deviceNouns are the speaker's machines whose software is used.
var deviceNouns = wordSet(`laptop,computer,pc,desktop,tablet,phone,mac,macbook,server,workstation,machine,chromebook`)

// deviceFrame: "my laptop runs Fedora", "my phone is on Android 14",
// "our car is a Renault Clio".
func (r *possessionRules) deviceFrame(c *clause) bool {
	sp := c.said.speaker
	if sp == "" || !alt("my|our", c.at(0)) {
		return false
	}
	i := 1
	for i < 3 && i < len(c.toks) && !deviceNouns[c.at(i)] && !vehicleNouns[c.at(i)] && !bikeNouns[c.at(i)] {
		i++
	}
	if !deviceNouns[c.at(i)] && !vehicleNouns[c.at(i)] && !bikeNouns[c.at(i)] || i >= 3 {
		return false
	}
	vehicle := vehicleNouns[c.at(i)]
	j := i + 1
	switch {
	case bikeNouns[c.at(i)] && alt("is|'s", c.at(j)) && alt("a|an", c.at(j+1)):
		// "My road bike is a Trek Domane": a bike is owned and ridden,
		// not driven; only a named one is a fact ("is a bit rusty" is not).
		np := takeNP(c.toks, j+2)
		if !np.hasName || c.neg || c.past {
			return false
		}
		k, _ := c.object(np, ontology.Product, 2)
		c.subj = sp
		c.emit(fx{subj: sp, pred: "OWNS", obj: k, art: "a", tmpl: "{S} rides {aO} ({their} " + takeNP(c.toks, 1).surface() + ")", noDate: true})
		return true
	case !vehicle && alt("runs|uses|is|'s", c.at(j)):
		j++
		if c.at(j) == "on" {
			j++
		}
		np := takeNP(c.toks, j)
		if !np.hasName || c.neg {
			return false
		}
		k, art := c.object(np, ontology.Product, 2)
		c.subj = sp
		c.emit(fx{subj: sp, pred: "USES", obj: k, art: art, tmpl: "{S} uses {aO} (on {their} " + c.at(i) + ")", noDate: true})
		return true
	case vehicle && alt("is|'s", c.at(j)) && alt("a|an", c.at(j+1)):
		np := takeNP(c.toks, j+2)
		if !isVehicle(np) || c.neg || c.past {
			return false
		}
		k, _ := c.object(np, ontology.Product, 2)
		c.subj = sp
		c.emit(fx{subj: sp, pred: "DRIVES", obj: k, art: "a", tmpl: "{S} drives {aO}", noDate: true, rank: 1})
		return true
	}
	return false
}

// stayOn reads "I'm staying on Fedora", "I'm sticking with Android": the
// speaker keeps using it, whatever was suggested.
func (r *possessionRules) stayOn(c *clause) bool {
	i := c.verbAt + 1
	if c.neg || c.future && c.verb != "stay" || !alt("on|with", c.at(i)) {
		return false
	}
	np := takeNP(c.toks, i+1)
	if !np.hasName || !usableObject(np) {
		return false
	}
	if typ, _ := classify(np); typ == ontology.Person || typ == ontology.Place {
		return false
	}
	k, art := c.object(np, ontology.Product, 2)
	c.emit(fx{pred: "USES", obj: k, art: art, tmpl: "{S} uses {aO} (staying with it)", noDate: true})
	return true
}

// takeNewVehicle: "we're taking the new Volvo XC40 to the coast": a new
// vehicle of the speaker's is what they drive.
func (r *possessionRules) takeNewVehicle(c *clause) bool {
	i := c.verbAt + 1
	if c.neg || c.modal != "" || c.at(i) != "the" && c.at(i) != "our" && c.at(i) != "my" || c.at(i+1) != "new" {
		return false
	}
	np := takeNP(c.toks, i)
	if !isVehicle(np) {
		return false
	}
	k, _ := c.object(np, ontology.Product, 2)
	c.emit(fx{pred: "DRIVES", obj: k, tmpl: "{S} drives {O} (new)", noDate: true, rank: 1})
	return true
}
