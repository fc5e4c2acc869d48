package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Synthetic conversations for the throughput and scale runs: deterministic
// (seeded), with the vocabulary of personal chat (people, places, work,
// food, hobbies, dates) so full-text indexes and extraction see realistic
// term distributions rather than random strings.

// Constant vocabulary tables.
var (
	synthNames = [...]string{"Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Gustav", "Hana", "Ines", "Jamal",
		"Kenji", "Lena", "Mateo", "Nadia", "Oscar", "Priya", "Quentin", "Rosa", "Samir", "Tara", "Umar", "Vera",
		"Wei", "Ximena", "Yusuf", "Zoe", "Maria", "John", "Sofia", "Liam", "Amara", "Noah", "Elif", "Tomas"}
	synthRelatives = [...]string{"sister", "brother", "mom", "dad", "cousin", "best friend", "neighbor", "coworker",
		"roommate", "aunt", "uncle", "grandma", "partner", "boss", "daughter", "son"}
	synthPlaces = [...]string{"Berlin", "Lisbon", "Toronto", "Seattle", "Osaka", "Nairobi", "Austin", "Dublin",
		"Melbourne", "Prague", "Oslo", "Bogotá", "Marseille", "Denver", "Kyoto", "Vancouver", "Porto", "Boston",
		"the lake house", "the farmers market", "the old library", "the climbing gym", "the beach", "downtown"}
	synthActivities = [...]string{"hiking", "painting", "running", "baking sourdough", "rock climbing", "kayaking",
		"playing guitar", "learning Spanish", "gardening", "photography", "yoga", "chess", "camping", "cycling",
		"pottery", "birdwatching", "swimming", "writing a novel", "volunteering at the shelter", "woodworking"}
	synthFoods = [...]string{"sushi", "ramen", "tacos", "lasagna", "pho", "falafel", "paella", "dumplings",
		"curry", "pancakes", "a vegan burger", "oysters", "pad thai", "empanadas", "pizza", "risotto"}
	synthCompanies = [...]string{"Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries", "Wayne Foods",
		"Hooli", "Vandelay Imports", "Soylent", "Cyberdyne", "the city hospital", "a small design studio"}
	synthJobs = [...]string{"nurse", "data engineer", "teacher", "product manager", "chef", "accountant",
		"graphic designer", "software developer", "pharmacist", "carpenter", "researcher", "paramedic"}
	synthPets  = [...]string{"dog", "cat", "parrot", "rabbit", "turtle", "hamster"}
	synthTimes = [...]string{"yesterday", "last weekend", "on Monday", "two days ago", "last month", "this morning",
		"last summer", "on Friday night", "a few weeks ago", "over the holidays"}
	synthFeelings = [...]string{"exhausted but happy", "really proud", "a bit nervous", "so relaxed",
		"kind of overwhelmed", "super excited", "grateful", "surprisingly calm"}
	synthUser = [...]string{
		"I went {activity} with my {relative} {name} near {place} {time}.",
		"{time} I finally tried {food} at a tiny place in {place}, and it was amazing.",
		"My {relative} {name} just started working at {company} as a {job}.",
		"I've been thinking about moving to {place} next year because of the job market.",
		"I'm {feeling} after {activity} {time}.",
		"Do you remember what {name} said about {place}?",
		"We adopted a {pet} {time}; we named it {name}.",
		"I don't really like {food} anymore, it makes me feel sick.",
		"I work at {company} now, as a {job}, and the team is great.",
		"{name} and I are planning a trip to {place} in {month}.",
		"Can you help me plan a weekend of {activity} around {place}?",
		"My favourite food is {food}, I could eat it every day.",
		"I had a long call with {name} about {activity} {time}.",
		"I signed up for a {activity} class that starts on {month} {day}.",
		"Honestly I'm {feeling} about the interview at {company} on {month} {day}.",
	}
	synthAssistant = [...]string{
		"That sounds wonderful! How long have you been into {activity}?",
		"{place} is a great choice. Would you like a few suggestions for things to do there?",
		"Congratulations to {name}! Working at {company} as a {job} must be exciting.",
		"I'm glad you enjoyed the {food}. Did you try anything else?",
		"It's normal to feel {feeling}. Do you want to talk about it?",
		"Noted: you are planning a trip to {place} with {name} in {month}.",
		"A {pet} named {name} — lovely! How is it settling in?",
		"Here is a simple plan: start early, pack water, and check the weather for {place}.",
		"I'll remember that you don't like {food} anymore.",
		"Good luck with the interview at {company}! Let me know how it goes.",
	}
	synthQueries = [...]string{
		"Where did I go {activity} with {name}?",
		"What does my {relative} do for work?",
		"When is my trip to {place}?",
		"What food do I like?",
		"Where do I work now?",
		"What did {name} say about {place}?",
		"What is the name of my {pet}?",
		"When does my {activity} class start?",
		"How did I feel after {activity}?",
		"Who works at {company}?",
	}
	synthMonths = [...]string{"January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December"}
)

type synth struct{ r *rand.Rand }

func newSynth(seed uint64) *synth {
	return &synth{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// fill replaces the {slots} of a template with random vocabulary.
func (s *synth) fill(tpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			break
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(tpl)
			break
		}
		b.WriteString(tpl[:i])
		switch tpl[i+1 : i+j] {
		case "name":
			b.WriteString(pick(s.r, synthNames[:]))
		case "relative":
			b.WriteString(pick(s.r, synthRelatives[:]))
		case "place":
			b.WriteString(pick(s.r, synthPlaces[:]))
		case "activity":
			b.WriteString(pick(s.r, synthActivities[:]))
		case "food":
			b.WriteString(pick(s.r, synthFoods[:]))
		case "company":
			b.WriteString(pick(s.r, synthCompanies[:]))
		case "job":
			b.WriteString(pick(s.r, synthJobs[:]))
		case "pet":
			b.WriteString(pick(s.r, synthPets[:]))
		case "time":
			b.WriteString(pick(s.r, synthTimes[:]))
		case "feeling":
			b.WriteString(pick(s.r, synthFeelings[:]))
		case "month":
			b.WriteString(pick(s.r, synthMonths[:]))
		case "day":
			fmt.Fprint(&b, 1+s.r.IntN(28))
		}
		tpl = tpl[i+j+1:]
	}
	out := b.String()
	return strings.ToUpper(out[:1]) + out[1:]
}

// session returns n alternating user/assistant messages with ids
// prefix+index (from first), one second apart from start.
func (s *synth) session(prefix string, first, n int, start time.Time) []eventIn {
	out := make([]eventIn, n)
	for k := range n {
		i := first + k
		role, tpl := "user", pick(s.r, synthUser[:])
		if i%2 == 1 {
			role, tpl = "assistant", pick(s.r, synthAssistant[:])
		}
		text := s.fill(tpl)
		if role == "user" && s.r.IntN(3) == 0 {
			text += " " + s.fill(pick(s.r, synthUser[:]))
		}
		out[k] = eventIn{ID: fmt.Sprintf("%s%d", prefix, i), Kind: "message", Role: role, Content: text,
			OccurredAt: start.Add(time.Duration(i) * time.Second).UTC().Format(time.RFC3339)}
	}
	return out
}

// query returns a question in the same vocabulary.
func (s *synth) query() string { return s.fill(pick(s.r, synthQueries[:])) }
