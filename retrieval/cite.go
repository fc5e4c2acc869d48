package retrieval

import "sort"

// citeMatchingTurns narrows what a summary or an insight cites to the
// covered turns that are themselves relevant to the query (by any signal),
// best first; one that covers no relevant turn keeps its whole window. A
// summary or an insight is a long text that a vector matches broadly: a
// "likes many things" insight resting on thirteen turns would otherwise
// stand for all thirteen, and a reader given the top results would read
// thirteen turns of which one answers.
func (r *search) citeMatchingTurns() {
	byTurn := map[string]float64{} // turn key → relevance
	byID := map[string]float64{}   // raw id → best relevance (insights cite ids across sessions)
	for _, c := range r.set {
		if c.Kind != KindRaw {
			continue
		}
		rel := relevance(c, r.cfg)
		if rel <= 0 {
			continue
		}
		byTurn[turnKey(c.SessionID, c.ID)] = rel
		byID[c.ID] = max(byID[c.ID], rel)
	}
	for _, c := range r.set {
		var score func(id string) float64
		switch c.Kind {
		case KindEvent:
			score = func(id string) float64 { return byTurn[turnKey(c.SessionID, id)] }
		case KindInsight:
			score = func(id string) float64 { return byID[id] }
		default:
			continue
		}
		var matching []string
		for _, id := range c.SourceEventIDs {
			if score(id) > 0 {
				matching = append(matching, id)
			}
		}
		if len(matching) == 0 {
			continue
		}
		sort.SliceStable(matching, func(i, j int) bool { return score(matching[i]) > score(matching[j]) })
		c.SourceEventIDs = matching
	}
}
