package embed

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The verification tests compare the Go tokenizer and the local model with
// the reference implementation (Hugging Face tokenizers, sentence-transformers
// fp32) on the sentences of testdata/reference.jsonl, which
// bench/embedref/make_reference.py wrote. They need the files `make model`
// installs; `make test` runs that first and sets GRAPHMEM_TEST_MODEL_DIR, and
// then a missing file fails the tests. A plain `go test ./embed` without the
// files skips them, saying so.

const modelDirEnv = "GRAPHMEM_TEST_MODEL_DIR"

// modelDir is the folder with the fetched artifacts, or "" after a skip.
func modelDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv(modelDirEnv); dir != "" {
		if err := Verify(dir, mustArtifacts(t)); err != nil {
			t.Fatalf("%s=%s is set (make test), but: %v", modelDirEnv, dir, err)
		}
		return dir
	}
	dir := filepath.Join("..", DefaultDir)
	if err := Verify(dir, mustArtifacts(t)); err != nil {
		t.Skipf("the local model is not installed (%v); `make model` installs it and `make test` runs these tests", err)
	}
	return dir
}

// sharedDir is the datasets folder beside the repository (../shared).
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(dir); err != nil {
		msg := fmt.Sprintf("the reference sentences are read from %s (../shared beside the repository): %v", dir, err)
		if os.Getenv(modelDirEnv) != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

type refHeader struct {
	MaxTokens int `json:"max_tokens"`
	Dims      int `json:"dims"`
	Count     int `json:"count"`
}

type refSentence struct {
	Source    string  `json:"source"`
	TextSHA   string  `json:"text_sha"`
	NIDs      int     `json:"n_ids"`
	IDsSHA    string  `json:"ids_sha"`
	NIDsCut   int     `json:"n_ids_cut"`
	IDsCutSHA string  `json:"ids_cut_sha"`
	Text      *string `json:"text"`
	IDs       []int32 `json:"ids"`

	text string    // resolved
	emb  []float32 // reference vector
}

// loadReference reads the reference sentences and vectors and resolves the
// datasets' texts, checking each against its recorded hash.
func loadReference(t testing.TB) (refHeader, []refSentence) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "reference.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	var hdr refHeader
	var sents []refSentence
	for sc.Scan() {
		if hdr.Count == 0 {
			if err := json.Unmarshal(sc.Bytes(), &hdr); err != nil {
				t.Fatalf("reference header: %v", err)
			}
			continue
		}
		var s refSentence
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("reference line %d: %v", len(sents)+2, err)
		}
		sents = append(sents, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(sents) != hdr.Count || hdr.Count < 1000 {
		t.Fatalf("reference has %d sentences, header says %d (at least 1,000 expected)", len(sents), hdr.Count)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "reference.f16"))
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != hdr.Count*hdr.Dims*2 {
		t.Fatalf("reference.f16 has %d bytes, want %d", len(raw), hdr.Count*hdr.Dims*2)
	}
	texts := datasetTexts(t, sharedDir(t))
	for i := range sents {
		s := &sents[i]
		if s.Text != nil {
			s.text = *s.Text
		} else if s.text, err = texts.lookup(s.Source); err != nil {
			t.Fatalf("reference sentence %d: %v", i, err)
		}
		if got := shortSHA([]byte(s.text)); got != s.TextSHA {
			t.Fatalf("reference sentence %s: its text changed (sha %s, recorded %s); regenerate with bench/embedref/make_reference.py", s.Source, got, s.TextSHA)
		}
		s.emb = make([]float32, hdr.Dims)
		for d := range s.emb {
			s.emb[d] = float16to32(binary.LittleEndian.Uint16(raw[(i*hdr.Dims+d)*2:]))
		}
	}
	return hdr, sents
}

// datasetTexts indexes the shared datasets' texts by the reference's source
// names (see make_reference.py).
type datasetIndex map[string]string

func (d datasetIndex) lookup(source string) (string, error) {
	text, ok := d[source]
	if !ok {
		return "", fmt.Errorf("no text for %s in ../shared/datasets", source)
	}
	return text, nil
}

func datasetTexts(t testing.TB, dir string) datasetIndex {
	t.Helper()
	idx := datasetIndex{}
	raw, err := os.ReadFile(filepath.Join(dir, "locomo", "locomo-visible.json"))
	if err != nil {
		t.Fatal(err)
	}
	var locomo []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
		QA           []struct {
			Question string `json:"question"`
		} `json:"qa"`
	}
	if err := json.Unmarshal(raw, &locomo); err != nil {
		t.Fatal(err)
	}
	for _, conv := range locomo {
		for key, msg := range conv.Conversation {
			if _, err := strconv.Atoi(strings.TrimPrefix(key, "session_")); err != nil || !strings.HasPrefix(key, "session_") {
				continue
			}
			var turns []struct {
				DiaID string `json:"dia_id"`
				Text  string `json:"text"`
			}
			if err := json.Unmarshal(msg, &turns); err != nil {
				continue // the session_N_date_time strings
			}
			for _, turn := range turns {
				idx["locomo-turn:"+conv.SampleID+":"+turn.DiaID] = turn.Text
			}
		}
		for i, qa := range conv.QA {
			idx[fmt.Sprintf("locomo-question:%s:%d", conv.SampleID, i)] = qa.Question
		}
	}
	ku, err := os.Open(filepath.Join(dir, "knowledge-update", "visible.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer ku.Close()
	sc := bufio.NewScanner(ku)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	for sc.Scan() {
		var sc1 struct {
			ID       string `json:"id"`
			Sessions []struct {
				Events []struct {
					Content string `json:"content"`
				} `json:"events"`
			} `json:"sessions"`
			Checks []struct {
				Query string `json:"query"`
			} `json:"checks"`
		}
		if err := json.Unmarshal(sc.Bytes(), &sc1); err != nil {
			t.Fatal(err)
		}
		for si, s := range sc1.Sessions {
			for ei, e := range s.Events {
				idx[fmt.Sprintf("ku-event:%s:%d:%d", sc1.ID, si, ei)] = e.Content
			}
		}
		for ci, c := range sc1.Checks {
			if c.Query != "" {
				idx[fmt.Sprintf("ku-query:%s:%d", sc1.ID, ci)] = c.Query
			}
		}
	}
	return idx
}

func shortSHA(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// idsSHA hashes ids as little-endian int32, as make_reference.py does.
func idsSHA(ids []int32) string {
	b := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
	}
	return shortSHA(b)
}

// float16to32 decodes an IEEE 754 half-precision value.
func float16to32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal
		return float32(math.Ldexp(float64(frac), -24)) * float32(1-2*int(h>>15))
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

func mustArtifacts(t testing.TB) []Artifact {
	t.Helper()
	arts, err := artifactsHere()
	if err != nil {
		t.Skipf("%v", err)
	}
	return arts
}

// TestTokenizerMatchesReference: the Go tokenizer gives the reference
// tokenizer's ids, untruncated and cut to the model's 128, on every sentence.
func TestTokenizerMatchesReference(t *testing.T) {
	dir := modelDir(t)
	tok, err := LoadTokenizer(filepath.Join(dir, filepath.FromSlash(TokenizerFile)))
	if err != nil {
		t.Fatal(err)
	}
	hdr, sents := loadReference(t)
	bad := 0
	for _, s := range sents {
		ids := tok.Encode(s.text, 0)
		ok := len(ids) == s.NIDs && idsSHA(ids) == s.IDsSHA
		if s.NIDsCut > 0 {
			cut := tok.Encode(s.text, hdr.MaxTokens)
			ok = ok && len(cut) == s.NIDsCut && idsSHA(cut) == s.IDsCutSHA
		}
		if !ok {
			bad++
			if bad <= 10 {
				want := fmt.Sprintf("%d ids", s.NIDs)
				if s.IDs != nil {
					want = fmt.Sprint(s.IDs)
				}
				t.Errorf("%s %q:\n got  %v\n want %s", s.Source, clip(s.text, 120), ids, want)
			}
		}
	}
	t.Logf("tokenizer: %d of %d sentences give the reference ids", len(sents)-bad, len(sents))
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func artifactsHere() ([]Artifact, error) { return Artifacts(runtime.GOOS, runtime.GOARCH) }

func TestFloat16(t *testing.T) {
	for h, want := range map[uint16]float32{0x3c00: 1, 0xc000: -2, 0x3555: 0.33325195, 0x0001: 5.9604645e-08, 0x0000: 0, 0x7bff: 65504} {
		if got := float16to32(h); got != want {
			t.Errorf("float16 %#04x: %v, want %v", h, got, want)
		}
	}
}
