package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/bench/dataset"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseFlagsServers(t *testing.T) {
	env := map[string]string{"BENCH_API_KEY_ON": "key-on-0123456789", "BENCH_API_KEY_VEC_2": "k2"}
	getenv := func(k string) string { return env[k] }
	cfg, err := parseFlags([]string{"-server", "on=http://127.0.0.1:1/", "-server", "off=http://127.0.0.1:2,vec-2=http://h:3",
		"-server-pid", "on=42"}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.servers
	if len(got) != 3 || got[0] != (serverSpec{Name: "on", Addr: "http://127.0.0.1:1", PID: 42, Key: "key-on-0123456789"}) ||
		got[1].Name != "off" || got[1].Key != "" || got[2].Key != "k2" {
		t.Errorf("%+v", got)
	}
	single, err := parseFlags([]string{"-addr", "http://x:9/", "-graphmem-pid", "7"}, getenv)
	if err != nil || len(single.servers) != 1 || single.servers[0] != (serverSpec{Name: "graphmem", Addr: "http://x:9", PID: 7}) {
		t.Errorf("single server: %+v %v", single.servers, err)
	}
	for _, bad := range [][]string{
		{"-server", "on=http://a", "-server", "on=http://b"},
		{"-server", "On=http://a"},
		{"-server", "on"},
		{"-server", "on=ftp://a"},
		{"-server", "on=http://a", "-server-pid", "off=3"},
		{"-server", "on=http://a", "-server-pid", "on=x"},
		{"-phases", "locomo,bogus"},
		{"-ku-sets", "visible,train"},
		{"-locomo-convs", "-1"},
	} {
		if _, err := parseFlags(bad, getenv); err == nil {
			t.Errorf("%v: want an error", bad)
		}
	}
}

func TestKUSets(t *testing.T) {
	visible := []kuScenario{{ID: "ku-v-01"}}
	var own []kuScenario
	for _, id := range []string{"ku-own-001", "ku-own-002", "ku-own-003", "ku-own-004", "ku-own-005", "ku-own-006"} {
		own = append(own, kuScenario{ID: id})
	}
	sets := kuSets(visible, own, nil)
	if len(sets) == 0 || sets[0].Name != kuVisible || len(sets[0].Scen) != 1 {
		t.Fatalf("%+v", sets)
	}
	n := 0
	for _, set := range sets[1:] {
		for _, s := range set.Scen {
			n++
			if dataset.Half(s.ID) != set.Name {
				t.Errorf("%s in %s, Half says %s", s.ID, set.Name, dataset.Half(s.ID))
			}
		}
	}
	if n != len(own) {
		t.Errorf("%d of %d own scenarios placed", n, len(own))
	}
	only := kuSets(visible, own, []string{kuHeldOut})
	for _, set := range only {
		if set.Name != kuHeldOut {
			t.Errorf("asked for held-out only, got %s", set.Name)
		}
	}
	if len(kuSets(visible, nil, []string{kuDev})) != 0 {
		t.Error("no own scenarios: no dev set")
	}
}

func TestPairs(t *testing.T) {
	yes, no := true, false
	a := []perQuestion{{UserID: "u", Index: 0, Category: 1, GraphmemAll10: &yes}, {UserID: "u", Index: 1, Category: 4, GraphmemAll10: &no},
		{UserID: "u", Index: 2, Category: 5, GraphmemAll10: &yes}, {UserID: "u", Index: 3, Category: 2, GraphmemAll10: &yes}}
	b := []perQuestion{{UserID: "u", Index: 0, Category: 1, GraphmemAll10: &no}, {UserID: "u", Index: 1, Category: 4, GraphmemAll10: &yes},
		{UserID: "u", Index: 2, Category: 5, GraphmemAll10: &no}, {UserID: "u", Index: 3, Category: 2, GraphmemAll10: &yes}}
	if t1 := pairLoCoMo(a, b); t1 == nil || t1.Wins != 1 || t1.Losses != 1 || t1.Ties != 1 {
		t.Errorf("locomo (category 5 left out): %+v", t1)
	}
	if t2 := pairRanks([]int{1, 3, 4, 0}, []int{2, 0, 1, 0}, 3); t2 == nil || t2.Wins != 1 || t2.Losses != 1 || t2.Ties != 2 {
		t.Errorf("ranks: %+v", t2)
	}
	if pairRanks([]int{1}, []int{1, 2}, 3) != nil {
		t.Error("different question lists cannot be paired")
	}
	oa := []kuOutcome{{Scenario: "s1", Type: "search_top", Query: "q", Pass: true}, {Scenario: "s2", Type: "preference", Object: "tea", Pass: false}}
	ob := []kuOutcome{{Scenario: "s2", Type: "preference", Object: "tea", Pass: true}, {Scenario: "s1", Type: "search_top", Query: "q", Pass: true}}
	if t3 := pairOutcomes(oa, ob); t3 == nil || t3.Wins != 0 || t3.Losses != 1 || t3.Ties != 1 {
		t.Errorf("outcomes: %+v", t3)
	}
}

func TestTargetsPerServer(t *testing.T) {
	run := func(all10 float64, gm, neo float64, paraAt10 float64) *serverRun {
		return &serverRun{
			Retrieval: &retrievalReport{Systems: map[string]map[string]metricSet{
				sysGraphmem: {groupHeadline: {N: 10, AllAt10: all10}}, sysBM25: {groupHeadline: {N: 10, AllAt10: 0.5}}}},
			Latency:    &latencyReport{Search: loadStats{Requests: 5, CPUms: map[string]float64{"graphmem": gm, "neo4j": neo}}},
			Paraphrase: &paraReport{Questions: 4, EmptyResults: 1, Graphmem: paraScores{N: 4, At10: paraAt10}},
			KU:         map[string]*kuReport{kuVisible: {EmptyResults: 2}},
		}
	}
	r := &results{Servers: []serverInfo{{Name: "on", VectorsSeen: true}, {Name: "off"}},
		Runs: map[string]*serverRun{"on": run(0.70, 2, 3, 0.75), "off": run(0.72, 1, 3, 0.5)}}
	find := func(prefix string) target {
		for _, tg := range r.Targets {
			if strings.HasPrefix(tg.Name, prefix) {
				return tg
			}
		}
		t.Fatalf("no target %q", prefix)
		return target{}
	}
	r.Targets = targets(r)
	cpu := find("CPU ms per search")
	// 5 ms passes with vectors (limit 3.8 + 2), 4 ms fails without.
	if v := cpu.Values[0]; *v.Value != 5 || v.Limit != 5.8 || !*v.Met {
		t.Errorf("on: %+v", v)
	}
	if v := cpu.Values[1]; *v.Value != 4 || v.Limit != 3.8 || *v.Met {
		t.Errorf("off: %+v", v)
	}
	if e := find("Empty result lists"); *e.Values[0].Value != 3 || *e.Values[0].Met {
		t.Errorf("empty: %+v", e.Values[0])
	}
	d := find("LoCoMo recall_all@10 (1-4): on minus off")
	if *d.Values[0].Value != -0.02 || *d.Values[0].Met || d.Values[1].Value != nil {
		t.Errorf("on minus off: %+v %+v", d.Values[0], d.Values[1])
	}
	if p := find("Paraphrase evidence@10: on minus off"); *p.Values[0].Value != 0.25 || !*p.Values[0].Met {
		t.Errorf("paraphrase on minus off: %+v", p.Values[0])
	}
	if l := find("LoCoMo recall_all@10, categories"); *l.Baseline != 0.5 || *l.Values[1].Value != 0.72 || !*l.Values[1].Met {
		t.Errorf("locomo: %+v", l)
	}
	md := markdown(r)
	for _, want := range []string{"| target | on | off |", "**5.000 ✗**", "4.000"} {
		_ = want
	}
	if !strings.Contains(md, "| CPU ms per search, graphmem + Neo4j (8 clients) | 5.000 ✓ | **4.000 ✗** |") {
		t.Errorf("markdown targets:\n%s", md)
	}
}

// TestChatSets: the assistant-chat files are two sets, split by file, and
// only those asked for run.
func TestChatSets(t *testing.T) {
	a, b := []kuScenario{{ID: "fa-001"}}, []kuScenario{{ID: "fb-001"}, {ID: "fb-002"}}
	all := chatSets(a, b, nil)
	if len(all) != 2 || all[0].Name != kuChatsDev || len(all[0].Scen) != 1 || all[1].Name != kuChatsHeldOut || len(all[1].Scen) != 2 {
		t.Fatalf("chatSets = %+v", all)
	}
	if only := chatSets(a, b, []string{kuVisible, kuChatsHeldOut}); len(only) != 1 || only[0].Name != kuChatsHeldOut {
		t.Fatalf("held-out only = %+v", only)
	}
}

// TestBlindSets: the blind chat scenarios are split by dataset.Half, and
// only the sets asked for run.
func TestBlindSets(t *testing.T) {
	var scen []kuScenario
	for i := range 40 {
		scen = append(scen, kuScenario{ID: fmt.Sprintf("g-%03d", i+1)})
	}
	all := blindSets(scen, nil)
	if len(all) != 2 || all[0].Name != kuBlindDev || all[1].Name != kuBlindHeldOut || len(all[0].Scen)+len(all[1].Scen) != len(scen) {
		t.Fatalf("blindSets = %d sets", len(all))
	}
	for _, set := range all {
		if len(set.Scen) == 0 {
			t.Fatalf("%s is empty", set.Name)
		}
		for _, s := range set.Scen {
			if h := dataset.Half(s.ID); (h == dataset.Dev) != (set.Name == kuBlindDev) {
				t.Errorf("%s in %s, Half says %s", s.ID, set.Name, h)
			}
		}
	}
	if only := blindSets(scen, []string{kuChatsDev, kuBlindHeldOut}); len(only) != 1 || only[0].Name != kuBlindHeldOut {
		t.Fatalf("held-out only = %+v", only)
	}
}

// TestChatFiles: the chat flags list files joined by "+" within
// comma-separated lists.
func TestChatFiles(t *testing.T) {
	got := chatFiles("a.jsonl+c.jsonl, b.jsonl")
	if want := []string{"a.jsonl", "c.jsonl", "b.jsonl"}; !slices.Equal(got, want) {
		t.Fatalf("chatFiles = %q, want %q", got, want)
	}
}

// TestLoadChats: each of the two chat sets may join several files with
// "+"; any other shape of the flag is refused.
func TestLoadChats(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, ids ...string) string {
		t.Helper()
		var b strings.Builder
		for _, id := range ids {
			fmt.Fprintf(&b, `{"id": %q, "user_id": "u-%s", "sessions": [], "checks": []}`+"\n", id, id)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, c, b := write("a.jsonl", "a1", "a2"), write("c.jsonl", "c1"), write("b.jsonl", "b1")
	dev, held, err := loadChats(a + "+" + c + "," + b)
	if err != nil || len(dev) != 3 || len(held) != 1 || dev[2].ID != "c1" || held[0].ID != "b1" {
		t.Fatalf("loadChats = %v, %v, %v", dev, held, err)
	}
	if _, _, err := loadChats(a); err == nil {
		t.Fatal("one set accepted, want dev and held-out")
	}
	if _, _, err := loadChats(a + "," + filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Fatal("a missing file accepted")
	}
}
