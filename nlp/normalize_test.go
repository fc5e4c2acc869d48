package nlp

import "testing"

func TestFold(t *testing.T) {
	cases := map[string]string{
		"Zoë":       "zoe",
		"São Paulo": "sao paulo",
		"Straße":    "strasse",
		"I’m":       "i'm",
		"ÆON Øre":   "aeon ore",
		"plain":     "plain",
	}
	for in, want := range cases {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSingular(t *testing.T) {
	cases := map[string]string{
		"burgers": "burger", "seats": "seat", "peanuts": "peanut", "cities": "city",
		"boxes": "box", "churches": "church", "dishes": "dish", "classes": "class",
		"potatoes": "potato", "knives": "knife", "children": "child", "kids": "kid",
		"bus": "bus", "class": "class", "analysis": "analysis", "paris": "paris",
		"series": "series", "news": "news", "glasses": "glasses", "cookies": "cookie",
		"movies": "movie", "dogs": "dog", "cats": "cat", "yes": "yes", "gas": "gas",
		"buses": "bus", "houses": "house", "causes": "cause", "viruses": "virus",
	}
	for in, want := range cases {
		if got := Singular(in); got != want {
			t.Errorf("Singular(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStemGroupsInflections(t *testing.T) {
	groups := [][]string{
		{"love", "loves", "loved", "loving"},
		{"like", "likes", "liked", "liking"},
		{"run", "runs", "running"},
		{"paint", "paints", "painted", "painting"},
		{"move", "moved", "moves", "moving"},
		{"stop", "stopped", "stopping"},
		{"try", "tried", "tries"},
		{"city", "cities"},
		{"adopt", "adopted", "adopting"},
	}
	for _, g := range groups {
		want := Stem(g[0])
		for _, w := range g[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, want %q (as %q)", w, got, want, g[0])
			}
		}
	}
	// Different words stay apart.
	for _, pair := range [][2]string{{"need", "ne"}, {"sing", "s"}, {"bed", "b"}, {"seed", "se"}} {
		if Stem(pair[0]) == pair[1] {
			t.Errorf("Stem(%q) over-stemmed to %q", pair[0], pair[1])
		}
	}
}

func TestNormalizeName(t *testing.T) {
	cases := map[string]string{
		"The Netherlands":  "netherlands",
		"my dog":           "dog",
		"a Tesla Model 3":  "tesla model 3",
		"Acme Corp.":       "acme corp",
		"green teas":       "green tea",
		"Aisle seats":      "aisle seat",
		"  Zoë's  Café  ":  "zoe cafe",
		"the":              "the",
		"":                 "",
		"LGBTQ+ group":     "lgbtq group",
		"an iPhone":        "iphone",
		"U.S.":             "us",
		"Caroline's mom's": "caroline mom",
	}
	for in, want := range cases {
		if got := NormalizeName(in); got != want {
			t.Errorf("NormalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStopwords(t *testing.T) {
	for _, w := range []string{"the", "and", "i", "you", "was", "really"} {
		if !IsStopword(w) {
			t.Errorf("%q should be a stopword", w)
		}
	}
	for _, w := range []string{"not", "no", "sushi", "berlin", "never"} {
		if IsStopword(w) {
			t.Errorf("%q must not be a stopword", w)
		}
	}
}
