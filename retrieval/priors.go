package retrieval

import (
	"slices"
	"strings"
)

// priors is the third stage: it adjusts the signals of every candidate by
// what the query is about (topic coverage) and who is speaking (speaker
// and question priors), before fusion weighs them.
func (r *search) priors() {
	r.topicCoverage()
	r.speakerPrior()
}

// topicCoverage makes full text reward a memory by what it says about the
// topic, not by the names it shares with the query: BM25 normalized per
// index makes the best name-only fact look like a perfect match otherwise.
func (r *search) topicCoverage() {
	if len(r.topic) == 0 {
		return
	}
	for _, c := range r.set {
		if c.Parts.FullText > 0 {
			c.Parts.FullText *= r.cfg.TopicFloor + r.cfg.TopicWeight*r.tc.coverage(r.topic, c.Text)
		}
	}
}

// speakerPrior: a turn spoken by a person the query asks about answers it
// more often than one addressed to them; a question someone else asks them
// echoes the query's words but is not the evidence (its reply was added as
// a signal).
func (r *search) speakerPrior() {
	for _, c := range r.set {
		if c.Kind != KindRaw {
			continue
		}
		// About the user: the assistant's remarks ("Sushi is great.") are
		// not evidence of what the user thinks.
		if r.q.AboutUser && c.speaker == "" {
			continue // the currency stage's evidence priors
		}
		if c.speaker == "" || len(r.people) == 0 {
			continue
		}
		if slices.ContainsFunc(r.people, func(p string) bool { return strings.EqualFold(p, c.speaker) }) {
			c.Parts.FullText *= r.cfg.SpeakerBoost
			c.Parts.Graph *= r.cfg.SpeakerBoost
			continue
		}
		if strings.Contains(c.Text, "?") {
			c.Parts.FullText *= r.cfg.QuestionWeight
		}
		c.Parts.FullText *= r.cfg.OtherSpeakerWeight
		c.Parts.Graph *= r.cfg.OtherSpeakerWeight
	}
}
