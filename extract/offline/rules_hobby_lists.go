package offline

// hobbyNouns announce a list of what the speaker likes doing: "my hobbies
// are painting and hiking", "my hobbies - painting, hiking and reading".
var hobbyNouns = wordSet(`hobbies,activities,interests,passions,pastimes`)

// hobbyListFrame: POSS hobbies (are|include|,) X, Y and Z. Each item is a
// liking of the owner's, read from this turn. A single "hobby" is a
// favourite (favouriteFrame); "my favourite hobbies are..." is read there
// too, as this frame comes after it.
func (r *hobbyRules) hobbyListFrame(c *clause) bool {
	owner, i := c.possessor(0)
	if owner == "" || !hobbyNouns[c.at(i)] {
		return false
	}
	i++
	switch {
	case alt("include|includes|are|,", c.at(i)):
		i++
	case c.at(i) == "have" && c.at(i+1) == "been":
		i += 2
	default:
		return false
	}
	if c.neg {
		return false
	}
	items, _ := takeList(c.toks, i)
	emitted := false
	for n, np := range items {
		// Only activities are listed: "my hobbies are expensive" names none.
		if n == maxConjuncts || !usableObject(np) || len(np.toks) > 4 || !listItemStart(np.toks[0]) {
			break
		}
		if k, _ := c.object(np, "", 0); k != "" {
			c.emit(fx{subj: owner, pred: "LIKES", obj: k, strength: 0.8, tmpl: "{S} likes {O}", noDate: true})
			emitted = true
		}
	}
	return emitted
}
