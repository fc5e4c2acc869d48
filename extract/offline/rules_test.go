package offline

import "testing"

// ruleCase is one user message and the facts it must (and must not) yield.
type ruleCase struct {
	name string
	text string
	at   string // event time, RFC 3339 or date; default 14 Sep 2024
	want []want
	none []want
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := extractUser(t, c.text, mustTime(t, c.at))
			if res.Model != ExtractModel {
				t.Fatalf("model = %q", res.Model)
			}
			for _, w := range c.want {
				checkWant(t, res, w)
			}
			for _, w := range c.none {
				checkAbsent(t, res, w)
			}
		})
	}
}

// Each family has the canonical sentences of the brief and held-out
// paraphrases written independently, so the rules are tested on the
// language and not on particular lines.

func TestIdentity(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "occupation", text: "I'm a nurse.", want: []want{{pred: "WORKS_AS", obj: "nurse", says: "works as a nurse"}}},
		{name: "identity", text: "I am a transgender woman.", want: []want{{pred: "IS_A", obj: "transgender woman", says: "The user is a transgender woman"}}},
		{name: "identity adjective", text: "I'm transgender and proud of it.", want: []want{{pred: "IS_A", obj: "transgender"}}},
		{name: "name", text: "My name is Sam.", want: []want{{pred: "RELATED_TO", obj: "Sam", says: "The user's name is Sam"}}},
		// paraphrases
		{name: "para: call me", text: "Call me Alex, everyone does.", want: []want{{pred: "RELATED_TO", obj: "Alex"}}},
		// A name after a role and "at" is the employer, suffix or not; a
		// title said without an article counts when an employer follows.
		{name: "role at a bare name", text: "I'm a porter at Ravensbourne General.", want: []want{
			{pred: "WORKS_AS", obj: "porter"}, {pred: "WORKS_AT", obj: "Ravensbourne General"}}},
		{name: "title without article", text: "Since March I'm deputy head at Oakwood Juniors.", want: []want{
			{pred: "WORKS_AS", obj: "deputy head"}, {pred: "WORKS_AT", obj: "Oakwood Juniors"}}},
		{name: "title of a subject", text: "I'm head of science at Marlow Academy now.", want: []want{
			{pred: "WORKS_AS", obj: "head of science"}, {pred: "WORKS_AT", obj: "Marlow Academy"}}},
		{name: "a mood at a firm", text: "I'm really happy at Brightwave.", none: []want{{pred: "WORKS_AS"}, {pred: "WORKS_AT"}}},
		{name: "a teacher in a city", text: "I'm a teacher in Leeds.", none: []want{{pred: "WORKS_AT"}}},
		{name: "para: role at org", text: "These days I'm a teacher at Lincoln High School.", want: []want{
			{pred: "WORKS_AS", obj: "teacher"}, {pred: "WORKS_AT", obj: "Lincoln High School"}}},
		{name: "para: introvert", text: "Honestly, I'm an introvert.", want: []want{{pred: "IS_A", obj: "introvert"}}},
		{name: "para: nationality", text: "I'm Swedish.", want: []want{{pred: "FROM", obj: "Sweden"}}},
		{name: "para: no longer a teacher", text: "I'm not a teacher anymore.", want: []want{{pred: "WORKS_AS", obj: "teacher", neg: true}}},
		{name: "para: age", text: "I'm 34 years old.", want: []want{{pred: "HAS_AGE", obj: "34", says: "34 years old"}}},
		{name: "para: turned", text: "I just turned 40!", want: []want{{pred: "HAS_AGE", obj: "40"}}},
		{name: "not an age", text: "I'm 5 minutes away.", none: []want{{pred: "HAS_AGE", obj: "5"}}},
	})
}

func TestResidence(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "live", text: "Hi! I live in Paris and work as a nurse.", want: []want{
			{pred: "LIVES_IN", obj: "Paris", says: "lives in Paris"}, {pred: "WORKS_AS", obj: "nurse"}}},
		{name: "moved last month", text: "Big news: I moved to Berlin last month.", want: []want{
			{pred: "LIVES_IN", obj: "Berlin", from: "2024-08-01", says: "lives in Berlin"}}},
		{name: "relocated", text: "We relocated to Madrid in March.", want: []want{{pred: "LIVES_IN", obj: "Madrid", from: "2024-03-01"}}},
		{name: "from", text: "I'm from Sweden.", want: []want{{pred: "FROM", obj: "Sweden"}}},
		// paraphrases
		{name: "para: based in", text: "These days I'm based in Oslo.", want: []want{{pred: "LIVES_IN", obj: "Oslo"}}},
		{name: "para: relocated simple", text: "I relocated to Madrid.", want: []want{{pred: "LIVES_IN", obj: "Madrid"}}},
		{name: "para: living since", text: "I've been living in Lisbon since 2019.", want: []want{{pred: "LIVES_IN", obj: "Lisbon", from: "2019-01-01"}}},
		{name: "para: used to live", text: "I used to live in Rome.", want: []want{{pred: "LIVES_IN", obj: "Rome", neg: true, says: "used to live"}}},
		{name: "para: not anymore", text: "I don't live in London anymore.", want: []want{{pred: "LIVES_IN", obj: "London", neg: true}}},
		{name: "para: grew up", text: "I grew up in Lyon.", want: []want{{pred: "FROM", obj: "Lyon"}}},
		{name: "para: come from", text: "I come from Kenya.", want: []want{{pred: "FROM", obj: "Kenya"}}},
		{name: "para: settled", text: "We finally settled in Copenhagen two years ago.", want: []want{{pred: "LIVES_IN", obj: "Copenhagen", from: "2022-01-01"}}},
		{name: "para: moved from to", text: "I moved from Sweden to Berlin in 2021.", want: []want{
			{pred: "LIVES_IN", obj: "Berlin", from: "2021-01-01"}, {pred: "LIVES_IN", obj: "Sweden", neg: true}}},
		{name: "future move is a plan", text: "I'm moving to Oslo next month.", want: []want{{pred: "PLANS", obj: "Oslo", from: "2024-10-01"}},
			none: []want{{pred: "LIVES_IN", obj: "Oslo"}}},
		{name: "not a place", text: "I live in a small apartment.", none: []want{{pred: "LIVES_IN", obj: "*"}}},
	})
}

func TestWork(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "work at as", text: "I work at Acme Corp as a data analyst.", want: []want{
			{pred: "WORKS_AT", obj: "Acme Corp", says: "works at Acme Corp"}, {pred: "WORKS_AS", obj: "data analyst"}}},
		{name: "left and joined", text: "I left Acme Corp and joined Globex as a data engineer.", at: "2024-04-02", want: []want{
			{pred: "WORKS_AT", obj: "Acme Corp", neg: true}, {pred: "WORKS_AT", obj: "Globex"}, {pred: "WORKS_AS", obj: "data engineer"}}},
		{name: "got a job", text: "I got a job at Stark Industries as a designer.", want: []want{
			{pred: "WORKS_AT", obj: "Stark Industries"}, {pred: "WORKS_AS", obj: "designer"}}},
		// A job gained named by its title, in or outside the occupations
		// lexicon; one named only by its qualities has none.
		{name: "got the titled post", text: "I finally got the charge nurse post, start in March!", want: []want{{pred: "WORKS_AS", obj: "charge nurse"}}},
		{name: "landed the titled role", text: "I landed the head teacher role at Kingsmead.", want: []want{{pred: "WORKS_AS", obj: "head teacher"}}},
		{name: "a job by its qualities", text: "I got the part-time job in the end.", none: []want{{pred: "WORKS_AS"}}},
		{name: "a role filled for others", text: "We got the product manager role filled at last.", none: []want{{pred: "WORKS_AS"}}},
		// paraphrases
		{name: "para: quit my job", text: "I quit my job at Initech.", want: []want{{pred: "WORKS_AT", obj: "Initech", neg: true}}},
		{name: "para: now work for", text: "I now work for Hooli.", want: []want{{pred: "WORKS_AT", obj: "Hooli", says: "Hooli"}}},
		{name: "para: employed by", text: "I'm employed by Initech as a software engineer.", want: []want{
			{pred: "WORKS_AT", obj: "Initech"}, {pred: "WORKS_AS", obj: "software engineer"}}},
		{name: "para: resigned", text: "Last week I resigned from Hooli.", want: []want{{pred: "WORKS_AT", obj: "Hooli", neg: true}}},
		{name: "para: laid off", text: "I was laid off from Umbrella Corp in June.", want: []want{{pred: "WORKS_AT", obj: "Umbrella Corp", neg: true, from: "2024-06-01"}}},
		{name: "para: started working", text: "I started working at Google in 2022.", want: []want{{pred: "WORKS_AT", obj: "Google", from: "2022-01-01"}}},
		{name: "para: used to work", text: "I used to work at IBM.", want: []want{{pred: "WORKS_AT", obj: "IBM", neg: true}}},
		{name: "para: membership not job", text: "I joined a mentorship program last weekend.", want: []want{{pred: "MEMBER_OF", obj: "mentorship program"}},
			none: []want{{pred: "WORKS_AT", obj: "mentorship program"}}},
		// How or where one works, between the verb and "as"/"at".
		{name: "work from home as", text: "These days I work from home as a copywriter.", want: []want{{pred: "WORKS_AS", obj: "copywriter"}}},
		{name: "work part-time at", text: "I work part-time at Waitrose to cover the rent.", want: []want{{pred: "WORKS_AT", obj: "Waitrose"}}},
		{name: "work nights as", text: "I mostly work nights as a hospital porter.", want: []want{{pred: "WORKS_AS", obj: "hospital porter"}}},
		{name: "at the moment is no employer", text: "I work at the moment at Lidl.", want: []want{{pred: "WORKS_AT", obj: "Lidl"}},
			none: []want{{pred: "WORKS_AT", obj: "moment"}}},
		{name: "work from home alone", text: "I work from home on Fridays.", none: []want{{pred: "WORKS_AT", obj: "*"}, {pred: "WORKS_AS", obj: "*"}}},
		// Job titles beyond the common ones.
		{name: "title: civil servant", text: "I'm a civil servant in the transport ministry.", want: []want{{pred: "WORKS_AS", obj: "civil servant"}}},
		{name: "title: controller", text: "I'm an air traffic controller, so weekends are rare.", want: []want{{pred: "WORKS_AS", obj: "air traffic controller"}}},
		{name: "title: physiotherapist", text: "I'm a physiotherapist at a sports clinic.", want: []want{{pred: "WORKS_AS", obj: "physiotherapist"}}},
		{name: "not a title", text: "I'm a huge fan of the new album.", none: []want{{pred: "WORKS_AS", obj: "*"}}},
	})
}

func TestStudy(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// A move between courses names the new field; money and offices
		// transferred are no study.
		{name: "transferred into a field", text: "Since I transferred into economics the reading lists are endless.",
			want: []want{{pred: "STUDIES", obj: "economics"}}},
		{name: "transferred onto a course", text: "I've transferred onto the midwifery degree at Bangor.",
			want: []want{{pred: "STUDIES", obj: "midwifery"}, {pred: "STUDIES_AT", obj: "Bangor"}}},
		{name: "money transferred", text: "I transferred 300 dollars to my savings account.", none: []want{{pred: "STUDIES"}}},
		{name: "office transferred", text: "I transferred to the Bristol office in May.", none: []want{{pred: "STUDIES"}}},
		{name: "learning", text: "I'm learning Spanish.", want: []want{{pred: "LEARNING", obj: "Spanish", says: "is learning Spanish"}}},
		{name: "gave up and learning", text: "I gave up Spanish and I'm learning Japanese now.", want: []want{
			{pred: "LEARNING", obj: "Spanish", neg: true}, {pred: "LEARNING", obj: "Japanese"}}},
		// paraphrases
		{name: "para: lessons", text: "I'm taking Italian lessons on Saturdays.", want: []want{{pred: "LEARNING", obj: "Italian"}}},
		{name: "para: stopped learning", text: "I stopped learning French.", want: []want{{pred: "LEARNING", obj: "French", neg: true}}},
		{name: "para: study at", text: "I study law at Harvard.", want: []want{{pred: "STUDIES", obj: "law"}, {pred: "STUDIES_AT", obj: "Harvard"}}},
		{name: "para: learning to play", text: "I've been learning to play the guitar.", want: []want{{pred: "LEARNING", obj: "guitar"}}},
		{name: "para: graduated", text: "I graduated from Stanford in 2020.", want: []want{{pred: "STUDIES_AT", obj: "Stanford", neg: true, from: "2020-01-01"}}},
		{name: "dropped a language", text: "I dropped Mandarin and started Korean instead.", want: []want{{pred: "LEARNING", obj: "Mandarin", neg: true}}},
		{name: "ditched an activity", text: "I ditched pilates when the studio raised its prices.", want: []want{{pred: "PRACTICES", obj: "pilates", neg: true}}},
		{name: "dropped someone off", text: "I dropped my nephew at football practice.", none: []want{{pred: "LEARNING", obj: "*"}, {pred: "PRACTICES", obj: "*"}}},
	})
}

func TestFamily(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "sister lives", text: "My sister Emma lives in Rome.", want: []want{
			{pred: "SIBLING_OF", obj: "Emma", qual: "sister"}, {subj: "Emma", pred: "LIVES_IN", obj: "Rome", says: "Emma lives in Rome"}},
			none: []want{{pred: "LIVES_IN", obj: "Rome"}}},
		{name: "brother supports", text: "My brother supports Chelsea, we argue all the time.", want: []want{
			{subj: "brother", pred: "SUPPORTS", obj: "Chelsea", says: "The user's brother supports Chelsea"}},
			none: []want{{pred: "SUPPORTS", obj: "Chelsea"}}},
		{name: "married", text: "I got married to Sam in January.", at: "2025-02-10", want: []want{
			{pred: "MARRIED_TO", obj: "Sam", from: "2025-01-01"}, {pred: "HAS_STATUS", obj: "married"}}},
		{name: "single", text: "I'm single.", want: []want{{pred: "HAS_STATUS", obj: "single"}}},
		{name: "kids", text: "My kids are so excited about summer break!", want: []want{{pred: "PARENT_OF", obj: "kids", qual: "children"}}},
		{name: "husband likes", text: "My husband loves hiking.", want: []want{
			{pred: "MARRIED_TO", obj: "husband", qual: "husband"}, {subj: "husband", pred: "LIKES", obj: "hiking"}},
			none: []want{{pred: "LIKES", obj: "hiking"}}},
		// paraphrases
		{name: "para: appositive", text: "My brother, Tom, works at Google.", want: []want{
			{pred: "SIBLING_OF", obj: "Tom", qual: "brother"}, {subj: "Tom", pred: "WORKS_AT", obj: "Google"}},
			none: []want{{pred: "WORKS_AT", obj: "Google"}}},
		{name: "para: name and I", text: "Sam and I got married last June.", want: []want{{pred: "MARRIED_TO", obj: "Sam", from: "2024-06-01"}}},
		{name: "para: daughter age", text: "Our daughter Mia is 5 years old.", want: []want{
			{pred: "PARENT_OF", obj: "Mia", qual: "daughter"}, {subj: "Mia", pred: "HAS_AGE", obj: "5"}}},
		{name: "para: have two kids", text: "I have two kids.", want: []want{{pred: "PARENT_OF", obj: "kids"}}},
		{name: "para: X is my sister", text: "Olivia is my sister.", want: []want{{pred: "SIBLING_OF", obj: "Olivia", qual: "sister"}}},
		{name: "para: she lives", text: "My mother Linda is retired. She lives in Porto.", want: []want{
			{pred: "CHILD_OF", obj: "Linda", qual: "mother"}, {subj: "Linda", pred: "LIVES_IN", obj: "Porto"}},
			none: []want{{pred: "LIVES_IN", obj: "Porto"}}},
		{name: "para: divorced", text: "I'm divorced now.", want: []want{{pred: "HAS_STATUS", obj: "divorced"}}},
		{name: "para: engaged", text: "I got engaged to Jordan last weekend!", want: []want{{pred: "PARTNER_OF", obj: "Jordan"}, {pred: "HAS_STATUS", obj: "engaged"}}},
		{name: "little boy", text: "I walk my little boy to nursery every morning.", want: []want{{pred: "PARENT_OF", obj: "*", qual: "son"}}},
	})
}

func TestPets(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "dog named", text: "I have a dog named Rex.", want: []want{{pred: "HAS_PET", obj: "Rex", qual: "dog", says: "has a dog named Rex"}}},
		{name: "her name is", text: "We adopted a cat too, her name is Luna.", want: []want{{pred: "HAS_PET", obj: "Luna", qual: "cat", says: "a cat named Luna"}}},
		// paraphrases
		{name: "para: rescued called", text: "We rescued a puppy called Max.", want: []want{{pred: "HAS_PET", obj: "Max", qual: "puppy"}}},
		{name: "para: my cat hates", text: "My cat Whiskers hates baths.", want: []want{
			{pred: "HAS_PET", obj: "Whiskers", qual: "cat"}, {subj: "Whiskers", pred: "DISLIKES", obj: "baths"}},
			none: []want{{pred: "DISLIKES", obj: "baths"}}},
		{name: "para: two cats", text: "I have two cats, Luna and Milo.", want: []want{
			{pred: "HAS_PET", obj: "Luna", qual: "cat"}, {pred: "HAS_PET", obj: "Milo", qual: "cat"}}},
		{name: "para: pet is called", text: "We got a hamster last week. It's called Peanut.", want: []want{{pred: "HAS_PET", obj: "*", qual: "hamster"}}},
		{name: "para: named pet is my dog", text: "Biscuit is my dog.", want: []want{{pred: "HAS_PET", obj: "Biscuit", qual: "dog"}}},
		// Kept animals beyond cats and dogs, and words between "our" and the species.
		{name: "hens", text: "We've got four hens now, so no more buying eggs.", want: []want{{pred: "HAS_PET", obj: "*", qual: "hen"}}},
		{name: "rescue adjective", text: "Our rescue lurcher sleeps all day.", want: []want{{pred: "HAS_PET", obj: "*", qual: "lurcher"}}},
		{name: "alpacas", text: "I keep two alpacas in the field behind the house.", want: []want{{pred: "HAS_PET", obj: "*", qual: "alpaca"}}},
		{name: "food is no pet", text: "We had roast chicken for dinner.", none: []want{{pred: "HAS_PET", obj: "*"}}},
	})
}

func TestPossessions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "drive", text: "I drive a Toyota Corolla.", want: []want{{pred: "DRIVES", obj: "Toyota Corolla", says: "drives a Toyota Corolla"}}},
		{name: "sold and bought", text: "I sold the Corolla and bought a Tesla Model 3.", want: []want{
			{pred: "OWNS", obj: "Corolla", says: "sold"}, {pred: "DRIVES", obj: "Corolla", says: "no longer drives"},
			{pred: "OWNS", obj: "Tesla Model 3"}, {pred: "DRIVES", obj: "Tesla Model 3"}}},
		{name: "use", text: "I use an iPhone.", want: []want{{pred: "USES", obj: "iPhone"}}},
		{name: "keeping", text: "Not me, I'm keeping my iPhone.", want: []want{{pred: "USES", obj: "iPhone", says: "iPhone"}}},
		// paraphrases
		{name: "para: bought last week", text: "I bought a Honda Civic last week.", want: []want{
			{pred: "OWNS", obj: "Honda Civic"}, {pred: "DRIVES", obj: "Honda Civic"}}},
		{name: "para: switched to android", text: "I switched to Android.", want: []want{{pred: "USES", obj: "Android"}}},
		{name: "para: no longer use", text: "I don't use Windows anymore.", want: []want{{pred: "USES", obj: "Windows", neg: true}}},
		{name: "para: have a car", text: "We have a Volvo.", want: []want{{pred: "OWNS", obj: "Volvo"}, {pred: "DRIVES", obj: "Volvo"}}},
		{name: "not a possession", text: "I have a headache.", none: []want{{pred: "OWNS", obj: "*"}}},
	})
}

func TestPreferences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "love favourite", text: "I love sushi, it's my favourite food.", want: []want{
			{pred: "LIKES", obj: "sushi"}, {pred: "HAS_FAVORITE", obj: "sushi", qual: "food", says: "favourite food is sushi"}}},
		{name: "not anymore", text: "Actually I don't like sushi anymore, raw fish makes me sick now.", want: []want{
			{pred: "LIKES", obj: "sushi", neg: true, says: "doesn't like sushi anymore"}}},
		{name: "switched", text: "I switched from coffee to green tea, I don't drink coffee anymore.", want: []want{
			{pred: "LIKES", obj: "green tea"}, {pred: "LIKES", obj: "coffee", neg: true}}},
		{name: "also", text: "I also love burgers.", want: []want{{pred: "LIKES", obj: "burgers"}}},
		{name: "as well", text: "I like rock music as well.", want: []want{{pred: "LIKES", obj: "rock music"}}},
		{name: "prefer these days", text: "These days I prefer aisle seats, window seats are too cramped.", want: []want{
			{pred: "PREFERS", obj: "aisle seats", qual: "seat", says: "aisle seats"}, {pred: "DISLIKES", obj: "window seats"}}},
		{name: "favourite now", text: "My favourite programming language is now Go.", want: []want{
			{pred: "HAS_FAVORITE", obj: "Go", qual: "programming language", says: " Go"}}},
		{name: "hate", text: "I hate running.", want: []want{{pred: "DISLIKES", obj: "running"}}},
		{name: "now love", text: "I started running last month and now I love running.", want: []want{
			{pred: "LIKES", obj: "running"}, {pred: "PRACTICES", obj: "running", from: "2024-08-01"}}},
		{name: "vegetarian", text: "I'm vegetarian.", want: []want{{pred: "HAS_DIET", obj: "vegetarian"}}},
		{name: "not vegetarian", text: "I'm not vegetarian anymore, I eat chicken again.", want: []want{
			{pred: "HAS_DIET", obj: "vegetarian", neg: true, says: "no longer vegetarian"}, {pred: "LIKES", obj: "chicken"}}},
		{name: "allergic", text: "I'm allergic to peanuts.", want: []want{{pred: "ALLERGIC_TO", obj: "peanuts"}}},
		{name: "support", text: "I support Arsenal.", want: []want{{pred: "SUPPORTS", obj: "Arsenal"}}},
		// paraphrases
		{name: "para: favourite first", text: "Tea is my favourite drink.", want: []want{{pred: "HAS_FAVORITE", obj: "tea", qual: "drink"}}},
		{name: "para: can't stand", text: "I can't stand olives.", want: []want{{pred: "DISLIKES", obj: "olives", says: "can't stand olives"}}},
		{name: "para: no longer a fan", text: "I'm no longer a fan of jazz.", want: []want{{pred: "LIKES", obj: "jazz", neg: true, says: "no longer a fan of jazz"}}},
		{name: "para: prefer over", text: "I prefer tea over coffee.", want: []want{{pred: "PREFERS", obj: "tea", qual: "drink", says: "over coffee"}}},
		{name: "para: adore list", text: "I adore pizza, pasta and tiramisu.", want: []want{
			{pred: "LIKES", obj: "pizza"}, {pred: "LIKES", obj: "pasta"}, {pred: "LIKES", obj: "tiramisu"}}},
		{name: "para: enjoy gerund", text: "I really enjoy hiking in the mountains.", want: []want{{pred: "LIKES", obj: "hiking in the mountains"}}},
		{name: "para: love to paint", text: "I love to paint.", want: []want{{pred: "LIKES", obj: "painting"}}},
		{name: "para: allergy noun", text: "I have a shellfish allergy.", want: []want{{pred: "ALLERGIC_TO", obj: "shellfish"}}},
		{name: "para: huge fan team", text: "I'm a huge Liverpool fan.", want: []want{{pred: "SUPPORTS", obj: "Liverpool"}}},
		{name: "para: root for", text: "I root for the Lakers.", want: []want{{pred: "SUPPORTS", obj: "Lakers"}}},
		{name: "para: went vegan", text: "I went vegan last year.", want: []want{{pred: "HAS_DIET", obj: "vegan", from: "2023-01-01"}}},
		{name: "para: became vegetarian", text: "I became a vegetarian in 2020.", want: []want{{pred: "HAS_DIET", obj: "vegetarian"}}},
		{name: "para: stopped eating", text: "I stopped eating meat.", want: []want{{pred: "LIKES", obj: "meat", neg: true}}},
		{name: "para: used to love", text: "I used to love horror movies.", want: []want{{pred: "LIKES", obj: "horror movies", neg: true, says: "used to love"}}},
		{name: "para: not into", text: "I'm not into country music anymore.", want: []want{{pred: "LIKES", obj: "country music", neg: true}}},
		{name: "para: really into", text: "I'm really into bouldering lately.", want: []want{{pred: "LIKES", obj: "bouldering"}}},
		{name: "para: favourite team", text: "My favourite team is Arsenal.", want: []want{
			{pred: "HAS_FAVORITE", obj: "Arsenal", qual: "team"}, {pred: "SUPPORTS", obj: "Arsenal"}}},
		{name: "para: experience not taste", text: "I loved the concert last night.", none: []want{{pred: "LIKES", obj: "concert"}}},
	})
}

func TestActivities(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "started running", text: "I started running.", want: []want{{pred: "PRACTICES", obj: "running", says: "started running"}}},
		{name: "paint", text: "I paint.", want: []want{{pred: "PRACTICES", obj: "painting"}}},
		{name: "support group", text: "I went to a LGBTQ support group yesterday.", at: "2023-05-08T13:56:00Z", want: []want{
			{pred: "ATTENDED", obj: "LGBTQ support group", from: "2023-05-07", says: "7 May 2023"}}},
		{name: "camping plan", text: "I'm planning to go camping next month.", at: "2023-05-25", want: []want{
			{pred: "PLANS", obj: "camping", from: "2023-06-01", says: "June 2023"}}},
		// paraphrases
		{name: "para: took up", text: "I took up pottery last year.", want: []want{{pred: "PRACTICES", obj: "pottery", from: "2023-01-01"}}},
		{name: "para: quit smoking", text: "I quit smoking.", want: []want{{pred: "PRACTICES", obj: "smoking", neg: true}}},
		{name: "para: play violin", text: "I play the violin.", want: []want{{pred: "PRACTICES", obj: "violin"}}},
		{name: "para: went hiking", text: "We went hiking last weekend.", at: "2023-07-17", want: []want{
			{pred: "PRACTICES", obj: "hiking", from: "2023-07-15", says: "weekend of 15–16 July 2023"}}},
		{name: "para: museum", text: "Yesterday I took the kids to the museum.", at: "2023-07-06", want: []want{
			{pred: "VISITED", obj: "museum", from: "2023-07-05"}}},
		{name: "para: painted a sunrise", text: "I painted a sunrise over the lake last year.", at: "2023-05-08", want: []want{
			{pred: "CREATED", obj: "sunrise", from: "2022-01-01", says: "in 2022"}}},
		{name: "para: race", text: "I ran a charity race last Saturday.", at: "2023-05-25", want: []want{
			{pred: "ATTENDED", obj: "charity race", from: "2023-05-20"}}},
		{name: "para: thinking about", text: "We're thinking about visiting Japan next year.", want: []want{
			{pred: "PLANS", obj: "Japan", from: "2025-01-01"}}, none: []want{{pred: "VISITED", obj: "Japan"}}},
		{name: "para: signed up", text: "I just signed up for a pottery class yesterday.", at: "2023-07-03", want: []want{
			{pred: "MEMBER_OF", obj: "pottery class", from: "2023-07-02"}}},
		{name: "para: goal", text: "My goal is to open a bakery.", want: []want{{pred: "HAS_GOAL", obj: "bakery", says: "open a bakery"}}},
	})
}

func TestSchedulesAndAmounts(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "meeting on", text: "Our team meeting is on Mondays.", want: []want{
			{subj: "team meeting", pred: "SCHEDULED_ON", obj: "Mondays", says: "team meeting is on Mondays"}}},
		{name: "meeting moved", text: "The team meeting moved to Thursdays.", want: []want{
			{subj: "team meeting", pred: "SCHEDULED_ON", obj: "Thursdays", says: "Thursdays"}}},
		{name: "budget", text: "My budget for the trip is 2000 euros.", want: []want{
			{pred: "HAS_BUDGET", obj: "2000 euros", qual: "trip", says: "budget for the trip is 2000 euros"}}},
		{name: "budget now", text: "Update: my budget for the trip is now 3000 euros.", want: []want{
			{pred: "HAS_BUDGET", obj: "3000 euros", qual: "trip", says: "3000 euros"}}},
		{name: "birthday", text: "My birthday is on 8 May.", want: []want{{pred: "BORN_ON", obj: "8 May"}}},
		// paraphrases
		{name: "para: every wednesday", text: "My yoga class is every Wednesday at 6pm.", want: []want{
			{subj: "yoga class", pred: "SCHEDULED_ON", obj: "Wednesdays at 6pm"}}},
		{name: "para: rescheduled", text: "We rescheduled the standup to Tuesdays.", want: []want{
			{subj: "standup", pred: "SCHEDULED_ON", obj: "Tuesdays"}}},
		{name: "para: trip budget dollars", text: "Our trip budget is now $3,500.", want: []want{
			{pred: "HAS_BUDGET", obj: "$3,500", qual: "trip"}}},
		{name: "para: budget of", text: "I have a budget of 500 dollars for a new laptop.", want: []want{
			{pred: "HAS_BUDGET", obj: "500 dollars", qual: "laptop"}}},
		{name: "para: raised budget", text: "I raised my budget to 1200 euros.", want: []want{{pred: "HAS_BUDGET", obj: "1200 euros"}}},
		{name: "para: daughter birthday", text: "My daughter's birthday is in August.", want: []want{{subj: "daughter", pred: "BORN_ON", obj: "August"}}},
		{name: "para: lessons on", text: "I have piano lessons on Tuesdays.", want: []want{
			{subj: "piano lessons", pred: "SCHEDULED_ON", obj: "Tuesdays"}}},
	})
}

// A second held-out set, written after the rules, to keep them honest.
func TestHeldOutParaphrases(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "home is", text: "Home is Melbourne these days.", want: []want{{pred: "LIVES_IN", obj: "Melbourne"}}},
		{name: "is home", text: "Lisbon is home now.", want: []want{{pred: "LIVES_IN", obj: "Lisbon"}}},
		{name: "live with", text: "I live with my parents in Seoul.", want: []want{{pred: "LIVES_IN", obj: "Seoul"}}},
		{name: "husband and I moved", text: "My husband and I moved to Austin in 2021.", want: []want{
			{pred: "LIVES_IN", obj: "Austin", from: "2021-01-01"}, {pred: "MARRIED_TO", obj: "husband"}},
			none: []want{{subj: "husband", pred: "LIVES_IN", obj: "Austin"}}},
		{name: "recently moved", text: "I've recently moved to Toronto.", want: []want{{pred: "LIVES_IN", obj: "Toronto"}}},
		{name: "my new job is at", text: "My new job is at Spotify.", want: []want{{pred: "WORKS_AT", obj: "Spotify"}}},
		{name: "my employer is", text: "My employer is Initech.", want: []want{{pred: "WORKS_AT", obj: "Initech"}}},
		{name: "stopped working at", text: "I stopped working at Target last month.", want: []want{
			{pred: "WORKS_AT", obj: "Target", neg: true, from: "2024-08-01"}}},
		{name: "new position", text: "I just started a new position at Microsoft as a product manager.", want: []want{
			{pred: "WORKS_AT", obj: "Microsoft"}, {pred: "WORKS_AS", obj: "product manager"}}},
		{name: "working for now", text: "I'm working for Deloitte now.", want: []want{{pred: "WORKS_AT", obj: "Deloitte"}}},
		{name: "not for me", text: "Coffee isn't for me anymore.", want: []want{{pred: "LIKES", obj: "coffee", neg: true}}},
		{name: "all-time favourite", text: "Pizza is my all-time favourite.", want: []want{{pred: "HAS_FAVORITE", obj: "pizza"}}},
		{name: "no longer eat", text: "I no longer eat meat.", want: []want{{pred: "LIKES", obj: "meat", neg: true}}},
		{name: "become vegan", text: "I've become a vegan.", want: []want{{pred: "HAS_DIET", obj: "vegan"}}},
		{name: "vegetarian for years", text: "I've been vegetarian for five years.", want: []want{{pred: "HAS_DIET", obj: "vegetarian"}}},
		{name: "glass of wine", text: "I enjoy a good glass of red wine.", want: []want{{pred: "LIKES", obj: "red wine"}}},
		{name: "detest", text: "Honestly, I detest cilantro.", want: []want{{pred: "DISLIKES", obj: "cilantro"}}},
		{name: "not into sports", text: "I'm not really into sports.", want: []want{{pred: "LIKES", obj: "sports", neg: true}}},
		{name: "traded car", text: "I traded my Honda for a Subaru.", want: []want{
			{pred: "DRIVES", obj: "Subaru"}, {pred: "DRIVES", obj: "Honda", neg: true}}},
		{name: "traded a model in for a make", text: "We traded the Yaris in for a used Skoda estate.", want: []want{
			{pred: "DRIVES", obj: "used Skoda estate"}, {pred: "DRIVES", obj: "Yaris", neg: true}}},
		{name: "kitten named", text: "We got a kitten named Pepper.", want: []want{{pred: "HAS_PET", obj: "Pepper", qual: "kitten"}}},
		{name: "rescue dog his name", text: "I recently adopted a rescue dog, his name is Buddy.", want: []want{
			{pred: "HAS_PET", obj: "Buddy", qual: "dog", says: "Buddy"}}},
		{name: "girlfriend from", text: "My girlfriend Anna is from Brazil.", want: []want{
			{pred: "PARTNER_OF", obj: "Anna"}, {subj: "Anna", pred: "FROM", obj: "Brazil"}}, none: []want{{pred: "FROM", obj: "Brazil"}}},
		{name: "allergic list", text: "I'm allergic to cats and dust.", want: []want{{pred: "ALLERGIC_TO", obj: "cats"}, {pred: "ALLERGIC_TO", obj: "dust"}}},
		{name: "standup at 9", text: "Our standup is now on Wednesdays at 9.", want: []want{{subj: "standup", pred: "SCHEDULED_ON", obj: "Wednesdays at 9"}}},
		{name: "budget went up", text: "My trip budget went up to 4000 dollars.", want: []want{{pred: "HAS_BUDGET", obj: "4000 dollars", qual: "trip"}}},
		{name: "son turned", text: "My son turned 7 last week.", want: []want{{subj: "son", pred: "HAS_AGE", obj: "7"}}},
		{name: "fluent", text: "I'm fluent in German.", want: []want{{pred: "RELATED_TO", obj: "German", says: "speaks German"}}},
		{name: "favourite color", text: "My favorite color is blue.", want: []want{{pred: "HAS_FAVORITE", obj: "blue", qual: "color"}}},
	})
}
