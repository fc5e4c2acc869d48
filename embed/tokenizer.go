package embed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ErrUnsupportedTokenizer means a tokenizer file describes something other
// than a BERT WordPiece tokenizer (SentencePiece, BPE, Unigram): the model it
// belongs to cannot run here, and guessing would give silently wrong vectors.
var ErrUnsupportedTokenizer = errors.New("unsupported tokenizer")

// Tokenizer is BERT's WordPiece tokenizer, as the Hugging Face tokenizers
// library runs it for the sentence-transformers models: normalization
// (control characters dropped, white space unified, CJK characters split
// apart, accents stripped and lower-casing for uncased vocabularies), a split
// on white space and punctuation, then greedy longest-match-first WordPiece
// with "##" continuations, framed by [CLS] and [SEP]. The vectors a model
// gives are only as right as the ids it is fed, so every rule here follows
// that library; the tests compare ids with it on real conversational text.
//
// A Tokenizer is immutable after loading and safe for concurrent use.
type Tokenizer struct {
	vocab          map[string]int32
	unk, cls, sep  int32
	pad            int32
	prefix         string // continuing-subword prefix, "##"
	maxWordChars   int    // longer words become [UNK] whole
	cleanText      bool
	chineseChars   bool
	stripAccents   bool
	lowercase      bool
	specials       []special // added tokens matched verbatim in the input
	specialLeading byte      // first byte shared by every special token (0: none shared)
}

// special is an added token (such as "[MASK]") that the input may contain
// verbatim; it maps to its id without normalization or splitting, as in the
// reference library.
type special struct {
	content string
	id      int32
}

// LoadTokenizer reads a tokenizer.json (the Hugging Face tokenizers format,
// which carries the vocabulary and the normalization flags) or a plain BERT
// vocab.txt (one token per line, ids by line number, read as uncased BERT:
// lower-cased, accents stripped). Only WordPiece tokenizers load; others fail
// with ErrUnsupportedTokenizer.
func LoadTokenizer(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tokenizer: %w", err)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		tok, err := parseTokenizerJSON(data)
		if err != nil {
			return nil, fmt.Errorf("tokenizer %s: %w", path, err)
		}
		return tok, nil
	}
	tok, err := parseVocabTxt(data)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	return tok, nil
}

// tokenizerJSON is the part of tokenizer.json a WordPiece tokenizer needs.
type tokenizerJSON struct {
	AddedTokens []struct {
		ID         int32  `json:"id"`
		Content    string `json:"content"`
		Special    bool   `json:"special"`
		Normalized bool   `json:"normalized"`
	} `json:"added_tokens"`
	Normalizer *struct {
		Type               string `json:"type"`
		CleanText          bool   `json:"clean_text"`
		HandleChineseChars bool   `json:"handle_chinese_chars"`
		StripAccents       *bool  `json:"strip_accents"`
		Lowercase          bool   `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type                    string          `json:"type"`
		UnkToken                string          `json:"unk_token"`
		ContinuingSubwordPrefix string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int             `json:"max_input_chars_per_word"`
		Vocab                   json.RawMessage `json:"vocab"` // read once the type is known
	} `json:"model"`
}

func parseTokenizerJSON(data []byte) (*Tokenizer, error) {
	var tj tokenizerJSON
	if err := json.Unmarshal(data, &tj); err != nil {
		return nil, fmt.Errorf("parse tokenizer.json: %w", err)
	}
	if tj.Model.Type != "WordPiece" {
		return nil, fmt.Errorf("%w: model type %q (only BERT WordPiece tokenizers are supported)", ErrUnsupportedTokenizer, tj.Model.Type)
	}
	var vocab map[string]int32
	if err := json.Unmarshal(tj.Model.Vocab, &vocab); err != nil {
		return nil, fmt.Errorf("%w: WordPiece vocabulary: %v", ErrUnsupportedTokenizer, err)
	}
	if tj.PreTokenizer != nil && tj.PreTokenizer.Type != "BertPreTokenizer" {
		return nil, fmt.Errorf("%w: pre-tokenizer %q (only BertPreTokenizer is supported)", ErrUnsupportedTokenizer, tj.PreTokenizer.Type)
	}
	t := &Tokenizer{
		prefix:       tj.Model.ContinuingSubwordPrefix,
		maxWordChars: tj.Model.MaxInputCharsPerWord,
		vocab:        vocab,
	}
	if n := tj.Normalizer; n != nil {
		if n.Type != "BertNormalizer" {
			return nil, fmt.Errorf("%w: normalizer %q (only BertNormalizer is supported)", ErrUnsupportedTokenizer, n.Type)
		}
		t.cleanText, t.chineseChars, t.lowercase = n.CleanText, n.HandleChineseChars, n.Lowercase
		// Unset, accents are stripped exactly when text is lower-cased.
		t.stripAccents = n.Lowercase
		if n.StripAccents != nil {
			t.stripAccents = *n.StripAccents
		}
	}
	for _, a := range tj.AddedTokens {
		if a.Special && !a.Normalized && a.Content != "" {
			t.specials = append(t.specials, special{content: a.Content, id: a.ID})
		}
	}
	unk := tj.Model.UnkToken
	if unk == "" {
		unk = "[UNK]"
	}
	if err := t.finish(unk); err != nil {
		return nil, err
	}
	return t, nil
}

// parseVocabTxt reads a BERT vocab.txt as the uncased BERT tokenizer.
func parseVocabTxt(data []byte) (*Tokenizer, error) {
	t := &Tokenizer{
		vocab:     map[string]int32{},
		cleanText: true, chineseChars: true, stripAccents: true, lowercase: true,
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for id := int32(0); sc.Scan(); id++ {
		tok := strings.TrimRight(sc.Text(), "\r")
		if _, dup := t.vocab[tok]; !dup {
			t.vocab[tok] = id
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read vocab.txt: %w", err)
	}
	for _, s := range []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"} {
		if id, ok := t.vocab[s]; ok {
			t.specials = append(t.specials, special{content: s, id: id})
		}
	}
	if err := t.finish("[UNK]"); err != nil {
		return nil, err
	}
	return t, nil
}

// finish checks the special tokens and fills the defaults both formats share.
func (t *Tokenizer) finish(unk string) error {
	if len(t.vocab) == 0 {
		return fmt.Errorf("%w: empty vocabulary", ErrUnsupportedTokenizer)
	}
	if t.prefix == "" {
		t.prefix = "##"
	}
	if t.maxWordChars <= 0 {
		t.maxWordChars = 100
	}
	var ok bool
	for _, s := range []struct {
		name string
		dst  *int32
	}{{unk, &t.unk}, {"[CLS]", &t.cls}, {"[SEP]", &t.sep}, {"[PAD]", &t.pad}} {
		if *s.dst, ok = t.vocab[s.name]; !ok {
			return fmt.Errorf("%w: the vocabulary has no %s token", ErrUnsupportedTokenizer, s.name)
		}
	}
	// Special tokens are looked for only where their shared first byte
	// ('[' in BERT vocabularies) occurs, which keeps the common case a
	// single IndexByte.
	for i, s := range t.specials {
		if i == 0 {
			t.specialLeading = s.content[0]
		} else if s.content[0] != t.specialLeading {
			t.specialLeading = 0
		}
	}
	return nil
}

// VocabSize is the number of entries in the vocabulary.
func (t *Tokenizer) VocabSize() int { return len(t.vocab) }

// PadID is the id of [PAD], which fills a batch's shorter rows.
func (t *Tokenizer) PadID() int32 { return t.pad }

// Encode returns the ids of text framed by [CLS] and [SEP], cut to at most
// maxTokens ids in all (the word pieces past maxTokens-2 are dropped, as the
// reference truncates a single sequence). maxTokens below 2 means no limit.
func (t *Tokenizer) Encode(text string, maxTokens int) []int32 {
	ids := make([]int32, 0, len(text)/4+2)
	ids = append(ids, t.cls)
	limit := -1
	if maxTokens >= 2 {
		limit = maxTokens - 1 // room for [SEP]
	}
	full := func() bool { return limit >= 0 && len(ids) >= limit }
	rest := text
	for rest != "" && !full() {
		seg, sp, tail := t.nextSpecial(rest)
		ids = t.appendSegment(ids, seg, limit)
		if sp != nil && !full() {
			ids = append(ids, sp.id)
		}
		rest = tail
	}
	if limit >= 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	return append(ids, t.sep)
}

// nextSpecial splits s at its first special token: the text before it, the
// token (nil when there is none) and the text after it.
func (t *Tokenizer) nextSpecial(s string) (string, *special, string) {
	if len(t.specials) == 0 {
		return s, nil, ""
	}
	from := 0
	for {
		i := -1
		if t.specialLeading != 0 {
			j := strings.IndexByte(s[from:], t.specialLeading)
			if j < 0 {
				return s, nil, ""
			}
			i = from + j
		}
		if i < 0 { // no shared first byte: try every position
			for k := from; k < len(s); k++ {
				if sp := t.specialAt(s, k); sp != nil {
					return s[:k], sp, s[k+len(sp.content):]
				}
			}
			return s, nil, ""
		}
		if sp := t.specialAt(s, i); sp != nil {
			return s[:i], sp, s[i+len(sp.content):]
		}
		from = i + 1
	}
}

// specialAt returns the longest special token that starts at s[i:].
func (t *Tokenizer) specialAt(s string, i int) *special {
	var best *special
	for k := range t.specials {
		sp := &t.specials[k]
		if strings.HasPrefix(s[i:], sp.content) && (best == nil || len(sp.content) > len(best.content)) {
			best = sp
		}
	}
	return best
}

// appendSegment normalizes a stretch of text with no special token, splits
// it into words and punctuation, and appends their word pieces, stopping
// once ids holds limit entries (limit < 0: no limit).
func (t *Tokenizer) appendSegment(ids []int32, seg string, limit int) []int32 {
	if seg == "" {
		return ids
	}
	norm := t.normalize(seg)
	start := -1 // byte offset of the word being read, -1 between words
	flush := func(end int) {
		if start >= 0 {
			ids = t.appendWord(ids, norm[start:end])
			start = -1
		}
	}
	for i, r := range norm {
		if limit >= 0 && len(ids) >= limit {
			return ids
		}
		switch {
		case unicode.IsSpace(r):
			flush(i)
		case isBertPunct(r):
			flush(i)
			ids = t.appendWord(ids, norm[i:i+utf8.RuneLen(r)])
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(norm))
	return ids
}

// normalize applies BertNormalizer's steps in its order: clean, pad CJK
// characters with spaces, strip accents (NFD, drop non-spacing marks), lower.
func (t *Tokenizer) normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if t.cleanText {
			if r == 0 || r == utf8.RuneError || isBertControl(r) {
				continue
			}
			if isBertSpace(r) {
				r = ' '
			}
		}
		if t.chineseChars && isCJK(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	if t.stripAccents {
		out = stripMarks(out)
	}
	if t.lowercase {
		out = lower(out)
	}
	return out
}

// stripMarks decomposes s (NFD) and drops the non-spacing marks (category
// Mn): "café" becomes "cafe".
func stripMarks(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lower maps each character to its lower case as the reference does (per
// character, without context). U+0130 is the one character whose lower case
// is two characters ("i" and a combining dot).
func lower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 'İ' {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// appendWord appends the word pieces of one word: the longest vocabulary
// entry that starts the word, then the longest "##" entry that continues it,
// and so on; a word that cannot be covered, or is longer than maxWordChars
// characters, is [UNK] whole.
func (t *Tokenizer) appendWord(ids []int32, word string) []int32 {
	if utf8.RuneCountInString(word) > t.maxWordChars {
		return append(ids, t.unk)
	}
	if id, ok := t.vocab[word]; ok {
		return append(ids, id)
	}
	mark := len(ids)
	var buf []byte
	for start := 0; start < len(word); {
		end := len(word)
		found := int32(-1)
		for end > start {
			piece := word[start:end]
			if start > 0 {
				buf = append(append(buf[:0], t.prefix...), piece...)
				piece = string(buf) // map lookup with string(bytes) does not allocate
			}
			if id, ok := t.vocab[piece]; ok {
				found = id
				break
			}
			// step back one whole character
			_, size := utf8.DecodeLastRuneInString(word[start:end])
			end -= size
		}
		if found < 0 {
			return append(ids[:mark], t.unk)
		}
		ids = append(ids, found)
		start = end
	}
	return ids
}

// isBertSpace is the reference's white space: tab, newline, carriage return
// and Unicode's White_Space characters.
func isBertSpace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r)
}

// isBertControl is the reference's "other" category (Cc, Cf, Co, Cs and
// unassigned code points), except tab, newline and carriage return, which
// count as white space.
func isBertControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || !assigned(r)
}

// assigned reports whether r has a general category other than Cn.
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// isBertPunct is ASCII punctuation (which includes symbols such as $ + < = >
// ^ ` | ~) or any Unicode punctuation (categories Pc Pd Pe Pf Pi Po Ps).
func isBertPunct(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 33 && r <= 47 || r >= 58 && r <= 64 || r >= 91 && r <= 96 || r >= 123 && r <= 126
	}
	return unicode.IsPunct(r)
}

// isCJK reports the CJK Unified Ideographs blocks BERT treats as one word
// each (not Japanese kana or Korean Hangul, which BERT splits like any text).
func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF ||
		r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F ||
		r >= 0x2B920 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF ||
		r >= 0x2F800 && r <= 0x2FA1F
}
