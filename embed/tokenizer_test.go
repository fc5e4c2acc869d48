package embed

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testVocab is a tiny BERT vocabulary; ids are line numbers.
var testVocab = []string{
	"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", // 0-4
	"i", "live", "in", "paris", "cafe", // 5-9
	"un", "##aff", "##able", ",", "!", // 10-14
	"北", "京", "$", "5", ".", // 15-19
	"99", "ss", "##ss", "istanbul", "i̇stanbul", // 20-24
	"a", "##b", "##c", "ab", // 25-28
}

func testTokenizer(t *testing.T) *Tokenizer {
	t.Helper()
	tok, err := parseVocabTxt([]byte(strings.Join(testVocab, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestEncode(t *testing.T) {
	tok := testTokenizer(t)
	cases := []struct {
		name string
		text string
		max  int
		want []int32
	}{
		{"framed by CLS and SEP", "", 0, []int32{2, 3}},
		{"lower-cased words", "I live in PARIS", 0, []int32{2, 5, 6, 7, 8, 3}},
		{"accents stripped", "Café", 0, []int32{2, 9, 3}},
		{"decomposed accents stripped", "Cafe\u0301", 0, []int32{2, 9, 3}},
		{"punctuation split off", "paris,paris!", 0, []int32{2, 8, 13, 8, 14, 3}},
		{"ASCII symbols count as punctuation", "$5.99", 0, []int32{2, 17, 18, 19, 20, 3}},
		{"longest match first, then ## pieces", "unaffable", 0, []int32{2, 10, 11, 12, 3}},
		{"greedy: ab then ##c, not a ##b ##c", "abc", 0, []int32{2, 28, 27, 3}},
		{"a word that cannot be covered is UNK whole", "unaffablex live", 0, []int32{2, 1, 6, 3}},
		{"CJK characters are words of their own", "北京paris", 0, []int32{2, 15, 16, 8, 3}},
		{"control and zero-width format characters dropped", "pa\u200bris\u0007", 0, []int32{2, 8, 3}},
		{"any white space separates", "live\u00a0in\tparis\n", 0, []int32{2, 6, 7, 8, 3}},
		{"special tokens are kept verbatim", "live [MASK] paris", 0, []int32{2, 6, 4, 8, 3}},
		{"special tokens are case-sensitive", "[mask]", 0, []int32{2, 1, 1, 1, 3}},
		{"truncated to max tokens with SEP kept", "i live in paris", 4, []int32{2, 5, 6, 3}},
		{"truncation inside a word's pieces", "unaffable", 4, []int32{2, 10, 11, 3}},
		{"dotted capital I lowers to i with a dot, then loses the dot", "İstanbul", 0, []int32{2, 23, 3}},
		{"sharp s is kept (NFD does not split it)", "ß", 0, []int32{2, 1, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tok.Encode(c.text, c.max); !slices.Equal(got, c.want) {
				t.Errorf("Encode(%q, %d) = %v, want %v", c.text, c.max, got, c.want)
			}
		})
	}
}

func TestEncodeLongWordIsUnknown(t *testing.T) {
	tok := testTokenizer(t)
	// 101 characters all coverable by "a" + "##b"... is still one [UNK]:
	// words over 100 characters are not split.
	word := "a" + strings.Repeat("b", 100)
	if got := tok.Encode(word, 0); !slices.Equal(got, []int32{2, 1, 3}) {
		t.Errorf("101-character word: %v, want [2 1 3]", got)
	}
	word = "a" + strings.Repeat("b", 99)
	if got := tok.Encode(word, 0); len(got) != 101 || got[1] != 28 || got[2] != 26 {
		t.Errorf("100-character word: %v, want CLS, ab, 98 ##b, SEP", got)
	}
}

func TestLoadTokenizerRefusesOtherKinds(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"unigram.json": `{"model": {"type": "Unigram", "vocab": [["a", 0.0]]}}`,
		"bpe.json":     `{"model": {"type": "BPE", "vocab": {"a": 0}}}`,
		"metaspace.json": `{"pre_tokenizer": {"type": "Metaspace"},
			"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "[PAD]": 3}}}`,
		"no-cls.json": `{"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "[SEP]": 2, "[PAD]": 3}}}`,
	}
	for name, body := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadTokenizer(path); !errors.Is(err, ErrUnsupportedTokenizer) {
			t.Errorf("%s: got %v, want ErrUnsupportedTokenizer", name, err)
		}
	}
}

func TestLoadTokenizerJSONReadsNormalizer(t *testing.T) {
	// A cased vocabulary: no lower-casing, and accents kept because
	// strip_accents follows lowercase when unset.
	body := `{
	  "added_tokens": [{"id": 4, "content": "[MASK]", "special": true, "normalized": false}],
	  "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": false},
	  "pre_tokenizer": {"type": "BertPreTokenizer"},
	  "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
	            "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "Café": 5, "cafe": 6, "Paris": 7}}
	}`
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := LoadTokenizer(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tok.Encode("Café Paris [MASK] paris", 0), []int32{2, 5, 7, 4, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("cased tokenizer: %v, want %v", got, want)
	}
}

func BenchmarkTokenize(b *testing.B) {
	tok, err := parseVocabTxt([]byte(strings.Join(testVocab, "\n")))
	if err != nil {
		b.Fatal(err)
	}
	text := "Hey Caroline! Good to see you! I'm swamped with the kids & work. What's up with you? Anything new?"
	b.ReportAllocs()
	for b.Loop() {
		tok.Encode(text, 128)
	}
}
