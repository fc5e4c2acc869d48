package offline

import "testing"

// Sentences written for these rules (none is a bench line).
func TestWorkplaceKinds(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "started a job at a kind", text: "I started a new job at a garden centre.", want: []want{{pred: "WORKS_AT", obj: "garden centre", says: "a garden centre"}}},
		{name: "began a role as", text: "I began a new role as a site manager.", want: []want{{pred: "WORKS_AS", obj: "site manager"}}},
		{name: "work at a kind", text: "I work at the local hospital as a porter.", want: []want{{pred: "WORKS_AT", obj: "local hospital"}, {pred: "WORKS_AS", obj: "porter"}}},
		{name: "qualified as", text: "I qualified as an electrician in May.", want: []want{{pred: "WORKS_AS", obj: "electrician"}}},
		{name: "runs a business", text: "Now I run a small café with my sister.", want: []want{{pred: "WORKS_AT", obj: "small café"}},
			none: []want{{pred: "PRACTICES", obj: "running"}}},
		{name: "used to run a business", text: "I used to run a pub in Hull.", want: []want{{pred: "WORKS_AT", obj: "pub", neg: true}}},
		{name: "a workplace with its place", text: "I'm a vet at a small practice in Shrewsbury.",
			want: []want{{pred: "WORKS_AS", obj: "vet"}, {pred: "WORKS_AT", obj: "small practice in Shrewsbury", says: "a small practice in Shrewsbury"}}},
		{name: "left a profession", text: "I left teaching in July.", want: []want{{pred: "WORKS_AS", obj: "teacher", neg: true}},
			none: []want{{pred: "PRACTICES", obj: "teaching"}}},
		// controls
		{name: "quitting a habit is no profession", text: "I quit smoking.", want: []want{{pred: "PRACTICES", obj: "smoking", neg: true}},
			none: []want{{pred: "WORKS_AS", obj: "*"}}},
		{name: "running is still a hobby", text: "I run every morning before work.", want: []want{{pred: "PRACTICES", obj: "running"}},
			none: []want{{pred: "WORKS_AT", obj: "*"}}},
		{name: "work with people is no employer", text: "I work with kids.", none: []want{{pred: "WORKS_AT", obj: "*"}}},
		{name: "started a blog is no job", text: "I started a blog.", none: []want{{pred: "WORKS_AT", obj: "*"}}},
		{name: "a plan to start", text: "I might start a job at a bakery.", none: []want{{pred: "WORKS_AT", obj: "bakery"}}},
	})
}

func TestSwappedHome(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "swapped a kind of place for a home in", text: "We swapped the city for a cottage in Dorset.", want: []want{{pred: "LIVES_IN", obj: "Dorset"}},
			none: []want{{pred: "LIVES_IN", obj: "cottage"}, {pred: "LIVES_IN", obj: "city"}}},
		{name: "traded a place for a home in", text: "I traded Leeds for a flat in Porto last spring.",
			want: []want{{pred: "LIVES_IN", obj: "Porto"}, {pred: "LIVES_IN", obj: "Leeds", neg: true}}},
		// control: a plain switch stays a switch
		{name: "swapped a vehicle", text: "I swapped my Vespa for an e-bike.", want: []want{{pred: "USES", obj: "e-bike"}},
			none: []want{{pred: "LIVES_IN", obj: "*"}}},
	})
}

func TestHabitTastes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "only reads a kind", text: "These days I only read cosy mysteries.", want: []want{{pred: "LIKES", obj: "cosy mysteries"}}},
		{name: "mostly listens to", text: "Nowadays I mostly listen to bossa nova.", want: []want{{pred: "LIKES", obj: "bossa nova"}}},
		{name: "watches now", text: "I watch documentaries now.", want: []want{{pred: "LIKES", obj: "documentaries"}}},
		{name: "used to only watch", text: "I used to only watch westerns.", want: []want{{pred: "LIKES", obj: "westerns", neg: true}}},
		{name: "fallen for a kind", text: "I've also fallen for lino printing.", want: []want{{pred: "LIKES", obj: "lino printing"}}},
		// controls
		{name: "one book last week", text: "I read a thriller last week.", none: []want{{pred: "LIKES", obj: "thriller"}}},
		{name: "the paper is one thing", text: "I only read the paper on Sundays.", none: []want{{pred: "LIKES", obj: "paper"}}},
		{name: "plain listening", text: "I listen to podcasts.", none: []want{{pred: "LIKES", obj: "podcasts"}}},
		{name: "fell for a person", text: "I fell for Jonas at the party.", none: []want{{pred: "LIKES", obj: "Jonas"}}},
		{name: "fell for a trick", text: "I fell for the scam.", none: []want{{pred: "LIKES", obj: "scam"}}},
	})
}

// "it"/"them" after a turn of taste is the thing just named.
func TestTasteAntecedent(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "used to hate, now love them", text: "I used to hate olives but now I love them.",
			want: []want{{pred: "LIKES", obj: "olives", says: "now loves"}}},
		{name: "never used to like, now love them", text: "I never used to like mushrooms, but now I love them.",
			want: []want{{pred: "LIKES", obj: "mushrooms", says: "now loves"}}},
		// controls
		{name: "love it here", text: "I used to hate olives, but now I love it here.", none: []want{{pred: "LIKES", obj: "olives"}}},
		{name: "love it when", text: "I used to hate olives, but now I love it when it rains.", none: []want{{pred: "LIKES", obj: "olives"}}},
		{name: "another message", text: "Now I love them.", none: []want{{pred: "LIKES", obj: "*"}}},
	})
}

// More ways to say a taste or its end (sentences written for these rules).
func TestTastePhrasings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "can't get enough of", text: "These days I can't get enough of sea swimming.", want: []want{{pred: "LIKES", obj: "sea swimming"}}},
		{name: "a convert to", text: "I'm a convert to jazz now.", want: []want{{pred: "LIKES", obj: "jazz"}}},
		{name: "started liking", text: "I've started liking blue cheese.", want: []want{{pred: "LIKES", obj: "blue cheese"}}},
		{name: "my new obsession", text: "Watercolour painting is my new obsession.", want: []want{{pred: "LIKES", obj: "watercolour painting"}}},
		{name: "done with a kind", text: "I'm done with fast food.", want: []want{{pred: "DISLIKES", obj: "fast food"}}},
		// controls
		{name: "done with a task", text: "I'm done with the report.", none: []want{{pred: "DISLIKES", obj: "report"}}},
		{name: "got enough sleep", text: "I got enough sleep last night.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "started a course is no taste", text: "I've started learning Spanish.", none: []want{{pred: "LIKES", obj: "Spanish"}}},
	})
}

// The current taste said as "these days it's X" (sentences written for
// this rule), and favourites with "has always been".
func TestNowItsAndFavourites(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "these days it's a kind", text: "I've gone off the cooking channels, these days it's woodworking videos.",
			want: []want{{pred: "DISLIKES", obj: "cooking channels"}, {pred: "LIKES", obj: "woodworking videos"}}},
		{name: "lately it's all", text: "Lately it's all bossa nova in the evenings.", want: []want{{pred: "LIKES", obj: "bossa nova"}}},
		{name: "has always been my favourite", text: "Scrabble has always been my favourite board game.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Scrabble", qual: "board game"}}},
		{name: "favourite for years", text: "Scrabble has been my favourite board game for years.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Scrabble", qual: "board game"}}},
		// controls
		{name: "weather", text: "Now it's raining.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a burden", text: "These days it's meetings all day.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a judgement", text: "These days it's hard to find time.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "people", text: "These days it's the kids who decide.", none: []want{{pred: "LIKES", obj: "*"}}},
	})
}

// Occasions moved by someone else (sentences written for this rule).
func TestMovedByOthers(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "instructor moved my lessons", text: "My instructor moved my driving lessons to Wednesdays.",
			want: []want{{subj: "driving lessons", pred: "SCHEDULED_ON", obj: "Wednesdays"}}},
		{name: "they moved my appointment", text: "They moved my dentist appointment to Friday.",
			want: []want{{subj: "dentist appointment", pred: "SCHEDULED_ON", obj: "Friday"}}},
		{name: "the garage moved the MOT", text: "The garage rang and moved the MOT to the 13th of March.",
			want: []want{{subj: "MOT", pred: "SCHEDULED_ON", obj: "*"}}},
		// controls
		{name: "a possible move", text: "They might move my dentist appointment to Friday.",
			none: []want{{subj: "dentist appointment", pred: "SCHEDULED_ON", obj: "*"}}},
		{name: "furniture", text: "I moved the sofa to the other wall.", none: []want{{pred: "LIVES_IN", obj: "*"}}},
	})
}

// News announced by a report verb, and possessions named by a relative
// clause of buying (sentences written for these rules).
func TestReportedNewsAndBoughtThings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "found out that", text: "It has to be dairy-free, I found out in spring that I'm lactose intolerant.",
			want: []want{{pred: "HAS_CONDITION", obj: "lactose intolerance"}}},
		{name: "the car we bought", text: "It's the first long trip in the electric Renault we bought in August.",
			want: []want{{pred: "DRIVES", obj: "electric Renault"}, {pred: "OWNS", obj: "electric Renault"}}},
		// controls
		{name: "a gift from someone else", text: "I love the jacket my sister bought me.", none: []want{{pred: "OWNS", obj: "*"}}},
		{name: "a relative clause of place", text: "We went to the shop where I bought my bike.", none: []want{{pred: "OWNS", obj: "shop"}}},
		{name: "that as a determiner", text: "I found that film boring.", none: []want{{pred: "HAS_CONDITION", obj: "*"}}},
	})
}

// Courses part-way through and providers one is "with" (sentences written
// for these rules).
func TestCoursesAndProviders(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "halfway through a course", text: "I'm halfway through a plumbing course.", want: []want{{pred: "STUDIES", obj: "plumbing course"}}},
		{name: "in the first term of", text: "I'm in the first term of an art foundation course at Falmouth.",
			want: []want{{pred: "STUDIES", obj: "art foundation course"}, {pred: "STUDIES_AT", obj: "Falmouth"}}},
		{name: "with a provider", text: "We're with Octopus for energy.", want: []want{{pred: "USES", obj: "Octopus"}}},
		// controls
		{name: "halfway through a book", text: "I'm halfway through the book.", none: []want{{pred: "STUDIES", obj: "*"}}},
		{name: "with a person", text: "I'm with Tom on this one.", none: []want{{pred: "USES", obj: "*"}}},
	})
}

// Judgements turned around (sentences written for these rules).
func TestJudgementsTurned(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "tastes like soap", text: "Coriander tastes like soap to me.", want: []want{{pred: "DISLIKES", obj: "coriander"}}},
		{name: "one bare kind, actually", text: "Karaoke is actually really fun.", want: []want{{pred: "LIKES", obj: "karaoke"}}},
		{name: "used to think, now love it", text: "I used to think karaoke was awful but now I love it.",
			want: []want{{pred: "LIKES", obj: "karaoke", says: "now loves"}}},
		// controls
		{name: "a person", text: "Tom is actually great.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a place", text: "London is actually lovely.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "work", text: "Work is great now.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "an occasion", text: "The party was actually great.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a present opinion", text: "I always thought opera was boring.", none: []want{{pred: "DISLIKES", obj: "opera", neg: true}}},
	})
}

// "it"/"they" after a kind named earlier in the message, when the clause
// marks a turn (sentences written for this rule).
func TestPronounTurns(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "used to be my favourite, can't stand it", text: "Sushi used to be my favourite, but now I can't stand it.",
			want: []want{{pred: "DISLIKES", obj: "sushi"}}},
		{name: "loved them then, not for me anymore", text: "I loved horror films as a teenager but they're not for me anymore.",
			want: []want{{pred: "LIKES", obj: "horror films", neg: true}}},
		{name: "never liked, love them now", text: "I never liked cats but our neighbour's cat won me over, I love them now.",
			want: []want{{pred: "LIKES", obj: "cats"}}},
		// controls
		{name: "no turn marked", text: "Sushi is on the menu and they serve it fresh.", none: []want{{pred: "LIKES", obj: "sushi"}, {pred: "DISLIKES", obj: "sushi"}}},
		{name: "nothing named before", text: "Now they taste awful to me.", none: []want{{pred: "DISLIKES", obj: "*"}}},
	})
}
