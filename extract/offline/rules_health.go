package offline

import (
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

// healthRules recognise diets, allergies, intolerances and conditions ("I'm
// vegetarian", "I follow a keto diet", "I'm allergic to peanuts", "I'm
// lactose intolerant").
type healthRules struct{}

// ruleFollow: "I follow a vegan diet".
func (r *healthRules) ruleFollow(c *clause) {
	np := takeNP(c.toks, c.verbAt+1)
	if np.head() == "diet" && len(np.toks) > 1 {
		r.diet(c, np.lower(), c.neg || c.usedTo, c.past && !c.perfect)
	}
}

// diet emits HAS_DIET.
func (r *healthRules) diet(c *clause, d string, neg, past bool) {
	k := c.said.out.named(d, ontology.Condition, 2)
	tmpl := "{S} is " + d
	if strings.HasSuffix(d, " diet") {
		tmpl = "{S} follows a " + d
	}
	switch {
	case neg && c.cessation || neg && c.again:
		tmpl = "{S} is no longer " + d
	case neg:
		tmpl = "{S} is not " + d
	case past:
		tmpl = "{S} used to be " + d
	case c.now:
		tmpl += " now"
	}
	if strings.HasSuffix(d, " diet") && neg {
		tmpl = "{S} no longer follows a " + d
	}
	c.emit(fx{pred: "HAS_DIET", obj: k, neg: neg || past, tmpl: tmpl})
}
