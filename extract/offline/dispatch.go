package offline

// verbRules maps a verb lemma to the rule that reads its clause. The
// table is the index of what the offline engine understands; a verb that
// is not here yields no fact (its names are still mentioned).
var verbRules = map[string]func(*cl){
	"live": (*cl).ruleLive, "reside": (*cl).ruleLive, "stay": (*cl).ruleLive,
	"move": (*cl).ruleMove, "relocate": (*cl).ruleMove,
	"settle": (*cl).ruleSettle,
	"come":   (*cl).ruleCome, "hail": (*cl).ruleCome,
	"grow":  (*cl).ruleGrow,
	"visit": (*cl).ruleVisit, "travel": (*cl).ruleVisit, "fly": (*cl).ruleVisit, "tour": (*cl).ruleVisit,
	"explore": (*cl).ruleVisit,
	"work":    (*cl).ruleWork,
	"join":    (*cl).ruleJoin,
	"leave":   (*cl).ruleLeave, "quit": (*cl).ruleLeave, "resign": (*cl).ruleLeave, "retire": (*cl).ruleLeave,
	"learn": (*cl).ruleLearn,
	"study": (*cl).ruleStudy, "graduate": (*cl).ruleGraduate, "attend": (*cl).ruleAttend,
	"like": (*cl).ruleLike, "love": (*cl).ruleLike, "adore": (*cl).ruleLike, "enjoy": (*cl).ruleLike,
	"fancy": (*cl).ruleLike, "hate": (*cl).ruleLike, "dislike": (*cl).ruleLike, "detest": (*cl).ruleLike,
	"loathe": (*cl).ruleLike, "despise": (*cl).ruleLike, "stand": (*cl).ruleLike,
	"prefer": (*cl).rulePrefer,
	"drink":  (*cl).ruleConsume, "eat": (*cl).ruleConsume,
	"switch": (*cl).ruleSwitch, "replace": (*cl).ruleSwitch, "change": (*cl).ruleSwitch,
	"trade": (*cl).ruleSwitch, "swap": (*cl).ruleSwitch, "exchange": (*cl).ruleSwitch,
	"support": (*cl).ruleSupport, "root": (*cl).ruleSupport, "cheer": (*cl).ruleSupport,
	"drive": (*cl).ruleDrive,
	"own":   (*cl).ruleOwn, "buy": (*cl).ruleOwn, "purchase": (*cl).ruleOwn, "rent": (*cl).ruleOwn, "lease": (*cl).ruleOwn,
	"sell":  (*cl).ruleSell,
	"use":   (*cl).ruleUse,
	"keep":  (*cl).ruleKeep,
	"have":  (*cl).ruleHave,
	"adopt": (*cl).ruleAdopt, "rescue": (*cl).ruleAdopt,
	"get": (*cl).ruleGet, "land": (*cl).ruleGet,
	"marry": (*cl).ruleMarry, "date": (*cl).ruleDate, "break": (*cl).ruleBreak, "divorce": (*cl).ruleDivorce,
	"go": (*cl).ruleGo, "take": (*cl).ruleTake,
	"start": (*cl).ruleStart, "begin": (*cl).ruleStart,
	"stop": (*cl).ruleStop, "give": (*cl).ruleGive,
	"run": (*cl).ruleActivity, "swim": (*cl).ruleActivity, "paint": (*cl).ruleActivity, "draw": (*cl).ruleActivity,
	"cook": (*cl).ruleActivity, "bake": (*cl).ruleActivity, "hike": (*cl).ruleActivity, "dance": (*cl).ruleActivity,
	"sing": (*cl).ruleActivity, "write": (*cl).ruleActivity, "knit": (*cl).ruleActivity, "garden": (*cl).ruleActivity,
	"surf": (*cl).ruleActivity, "ski": (*cl).ruleActivity, "climb": (*cl).ruleActivity, "meditate": (*cl).ruleActivity,
	"jog": (*cl).ruleActivity, "cycle": (*cl).ruleActivity, "bike": (*cl).ruleActivity, "camp": (*cl).ruleActivity,
	"fish": (*cl).ruleActivity, "read": (*cl).ruleActivity, "make": (*cl).ruleActivity, "create": (*cl).ruleActivity,
	"build": (*cl).ruleActivity, "compose": (*cl).ruleActivity,
	"play": (*cl).rulePlay, "practice": (*cl).rulePractice, "practise": (*cl).rulePractice, "do": (*cl).rulePractice,
	"watch": (*cl).ruleWatch,
	"sign":  (*cl).ruleSign,
	"plan":  (*cl).rulePlan, "intend": (*cl).rulePlan, "want": (*cl).rulePlan, "hope": (*cl).rulePlan,
	"aim": (*cl).rulePlan, "dream": (*cl).rulePlan, "consider": (*cl).rulePlan, "think": (*cl).rulePlan,
	"look":       (*cl).rulePlan,
	"celebrate":  (*cl).ruleCelebrate,
	"turn":       (*cl).ruleTurn,
	"speak":      (*cl).ruleSpeak,
	"volunteer":  (*cl).ruleVolunteer,
	"become":     (*cl).ruleBecome,
	"follow":     (*cl).ruleFollow,
	"reschedule": (*cl).ruleReschedule, "shift": (*cl).ruleReschedule,
	"raise": (*cl).ruleBudgetChange, "increase": (*cl).ruleBudgetChange, "lower": (*cl).ruleBudgetChange,
	"cut": (*cl).ruleBudgetChange,
}

// dispatch runs the rule of the clause's verb, or the copula rules.
func (c *cl) dispatch() {
	if c.verb == "" {
		if c.be {
			c.copula()
		}
		return
	}
	if rule, ok := verbRules[c.verb]; ok {
		rule(c)
	}
}
