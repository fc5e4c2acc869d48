package nlp

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold lower-cases s, removes diacritics ("Zoë" → "zoe", "São Paulo" →
// "sao paulo") and turns typographic apostrophes into ASCII ones. Keys built
// from folded text match however the speaker typed the name.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == '’' || r == 'ʼ' || r == '‘':
			b.WriteByte('\'')
		default:
			if sub, ok := foldSpecial[r]; ok {
				b.WriteString(sub)
				continue
			}
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// foldSpecial covers letters that Unicode does not decompose into a base
// letter plus a mark.
var foldSpecial = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
	'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'þ': "th", 'ı': "i",
}

// leadingArticles are dropped from the front of a name so that "the
// Netherlands", "my dog" and "a Tesla" key the same as their bare form.
var leadingArticles = map[string]bool{
	"the": true, "a": true, "an": true, "my": true, "our": true, "your": true,
	"his": true, "her": true, "their": true, "its": true, "this": true, "that": true,
	"these": true, "those": true, "some": true,
}

// NormalizeName is the key of an entity name: folded, punctuation removed,
// leading articles and possessives dropped, the last word singularized,
// spaces collapsed. "The Green Teas" and "green tea" share the key
// "green tea"; "Acme Corp." and "acme corp" share "acme corp".
func NormalizeName(s string) string {
	words := make([]string, 0, 4)
	for _, t := range Tokenize(s) {
		if t.Kind != Word && t.Kind != Number {
			continue
		}
		w := t.Lower()
		w = strings.TrimSuffix(w, "'s")
		w = strings.Map(func(r rune) rune {
			if r == '.' || r == '\'' {
				return -1
			}
			return r
		}, w)
		if w == "" {
			continue
		}
		words = append(words, w)
	}
	for len(words) > 1 && leadingArticles[words[0]] {
		words = words[1:]
	}
	if len(words) == 0 {
		return ""
	}
	last := len(words) - 1
	words[last] = Singular(words[last])
	return strings.Join(words, " ")
}

// irregularPlurals maps irregular plural nouns to their singular.
var irregularPlurals = map[string]string{
	"children": "child", "people": "person", "men": "man", "women": "woman", "mice": "mouse",
	"geese": "goose", "teeth": "tooth", "feet": "foot", "kids": "kid", "wives": "wife",
	"knives": "knife", "wolves": "wolf", "halves": "half",
	"shelves": "shelf", "loaves": "loaf", "calves": "calf", "selves": "self", "thieves": "thief",
	"potatoes": "potato", "tomatoes": "tomato", "heroes": "hero", "echoes": "echo",
	"cacti": "cactus", "fungi": "fungus", "data": "data", "criteria": "criterion",
	"phenomena": "phenomenon", "indices": "index", "matrices": "matrix", "oxen": "ox",
	"dice": "die", "cookies": "cookie", "movies": "movie", "pies": "pie", "ties": "tie",
	"lies": "lie", "brownies": "brownie", "zombies": "zombie", "hippies": "hippie",
	"calories": "calorie", "smoothies": "smoothie", "selfies": "selfie", "rookies": "rookie",
	"veggies": "veggie", "goodies": "goodie", "aunties": "auntie", "besties": "bestie",
	"species": "species", "series": "series", "news": "news", "sheep": "sheep", "fish": "fish",
	"deer": "deer", "police": "police", "clothes": "clothes", "glasses": "glasses",
	"jeans": "jeans", "pants": "pants", "shorts": "shorts", "scissors": "scissors",
	"headphones": "headphones", "earphones": "earphones", "sunglasses": "sunglasses",
	"chess": "chess", "diabetes": "diabetes", "physics": "physics", "mathematics": "mathematics",
	"economics": "economics", "politics": "politics", "athletics": "athletics", "gymnastics": "gymnastics",
	"aerobics": "aerobics", "pilates": "pilates", "paris": "paris", "texas": "texas",
	"athens": "athens", "brussels": "brussels", "wales": "wales", "netherlands": "netherlands",
	"philippines": "philippines", "bahamas": "bahamas", "olympics": "olympics", "les": "les",
	"los": "los", "as": "as", "us": "us", "yes": "yes", "this": "this", "his": "his", "is": "is",
	"was": "was", "has": "has", "does": "does", "always": "always", "perhaps": "perhaps",
	// -us nouns, whose plural ends like "houses" and "causes" (-use + s)
	"buses": "bus", "bonuses": "bonus", "viruses": "virus", "campuses": "campus", "circuses": "circus",
	"choruses": "chorus", "geniuses": "genius", "walruses": "walrus", "cactuses": "cactus",
	"syllabuses": "syllabus", "censuses": "census", "statuses": "status", "octopuses": "octopus",
	"minibuses": "minibus", "gases": "gas", "atlases": "atlas", "canvases": "canvas",
}

// Singular returns a best-effort singular of an English noun given in lower
// case. It handles the regular rules and a table of irregulars, and leaves
// words that only look plural ("bus", "class", "analysis", "Paris") alone.
func Singular(w string) string {
	if s, ok := irregularPlurals[w]; ok {
		return s
	}
	n := len(w)
	if n <= 3 || !strings.HasSuffix(w, "s") {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"),
		strings.HasSuffix(w, "'s"):
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zzes"):
		return w[:n-2]
	case strings.HasSuffix(w, "oes") && n > 5:
		return w[:n-2]
	}
	return w[:n-1]
}

// Stem is a light English stemmer for search keys: it singularizes and
// strips the inflections "-ing", "-ed", "-es"/"-s" and a final silent "e",
// so that "love", "loves", "loved" and "loving" share one key. It is not
// Porter: it never tries to reach dictionary roots, it only has to map the
// forms of one word to the same string and keep different words apart.
func Stem(w string) string {
	if len(w) <= 3 || !isASCIIAlpha(w) {
		return w
	}
	if s, ok := irregularPlurals[w]; ok {
		w = s
	} else {
		w = Singular(w)
	}
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ing") && len(w) > 5 && hasVowel(w[:len(w)-3]):
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4 && hasVowel(w[:len(w)-2]) && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

func isASCIIAlpha(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func hasVowel(w string) bool { return strings.ContainsAny(w, "aeiouy") }

// undouble turns "runn" into "run" and "stopp" into "stop", keeping the
// doubles that belong to the stem ("fall", "kiss", "buzz").
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouylsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}
