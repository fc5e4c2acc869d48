package nlp

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestTokenCounter(t *testing.T) {
	cases := []struct {
		enc  string
		text string
		want int
	}{
		{"", "hello world", 2},
		{"cl100k_base", "hello world", 2},
		{"o200k_base", "hello world", 2},
		{"cl100k_base", "", 0},
		{"cl100k_base", "I went to a LGBTQ support group yesterday.", 9},
	}
	for _, c := range cases {
		tc, err := NewTokenCounter(c.enc)
		if err != nil {
			t.Fatalf("NewTokenCounter(%q): %v", c.enc, err)
		}
		if got := tc.Count(c.text); got != c.want {
			t.Errorf("%s Count(%q) = %d, want %d", tc.Encoding(), c.text, got, c.want)
		}
	}
	if _, err := NewTokenCounter("nope"); !errors.Is(err, ErrUnknownEncoding) {
		t.Fatalf("unknown encoding: err = %v", err)
	}
}

func TestTokenCounterInvalidUTF8AndConcurrency(t *testing.T) {
	tc, err := NewTokenCounter("")
	if err != nil {
		t.Fatal(err)
	}
	if n := tc.Count("abc\xff\xfedef"); n <= 0 {
		t.Fatalf("invalid UTF-8 counted as %d", n)
	}
	text := strings.Repeat("The user moved to Berlin last month. ", 50)
	want := tc.Count(text)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if got := tc.Count(text); got != want {
					t.Errorf("concurrent Count = %d, want %d", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestEstimateTokens(t *testing.T) {
	if EstimateTokens("") != 0 || EstimateTokens("abcd") != 1 || EstimateTokens("abcde") != 2 {
		t.Fatal("EstimateTokens arithmetic")
	}
}
