package offline

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
