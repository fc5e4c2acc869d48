package offline

// The index of what the offline engine understands. A clause is analysed
// once (clause.go), then offered to the frames, the rules that a clause's
// shape decides whatever its verb ("my favourite food is sushi"), and
// failing those to the rule of its main verb, or to the complements of
// "be" when it has none (complements.go). A verb that is not in the table
// yields no fact; its names are still mentioned.
//
// Adding a kind of fact is adding a recogniser: a rules_<kind>.go file with
// a <kind>Rules type whose fields name the recognisers it hands clauses to,
// a field for it in recognizers, and its verbs, frames and complements
// registered here and in complements.go. Its words go in the lexicon files.

// recognizers are the engine's recognisers, one per kind of fact, wired to
// each other where one reading implies another's fact ("I got a job at
// Globex" is a get-clause that names an employer). They hold no state of
// their own, so one set serves every call of an Engine concurrently.
type recognizers struct {
	kin         *kinRules
	couples     *coupleRules
	places      *placeRules
	work        *workRules
	study       *studyRules
	tastes      *tasteRules
	favourites  *favouriteRules
	switches    *switchRules
	possessions *possessionRules
	budgets     *budgetRules
	measures    *measureRules
	schedules   *scheduleRules
	hobbies     *hobbyRules
	outings     *outingRules
	plans       *planRules
	identity    *identityRules
	health      *healthRules

	// verbs maps a main verb's lemma to the rule that reads its clause.
	verbs map[string]func(*clause)
	// frames are tried in order before the verb's rule; the first that
	// matches reads the clause.
	frames []func(*clause) bool
}

func newRecognizers() *recognizers {
	r := &recognizers{
		kin: &kinRules{}, couples: &coupleRules{}, places: &placeRules{}, work: &workRules{},
		study: &studyRules{}, tastes: &tasteRules{}, favourites: &favouriteRules{}, switches: &switchRules{},
		possessions: &possessionRules{}, budgets: &budgetRules{}, measures: &measureRules{}, schedules: &scheduleRules{},
		hobbies: &hobbyRules{}, outings: &outingRules{}, plans: &planRules{}, identity: &identityRules{},
		health: &healthRules{},
	}
	r.kin.plans = r.plans
	r.places.plans, r.places.schedules, r.places.switches = r.plans, r.schedules, r.switches
	r.switches.places = r.places
	r.work.hobbies = r.hobbies
	r.study.plans = r.plans
	r.tastes.plans = r.plans
	r.possessions.plans = r.plans
	r.hobbies.plans, r.hobbies.study, r.hobbies.work = r.plans, r.study, r.work
	r.outings.health, r.outings.hobbies, r.outings.plans, r.outings.study = r.health, r.hobbies, r.plans, r.study
	r.identity.work = r.work

	r.verbs = map[string]func(*clause){
		// places
		"live": r.either(r.places.ruleLive, r.kin.livesWith), "reside": r.places.ruleLive, "stay": r.either(r.places.ruleLive, r.possessions.stayOn, r.kin.livesWith), "stick": r.either(nil, r.possessions.stayOn),
		"move": r.either(r.places.ruleMove, r.kin.livesWith), "relocate": r.places.ruleMove,
		"settle": r.places.ruleSettle,
		"come":   r.either(r.places.ruleCome, r.tastes.turnaround, r.tastes.begunToLike), "hail": r.places.ruleCome,
		"grow":  r.either(r.places.ruleGrow, r.study.grewUpSpeaking, r.tastes.grownFond),
		"visit": r.places.ruleVisit, "travel": r.places.ruleVisit, "fly": r.places.ruleVisit, "tour": r.places.ruleVisit,
		"explore": r.places.ruleVisit,
		// work
		"work":  r.either(r.work.ruleWork, r.workFreelance),
		"join":  r.work.ruleJoin,
		"leave": r.either(r.work.ruleLeave, r.leftStudy), "quit": r.either(r.work.ruleLeave, r.leftStudy, r.hobbies.quitTaking), "resign": r.work.ruleLeave, "freelance": r.work.ruleFreelance, "retire": r.work.ruleLeave,
		"volunteer": r.work.ruleVolunteer, "qualify": r.work.ruleQualify,
		// study
		"learn": r.either(r.study.ruleLearn, r.tastes.begunToLike), "study": r.either(r.study.ruleStudy, r.study.examPrep, r.work.studyingToBe),
		"prepare": r.either(nil, r.study.examPrep), "revise": r.either(nil, r.study.examPrep),
		"transfer": r.study.ruleTransfer,
		"cram":     r.either(nil, r.study.examPrep), "train": r.either(r.work.apprentice, r.study.examPrep), "retrain": r.work.apprentice,
		"apprentice": r.work.apprentice, "drop": r.either(r.study.ruleDrop, r.switches.droppedFor, r.droppedPursuit), "ditch": r.either(r.switches.ruleSwitch, r.switches.droppedFor, r.droppedPursuit), "dump": r.either(r.switches.ruleSwitch, r.switches.droppedFor, r.droppedPursuit), "enrol": r.study.enrol, "enroll": r.study.enrol, "graduate": r.study.ruleGraduate,
		"speak": r.study.ruleSpeak,
		// tastes
		"like": r.tastes.ruleLike, "love": r.tastes.ruleLike, "adore": r.tastes.ruleLike, "enjoy": r.tastes.ruleLike,
		"fancy": r.tastes.ruleLike, "hate": r.tastes.ruleLike, "dislike": r.tastes.ruleLike, "detest": r.tastes.ruleLike,
		"loathe": r.tastes.ruleLike, "despise": r.tastes.ruleLike, "stand": r.tastes.ruleLike,
		"handle": r.either(nil, r.tastes.cannotEndure), "bear": r.either(nil, r.tastes.cannotEndure),
		"stomach": r.either(nil, r.tastes.cannotEndure), "face": r.either(nil, r.tastes.cannotEndure), "tolerate": r.either(nil, r.tastes.cannotEndure),
		"prefer": r.tastes.rulePrefer,
		"book":   r.either(nil, r.tastes.habitChoice, r.plans.bookedTrip), "order": r.either(nil, r.tastes.habitChoice),
		"request": r.either(nil, r.tastes.habitChoice), "reserve": r.either(nil, r.tastes.habitChoice),
		"avoid": r.either(nil, r.tastes.avoidTaste), "steer": r.either(nil, r.tastes.avoidTaste),
		"find": r.tastes.ruleFind, "warm": r.tastes.ruleTurn, "fall": r.tastes.ruleTurn, "convert": r.tastes.ruleTurn, "kick": r.tastes.ruleTurn,
		"drink": r.tastes.ruleConsume, "eat": r.either(r.tastes.ruleConsume, r.health.dietPractice), "try": r.either(r.tastes.triedKind, r.health.dietPractice),
		"suffer": r.either(nil, r.health.sufferFrom), "recover": r.either(nil, r.health.sufferFrom),
		"support": r.tastes.ruleSupport, "root": r.tastes.ruleSupport, "cheer": r.tastes.ruleSupport,
		// switches
		"switch": r.switches.ruleSwitch, "replace": r.switches.ruleSwitch, "change": r.switches.ruleSwitch,
		"trade": r.switches.ruleSwitch, "swap": r.switches.ruleSwitch, "exchange": r.switches.ruleSwitch,
		// possessions
		"drive": r.possessions.ruleDrive, "treat": r.possessions.treatedTo, "upgrade": r.possessions.upgradedTo, "bring": r.either(nil, r.kin.broughtHome),
		"own": r.possessions.ruleOwn, "buy": r.possessions.ruleOwn, "purchase": r.possessions.ruleOwn,
		"rent": r.either(r.possessions.ruleOwn, r.places.rentIn), "lease": r.possessions.ruleOwn,
		"sell": r.possessions.ruleSell, "inherit": r.possessions.ruleInherit,
		"use":  r.possessions.ruleUse,
		"keep": r.either(r.possessions.ruleKeep, r.tastes.keepReachingFor, r.keptAnimals),
		// kin
		"adopt": r.kin.ruleAdopt, "rescue": r.kin.ruleAdopt,
		"pass": r.either(r.kin.ruleEnding, r.study.examPassed), "die": r.kin.ruleEnding, "rehome": r.kin.ruleEnding, "rehouse": r.kin.ruleEnding, "lose": r.either(r.kin.ruleEnding, r.tastes.lostInterest, r.possessions.lostThing), "bury": r.kin.ruleEnding,
		"put": r.either(r.kin.ruleEnding, r.work.gaveNotice), "say": r.either(r.kin.ruleEnding, r.tastes.neverSayNo), "care": r.either(nil, r.tastes.caresFor, r.kin.caresForRelative),
		"celebrate": r.kin.ruleCelebrate,
		// couples
		"marry": r.couples.ruleMarry, "date": r.couples.ruleDate, "break": r.either(r.couples.ruleBreak, r.health.injured),
		"sprain": r.either(nil, r.health.injured), "fracture": r.either(nil, r.health.injured), "tear": r.either(nil, r.health.injured),
		"twist": r.either(nil, r.health.injured), "dislocate": r.either(nil, r.health.injured), "injure": r.either(nil, r.health.injured),
		"hurt": r.either(nil, r.health.injured), "strain": r.either(nil, r.health.injured), "rupture": r.either(nil, r.health.injured),
		"split": r.couples.ruleBreak, "part": r.either(nil, r.couples.separateWays), "call": r.either(r.plans.ruleCancel, r.couples.separateWays), "cancel": r.plans.ruleCancel, "see": r.couples.ruleSee,
		"divorce": r.couples.ruleDivorce, "tie": r.either(nil, r.couples.tiedTheKnot), "propose": r.couples.ruleProposed,
		// outings
		"go": r.either(r.outings.ruleGo, r.tastes.turnaround, r.goFreelance, r.couples.separateWays), "take": r.either(r.outings.ruleTake, r.study.courseIn, r.tastes.wouldPickOver, r.tookUp, r.possessions.takeNewVehicle), "attend": r.outings.ruleAttend, "head": r.outings.ruleGo,
		"watch": r.either(r.outings.ruleWatch, r.tastes.habitTaste), "binge": r.outings.ruleWatch, "rewatch": r.outings.ruleWatch,
		"finish": r.outings.ruleFinish, "sign": r.outings.ruleSign,
		// hobbies
		"start": r.either(r.hobbies.ruleStart, r.work.startedJob, r.tastes.begunToLike, r.couples.startSeeing, r.study.doingDegree),
		"begin": r.either(r.hobbies.ruleStart, r.work.startedJob, r.tastes.begunToLike, r.study.doingDegree),
		"stop":  r.hobbies.ruleStop, "give": r.either(r.hobbies.ruleGive, r.kin.petEnding, r.possessions.givenMe, r.possessions.ruleGiveAway, r.work.gaveNotice), "hand": r.either(nil, r.work.gaveNotice),
		"run": r.either(r.hobbies.ruleActivity, r.work.runsBusiness), "swim": r.hobbies.ruleActivity, "paint": r.hobbies.ruleActivity,
		"draw": r.hobbies.ruleActivity, "cook": r.hobbies.ruleActivity, "bake": r.hobbies.ruleActivity,
		"hike": r.hobbies.ruleActivity, "dance": r.hobbies.ruleActivity, "sing": r.hobbies.ruleActivity,
		"write": r.hobbies.ruleActivity, "knit": r.hobbies.ruleActivity, "garden": r.hobbies.ruleActivity,
		"surf": r.hobbies.ruleActivity, "ski": r.hobbies.ruleActivity, "climb": r.hobbies.ruleActivity,
		"meditate": r.hobbies.ruleActivity, "jog": r.hobbies.ruleActivity, "cycle": r.hobbies.ruleActivity,
		"bike": r.hobbies.ruleActivity, "camp": r.hobbies.ruleActivity, "fish": r.hobbies.ruleActivity,
		"read": r.either(r.hobbies.ruleActivity, r.tastes.habitTaste), "reread": r.hobbies.ruleActivity, "listen": r.either(nil, r.tastes.habitTaste), "make": r.either(r.hobbies.ruleActivity, r.work.madeRedundant), "create": r.hobbies.ruleActivity,
		"build": r.hobbies.ruleActivity, "compose": r.hobbies.ruleActivity, "collect": r.hobbies.ruleCollect,
		"brew": r.hobbies.ruleActivity, "sew": r.hobbies.ruleActivity, "crochet": r.hobbies.ruleActivity,
		"spend": r.either(r.hobbies.ruleSpend, r.budgets.canSpend, r.outings.spentIn), "teach": r.either(r.work.ruleTeach, r.study.taughtSelf), "help": r.work.ruleHelpOut, "promote": r.work.rulePromoted,
		"pick": r.either(r.hobbies.rulePickUp, r.possessions.pickedUpThing, r.tastes.wouldPickOver, r.tastes.habitChoice), "choose": r.either(nil, r.tastes.wouldPickOver, r.tastes.habitChoice),
		"develop": r.either(nil, r.tastes.developedTaste), "acquire": r.either(nil, r.tastes.developedTaste),
		"play": r.hobbies.rulePlay, "practice": r.hobbies.rulePractice, "practise": r.hobbies.rulePractice,
		"smoke": r.hobbies.ruleHabit, "vape": r.hobbies.ruleHabit, "touch": r.hobbies.untouched, "pack": r.hobbies.packedIn,
		"boulder": r.hobbies.ruleActivity,
		"do":      r.either(r.hobbies.rulePractice, r.health.dietPractice, r.study.courseIn, r.tastes.doneWith, r.study.doingDegree, r.tastes.cannotEndure),
		// plans
		"plan": r.plans.rulePlan, "intend": r.plans.rulePlan, "want": r.plans.rulePlan, "hope": r.plans.rulePlan,
		"aim": r.plans.rulePlan, "dream": r.plans.rulePlan, "consider": r.plans.rulePlan, "think": r.either(r.plans.rulePlan, r.tastes.usedToThink),
		"look": r.either(r.plans.rulePlan, r.kin.caresForRelative),
		// identity and health
		"turn":   r.either(r.identity.ruleTurn, r.tastes.turnaround),
		"follow": r.health.ruleFollow,
		// schedules and budgets
		"reschedule": r.schedules.ruleReschedule, "shift": r.schedules.ruleReschedule,
		"raise": r.budgets.ruleBudgetChange, "increase": r.budgets.ruleBudgetChange,
		"lower": r.budgets.ruleBudgetChange, "cut": r.either(r.budgets.ruleBudgetChange, r.hobbies.cutOut),
		// verbs whose complement decides (complements.go)
		"have": r.either(r.have, r.budgets.setAside, r.tastes.haveForTaste, r.tastes.grownFond), "afford": r.either(nil, r.budgets.setAside), "get": r.either(r.get, r.admittedInto, r.tastes.cannotGetEnough, r.tastes.grownFond, r.work.gotPromoted),
		"land": r.get, "become": r.either(r.become, r.tastes.grownFond),
	}
	r.frames = []func(*clause) bool{
		r.favourites.favouriteFrame,      // "my favourite food is sushi", "Tea is my favourite drink"
		r.favourites.habitFavouriteFrame, // "Pho is the dish I order most", "X has overtaken Y as my go-to Z"
		r.favourites.superlativeFrame,    // "The best book I've ever read is Dune"
		r.favourites.ofChoiceFrame,       // "my drink of choice is gin"
		r.study.languageAbilityFrame,     // "my Japanese is rusty", "I'm a native Welsh speaker"
		r.favourites.alwaysForMeFrame,    // "whenever we get takeaway, it's always rogan josh for me"
		r.hobbies.hobbyListFrame,         // "my hobbies are painting, hiking and reading"
		r.hobbies.gerundListFrame,        // "... - running, reading, or playing my violin"
		r.budgets.budgetFrame,            // "my budget for the trip is 2000 euros"
		r.measures.measureFrame,          // "my rent went up to 1,450", "I weigh 72 kg", "my 31st parkrun"
		r.kin.birthdayFrame,              // "my birthday is on 8 May"
		r.kin.nameFrame,                  // "my name is Sam", "her name is Luna"
		r.kin.isMyFrame,                  // "Emma is my sister"
		r.plans.goalFrame,                // "my goal is to open a bakery"
		r.places.homeFrame,               // "Home is Melbourne these days"
		r.work.jobFrame,                  // "my new job is at Spotify"
		r.tastes.notForMeFrame,           // "Coffee isn't for me anymore"
		r.schedules.scheduleFrame,        // "our team meeting is on Mondays"
		r.tastes.tooFrame,                // "window seats are too cramped"
		r.hobbies.routineDayFrame,        // "Tuesday is my gym day"
		r.possessions.deviceFrame,        // "my laptop runs Fedora", "our car is a Renault Clio"
		r.possessions.commuteFrame,       // "I take the 38 bus to work", "I walk to the office now"
		r.tastes.growOnFrame,             // "kombucha grew on me"
		r.tastes.actsOnMeFrame,           // "audiobooks put me to sleep", "board games bore me"
		r.tastes.myThingFrame,            // "spicy food is my thing", "opera isn't my thing"
		r.tastes.pleasureFrame,           // "my guilty pleasure is reality TV"
		r.tastes.getAlongFrame,           // "spicy food and I don't get along"
		r.tastes.noMoreFrame,             // "no more cheese for me"
		r.tastes.replacedFrame,           // "cycling has replaced running for me"
		r.tastes.nothingBeatsFrame,       // "nothing beats a good cup of rooibos", "you can't beat pho"
		r.tastes.kindOfPersonFrame,       // "I'm not really a cat person", "I was never a cider person"
		r.tastes.indifferentFrame,        // "I couldn't care less about football", "I'm not fussed about opera"
		r.tastes.evaluativeFrame,         // "olives are revolting", "gin tastes awful to me now"
		r.tastes.nowItsFrame,             // "these days it's woodworking videos", "lately it's all bossa nova"
		r.tastes.wouldRatherFrame,        // "I'd rather have tea than coffee"
		r.hobbies.lastTimeFrame,          // "it's been 100 days since my last cigarette"
		r.tastes.giveMeOverFrame,         // "give me the mountains over the beach any day"
		r.tastes.replyLanguageFrame,      // "please answer me in Spanish from now on"
		r.tastes.replyStyleFrame,         // "keep your answers short", "I'd like longer explanations from now on"
		r.tastes.howILikeFrame,           // "medium-well is how I want my steak", "black is how I take my coffee"
		r.tastes.thingIFrame,             // "another thing I'm hooked on lately is kimchi", "what I love most is the sea"
		r.study.languageProgressFrame,    // "my Italian is getting really good"
	}
	return r
}

// standingRequest reads a request to the assistant asked as a question
// ("could you keep your answers short?", "can you reply in French from now
// on?"): the reply-language and reply-style frames, which need the speaker's
// words to the assistant, not a statement.
func (r *recognizers) standingRequest(c *clause) {
	c.scanMarkers()
	if !r.tastes.replyLanguageFrame(c) {
		r.tastes.replyStyleFrame(c)
	}
}

// either offers a clause to readers of a few idioms of a verb ("come
// around on", "go off", "doing a PhD"), in order, and failing them all to
// the verb's own rule.
func (r *recognizers) either(rule func(*clause), readers ...func(*clause) bool) func(*clause) {
	return func(c *clause) {
		for _, read := range readers {
			if read(c) {
				return
			}
		}
		if rule != nil {
			rule(c)
		}
	}
}

// keptAnimals: "we keep hens", "I keep two alpacas" say the animals are
// the speaker's, as "have" does; "keep my sister company" is no pet and
// names no relative either.
func (r *recognizers) keptAnimals(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.empty() || !petSpecies[np.head()] && !petSpecies[np.lower()] {
		return false
	}
	return r.kin.petOrPeople(c, c.verbAt+1, false)
}

// tookUp: "I took up rowing" is a hobby taken up, not an outing.
func (r *recognizers) tookUp(c *clause) bool {
	return c.at(c.verbAt+1) == "up" && r.hobbies.pickUp(c) // else "took up community work" is ruleTake's
}

// goFreelance: "I went freelance (as an illustrator)".
func (r *recognizers) goFreelance(c *clause) bool {
	return (c.past || c.perfect) && r.work.freelance(c, c.verbAt+1)
}

// workFreelance: "I work for myself as a translator", "I work freelance".
func (r *recognizers) workFreelance(c *clause) bool { return r.work.freelance(c, c.verbAt+1) }

// leftStudy: "I left law school", "I quit uni in March".
func (r *recognizers) leftStudy(c *clause) bool {
	return r.study.leaveStudy(c, c.verbAt+1, map[string]string{"leave": "left", "quit": "quit"}[c.verb])
}

// read analyses one clause of an utterance and emits its facts. inherited
// is the subject of the previous clause of the sentence (for "I live in
// Paris and work as a nurse"). It returns the clause's subject, and
// reports whether the clause opened a hypothetical ("if", "I wish"), which
// asserts nothing for the rest of the sentence.
func (r *recognizers) read(u *utterance, toks []tok, inherited string) (subject string, hypothetical bool) {
	c := &clause{said: u, carried: inherited}
	toks = toks[frontedSpan(toks):]
	if len(toks) > 0 {
		switch toks[0].w {
		case "and", "or", "&", "then", "but":
			c.coord = true
		case ",":
			c.comma = true
		case "that":
			if !toks[0].first {
				return inherited, false // a relative clause describes someone else
			}
		case "who", "which", "whom", "whose", "where":
			return inherited, false // relative clauses describe someone else
		case "when", "once", "whenever", "until", "before", "after":
			c.temporal = true
		}
	}
	c.opening = len(toks) > 0 && toks[0].first
	toks = itCleft(c.stripLead(toks))
	if len(toks) == 0 {
		return inherited, false
	}
	if hypotheticalStarts[toks[0].w] || (toks[0].w == "i" && len(toks) > 1 && toks[1].w == "wish") ||
		(toks[0].w == "what" && len(toks) > 1 && toks[1].w == "if") {
		return "", true
	}
	c.toks = toks
	c.scanMarkers()
	if np := takeNP(toks, 0); u.speaker != "" && judgedKind(np) {
		u.talk.lastKind, u.talk.lastKindEvent = np, u.event.ID
	}
	c.relationMentions()
	r.places.dwellingScan(c)
	r.hobbies.routineScan(c)
	r.schedules.movedScan(c)
	r.possessions.boughtScan(c)
	r.possessions.passiveScan(c)
	r.possessions.deadThingScan(c)
	r.plans.tripScan(c)
	r.work.livingScan(c)
	r.work.tradeScan(c)
	r.work.firstStintScan(c)
	r.study.myDegreeScan(c)
	r.outings.backFromScan(c)
	r.outings.progressScan(c)
	r.couples.divorceScan(c)
	r.kin.putDownScan(c)
	r.health.myConditionScan(c)
	if r.frame(c) {
		return c.subj, false
	}
	subj, i := c.subject(inherited)
	if subj == "" {
		return "", false
	}
	c.subj = subj
	c.parseAux(i)
	if c.modal == "should" || c.modal == "must" || c.modal == "can" && !c.neg && c.verb != "spend" && c.verb != "afford" {
		// Advice and ability are not facts ("I should learn Spanish");
		// what one can spend or afford is a budget ("I can spend up to
		// £400 on it", "we can afford 1,800 a month in rent").
		return subj, false
	}
	if c.would && !c.desire() && !(c.neg && c.again && alt("eat|drink", c.verb)) {
		// "I would live in Paris if..." is hypothetical; "I'd never eat
		// quinoa again" judges the food (consumeHyperbole).
		return subj, false
	}
	if c.temporal && !c.past && !c.perfect {
		return subj, false // "for when I have kids" asserts nothing yet
	}
	r.dispatch(c)
	return subj, false
}

// frame offers a clause to the frames in order and reports whether one
// read it. Only a speaker's clauses have frames.
func (r *recognizers) frame(c *clause) bool {
	if c.said.speaker == "" {
		return false
	}
	for _, f := range r.frames {
		if f(c) {
			return true
		}
	}
	return false
}

// dispatch runs the rule of the clause's verb, or the complements of "be".
func (r *recognizers) dispatch(c *clause) {
	if c.verb == "" {
		if c.be {
			r.be(c)
		}
		return
	}
	if rule, ok := r.verbs[c.verb]; ok {
		rule(c)
	}
	if groupActivities[c.verb] {
		r.work.playsIn(c)
	}
}
