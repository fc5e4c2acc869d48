package nlp

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"I don't like sushi.", []string{"I", "don't", "like", "sushi", "."}},
		{"Emma's dog, Rex!", []string{"Emma's", "dog", ",", "Rex", "!"}},
		{"It costs 2,000 euros (or 3.5k).", []string{"It", "costs", "2,000", "euros", "(", "or", "3.5k", ")", "."}},
		{"on 8th May 2023-05-08 at 3pm", []string{"on", "8th", "May", "2023-05-08", "at", "3pm"}},
		{"self-care in the U.S. rocks", []string{"self-care", "in", "the", "U.S.", "rocks"}},
		{"Wait... what?!", []string{"Wait", "...", "what", "?!"}},
		{"I’m in São Paulo", []string{"I’m", "in", "São", "Paulo"}},
		{"LGBTQ+ folks €20", []string{"LGBTQ", "+", "folks", "€", "20"}},
		{"end.Next", []string{"end", ".", "Next"}},
		{"", nil},
	}
	for _, c := range cases {
		var got []string
		for _, tok := range Tokenize(c.in) {
			if c.in[tok.Start:tok.End] != tok.Text {
				t.Fatalf("%q: token %q has wrong offsets %d..%d", c.in, tok.Text, tok.Start, tok.End)
			}
			got = append(got, tok.Text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWordsAndTerms(t *testing.T) {
	if got, want := Words("I’m LOVING Zoë's café!"), []string{"i'm", "loving", "zoe's", "cafe"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	cases := []struct {
		in   string
		want []string
	}{
		{"Where does the user live?", []string{"user", "liv"}},
		{"The user lives in Berlin", []string{"user", "liv", "berlin"}},
		{"She loved painting sunsets", []string{"lov", "paint", "sunset"}},
		{"Caroline's adoption agencies", []string{"carolin", "adoption", "agency"}},
	}
	for _, c := range cases {
		if got := Terms(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitSentences(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Hi! I live in Paris and work as a nurse.", []string{"Hi!", "I live in Paris and work as a nurse."}},
		{"I met Dr. Smith in St. Louis. It was fun.", []string{"I met Dr. Smith in St. Louis.", "It was fun."}},
		{"I work at Acme Corp. It's great.", []string{"I work at Acme Corp.", "It's great."}},
		{"e.g. this one. Pi is 3.14 today.", []string{"e.g. this one.", "Pi is 3.14 today."}},
		{"Really?! Yes... I think so", []string{"Really?!", "Yes...", "I think so"}},
		{"line one\nline two\n\n", []string{"line one", "line two"}},
		{"He said \"go.\" Then left.", []string{"He said \"go.\"", "Then left."}},
		{"I live in the U.S. now", []string{"I live in the U.S. now"}},
		{"Week one at Quillmark is done 🎉 can you help me?", []string{"Week one at Quillmark is done 🎉", "can you help me?"}},
		{"Moved house ❤️🙏 so tired", []string{"Moved house ❤️🙏", "so tired"}},
		{"Loved it 😂😂!", []string{"Loved it 😂😂!"}},
		{"  ", nil},
		{"...", nil},
	}
	for _, c := range cases {
		var got []string
		for _, s := range SplitSentences(c.in) {
			if c.in[s.Start:s.End] != s.Text {
				t.Fatalf("%q: sentence %q has wrong offsets", c.in, s.Text)
			}
			got = append(got, s.Text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitSentences(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
