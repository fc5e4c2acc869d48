package retrieval

import (
	"slices"
	"strings"
)

// dedupeByEvents is the last stage. It keeps results in order and drops a
// result whose source events are all covered by results already kept: a
// fact and the turn it was read from are one memory, not two, whichever
// ranks first, and a client packing ten results gets ten pieces of
// evidence. Facts read from the same turns ("sold the Corolla", "bought a
// Tesla") are different memories but one piece of evidence: up to
// maxMerged of them merge into one result whose text joins their
// sentences.
//
// With history asked for (include_history), a superseded fact is kept even
// when its turn is already cited: it is what the caller asked for, and it
// carries what the turn does not (when it stopped holding, what replaced
// it).
func dedupeByEvents(results []SearchResult, limit, maxMerged int, history bool) []SearchResult {
	covered := map[string]bool{}
	factAt := map[string]int{} // source set → index of the fact result in out
	merged := map[int]int{}
	out := make([]SearchResult, 0, limit)
	for _, r := range results {
		var key string
		if r.Kind == KindFact && len(r.SourceEventIDs) > 0 {
			key = strings.Join(slices.Sorted(slices.Values(r.SourceEventIDs)), "\x00")
			if i, ok := factAt[key]; ok {
				if merged[i] < maxMerged-1 && !strings.Contains(out[i].Text, r.Text) {
					out[i].Text += "; " + r.Text
					for _, step := range r.Path {
						if !slices.Contains(out[i].Path, step) {
							out[i].Path = append(out[i].Path, step)
						}
					}
					merged[i]++
				}
				continue
			}
		}
		if len(out) == limit {
			break
		}
		keys := sourceKeys(r)
		kept := history && r.Kind == KindFact && r.Status == StatusSuperseded
		if !kept && len(keys) > 0 && !slices.ContainsFunc(keys, func(k string) bool { return !covered[k] }) {
			continue
		}
		for _, k := range keys {
			covered[k] = true
		}
		for _, id := range r.SourceEventIDs {
			covered[id] = true // for results that know only bare ids
		}
		if key != "" {
			factAt[key] = len(out)
		}
		out = append(out, r)
	}
	return out
}

// turnKey names a raw turn: its id is unique within its session only.
func turnKey(sessionID, id string) string { return sessionID + "\x00" + id }

// candidateKey identifies a candidate across the signals that find it.
func candidateKey(c *candidate) string {
	if c.Kind == KindRaw {
		return KindRaw + ":" + turnKey(c.SessionID, c.ID)
	}
	return c.Kind + ":" + c.ID
}

// sourceKeys are the turns a result rests on, as turn keys. A result from
// one session names its turns exactly; a fact read from several sessions
// could rest on any of them by a shared id, and claims them all (dropping,
// at worst, a turn that repeats what it says). An insight does not record
// its sessions: its keys are the bare ids.
func sourceKeys(r SearchResult) []string {
	sessions := r.sessions
	if r.SessionID != "" {
		sessions = []string{r.SessionID}
	}
	if len(sessions) == 0 {
		return r.SourceEventIDs
	}
	keys := make([]string, 0, len(r.SourceEventIDs)*max(len(sessions), 1))
	for _, id := range r.SourceEventIDs {
		for _, s := range sessions {
			keys = append(keys, turnKey(s, id))
		}
	}
	return keys
}
