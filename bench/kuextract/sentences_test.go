package kuextract

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/bench/dataset"
	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/extract/offline"
	"github.com/graphmem/graphmem/ontology"
)

// sentenceFact is one fact a sentence of the corpus states (expect) or
// must not be read as stating (forbid). Subject "user" is the speaker,
// "user/<relation>" someone else; Predicate may list alternatives
// ("LIKES|HAS_FAVORITE"); Object is one keyword of the stored object;
// State is current, ended or negated.
type sentenceFact struct {
	Subject, Predicate, Object, State, Category string
}

type sentenceCase struct {
	ID, Kind, Text string
	Expect         []sentenceFact
	Forbid         []sentenceFact
}

// The sentence corpora (bench/data/sentences-*.jsonl) were written blind
// by two authors, each in one register (facts said in passing inside
// requests to an assistant; casual chat), with 30% controls; see
// bench/data/README.md. A sentence passes when every expected fact is
// read and no forbidden one is.
func TestSentenceExtraction(t *testing.T) {
	eng := offline.New(offline.Config{})
	at := time.Date(2024, 9, 14, 18, 30, 0, 0, time.UTC)
	pass := map[string]int{}
	total := map[string]int{}
	for _, file := range []string{"../data/sentences-a.jsonl", "../data/sentences-b.jsonl"} {
		for _, sc := range loadSentences(t, file) {
			res, err := eng.Extract(context.Background(), extract.Input{UserID: "u1",
				Events: []extract.Event{{ID: "e1", Role: "user", Kind: "message", Content: sc.Text, OccurredAt: at}}})
			if err != nil {
				t.Fatal(err)
			}
			half := dataset.Half(sc.ID)
			total[half]++
			why := judgeSentence(sc, res.Facts)
			if len(why) == 0 {
				pass[half]++
			} else if half == dataset.Dev && testing.Verbose() {
				t.Logf("FAIL %s [%s] %s: %s", sc.ID, sc.Kind, sc.Text, strings.Join(why, "; "))
			}
		}
	}
	t.Logf("sentences: dev %d/%d, held-out %d/%d", pass[dataset.Dev], total[dataset.Dev], pass[dataset.HeldOut], total[dataset.HeldOut])
	if total[dataset.Dev] == 0 || total[dataset.HeldOut] == 0 {
		t.Fatal("no sentences read")
	}
	if r := float64(pass[dataset.Dev]) / float64(total[dataset.Dev]); r < sentenceDevFloor {
		t.Errorf("dev half: %d/%d read, below its floor %.2f", pass[dataset.Dev], total[dataset.Dev], sentenceDevFloor)
	}
}

// sentenceDevFloor is what the engine reached on the dev half when the
// corpora were added, before any change for them; a change that
// loses ground fails here.
const sentenceDevFloor = 0.63 // 92/145 (61/145 before any change for the corpora)

func loadSentences(t *testing.T, path string) []sentenceCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sentenceCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c sentenceCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// judgeSentence returns why the facts miss the case (nil when they pass).
func judgeSentence(c sentenceCase, facts []extract.Fact) []string {
	var why []string
	for _, e := range c.Expect {
		found := supersededBy(e, facts)
		for _, f := range facts {
			found = found || factMatches(e, f)
		}
		if !found {
			why = append(why, fmt.Sprintf("missing %s -%s-> %s (%s)", e.Subject, e.Predicate, e.Object, e.State))
		}
	}
	for _, fb := range c.Forbid {
		for _, f := range facts {
			if subjectIs(fb.Subject, f) && predicateIn(fb.Predicate, f) && !endedFact(f) &&
				(fb.Object == "" || strings.Contains(foldNumber(f.Object), foldNumber(fb.Object))) {
				why = append(why, fmt.Sprintf("forbidden %s -%s-> %s", f.Subject, f.Predicate, f.Object))
			}
		}
	}
	return why
}

// subjectIs: "user" is the speaker (an appointment is the speaker's
// occasion, "user/dentist appointment"); any other subject is someone else.
func subjectIs(want string, f extract.Fact) bool {
	if want == "" || want == "user" {
		return f.Subject == "user" || f.Predicate == "SCHEDULED_ON" && strings.HasPrefix(f.Subject, "user/")
	}
	return f.Subject != "user"
}

func predicateIn(want string, f extract.Fact) bool {
	for _, p := range strings.Split(want, "|") {
		if strings.TrimSpace(p) == f.Predicate {
			return true
		}
	}
	return false
}

func foldNumber(s string) string { return strings.ToLower(strings.ReplaceAll(s, ",", "")) }

// objectSays: the keyword is in the object, its qualifier or its sentence.
func objectSays(want string, f extract.Fact) bool {
	w := foldNumber(want)
	return w == "" || strings.Contains(foldNumber(f.Object), w) || strings.Contains(foldNumber(f.Qualifier), w) ||
		strings.Contains(foldNumber(f.Sentence), w)
}

func endedFact(f extract.Fact) bool { return f.ValidTo != nil || f.Polarity == ontology.Negative }

func factMatches(e sentenceFact, f extract.Fact) bool {
	if !subjectIs(e.Subject, f) || !predicateIn(e.Predicate, f) || !objectSays(e.Object, f) {
		return false
	}
	if e.State == "ended" || e.State == "negated" {
		return endedFact(f)
	}
	return !endedFact(f)
}

// supersededBy: an ended value of a one-value slot is implied by a new
// current value of the slot (the knowledge policy closes the old one).
func supersededBy(e sentenceFact, facts []extract.Fact) bool {
	if e.State != "ended" {
		return false
	}
	for _, p := range strings.Split(e.Predicate, "|") {
		pd, ok := ontology.Lookup(strings.TrimSpace(p))
		if !ok || !pd.Exclusive() {
			continue
		}
		for _, f := range facts {
			if f.Predicate == pd.Name && subjectIs(e.Subject, f) && !endedFact(f) && !objectSays(e.Object, f) {
				return true
			}
		}
	}
	return false
}
