package dataset

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// Scenario is one knowledge-update conversation: a user states something
// and later changes it (or, in a control, does not), then checks ask the
// public API what it believes.
type Scenario struct {
	ID       string    `json:"id"`
	UserID   string    `json:"user_id"`
	Kind     string    `json:"kind,omitempty"` // the project's own set names each scenario's kind
	Note     string    `json:"note,omitempty"`
	Sessions []Session `json:"sessions"`
	Checks   []Check   `json:"checks"`
}

// Session is one conversation of a scenario, at one time.
type Session struct {
	At     time.Time `json:"at"`
	Events []Event   `json:"events"`
}

// Event is one turn.
type Event struct {
	ID      string `json:"id,omitempty"`
	Role    string `json:"role"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
}

// Check types, as the dataset README defines them.
const (
	CheckSearchTop  = "search_top"
	CheckHistory    = "history"
	CheckPreference = "preference"
)

// Check is one question a scenario asks of the API.
type Check struct {
	Type     string   `json:"type"`
	Query    string   `json:"query,omitempty"`
	Expect   []string `json:"expect,omitempty"`
	Reject   []string `json:"reject,omitempty"`
	K        int      `json:"k,omitempty"`
	Object   string   `json:"object,omitempty"`
	Polarity string   `json:"polarity,omitempty"`
}

// LoadScenarios reads a JSON-lines file of scenarios; blank lines are
// skipped and a bad line is an error naming it.
func LoadScenarios(path string) ([]Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Scenario
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var s Scenario
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// Halves of the project's own scenario set.
const (
	Dev     = "dev"
	HeldOut = "held-out"
)

// Half says which half of the project's own set a scenario belongs to, by
// a fixed hash of its id: the split never depends on the content, so no
// one can move a scenario into the half they tune on. Ranking and rules
// are tuned on Dev only; HeldOut is reported beside it.
func Half(id string) string {
	if sum := sha256.Sum256([]byte(id)); sum[0]&1 == 0 {
		return Dev
	}
	return HeldOut
}

// ContainsAnyFold reports whether text contains any non-empty needle,
// ignoring case, as the checks match expected and rejected values.
func ContainsAnyFold(text string, needles []string) bool {
	t := strings.ToLower(text)
	for _, n := range needles {
		if n != "" && strings.Contains(t, strings.ToLower(n)) {
			return true
		}
	}
	return false
}
