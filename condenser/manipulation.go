package condenser

// ManipulationIndices returns, in increasing order, the positions 0..len
// at which events may be cut or a summary inserted. A position is allowed
// unless it falls strictly inside a tool call/result pair (from the call
// up to its result) or inside a batch of parallel calls (from its first to
// its last call). Forgetting events[i:j] for allowed i and j therefore
// never splits a pair or a batch.
//
// Only pairs whose result is in the list restrict cutting. A call without
// a result is dropped by BuildView anyway, and letting it block every
// later position (as the SDK's pending set does) would freeze the view.
func ManipulationIndices(events []Event) []int {
	allowed := allowedCuts(events)
	out := make([]int, 0, len(allowed))
	for i, ok := range allowed {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// allowedCuts returns allowed[i] for i in 0..len(events).
func allowedCuts(events []Event) []bool {
	n := len(events)
	allowed := make([]bool, n+1)
	for i := range allowed {
		allowed[i] = true
	}
	block := func(from, to int) { // forbid cuts in (from, to]
		for i := from + 1; i <= to && i <= n; i++ {
			allowed[i] = false
		}
	}
	firstCall := map[string]int{}
	batchStart, batchEnd := map[string]int{}, map[string]int{}
	for i, e := range events {
		if e.isCall() {
			if _, seen := firstCall[e.ToolCallID]; !seen {
				firstCall[e.ToolCallID] = i
			}
		}
		if e.isResult() {
			if c, ok := firstCall[e.ToolCallID]; ok {
				block(c, i)
			}
		}
		if e.isBatched() {
			if _, seen := batchStart[e.BatchID]; !seen {
				batchStart[e.BatchID] = i
			}
			batchEnd[e.BatchID] = i
		}
	}
	for id, s := range batchStart {
		block(s, batchEnd[id])
	}
	return allowed
}

// cuts answers "next allowed cut at or after i" for one list of events.
type cuts struct{ allowed []bool }

func newCuts(events []Event) cuts { return cuts{allowed: allowedCuts(events)} }

// next returns the smallest allowed position >= i, or false when i is past
// the end.
func (c cuts) next(i int) (int, bool) {
	i = max(i, 0)
	for ; i < len(c.allowed); i++ {
		if c.allowed[i] {
			return i, true
		}
	}
	return 0, false
}

// units splits events[from:] into atomic units: the spans between
// consecutive allowed cuts. Forgetting or keeping whole units never splits
// a pair or a batch.
func (c cuts) units(from int) [][2]int {
	var out [][2]int
	start, ok := c.next(from)
	if !ok {
		return nil
	}
	for i := start + 1; i < len(c.allowed); i++ {
		if c.allowed[i] {
			out = append(out, [2]int{start, i})
			start = i
		}
	}
	return out
}
