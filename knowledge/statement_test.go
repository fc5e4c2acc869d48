package knowledge

import "testing"

func TestReadStatement(t *testing.T) {
	cases := []struct {
		text string
		form Form
		self bool
	}{
		{"Cheers, much appreciated!", FormChatter, false},
		{"Okay, sounds good to me.", FormChatter, true},
		{"Hey there!", FormChatter, false},
		{"My sister finally found a flat in Leeds.", FormStatement, true},
		{"The new job starts on Monday.", FormStatement, false},
		{"Could you recommend a quiet hotel in Kyoto?", FormQuestion, false},
		{"which trail should I pick for a first hike", FormQuestion, true},
		{"We settled in Bergen in March. Any tips for rainy weekends?", FormStatement, true},
		{"Congrats on the new place!", FormStatement, false},
	}
	for _, c := range cases {
		got := ReadStatement(c.text)
		if got.Form != c.form || got.Self != c.self {
			t.Errorf("ReadStatement(%q) = %+v, want form %s self %v", c.text, got, c.form, c.self)
		}
	}
}
