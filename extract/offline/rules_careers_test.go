package offline

import "testing"

func TestStudyAndWorkTransitions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "year of a course", text: "I'm in my second year of medicine at Bristol.",
			want: []want{{pred: "STUDIES", obj: "medicine"}, {pred: "STUDIES_AT", obj: "Bristol"}}},
		{name: "doing a degree", text: "I'm doing a PhD in linguistics now.",
			want: []want{{pred: "STUDIES", obj: "linguistics"}, {pred: "STUDIES", obj: "PhD"}}},
		{name: "started a master's", text: "I started my master's in economics.",
			want: []want{{pred: "STUDIES", obj: "economics"}}},
		{name: "enrolled", text: "I enrolled in a nursing course at Coventry.",
			want: []want{{pred: "STUDIES", obj: "nursing course"}, {pred: "STUDIES_AT", obj: "Coventry"}}},
		{name: "apprentice", text: "I'm apprenticing with a plumber now.",
			want: []want{{pred: "WORKS_AS", obj: "apprentice plumber"}}},
		{name: "trainee", text: "I'm training as an electrician these days.",
			want: []want{{pred: "WORKS_AS", obj: "trainee electrician"}}},
		{name: "exam prep", text: "I'm revising for my driving theory test.",
			want: []want{{pred: "HAS_GOAL", obj: "driving theory test"}}},
		{name: "freelance", text: "I went freelance as an illustrator.",
			want: []want{{pred: "WORKS_AT", obj: "self-employed"}, {pred: "WORKS_AS", obj: "illustrator"}}},
		{name: "work for myself", text: "I now work for myself as a translator.",
			want: []want{{pred: "WORKS_AT", obj: "self-employed"}, {pred: "WORKS_AS", obj: "translator"}}},
		// controls
		{name: "passing the salt", text: "I passed the salt.", none: []want{{pred: "HAS_GOAL"}}},
		{name: "a city left is no course", text: "I left Paris in 2019.", none: []want{{pred: "STUDIES"}, {pred: "STUDIES_AT"}}},
		{name: "a friend's degree", text: "My friend is doing a PhD in chemistry.", none: []want{{pred: "STUDIES", obj: "chemistry"}}},
		{name: "a plan to go freelance", text: "I might go freelance next year.", none: []want{{pred: "WORKS_AT", obj: "self-employed"}}},
	})
}

func TestCourseAndExamEndings(t *testing.T) {
	for _, tc := range []struct{ text, pred, obj string }{
		{"I dropped out of my chemistry degree.", "STUDIES", "chemistry"},
		{"I left architecture school after one term.", "STUDIES", "architecture"},
		{"I passed my bar exam at last!", "HAS_GOAL", "bar exam"},
	} {
		res := extractUser(t, tc.text, defaultAt)
		f := findFact(res, tc.pred, tc.obj)
		if f == nil || f.ValidTo == nil || f.Polarity == "negative" {
			t.Errorf("%q: want %s %s ended (valid_to), got %+v", tc.text, tc.pred, tc.obj, f)
		}
	}
}
