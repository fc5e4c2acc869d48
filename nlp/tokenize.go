package nlp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenKind classifies a token.
type TokenKind uint8

// Token kinds.
const (
	Word   TokenKind = iota // letters, possibly with inner apostrophes, hyphens or dots ("don't", "self-care", "U.S.")
	Number                  // starts with a digit ("2023", "2,000", "3.5", "8th", "3pm")
	Punct                   // sentence and clause punctuation (. , ; : ! ? quotes, brackets, dashes)
	Symbol                  // anything else that is not a space (€, $, +, &, emoji)
)

// Token is one token with its byte offsets in the original text, so callers
// can map matches back to the exact characters the speaker wrote.
type Token struct {
	Text  string
	Start int // byte offset of the first byte
	End   int // byte offset after the last byte
	Kind  TokenKind
}

// Lower returns the token folded for matching: lower case, diacritics
// removed, typographic apostrophes turned into ASCII ones.
func (t Token) Lower() string { return Fold(t.Text) }

// IsCapitalized reports whether the token starts with an upper-case letter.
func (t Token) IsCapitalized() bool {
	r, _ := utf8.DecodeRuneInString(t.Text)
	return unicode.IsUpper(r)
}

// Tokenize splits text into tokens. Apostrophes inside words stay in the
// word ("don't", "Emma's") so contractions can be expanded by the caller
// with full knowledge of the word; digits keep their separators ("2,000",
// "3.5") and trailing letters ("8th", "3pm").
func Tokenize(text string) []Token {
	toks := make([]Token, 0, len(text)/4+1)
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case unicode.IsDigit(r):
			end := scanNumber(text, i)
			toks = append(toks, Token{Text: text[i:end], Start: i, End: end, Kind: Number})
			i = end
		case isWordRune(r):
			end := scanWord(text, i)
			toks = append(toks, Token{Text: text[i:end], Start: i, End: end, Kind: Word})
			i = end
		case isPunct(r):
			end := i + size
			// Runs of the same terminal punctuation ("...", "!!", "?!") are one token.
			for end < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[end:])
				if !(isTerminal(r) && isTerminal(r2)) {
					break
				}
				end += s2
			}
			toks = append(toks, Token{Text: text[i:end], Start: i, End: end, Kind: Punct})
			i = end
		default:
			toks = append(toks, Token{Text: text[i : i+size], Start: i, End: i + size, Kind: Symbol})
			i += size
		}
	}
	return toks
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) }

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' }

func isTerminal(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

func isPunct(r rune) bool {
	switch r {
	case '.', ',', ';', ':', '!', '?', '…', '"', '“', '”', '‘', '\'', '’', '(', ')', '[', ']', '{', '}',
		'-', '–', '—', '/', '«', '»':
		return true
	}
	return false
}

// scanWord consumes letters, digits and inner joiners (apostrophe, hyphen,
// period between letters as in "U.S." or "e.g.").
func scanWord(text string, i int) int {
	end := i
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if isWordRune(r) || unicode.IsDigit(r) {
			end += size
			continue
		}
		if isApostrophe(r) || r == '-' || r == '.' || r == '&' {
			next, _ := utf8.DecodeRuneInString(text[end+size:])
			if end+size < len(text) && isWordRune(next) {
				// A period joins only single letters ("U.S", "e.g"), never
				// two words ("end.Next" stays two tokens).
				if r == '.' && !singleLetterBefore(text, i, end) {
					return end
				}
				end += size
				continue
			}
			// Keep the final period of an initialism ("U.S.") in the word.
			if r == '.' && singleLetterBefore(text, i, end) && strings.Contains(text[i:end], ".") {
				end += size
			}
			return end
		}
		return end
	}
	return end
}

// singleLetterBefore reports whether the word segment that ends at end is a
// single letter (the "S" of "U.S").
func singleLetterBefore(text string, start, end int) bool {
	seg := text[start:end]
	if k := strings.LastIndexAny(seg, ".-'’"); k >= 0 {
		seg = seg[k+1:]
	}
	return utf8.RuneCountInString(seg) == 1
}

// scanNumber consumes digits with inner separators ("2,000", "3.5",
// "2023-05-08", "05/08/2023", "10:30") and trailing letters ("8th", "3pm").
func scanNumber(text string, i int) int {
	end := i
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if unicode.IsDigit(r) {
			end += size
			continue
		}
		if r == ',' || r == '.' || r == '-' || r == '/' || r == ':' {
			if end+1 < len(text) && text[end+1] >= '0' && text[end+1] <= '9' {
				end += size
				continue
			}
		}
		break
	}
	// Ordinal and unit suffixes stay attached: 8th, 3pm, 2k, 30s.
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsLetter(r) {
			break
		}
		end += size
	}
	return end
}

// Words returns the folded word and number tokens of text, in order.
func Words(text string) []string {
	toks := Tokenize(text)
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.Kind == Word || t.Kind == Number {
			out = append(out, t.Lower())
		}
	}
	return out
}

// Terms returns the search keys of text: folded words without stopwords,
// stemmed, with possessive "'s" removed. It is what BM25 indexes and what a
// query is reduced to, so both sides must call it.
func Terms(text string) []string {
	toks := Tokenize(text)
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.Kind != Word && t.Kind != Number {
			continue
		}
		w := t.Lower()
		w = strings.TrimSuffix(w, "'s")
		if w == "" || IsStopword(w) {
			continue
		}
		if t.Kind == Word {
			w = Stem(w)
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}
