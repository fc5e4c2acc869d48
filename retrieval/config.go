package retrieval

import "time"

// Fusion names how Search combines its signals.
const (
	// FusionWeighted sums the normalized signals, each times its weight.
	FusionWeighted = "weighted"
	// FusionRRF sums reciprocal ranks over the per-signal rankings.
	FusionRRF = "rrf"
)

// Config is every number ranking uses, grouped by the stage that reads it.
// The defaults (DefaultConfig) are documented in docs/retrieval.md and were
// chosen on the LoCoMo development conversations and the knowledge-update
// scenarios, then checked to hold on held-out wording. cmd/graphmem exposes
// the fusion, the signal and tier weights, the half-life and the hops as
// GRAPHMEM_SEARCH_* settings; the rest are fields for code and experiments.
type Config struct {
	// QueryCache is how many questions' vectors are kept per service for
	// when they are asked again (queryCache; about 1.6 KB each with
	// MiniLM); 0: every question is embedded.
	QueryCache int

	// --- candidates: what each index contributes -------------------------

	// Pool is the least number of full-text candidates the raw-turn index
	// contributes (and of nearest neighbours the vector index does): enough
	// that the priors and the graph can reorder them.
	Pool int
	// VectorPool is the least number of nearest neighbours the vector index
	// contributes. It is larger than Pool: a neighbour costs only its id
	// and short text, and a paraphrase often ranks lower by vector than
	// the evidence a keyword finds, yet sums with its other signals.
	VectorPool int
	// PoolPerResult raises Pool for large requests: at least this many raw
	// candidates per requested result.
	PoolPerResult int
	// FactPool and FactPoolPerResult size the fact index's pool the same
	// way, a little smaller: facts rarely reach the top in numbers.
	FactPool          int
	FactPoolPerResult int
	// EventPool and InsightPool are the summaries' and insights' pools:
	// summaries are long and match many queries weakly, and both rarely
	// reach the top, so small pools keep each search cheap.
	EventPool   int
	InsightPool int
	// PredicateHintGraph gives a fact found by full text this share of the
	// query's hint for its type as a graph score: a fact of the asked-about
	// kind is more relevant than its words alone say.
	PredicateHintGraph float64
	// WindowBoost raises a turn's full-text score by this share of the
	// normalized score of the summary covering it: a whole session's
	// summary finds the right part of a conversation more reliably than
	// single turns do.
	WindowBoost float64
	// VectorFloor and VectorSpan map a vector hit's cosine similarity to its
	// signal: (cos - VectorFloor) / VectorSpan, clipped to [0, 1]. A
	// sentence encoder of the MiniLM kind puts unrelated sentences near
	// cosine 0.1 and paraphrases above 0.6, so the raw cosine would give
	// every neighbour a large score; the floor removes that baseline and
	// the span makes a paraphrase count like a full-text best hit.
	VectorFloor float64
	VectorSpan  float64
	// FactVectorFloor: a fact read from a turn finds the turn for a
	// question about the user only from this cosine to the question up.
	// Below it a fact's short sentence is near the question by accident
	// ("The user has kids" at 0.12 to "How long does the user's journey to
	// work take?") and would bring in a turn nothing else found.
	FactVectorFloor float64
	// MeaningFloor, MeaningFull and MeaningMin: a raw turn, summary or
	// insight whose cosine to the query is below MeaningFull keeps only
	// (cos - MeaningFloor) / (MeaningFull - MeaningFloor) of its full-text
	// and graph signals, and at least MeaningMin of them (meaning.go).
	// MeaningFull <= MeaningFloor turns the gate off.
	MeaningFloor, MeaningFull, MeaningMin float64

	// --- query analysis --------------------------------------------------

	// WhHintWeight scales the fact types a question word asks for ("where":
	// a place or an organization) against those its topic asks for, so
	// "where does she work" prefers WORKS_AT over WORKS_AS without letting
	// "where" alone outweigh the topic.
	WhHintWeight float64

	// --- signals: the graph around the entities the query names ----------

	// MaxSeeds bounds how many entities graph search starts from, the most
	// specific first: a query names few things, and every seed costs hops.
	MaxSeeds int
	// MentionScale slows how fast an entity's specificity falls with its
	// mentions, 1/(1+ln(1+(mentions-1)/MentionScale)): an entity mentioned
	// once is fully specific, the two people of a conversation barely.
	MentionScale float64
	// RareSpecificity is the specificity from which a seed counts as rare:
	// the turns that mention it are fetched as candidates.
	RareSpecificity float64
	// MentionGraph is the graph score of a turn mentioning a rare seed, per
	// unit of that seed's specificity.
	MentionGraph float64
	// MentionLimit bounds the turns fetched for mentioning rare seeds.
	MentionLimit int
	// EntityCardGraph is the graph score of an entity card: it is exactly
	// what a query that only names the entity asks for.
	EntityCardGraph float64
	// EntityCardSources bounds the turns an entity card cites, taken from
	// the best facts about it.
	EntityCardSources int
	// TypedHopMinHint is the least hint weight that makes a fact type one
	// the walk follows; weaker hints only score facts found otherwise.
	TypedHopMinHint float64
	// Hops bounds graph traversal (1-3); HopDecay multiplies each hop's
	// scores, so a fact two hops away must say more to rank as high.
	Hops     int
	HopDecay float64
	// ExpandPerEntity bounds the facts of the asked-about types read per
	// seed on the first hop; NeighborsPerEntity bounds them per frontier
	// entity on the hops after it, which follow few entities.
	ExpandPerEntity    int
	NeighborsPerEntity int
	// A fact's graph score is min(decay × (RelevanceWeight × rel +
	// WordsWeight × words + JoinsWeight × joins), 1), where rel is its
	// type's hint times (HintFloor + HintCoverage × the share of the
	// topic's other stems it covers): a hinted type counts fully only when
	// the fact also covers the rest of the topic ("John is reading a book"
	// is a READ fact but says nothing of "favorite series"); words is the
	// share of the topic it covers; joins the specificity of the seeds it
	// joins ("Caroline went to the pride parade" is about a query naming
	// both, whatever its words).
	RelevanceWeight float64
	WordsWeight     float64
	JoinsWeight     float64
	HintFloor       float64
	HintCoverage    float64
	// FrontierMinScore is the least graph score through which an entity
	// reached joins the next hop's frontier; FrontierWidth bounds that
	// frontier to the best entities reached, so depth costs little.
	FrontierMinScore float64
	FrontierWidth    int
	// ReplyCandidates is how many of the best raw hits bring the turn that
	// answers them when they ask a question; ReplyGraph is that answer's
	// graph score per unit of the question's full-text score: an answer
	// rarely repeats the question's words.
	ReplyCandidates int
	ReplyGraph      float64
	// AckCandidates is how many of the best-matching turns someone other
	// than the asked person said lead to the asked person's statement they
	// reply to; AckGraph is that statement's graph signal per unit of the
	// reply's full-text signal (acknowledged.go).
	AckCandidates int
	AckGraph      float64
	// AckVectorCandidates: for a question about the user, this many of the
	// assistant's turns closest to it in meaning lead to the statement they
	// reply to as well, with AckVectorWeight times their vector signal in
	// place of the full-text one.
	AckVectorCandidates int
	AckVectorWeight     float64
	// AckReplyWeight scales, for a question about the user, the
	// assistant's reply whose acknowledged statement was found.
	AckReplyWeight float64

	// --- priors: adjustments before fusion --------------------------------

	// Full text is multiplied by TopicFloor + TopicWeight × the share of the
	// topic's stems a memory covers: a memory is rewarded for what it says
	// about the topic, not for the names it shares with the query (BM25
	// normalized per index makes the best name-only hit look perfect).
	TopicFloor  float64
	TopicWeight float64
	// SpeakerBoost scales turns spoken by a person the query names: they
	// answer it more often than turns addressed to them.
	SpeakerBoost float64
	// OtherSpeakerWeight scales turns spoken by someone other than the
	// persons the query names, when it names any: what Melanie does is told
	// by Melanie, and her friend's turns beside hers echo the topic without
	// being the evidence ("Which instruments does Melanie play?" is not
	// answered by her friend's "I play the guitar").
	OtherSpeakerWeight float64
	// QuestionWeight scales a question asked by someone other than the
	// person the query is about (it echoes the query's words, its reply is
	// the evidence), and the assistant's turns when the query is about the
	// user (its remarks are not evidence of what the user thinks).
	QuestionWeight float64

	// --- fusion ----------------------------------------------------------

	// Fusion is FusionWeighted or FusionRRF.
	Fusion string
	// The signals' weights in weighted fusion; WeightRecency applies in
	// both fusions, after the tier weight, to break ties between similar
	// memories rather than override relevance.
	WeightText    float64
	WeightVector  float64
	WeightGraph   float64
	WeightRecency float64
	// AboutUserWeightVector replaces WeightVector for a question about the
	// user ("the user", "I", "my"): it compares the user's own statements,
	// which people word unlike their later questions, so meaning counts
	// more than for a question naming people and things (0: WeightVector).
	AboutUserWeightVector float64
	// RRFK is reciprocal rank fusion's k: a signal's rank r adds
	// 1/(RRFK + r), so the first ranks differ little from the next ones.
	RRFK float64
	// HalfLife of the recency decay, 0.5^(age/HalfLife).
	HalfLife time.Duration
	// AccessDecay > 0 decays the best results by the years since they
	// were last returned, slower the more often (retrieval/access.go);
	// pinned and critical memories are exempt. 0, the default, changes
	// no ranking and reads nothing.
	AccessDecay float64
	// TierWeights scale each kind's score: a fact is a distilled, dated
	// statement; a summary is long and matches many queries weakly; an
	// entity's name alone answers little.
	TierWeights map[string]float64
	// StalePenalty scales raw turns whose every fact was superseded, when
	// history is not asked for.
	StalePenalty float64
	// NegativeFactWeight scales current negative facts ("no longer ..."):
	// a denial answers "does the user still...", not "what does the
	// user...", so it ranks below the statements it sits beside.
	NegativeFactWeight float64
	// HistoryWeight scales a superseded fact when history is asked for:
	// enough to put the current value first when both match the query
	// alike, too little to hide history behind weaker matches.
	HistoryWeight float64

	// --- de-duplication --------------------------------------------------

	// --- currency: the current truth first, for questions about the user

	// AssistantWeight, OwnQuestionWeight and ChatterWeight scale, for a
	// question about the user, an assistant's turn, a question the user
	// asked and a turn with no content: none is evidence of what holds
	// for the user.
	AssistantWeight   float64
	OwnQuestionWeight float64
	ChatterWeight     float64
	// SupersededWeight scales a statement a newer one on the same slot
	// replaced (and, for a question about the past, the newest one).
	SupersededWeight float64
	// SlotCandidates bounds how many of the best user statements the
	// currency stage reads the topic of (one vector read each).
	SlotCandidates int
	// TopicMatchShare raises a user statement on the topic the question
	// asks about to at least this share of the best candidate's relevance;
	// OffTopicWeight scales statements and facts of another topic.
	TopicMatchShare float64
	OffTopicWeight  float64
	// TopicClarity orders the statements raised for the asked topic: the
	// rest of the way above TopicMatchShare goes by the mean of a
	// statement's own relevance and its closeness to the topic's examples
	// (full from TopicClarity on, as TopicMatchShare of the best
	// candidate's relevance), so the statement that speaks of the topic
	// most plainly leads ("we have two grown-up daughters" before "I'd love
	// to make a family for kids who need one", for "Does the user have
	// children?"). 0: own relevance only.
	TopicClarity float64
	// TopicAffinity: a statement this close to the asked topic's examples
	// speaks of it, even when another topic edges it out.
	TopicAffinity float64
	// UpdateAffinity is the closeness to the asked topic's examples that
	// lets a statement the reader is unsure of join the asked slot when it
	// reports a change and names the new value (a new provider's name
	// reads as no topic).
	UpdateAffinity float64
	// ElaborationWeight scales a user's turn on a one-value slot whose
	// values are names or amounts when it names none and reports no change
	// ("Quieter, and there's a bakery on the corner" after the move to
	// Dresden): it says more about the value before it, not a newer one.
	ElaborationWeight float64
	// HypotheticalWeight and OtherPersonWeight scale a user's turn that is
	// hedged throughout ("maybe I'll retrain") or about someone else
	// throughout ("my dad retired"), for a question about the user.
	HypotheticalWeight float64
	OtherPersonWeight  float64
	// TemporaryWeight scales a user's turn, or a summary of such turns,
	// that says it holds only for a while ("I'm covering as matron for six
	// weeks"), for a question about the user that does not ask about the
	// moment: the lasting value of the slot answers it.
	TemporaryWeight float64
	// DeclinedWeight scales a user's turn that declines a change without
	// naming what it keeps ("I'll stay where I am. The ESG option costs
	// triple"), for a question about now: the statement it keeps answers.
	DeclinedWeight float64
	// PairSlotSimilarity: two user statements this close in meaning are
	// one slot even when the topic reader was unsure of their topic.
	PairSlotSimilarity float64
	// RevisedThingSimilarity is the cosine to the question, or to the
	// user's best answer to it, that the thing a newer statement says it
	// replaced ("Switched banks to Starling") needs for the statement to
	// revise that answer as the runner-up (runnerUpRevision), and, to the
	// question alone, to be raised for a qualified topic (topicAgreement).
	RevisedThingSimilarity float64
	// FactRevisionSimilarity is the cosine a newer statement that says it
	// revises something needs to the turn an older current fact of its
	// slot was read from, to mark that fact probably out of date
	// (outdatedFacts): it speaks of the same thing in other values.
	FactRevisionSimilarity float64
	// SlotQuerySimilarity is the cosine to the query a statement needs to
	// belong to a qualified slot when it shares no word with the query.
	SlotQuerySimilarity float64
	// ChangeSlotSlack lowers SlotQuerySimilarity for a statement that
	// marks itself as an update or a correction.
	ChangeSlotSlack float64
	// CorrectionReach is how many turns back a correction looks for the
	// user's statement it takes back.
	CorrectionReach int64

	// MaxMergedFacts bounds how many facts read from the same turns share
	// one result: one turn is one piece of evidence.
	MaxMergedFacts int
	// AggregateTurns is how many turns the one result answering a set
	// question ("What books has Tim read?") may cite (aggregate.go); 0
	// turns aggregation off.
	AggregateTurns int
}

// DefaultConfig returns the ranking defaults.
func DefaultConfig() Config {
	return Config{
		QueryCache: 4096, Pool: 30, VectorPool: 100, PoolPerResult: 3, FactPool: 25, FactPoolPerResult: 2, EventPool: 5, InsightPool: 5,
		PredicateHintGraph: 0.3, WindowBoost: 0.5, VectorFloor: 0.05, VectorSpan: 0.55, FactVectorFloor: 0.3,
		MeaningFloor: 0.05, MeaningFull: 0.3, MeaningMin: 0.1,

		WhHintWeight: 0.4,

		MaxSeeds: 4, MentionScale: 4, RareSpecificity: 0.5, MentionGraph: 0.5, MentionLimit: 20,
		EntityCardGraph: 1, EntityCardSources: 3, TypedHopMinHint: 0.4, Hops: 2, HopDecay: 0.5,
		ExpandPerEntity: 100, NeighborsPerEntity: 30,
		RelevanceWeight: 0.6, WordsWeight: 0.6, JoinsWeight: 0.8, HintFloor: 0.3, HintCoverage: 0.7,
		FrontierMinScore: 0.2, FrontierWidth: 4, ReplyCandidates: 15, ReplyGraph: 0.8, AckCandidates: 5, AckGraph: 0.6, AckReplyWeight: 0.5,
		AckVectorCandidates: 3, AckVectorWeight: 0.5,

		TopicFloor: 0.2, TopicWeight: 0.8, SpeakerBoost: 1.3, OtherSpeakerWeight: 0.5, QuestionWeight: 0.75,

		Fusion: FusionWeighted, WeightText: 1, WeightVector: 0.4, WeightGraph: 0.7, WeightRecency: 0.05, RRFK: 60, AboutUserWeightVector: 0.8,
		HalfLife:     180 * 24 * time.Hour,
		TierWeights:  map[string]float64{KindFact: 1.05, KindRaw: 1, KindInsight: 0.8, KindEvent: 0.55, KindEntity: 0.5},
		StalePenalty: 0.5, NegativeFactWeight: 0.75, HistoryWeight: 0.9,

		AssistantWeight: 0.5, OwnQuestionWeight: 0.5, ChatterWeight: 0.15, SupersededWeight: 0.5,
		SlotCandidates: 20, SlotQuerySimilarity: 0.35, FactRevisionSimilarity: 0.25, TopicMatchShare: 0.9, TopicClarity: 0.7, OffTopicWeight: 0.6, TopicAffinity: 0.35,
		UpdateAffinity: 0.26, ElaborationWeight: 0.6,
		HypotheticalWeight: 0.5, OtherPersonWeight: 0.6, TemporaryWeight: 0.6, DeclinedWeight: 0.6, PairSlotSimilarity: 0.55, RevisedThingSimilarity: 0.2,
		ChangeSlotSlack: 0.1, CorrectionReach: 4,

		MaxMergedFacts: 3, AggregateTurns: 6,
	}
}
