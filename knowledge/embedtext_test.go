package knowledge

import "testing"

func TestEmbeddingTextKeepsWhatTheSpeakerSays(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// A statement with a request after it: the statement.
		{"We finally moved to Cardiff last month. Can you help me find a GP near Roath?", "We finally moved to Cardiff last month."},
		{"I cycle to work, 25 minutes each way. What lights should I buy for the winter?", "I cycle to work, 25 minutes each way."},
		{"Any ideas for dinner? I'm off gluten since March.", "I'm off gluten since March."},
		// Questions around statements: every statement, in order.
		{"I sold the Corolla. Was that silly? We bought a Tesla instead.", "I sold the Corolla. We bought a Tesla instead."},
		// A question with the speaker's own clause before its question word states it.
		{"Now that I drive a Kia Niro, what's the best way to charge it? Thanks!", "Now that I drive a Kia Niro, what's the best way to charge it? Thanks!"},
		{"Since I'm vegetarian, could you swap the chicken? Also the rice.", "Since I'm vegetarian, could you swap the chicken? Also the rice."},
		{"My flight leaves at 6:40 on Friday, when should I leave? Ugh.", "My flight leaves at 6:40 on Friday, when should I leave? Ugh."},
		// Only a question, or a question beside chatter: the whole turn.
		{"Can you recommend a graded reader for Spanish?", "Can you recommend a graded reader for Spanish?"},
		{"Thanks so much! Could you suggest a cheaper cake?", "Thanks so much! Could you suggest a cheaper cake?"},
		// Nothing asked: unchanged.
		{"I weigh 82 kg. I want to get to 75.", "I weigh 82 kg. I want to get to 75."},
		{"Please keep your answers short. I read them on my phone.", "Please keep your answers short. I read them on my phone."},
	} {
		if got := EmbeddingText(c.in); got != c.want {
			t.Errorf("EmbeddingText(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
