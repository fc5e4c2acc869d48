package knowledge

import (
	"maps"
	"testing"
)

// TestNumberedLabels: a word and the number after it is a label; dates,
// amounts led up to ("under 25", "about 40") and numbers with units are
// not. Two statements relabel one thing when they give one label different
// numbers.
func TestNumberedLabels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want map[string]string
	}{
		{"I teach Year 3 at a primary in Leicester.", map[string]string{"year": "3"}},
		{"We're in Zone 2, so the travelcard is cheap.", map[string]string{"zone": "2"}},
		{"I'm on chapter 12 of the draft now.", map[string]string{"chapter": "12"}},
		{"Been here since June 2012 and it takes under 25 minutes.", nil},
		{"My shoes have done about 600km already.", nil},
		{"The meeting is on Friday 15 at the office.", nil},
		{"I run every 2 days and have 3 kids.", nil},
	} {
		if got := NumberedLabels(tc.text); !maps.Equal(got, tc.want) {
			t.Errorf("NumberedLabels(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	older := NumberedLabels("I teach Year 3 and we're doing the Romans next term.")
	for text, want := range map[string]bool{
		"Head's put me in Year 6 from September.":  true,
		"Still Year 3 for me, the Romans are fun.": false,
		"We moved to Zone 4 in the spring.":        false,
	} {
		if got := RelabelledOf(older, NumberedLabels(text)); got != want {
			t.Errorf("RelabelledOf(Year 3, %q) = %v, want %v", text, got, want)
		}
	}
}
