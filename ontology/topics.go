package ontology

// Topic is a kind of thing a user says about themself that has a current
// value: where they live, whom they work for, their favourite dish. It is
// the slot a statement or a question speaks of when no extracted fact
// says so: the knowledge package reads it from a sentence by comparing the
// sentence's embedding with these labelled examples, so it follows the
// meaning of a statement, not its words.
//
// The examples are written for that purpose: short, first person for the
// statements, about "the user" for the questions, and varied in wording.
// They are data, not rules: adding a topic or an example needs no code.
// None of them is a line of the evaluation sets (bench/data, the shared
// knowledge-update scenarios); a test checks it.
type Topic struct {
	Name string
	// Cardinality says whether a newer statement on the topic replaces the
	// older (One: one home, one employer) or adds to it (Many: likes).
	Cardinality Cardinality
	// Qualified topics hold one value per qualifier (a favourite per
	// category, a measure per quantity): two statements share a slot only
	// when they also speak of the same qualifier.
	Qualified bool
	// Predicates are the fact types that record a value of the topic.
	Predicates []string
	Statements []string
	Questions  []string
}

// TopicChatter is the topic of talk that states nothing about the user
// (greetings, thanks, acknowledgements); it never supersedes anything.
const TopicChatter = "chatter"

// TopicMeasure is the topic of the user's quantities (weight, pay, rent,
// distances, durations): one value per quantity.
const TopicMeasure = "measure"

// TopicSchedule is the topic of when things happen (appointments, classes,
// routines): a new day or time revises it, and no other topic.
const TopicSchedule = "schedule"

// Topics lists every topic with its examples.
func Topics() []Topic {
	return []Topic{
		{Name: "home", Cardinality: One, Predicates: []string{"LIVES_IN"},
			Statements: []string{"I live just outside Valencia.", "We just moved into a flat in Hamburg.", "My home is a small house near Porto.",
				"I relocated to Denver last spring.", "These days I'm based in Toronto."},
			Questions: []string{"In which town does the user reside?", "What city does the user call home?", "Where is the user's flat or house?"}},
		{Name: "work", Cardinality: One, Predicates: []string{"WORKS_AT", "WORKS_AS"},
			Statements: []string{"I work as a nurse at the city hospital.", "I'm a software engineer at a fintech startup.",
				"I got a new job at the bank.", "My employer is a logistics company.", "I quit my job and now I freelance as a designer.",
				"I teach history to teenagers.", "I'm a chef in an Italian restaurant.", "I run my own plumbing business."},
			Questions: []string{"How does the user earn a living?", "Which company employs the user?", "What line of work is the user in?"}},
		{Name: "study", Cardinality: One, Predicates: []string{"STUDIES_AT", "STUDIES"},
			Statements: []string{"I'm studying law at the university.", "I enrolled in a nursing programme.",
				"I'm doing a master's degree in chemistry.", "I dropped out of my engineering course."},
			Questions: []string{"Which course is the user enrolled in?", "Which school does the user attend?", "What degree is the user doing?"}},
		{Name: "partner", Cardinality: One, Predicates: []string{"MARRIED_TO", "PARTNER_OF"},
			Statements: []string{"My girlfriend and I have been together for two years.", "I'm married to Daniel.",
				"I broke up with my boyfriend.", "I started dating someone new.", "My wife is a teacher."},
			Questions: []string{"Who is the user married to or living with?", "Does the user have a boyfriend or girlfriend?", "Is the user seeing anyone?"}},
		{Name: "pet", Cardinality: Many, Predicates: []string{"HAS_PET"},
			Statements: []string{"I have a cat called Miso.", "We adopted a puppy last week.", "My dog is a beagle.",
				"Our old rabbit died in the spring."},
			Questions: []string{"Which animals live with the user?", "Does the user have a dog?", "What is the user's dog called?"}},
		{Name: "favourite", Cardinality: One, Qualified: true, Predicates: []string{"HAS_FAVORITE"},
			Statements: []string{"My favourite food is ramen.", "Blue is my favourite colour.", "The band I love most is Radiohead.",
				"My go-to drink is iced coffee.", "The dish I order most often is pad thai."},
			Questions: []string{"What is the user's favourite food?", "What is the user's favourite colour?", "Which band does the user like best?"}},
		{Name: "measure", Cardinality: One, Qualified: true, Predicates: []string{"HAS_MEASURE"},
			Statements: []string{"I weigh 72 kilos.", "My salary is 60k a year.", "My rent is 900 euros a month.",
				"The drive to the office takes me 40 minutes.", "I sleep about six hours a night."},
			Questions: []string{"How much does the user weigh?", "What is the user's income?", "How long is the user's commute?"}},
		{Name: "commute", Cardinality: One, Predicates: []string{"COMMUTES_BY"},
			Statements: []string{"I take the train to work.", "I cycle to the office every day.", "I drive to work.",
				"I've started taking the bus instead of driving."},
			Questions: []string{"What does the user take to reach the office?", "What transport does the user use to commute?"}},
		{Name: TopicSchedule, Cardinality: One, Qualified: true, Predicates: []string{"HAS_ROUTINE"},
			Statements: []string{"My dentist appointment is on Tuesday.", "I go to the gym on Mondays and Thursdays.",
				"Yoga class is every Wednesday evening.", "I moved my doctor's appointment to Friday."},
			Questions: []string{"When is the user's appointment?", "Which day does the user go to the gym?", "When does the user have class?"}},
		{Name: "diet", Cardinality: One, Predicates: []string{"HAS_DIET"},
			Statements: []string{"I stopped eating meat years ago.", "I went vegan last month.", "I don't eat meat any more.",
				"I'm on a low-carb diet.", "I started eating fish again."},
			Questions: []string{"How does the user eat?", "Does the user eat meat?", "Does the user avoid meat?"}},
		{Name: "vehicle", Cardinality: One, Predicates: []string{"DRIVES"},
			Statements: []string{"I drive a little Honda hatchback.", "I sold my car.", "I bought an electric scooter.", "My car is an old Volvo."},
			Questions:  []string{"Which car is the user driving these days?", "Does the user have a car or a bike?"}},
		// The providers and software the user relies on hold one current
		// value per kind (one bank, one broadband provider, one editor):
		// "which bank is the user with" asks for the newest, not for every
		// bank ever named. Without this topic such questions read as work.
		// Devices are left out: their examples pulled statements about
		// cars and vans away from the vehicle topic.
		{Name: "service", Cardinality: One, Qualified: true,
			Statements: []string{"I bank with Starling these days.", "Our electricity comes from Octopus Energy.",
				"I keep all my notes in Obsidian.", "I'm on an EE contract for my mobile.", "We switched our broadband to Sky.",
				"I use Firefox as my browser.", "I've got a Spotify family plan."},
			Questions: []string{"Which app does the user use for that?", "Which internet or mobile provider is the user with?",
				"Which software does the user work with?", "Which bank is the user with?"}},
		{Name: "likes", Cardinality: Many, Predicates: []string{"LIKES", "DISLIKES"},
			Statements: []string{"I love spicy food.", "I can't stand horror films.", "Jazz really grew on me.",
				"I've gone off coffee lately.", "I enjoy long walks."},
			Questions: []string{"What does the user like?", "Does the user like jazz?", "What food does the user dislike?"}},
		{Name: "hobby", Cardinality: Many, Predicates: []string{"PRACTICES"},
			Statements: []string{"I play the guitar in my free time.", "I've taken up pottery.", "I go climbing at weekends.",
				"I stopped running marathons."},
			Questions: []string{"What does the user enjoy doing at weekends?", "What does the user do in their free time?"}},
		{Name: "health", Cardinality: Many, Predicates: []string{"ALLERGIC_TO", "HAS_CONDITION"},
			Statements: []string{"Shellfish gives me a bad allergic reaction.", "I have asthma.", "I broke my wrist last month.", "My back pain is gone now."},
			Questions:  []string{"Is the user allergic to anything?", "What health problems does the user have?"}},
		{Name: "family", Cardinality: Many, Predicates: []string{"HAS_CHILD", "PARENT_OF", "CHILD_OF", "SIBLING_OF", "HAS_PARENT", "RELATIVE_OF"},
			Statements: []string{"My daughter just started primary school.", "We have two boys, aged four and nine.",
				"My brother is an accountant in Leeds.", "My dad has been living with us since the operation.",
				"Our baby was born in March.", "I look after my grandmother at weekends."},
			Questions: []string{"Does the user have any children?", "Who is in the user's family?", "Does the user have brothers or sisters?"}},
		{Name: "travel", Cardinality: Many, Predicates: []string{"VISITED", "TRAVELED_TO", "TRAVELLED_TO", "WENT_TO"},
			Statements: []string{"We spent two weeks hiking in Norway last summer.", "I've booked flights to Mexico for the spring.",
				"The road trip through Scotland was amazing.", "We're going to Rome for our anniversary.", "I flew back from Singapore yesterday."},
			Questions: []string{"Which countries has the user visited?", "Where is the user going on vacation?", "What trip is the user planning?"}},
		{Name: "reading", Cardinality: Many, Predicates: []string{"READ"},
			Statements: []string{"I just finished a thriller by Jo Nesbo.", "I'm halfway through a biography of Lincoln.",
				"My book club picked a fantasy novel this month.", "I listen to audiobooks on the way to work."},
			Questions: []string{"What books has the user read?", "Which novel is the user reading?"}},
		{Name: "contact", Cardinality: One, Qualified: true, Predicates: []string{"HAS_CONTACT"},
			Statements: []string{"My email is sam@example.com.", "My new phone number is 555 0134.", "You can reach me at my work address."},
			Questions:  []string{"What is the user's email address?", "What is the user's phone number?"}},
		{Name: TopicChatter, Cardinality: Many,
			Statements: []string{"Thanks, that's helpful!", "Great, sounds good.", "Hi there!", "Okay, got it.", "Lovely, cheers."},
			Questions:  []string{"Can you help me with something?", "What do you think?"}},
	}
}
