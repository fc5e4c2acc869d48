package dataset

import (
	"path/filepath"
	"testing"
)

func TestLoadTheProjectsOwnSetAndSplitIt(t *testing.T) {
	scen, err := LoadScenarios(filepath.Join("..", "data", "ku-own.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scen) < 100 {
		t.Fatalf("%d scenarios, want at least 100", len(scen))
	}
	halves := map[string]int{}
	for _, s := range scen {
		if s.ID == "" || s.UserID == "" || s.Kind == "" || len(s.Sessions) == 0 || len(s.Checks) == 0 {
			t.Fatalf("incomplete scenario %+v", s)
		}
		for _, sess := range s.Sessions {
			if sess.At.IsZero() {
				t.Fatalf("%s: a session without a time", s.ID)
			}
		}
		halves[Half(s.ID)]++
	}
	// A fair split: each half holds between a third and two thirds.
	if d := halves[Dev]; d < len(scen)/3 || d > 2*len(scen)/3 || halves[Dev]+halves[HeldOut] != len(scen) {
		t.Fatalf("split %v of %d", halves, len(scen))
	}
	if Half("ku-own-001") != Half("ku-own-001") {
		t.Fatal("the split must be stable")
	}
}

func TestLoadReportsTheBadLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.jsonl")
	if err := writeFile(path, "{\"id\":\"a\"}\n\n{not json\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadScenarios(path); err == nil || !contains(err.Error(), "bad.jsonl:3") {
		t.Fatalf("error %v, want one naming line 3", err)
	}
}

func TestContainsAnyFold(t *testing.T) {
	if !ContainsAnyFold("Lives in BERLIN", []string{"", "berlin"}) || ContainsAnyFold("Paris", []string{"", "Lyon"}) {
		t.Fatal("case-insensitive containment")
	}
}
