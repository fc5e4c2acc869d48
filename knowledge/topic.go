package knowledge

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/graphmem/graphmem/ontology"
)

// Embedder turns texts into unit vectors; the topic reader needs it once,
// to embed the ontology's labelled examples.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// TopicReading is which topic a sentence speaks of, by meaning.
type TopicReading struct {
	Topic  string  // "" when unsure
	Best   string  // the closest topic, sure or not
	Score  float64 // similarity to the best topic's examples
	Margin float64 // lead over the second-best topic
}

// TopicReader says which ontology topic a sentence or a question speaks of
// by comparing its embedding with the topics' labelled examples: the mean
// of its two best similarities to each topic's examples, the best topic if
// it is similar enough and ahead of the next by a margin, else "unknown".
// Patterns still read the values (names, places, numbers); the embedder
// decides the topic, where word lists run out ("the boxes are finally
// unpacked in our new flat" is about home without any home word).
type TopicReader struct {
	emb    Embedder
	topics []ontology.Topic
	// MinScore and MinMargin are the bars of a sure reading.
	MinScore, MinMargin float64

	once sync.Mutex
	vecs [][][]float32 // per topic, per example
}

// NewTopicReader builds a reader over the ontology's topics; its examples
// are embedded on first use (Prepare), so a failing embedder at start does
// not stop the service.
func NewTopicReader(emb Embedder) *TopicReader {
	return &TopicReader{emb: emb, topics: ontology.Topics(), MinScore: 0.3, MinMargin: 0.02}
}

// Prepare embeds the examples once; a failure is returned and retried on
// the next call.
func (t *TopicReader) Prepare(ctx context.Context) error {
	t.once.Lock()
	defer t.once.Unlock()
	if t.vecs != nil {
		return nil
	}
	var texts []string
	for _, tp := range t.topics {
		texts = append(texts, tp.Statements...)
		texts = append(texts, tp.Questions...)
	}
	// Each example is embedded alone, as a question is at search time: an
	// embedder may compute a batch together (the query side quantizes
	// activations per batch), and an example's vector must not depend on
	// which examples share its batch, or adding a topic would move the
	// readings of every other.
	vecs := make([][]float32, 0, len(texts))
	for _, text := range texts {
		v, err := t.emb.Embed(ctx, []string{text})
		if err != nil {
			return fmt.Errorf("embed topic examples: %w", err)
		}
		if len(v) != 1 {
			return fmt.Errorf("embed topic examples: %d vectors for 1 text", len(v))
		}
		vecs = append(vecs, v[0])
	}
	out := make([][][]float32, len(t.topics))
	i := 0
	for k, tp := range t.topics {
		n := len(tp.Statements) + len(tp.Questions)
		out[k] = vecs[i : i+n]
		i += n
	}
	t.vecs = out
	return nil
}

// Read returns the topic of the sentence whose embedding is vec. It must
// follow a successful Prepare; before that it is unsure.
func (t *TopicReader) Read(vec []float32) TopicReading {
	t.once.Lock()
	vecs := t.vecs
	t.once.Unlock()
	if vecs == nil || len(vec) == 0 {
		return TopicReading{}
	}
	type scored struct {
		topic string
		score float64
	}
	all := make([]scored, len(t.topics))
	for k, tp := range t.topics {
		sims := make([]float64, 0, len(vecs[k]))
		for _, ex := range vecs[k] {
			sims = append(sims, Cosine(vec, ex))
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(sims)))
		top := sims[0]
		if len(sims) > 1 {
			top = (sims[0] + sims[1]) / 2
		}
		all[k] = scored{tp.Name, top}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	r := TopicReading{Best: all[0].topic, Score: all[0].score, Margin: math.Inf(1)}
	if len(all) > 1 {
		r.Margin = all[0].score - all[1].score
	}
	if r.Score >= t.MinScore && r.Margin >= t.MinMargin {
		r.Topic = all[0].topic
	}
	return r
}

// Affinity is how close vec is to one topic's examples (the mean of its two
// best cosines), whichever topic it is closest to: a statement can speak of
// the asked topic while another topic edges it out ("I work for a hospital
// analytics firm" is work, and a little health).
func (t *TopicReader) Affinity(vec []float32, topic string) float64 {
	t.once.Lock()
	vecs := t.vecs
	t.once.Unlock()
	for k, tp := range t.topics {
		if tp.Name != topic || vecs == nil {
			continue
		}
		best, second := -1.0, -1.0
		for _, ex := range vecs[k] {
			switch s := Cosine(vec, ex); {
			case s > best:
				best, second = s, best
			case s > second:
				second = s
			}
		}
		if second < -0.5 {
			return best
		}
		return (best + second) / 2
	}
	return 0
}

// TopicOfPredicate names the topic whose values a fact type records, or "".
func (t *TopicReader) TopicOfPredicate(predicate string) string {
	for _, tp := range t.topics {
		for _, p := range tp.Predicates {
			if p == predicate {
				return tp.Name
			}
		}
	}
	return ""
}

// Topic returns the ontology topic of that name.
func (t *TopicReader) Topic(name string) (ontology.Topic, bool) {
	for _, tp := range t.topics {
		if tp.Name == name {
			return tp, true
		}
	}
	return ontology.Topic{}, false
}

// Cosine is the cosine similarity of two unit vectors (their dot product).
func Cosine(a, b []float32) float64 {
	n := min(len(a), len(b))
	s := 0.0
	for i := range n {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
