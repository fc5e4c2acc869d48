package nlp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a piece of a text with its byte offsets.
type Span struct {
	Text  string
	Start int
	End   int
}

// abbreviations never end a sentence when followed by a capitalized word
// ("Dr. Smith", "St. Louis"); the titles among them never end one at all.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true,
	"sr": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "inc": true, "ltd": true,
	"co": true, "corp": true, "mt": true, "ft": true, "no": true, "approx": true, "dept": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "u.s": true, "u.k": true,
	"a.m": true, "p.m": true, "fig": true, "gen": true, "sen": true, "rep": true, "gov": true,
}

var titles = map[string]bool{"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "mt": true}

// SplitSentences splits text into sentences. A sentence ends at ".", "!",
// "?", "…" or an emoji followed by a space and a word that can start a sentence, and
// at every line break (chat messages use lines as separate statements).
// Abbreviations ("Dr.", "e.g.", "Acme Corp. is") and decimals do not split.
func SplitSentences(text string) []Span {
	var out []Span
	start := 0
	emit := func(end int) {
		seg := text[start:end]
		trimmed := strings.TrimSpace(seg)
		if trimmed != "" && strings.IndexFunc(trimmed, func(r rune) bool {
			return unicode.IsLetter(r) || unicode.IsDigit(r)
		}) >= 0 {
			off := start + strings.Index(seg, trimmed)
			out = append(out, Span{Text: trimmed, Start: off, End: off + len(trimmed)})
		}
		start = end
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '\n' {
			emit(i)
			i += size
			start = i
			continue
		}
		if !isTerminal(r) && !IsEmoji(r) {
			i += size
			continue
		}
		j := i + size
		for j < len(text) {
			r2, s2 := utf8.DecodeRuneInString(text[j:])
			if !isTerminal(r2) && !IsEmoji(r2) && !emojiJoiner(r2) && r2 != '"' && r2 != '”' && r2 != '\'' && r2 != '’' && r2 != ')' {
				break
			}
			j += s2
		}
		if j >= len(text) {
			i = j
			break
		}
		next, _ := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsSpace(next) {
			i = j
			continue
		}
		if r == '.' && !splitsAfterPeriod(text, i, j) {
			i = j
			continue
		}
		emit(j)
		i = j
	}
	emit(len(text))
	return out
}

// IsEmoji reports whether r is a pictograph ("🎉", "😭", "❤"). In chat an
// emoji followed by a space ends a sentence as a full stop does: "Week one
// at Quillmark is in the books 🎉 can you help me write a hello?" states,
// then asks.
func IsEmoji(r rune) bool {
	return r > 0x2000 && unicode.Is(unicode.So, r)
}

// emojiJoiner reports whether r continues an emoji: a variation selector,
// a zero-width joiner or a skin tone.
func emojiJoiner(r rune) bool {
	return r == 0xFE0F || r == 0x200D || r >= 0x1F3FB && r <= 0x1F3FF
}

// splitsAfterPeriod decides whether the period at i ends a sentence: not
// after a title, and after another abbreviation only when the next word is
// capitalized.
func splitsAfterPeriod(text string, i, j int) bool {
	k := i
	for k > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:k])
		if unicode.IsSpace(r) || r == '(' || r == '"' {
			break
		}
		k -= size
	}
	word := Fold(text[k:i])
	if titles[word] {
		return false
	}
	rest := strings.TrimLeftFunc(text[j:], unicode.IsSpace)
	nr, _ := utf8.DecodeRuneInString(rest)
	switch {
	case word == "e.g" || word == "i.e":
		return false
	case utf8.RuneCountInString(word) == 1 && unicode.IsUpper(firstRune(text[k:i])):
		return false // an initial: "J. Smith"
	case abbreviations[word]:
		return unicode.IsUpper(nr)
	}
	return true
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
