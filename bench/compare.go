package main

// Paired comparisons of the first two servers (vectors on and off in make
// bench): the same questions, one outcome each, so a difference of a few
// questions can be told from noise by the sign test.

type pairedReport struct {
	A string `json:"a"`
	B string `json:"b"`
	// Each test counts questions where A succeeds and B fails (wins), the
	// reverse (losses) and ties.
	LoCoMoAll10   *signTest            `json:"locomo_all@10_categories_1-4,omitempty"`
	ParaphraseAt3 *signTest            `json:"paraphrase_evidence@3,omitempty"`
	KUPass        map[string]*signTest `json:"knowledge_update_pass,omitempty"`
}

func pairServers(servers []*srv) *pairedReport {
	if len(servers) < 2 {
		return nil
	}
	a, b := servers[0].run, servers[1].run
	rep := &pairedReport{A: servers[0].spec.Name, B: servers[1].spec.Name}
	if a.Retrieval != nil && b.Retrieval != nil {
		rep.LoCoMoAll10 = pairLoCoMo(a.Retrieval.PerQuestion, b.Retrieval.PerQuestion)
	}
	if a.Paraphrase != nil && b.Paraphrase != nil {
		rep.ParaphraseAt3 = pairRanks(a.Paraphrase.Ranks, b.Paraphrase.Ranks, 3)
	}
	for set, ka := range a.KU {
		if kb := b.KU[set]; kb != nil {
			if t := pairOutcomes(ka.Outcomes, kb.Outcomes); t != nil {
				if rep.KUPass == nil {
					rep.KUPass = map[string]*signTest{}
				}
				rep.KUPass[set] = t
			}
		}
	}
	return rep
}

// pairLoCoMo pairs graphmem's all@10 per question (categories 1-4) by user
// and question index; questions one side did not score are left out.
func pairLoCoMo(a, b []perQuestion) *signTest {
	type key struct {
		user string
		i    int
	}
	other := map[key]bool{}
	for _, q := range b {
		if q.GraphmemAll10 != nil {
			other[key{q.UserID, q.Index}] = *q.GraphmemAll10
		}
	}
	var xa, xb []bool
	for _, q := range a {
		v, ok := other[key{q.UserID, q.Index}]
		if q.GraphmemAll10 == nil || !ok || q.Category < 1 || q.Category > 4 {
			continue
		}
		xa, xb = append(xa, *q.GraphmemAll10), append(xb, v)
	}
	if len(xa) == 0 {
		return nil
	}
	t := pairedSignTest(xa, xb)
	return &t
}

// pairRanks pairs "evidence within the top k" by question position.
func pairRanks(a, b []int, k int) *signTest {
	if len(a) != len(b) || len(a) == 0 {
		return nil
	}
	xa, xb := make([]bool, len(a)), make([]bool, len(b))
	for i := range a {
		xa[i], xb[i] = a[i] >= 1 && a[i] <= k, b[i] >= 1 && b[i] <= k
	}
	t := pairedSignTest(xa, xb)
	return &t
}

// pairOutcomes pairs check verdicts by scenario, type and query/object.
func pairOutcomes(a, b []kuOutcome) *signTest {
	type key struct{ scen, typ, q, obj string }
	other := map[key]bool{}
	for _, o := range b {
		other[key{o.Scenario, o.Type, o.Query, o.Object}] = o.Pass
	}
	var xa, xb []bool
	for _, o := range a {
		if v, ok := other[key{o.Scenario, o.Type, o.Query, o.Object}]; ok {
			xa, xb = append(xa, o.Pass), append(xb, v)
		}
	}
	if len(xa) == 0 {
		return nil
	}
	t := pairedSignTest(xa, xb)
	return &t
}
